/**
 * Leader election on a Lease (client-go's leaderelection semantics), on a fake clock with an
 * in-memory Lease client that enforces resourceVersions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, LeaderElector, settle, type Lease, type LeaderElectionConfig } from '../../../packages/client/src/toolkit/index.js';
import { FakeLeases } from './fakes.js';

function candidate(leases: FakeLeases, clock: FakeClock, identity: string, extra: Partial<LeaderElectionConfig> = {}) {
  const log: string[] = [];
  let leadingSignal: AbortSignal | undefined;
  let startedAt: number | undefined;
  const elector = new LeaderElector({
    lock: { client: leases, name: 'ctrl', identity },
    clock,
    random: () => 0,
    callbacks: {
      onStartedLeading: (signal) => {
        leadingSignal = signal;
        startedAt ??= clock.now();
        log.push('started');
      },
      onStoppedLeading: () => log.push('stopped'),
      onNewLeader: (id) => log.push(`leader ${id}`),
    },
    ...extra,
  });
  const stop = new AbortController();
  const done = elector.run(stop.signal).then(() => log.push('returned'));
  return { elector, log, stop, done, signal: () => leadingSignal, startedAt: () => startedAt };
}

describe('LeaderElector', () => {
  it('has client-go defaults and refuses inconsistent durations', () => {
    const e = new LeaderElector({ lock: { client: new FakeLeases(), name: 'x', identity: 'a' }, callbacks: { onStartedLeading() {} } });
    assert.deepEqual([e.leaseDurationMs, e.renewDeadlineMs, e.retryPeriodMs], [15_000, 10_000, 2_000]);
    assert.throws(() => new LeaderElector({ lock: { client: new FakeLeases(), name: 'x', identity: 'a' }, leaseDurationMs: 10_000, callbacks: { onStartedLeading() {} } }), /leaseDuration must be greater than renewDeadline/);
    assert.throws(() => new LeaderElector({ lock: { client: new FakeLeases(), name: 'x', identity: 'a' }, retryPeriodMs: 9_000, callbacks: { onStartedLeading() {} } }), /renewDeadline must be greater than retryPeriod\*JitterFactor/);
  });

  it('creates the Lease, leads, renews, and the other candidate waits', async () => {
    const clock = new FakeClock();
    const leases = new FakeLeases();
    const a = candidate(leases, clock, 'a');
    await settle();
    assert.deepEqual(a.log, ['leader a', 'started']);
    assert.equal(leases.lease!.spec!.holderIdentity, 'a');
    assert.equal(leases.lease!.spec!.leaseDurationSeconds, 15);
    assert.match(leases.lease!.spec!.renewTime!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const b = candidate(leases, clock, 'b');
    await settle();
    assert.deepEqual(b.log, ['leader a']);
    const firstRenew = leases.lease!.spec!.renewTime;
    await clock.step(60_000);
    assert.notEqual(leases.lease!.spec!.renewTime, firstRenew, 'renewed');
    assert.equal(leases.lease!.spec!.holderIdentity, 'a');
    assert.deepEqual(b.log, ['leader a'], 'b never took over a renewed lease');
    a.stop.abort();
    b.stop.abort();
    await Promise.all([a.done, b.done]);
  });

  it('a leader renews with one update built from its observed record, as client-go\'s fast path; a conflict falls back to a get', async () => {
    const clock = new FakeClock();
    const leases = new FakeLeases();
    const a = candidate(leases, clock, 'a');
    await settle();
    const acquired = structuredClone(leases.lease!.spec!);
    const [gets, writes] = [leases.gets, leases.writes];
    await clock.step(2_000);
    assert.deepEqual([leases.gets - gets, leases.writes - writes], [0, 1], 'one update, no get');
    const renewed = leases.lease!.spec!;
    assert.notEqual(renewed.renewTime, acquired.renewTime);
    assert.deepEqual({ ...renewed, renewTime: '' }, { ...acquired, renewTime: '' });
    // Someone else's write moves the resourceVersion: the optimistic update conflicts, and the
    // slow path reads the Lease and renews it at its new resourceVersion.
    leases.lease = { ...leases.lease!, metadata: { ...leases.lease!.metadata, resourceVersion: '99' } };
    await clock.step(2_000);
    assert.deepEqual([leases.gets - gets, leases.writes - writes], [1, 2]);
    assert.equal(leases.lease.spec!.holderIdentity, 'a');
    assert.deepEqual(a.log, ['leader a', 'started']);
    a.stop.abort();
    await a.done;
  });

  it('takes over a lease not renewed for leaseDuration, counting the transition', async () => {
    const clock = new FakeClock();
    const leases = new FakeLeases();
    leases.lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'ctrl', resourceVersion: '1' }, spec: { holderIdentity: 'dead', leaseDurationSeconds: 15, renewTime: '2020-01-01T00:00:00.000000Z', leaseTransitions: 3 } };
    const b = candidate(leases, clock, 'b');
    await settle();
    assert.deepEqual(b.log, ['leader dead']);
    await clock.step(14_999);
    assert.equal(leases.lease.spec!.holderIdentity, 'dead', 'not before leaseDuration on the local clock');
    await clock.step(1);
    assert.equal(leases.lease.spec!.holderIdentity, 'b', 'exactly when the observed lease expires, not at the next retry');
    assert.equal(leases.lease.spec!.leaseTransitions, 4);
    assert.deepEqual(b.log, ['leader dead', 'leader b', 'started']);
    b.stop.abort();
    await b.done;
  });

  it('stops leading when it cannot renew, before its lease could be taken', async () => {
    const clock = new FakeClock();
    const leases = new FakeLeases();
    const a = candidate(leases, clock, 'a');
    await settle();
    const lastRenew = clock.now();
    leases.failure = new Error('connection refused');
    const stoppedAt = await (async () => {
      for (let i = 0; i < 200 && !a.log.includes('stopped'); i++) await clock.step(100);
      return clock.now();
    })();
    assert.ok(a.log.includes('stopped'));
    assert.ok(a.signal()!.aborted, 'the leading signal aborted');
    assert.ok(stoppedAt - lastRenew < 15_000, `stopped ${stoppedAt - lastRenew} ms after the last renewal, before leaseDuration`);
    assert.ok(stoppedAt - lastRenew >= 10_000, 'not before renewDeadline');
    await a.done;
    assert.equal(a.log.at(-1), 'returned');
  });

  it('releases the lease on a clean stop, so another candidate takes over at its next retry', async () => {
    const clock = new FakeClock();
    const leases = new FakeLeases();
    const a = candidate(leases, clock, 'a', { releaseOnCancel: true });
    await settle();
    const b = candidate(leases, clock, 'b');
    await settle();
    a.stop.abort();
    await a.done;
    assert.equal(leases.lease!.spec!.holderIdentity, '');
    assert.deepEqual(a.log, ['leader a', 'started', 'stopped', 'returned']);
    await clock.step(2_000);
    assert.equal(leases.lease!.spec!.holderIdentity, 'b');
    assert.ok(b.log.includes('started'));
    b.stop.abort();
    await b.done;
  });
  /**
   * The takeover bound, on the fake clock: a holder renews every retryPeriod, dies at any moment of
   * its cycle, and the candidate (whatever its jitter) leads within leaseDuration + retryPeriod of
   * the death. The fake Lease client answers after `latency` ms, which is added to the bound.
   */
  it('takes over within leaseDuration + retryPeriod of the holder dying, for every phase and jitter', async () => {
    const latency = 7;
    for (const jitter of [0, 0.5, 0.999]) {
      for (const deathPhase of [0, 1, 50, 250, 499, 500, 501, 777]) {
        const clock = new FakeClock();
        const leases = new SlowLeases(clock, latency);
        const config = { leaseDurationMs: 5_000, renewDeadlineMs: 4_000, retryPeriodMs: 500 };
        const holder = candidate(leases, clock, 'holder', config);
        await clock.step(latency * 3);
        assert.equal(leases.lease?.spec?.holderIdentity, 'holder');
        const b = candidate(leases, clock, 'b', { ...config, random: () => jitter });
        await clock.step(3_000 + deathPhase);
        // The holder dies: it stops writing (its process is gone; its timers no longer reach the Lease).
        leases.deadIdentity = 'holder';
        const diedAt = clock.now();
        while (!b.log.includes('started') && clock.now() - diedAt < 20_000) await clock.step(250);
        const takeover = b.startedAt()! - diedAt;
        assert.ok(takeover <= 5_000 + 500 + 2 * latency, `jitter ${jitter}, death at phase ${deathPhase}: took over after ${takeover} ms`);
        assert.ok(takeover >= 5_000 - 500, `not before the lease could have expired (${takeover} ms)`);
        const acq = b.elector.lastAcquisition()!;
        assert.ok(acq.leaseExpiredAt !== undefined && acq.attemptStartedAt === acq.leaseExpiredAt, 'the attempt was made at the expiry');
        holder.stop.abort();
        b.stop.abort();
        await clock.step(10_000);
        await Promise.all([holder.done, b.done]);
      }
    }
  });

  it('records the expiry it judged, with the time that decided the win (a clock tick between reads changes nothing)', async () => {
    const fake = new FakeClock();
    // The next reading after `early` is armed comes 1 ms before the ones that follow it: as if the
    // clock ticked between two reads that a candidate takes at the start of one attempt.
    let early = false;
    const clock = {
      now: () => {
        const t = fake.now() - (early ? 1 : 0);
        early = false;
        return t;
      },
      after: (ms: number, fn: () => void) => fake.after(ms, fn),
    };
    const leases = new FakeLeases();
    leases.lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'ctrl', resourceVersion: '1' }, spec: { holderIdentity: 'dead', leaseDurationSeconds: 15, renewTime: microTimeOf(fake.now()), leaseTransitions: 0 } };
    const b = candidate(leases, fake, 'b', { clock });
    await settle();
    await fake.step(14_999);
    early = true;
    await fake.step(1);
    await fake.step(5_000);
    assert.equal(leases.lease.spec!.holderIdentity, 'b');
    const acq = b.elector.lastAcquisition()!;
    // The Lease was held, so the win can only have come from its expiry: client-go's tryAcquireOrRenew
    // judges isLeaseValid(now) with the one `now` it also writes as renewTime.
    assert.ok(acq.leaseExpiredAt !== undefined, `the takeover names the expiry it judged: ${JSON.stringify(acq)}`);
    assert.ok(acq.leaseExpiredAt <= acq.attemptStartedAt, `the expiry was at or before the attempt's time: ${JSON.stringify(acq)}`);
    assert.equal(leases.lease.spec!.acquireTime, microTimeOf(acq.attemptStartedAt), 'the attempt\'s time is the acquireTime it wrote');
    b.stop.abort();
    await b.done;
  });

  it('a non-leader polls no less often than every retryPeriod', async () => {
    const clock = new FakeClock();
    const leases = new FakeLeases();
    const a = candidate(leases, clock, 'a', { retryPeriodMs: 1_000, renewDeadlineMs: 5_000, leaseDurationMs: 8_000 });
    await settle();
    let reads = 0;
    const get = leases.get.bind(leases);
    leases.get = (name) => {
      reads++;
      return get(name);
    };
    const writes = leases.writes;
    const b = candidate(leases, clock, 'b', { retryPeriodMs: 1_000, renewDeadlineMs: 5_000, leaseDurationMs: 8_000, random: () => 0.999 });
    await clock.step(10_000);
    // a renews without reading (client-go's fast path) and b polls every 1000/1.2 .. 1000 ms: at
    // least 10 reads, and 10 renewals.
    assert.ok(reads >= 10, `${reads} reads`);
    assert.ok(leases.writes - writes >= 10, `${leases.writes - writes} renewals`);
    assert.deepEqual(b.log, ['leader a'], 'and never takes a renewed lease');
    a.stop.abort();
    b.stop.abort();
    await Promise.all([a.done, b.done]);
  });

  it('does not hammer an unreachable server once the observed lease has expired', async () => {
    const clock = new FakeClock();
    const leases = new FakeLeases();
    leases.lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'ctrl', resourceVersion: '1' }, spec: { holderIdentity: 'dead', leaseDurationSeconds: 15, renewTime: microTimeOf(clock.now()), leaseTransitions: 0 } };
    let errors = 0;
    const b = candidate(leases, clock, 'b', { onError: () => errors++ });
    await clock.step(1_000);
    leases.failure = new Error('connection refused');
    await clock.step(30_000);
    // Failing attempts at every poll (2000/1.2 ms with this jitter), not a tight loop after the expiry at 15 s.
    assert.ok(errors >= 15 && errors <= 19, `${errors} failed attempts in 30 s`);
    b.stop.abort();
    await b.done;
  });

  it('judges expiry from its own observation time, not from the holder clock', async () => {
    const clock = new FakeClock();
    const leases = new FakeLeases();
    // The holder's clock is an hour behind: its renewTime looks long expired, but it keeps renewing.
    leases.lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'ctrl', resourceVersion: '1' }, spec: { holderIdentity: 'skewed', leaseDurationSeconds: 15, renewTime: microTimeOf(clock.now() - 3_600_000), leaseTransitions: 0 } };
    const b = candidate(leases, clock, 'b');
    for (let i = 1; i <= 20; i++) {
      await clock.step(2_000);
      leases.lease.spec!.renewTime = microTimeOf(clock.now() - 3_600_000);
      leases.lease.metadata!.resourceVersion = String(100 + i);
    }
    assert.equal(leases.lease.spec!.holderIdentity, 'skewed');
    assert.deepEqual(b.log, ['leader skewed']);
    b.stop.abort();
    await b.done;
  });

  it('waits for the holder\'s own leaseDurationSeconds when it is longer than its own', async () => {
    const clock = new FakeClock();
    const leases = new FakeLeases();
    leases.lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'ctrl', resourceVersion: '1' }, spec: { holderIdentity: 'slow', leaseDurationSeconds: 30, renewTime: microTimeOf(clock.now()), leaseTransitions: 0 } };
    const b = candidate(leases, clock, 'b');
    await clock.step(29_999);
    assert.equal(leases.lease.spec!.holderIdentity, 'slow');
    await clock.step(1);
    assert.equal(leases.lease.spec!.holderIdentity, 'b');
    b.stop.abort();
    await b.done;
  });

  it('a held record without leaseDurationSeconds is expired at once, as client-go reads it (0 s)', async () => {
    const clock = new FakeClock();
    const leases = new FakeLeases();
    leases.lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'ctrl', resourceVersion: '1' }, spec: { holderIdentity: 'odd', renewTime: microTimeOf(clock.now()) } };
    const b = candidate(leases, clock, 'b');
    await clock.step(2_000);
    assert.equal(leases.lease.spec!.holderIdentity, 'b', 'taken at the first poll after the read, not after the candidate\'s own 15 s');
    b.stop.abort();
    await b.done;
  });

  it('a changed acquireTime alone restarts the observation clock (client-go compares the whole record)', async () => {
    const clock = new FakeClock();
    const leases = new FakeLeases();
    leases.lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'ctrl', resourceVersion: '1' }, spec: { holderIdentity: 'h', leaseDurationSeconds: 15, acquireTime: microTimeOf(clock.now()), renewTime: microTimeOf(clock.now()), leaseTransitions: 0 } };
    const b = candidate(leases, clock, 'b');
    await clock.step(10_000);
    leases.lease.spec!.acquireTime = microTimeOf(clock.now());
    leases.lease.metadata!.resourceVersion = '2';
    await clock.step(7_000);
    assert.equal(leases.lease.spec!.holderIdentity, 'h', 'the record changed 7 s ago: still valid');
    b.stop.abort();
    await b.done;
  });

  it('a leader whose renewals hang stops leading before anyone could take its lease, whatever the durations', async () => {
    // renewDeadline + retryPeriod almost reach leaseDuration, and the last successful renewal took 2 s to answer:
    // the renewDeadline alone would keep it leading past the moment a candidate may take over.
    const clock = new FakeClock();
    const leases = new SlowLeases(clock, 0);
    const config = { leaseDurationMs: 6_000, renewDeadlineMs: 4_500, retryPeriodMs: 1_000 };
    const a = candidate(leases, clock, 'a', config);
    const acquiredAt = clock.now();
    await clock.step(10);
    leases.latency = 2_000;
    const renewStarted = acquiredAt + 1_000;
    await clock.step(1_000 + 2_000); // one renewal, written at its start, answered 2 s later
    assert.equal(leases.lease!.spec!.renewTime, microTimeOf(renewStarted));
    leases.failure = new Error('connection refused');
    let stoppedAt = 0;
    for (let i = 0; i < 2_000 && !a.log.includes('stopped'); i++) {
      await clock.step(10);
      stoppedAt = clock.now();
    }
    assert.ok(a.log.includes('stopped'));
    assert.ok(stoppedAt <= renewStarted + 6_000, `stopped ${stoppedAt - renewStarted} ms after its last renewTime (lease 6000 ms)`);
    a.stop.abort();
    await a.done;
  });
});

function microTimeOf(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** A Lease client whose answers take `latency` ms on the fake clock; writes land when sent; a dead identity can no longer write. */
class SlowLeases extends FakeLeases {
  deadIdentity?: string;
  constructor(
    private readonly clock: FakeClock,
    public latency: number,
  ) {
    super();
  }
  private async delayed<T>(f: () => Promise<T>): Promise<T> {
    const result = f().then(
      (v) => ({ v }),
      (e: unknown) => ({ e }),
    );
    await new Promise<void>((resolve) => this.clock.after(this.latency, resolve));
    const r = await result;
    if ('e' in r) throw r.e;
    return r.v;
  }
  override get(name: string): Promise<Lease> {
    return this.delayed(() => super.get(name));
  }
  override create(obj: Lease): Promise<Lease> {
    if (obj.spec?.holderIdentity === this.deadIdentity) return new Promise(() => undefined);
    return this.delayed(() => super.create(obj));
  }
  override update(obj: Lease): Promise<Lease> {
    if (obj.spec?.holderIdentity === this.deadIdentity) return new Promise(() => undefined);
    return this.delayed(() => super.update(obj));
  }
}
