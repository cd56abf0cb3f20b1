/**
 * Leader election on a Lease (client-go's leaderelection semantics), on a fake clock with an
 * in-memory Lease client that enforces resourceVersions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, LeaderElector, settle, type LeaderElectionConfig } from '../../../packages/client/src/toolkit/index.js';
import { FakeLeases } from './fakes.js';

function candidate(leases: FakeLeases, clock: FakeClock, identity: string, extra: Partial<LeaderElectionConfig> = {}) {
  const log: string[] = [];
  let leadingSignal: AbortSignal | undefined;
  const elector = new LeaderElector({
    lock: { client: leases, name: 'ctrl', identity },
    clock,
    random: () => 0,
    callbacks: {
      onStartedLeading: (signal) => {
        leadingSignal = signal;
        log.push('started');
      },
      onStoppedLeading: () => log.push('stopped'),
      onNewLeader: (id) => log.push(`leader ${id}`),
    },
    ...extra,
  });
  const stop = new AbortController();
  const done = elector.run(stop.signal).then(() => log.push('returned'));
  return { elector, log, stop, done, signal: () => leadingSignal };
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

  it('takes over a lease not renewed for leaseDuration, counting the transition', async () => {
    const clock = new FakeClock();
    const leases = new FakeLeases();
    leases.lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'ctrl', resourceVersion: '1' }, spec: { holderIdentity: 'dead', leaseDurationSeconds: 15, renewTime: '2020-01-01T00:00:00.000000Z', leaseTransitions: 3 } };
    const b = candidate(leases, clock, 'b');
    await settle();
    assert.deepEqual(b.log, ['leader dead']);
    await clock.step(14_000);
    assert.equal(leases.lease.spec!.holderIdentity, 'dead', 'not before leaseDuration on the local clock');
    await clock.step(4_000);
    assert.equal(leases.lease.spec!.holderIdentity, 'b');
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
});
