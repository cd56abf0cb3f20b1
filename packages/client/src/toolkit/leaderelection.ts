/**
 * Leader election on a coordination.k8s.io/v1 Lease, as client-go's tools/leaderelection with a
 * LeaseLock:
 *
 * - A candidate takes the Lease over when it is free (no holder) or when the holder has not renewed
 *   it for the record's leaseDurationSeconds as observed on the candidate's own clock: the clock
 *   starts when the candidate's read returned a changed record (client-go's observedTime), never by
 *   comparing the holder's renewTime with the local clock, so clock skew between machines is harmless.
 * - Timing (the takeover bound): a candidate polls every retryPeriod/1.2 .. retryPeriod (jittered
 *   downwards, where client-go waits retryPeriod and more), so it sees a renewal less than one retry
 *   period (plus one read) after it was written; and it makes its attempt exactly when the observed
 *   lease expires instead of at its next poll. After the holder dies a candidate therefore leads
 *   within leaseDuration + retryPeriod (+ the latency of its read and its update) of the death;
 *   client-go's loop needs up to leaseDuration + 2 x 2.2 x retryPeriod.
 * - The leader renews every retryPeriod. A renewal round that has not succeeded within
 *   renewDeadline ends leadership: onStoppedLeading runs and run() returns. Independently of the
 *   configured durations, leadership also ends no later than leaseDuration after the start of the
 *   last successful renewal (its renewTime, which is no later than any candidate's observation of
 *   it), so a leader that cannot renew stops leading before anyone could take the Lease even when
 *   a request took longer than leaseDuration - renewDeadline - retryPeriod.
 * - Every write is an update at the Lease's resourceVersion, so two candidates never both win.
 * - A clean stop (the signal aborts) with releaseOnCancel empties holderIdentity, so another
 *   candidate takes over at its next retry instead of after leaseDuration.
 * - Defaults as client-go's and controller-runtime's: 15 s, 10 s, 2 s.
 */
import type { APIObject } from '../../../../runtime/api/meta.js';
import { isAlreadyExists, isConflict, isNotFound } from '../../../../runtime/api/status.js';
import { realClock, sleep, type ToolkitClock } from './clock.js';

export const DEFAULT_LEASE_DURATION_MS = 15_000;
export const DEFAULT_RENEW_DEADLINE_MS = 10_000;
export const DEFAULT_RETRY_PERIOD_MS = 2_000;
const JITTER_FACTOR = 1.2;

export interface Lease extends APIObject {
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

/** What the lock needs of a typed client (a ResourceClient of leases in one namespace has it). */
export interface LeaseClient {
  get(name: string): Promise<Lease>;
  create(obj: Lease): Promise<Lease>;
  update(obj: Lease): Promise<Lease>;
}

export interface LeaseLock {
  /** Typed client of leases in the lock's namespace (`clientset.coordinationK8sIoV1.leases(ns)`). */
  client: LeaseClient;
  name: string;
  /** This candidate's unique identity (e.g. hostname + random suffix). */
  identity: string;
}

export interface LeaderCallbacks {
  /** Called when this candidate becomes leader; the signal aborts when it stops leading. */
  onStartedLeading(signal: AbortSignal): void | Promise<void>;
  /** Called when leadership ends (lost, or released on stop). */
  onStoppedLeading?(): void;
  /** Called when the observed leader changes (including to this candidate). */
  onNewLeader?(identity: string): void;
}

export interface LeaderElectionConfig {
  lock: LeaseLock;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Empty the Lease's holder when run()'s signal aborts while leading. */
  releaseOnCancel?: boolean;
  callbacks: LeaderCallbacks;
  clock?: ToolkitClock;
  /** Randomness for the jitter (tests pass () => 0). */
  random?: () => number;
  onError?(err: unknown): void;
}

/** How a term began: when the observed lease expired (undefined when the Lease was free or new), when the winning attempt started, and when it succeeded. */
export interface Acquisition {
  leaseExpiredAt?: number;
  attemptStartedAt: number;
  acquiredAt: number;
}

/** The leader-election record a Lease's spec holds, as one comparable string (client-go's observedRawRecord). */
function leaseRecord(spec: Lease['spec']): string {
  const { holderIdentity, leaseDurationSeconds, acquireTime, renewTime, leaseTransitions } = spec ?? {};
  return JSON.stringify([holderIdentity ?? '', leaseDurationSeconds ?? 0, acquireTime ?? '', renewTime ?? '', leaseTransitions ?? 0]);
}

/** metav1.MicroTime's format: RFC 3339 with microseconds. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** A won tryAcquireOrRenew: the `now` that judged and was written, and the other holder's expiry it judged (undefined when the Lease was free, new or ours). */
interface WonAttempt {
  now: number;
  expiredAt?: number;
}

export class LeaderElector {
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
  private readonly clock: ToolkitClock;
  private readonly random: () => number;
  private observed?: Lease;
  /** Local time when a read first returned the observed record (client-go's observedTime). */
  private observedAt = 0;
  /** Local time at the start of this candidate's last successful write as holder (<= the renewTime it wrote). */
  private renewedAt = 0;
  private reportedLeader = '';
  private acquisition?: Acquisition;

  constructor(private readonly config: LeaderElectionConfig) {
    this.leaseDurationMs = config.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS;
    this.renewDeadlineMs = config.renewDeadlineMs ?? DEFAULT_RENEW_DEADLINE_MS;
    this.retryPeriodMs = config.retryPeriodMs ?? DEFAULT_RETRY_PERIOD_MS;
    this.clock = config.clock ?? realClock;
    this.random = config.random ?? Math.random;
    if (this.leaseDurationMs <= this.renewDeadlineMs) throw new Error('leaseDuration must be greater than renewDeadline');
    if (this.renewDeadlineMs <= JITTER_FACTOR * this.retryPeriodMs) throw new Error('renewDeadline must be greater than retryPeriod*JitterFactor');
    if (!config.lock.identity) throw new Error('Lock identity is empty');
  }

  /** The identity of the leader last observed ('' when none). */
  getLeader(): string {
    return this.observed?.spec?.holderIdentity ?? '';
  }

  isLeader(): boolean {
    return this.getLeader() === this.config.lock.identity;
  }

  /** How this candidate's current term began (for logs and tests); undefined before it first leads. */
  lastAcquisition(): Acquisition | undefined {
    return this.acquisition;
  }

  /**
   * Campaigns until this candidate leads, leads until it cannot renew or `signal` aborts, then
   * returns (after onStoppedLeading). Like client-go, one run() is one term: call it again to campaign again.
   */
  async run(signal: AbortSignal): Promise<void> {
    try {
      if (!(await this.acquire(signal))) return;
    } catch {
      return;
    }
    const leading = new AbortController();
    const stop = () => leading.abort(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    try {
      void Promise.resolve()
        .then(() => this.config.callbacks.onStartedLeading(leading.signal))
        .catch((err: unknown) => this.config.onError?.(err));
      await this.renew(signal);
    } finally {
      signal.removeEventListener('abort', stop);
      leading.abort(new Error('leadership lost'));
      if (signal.aborted && this.config.releaseOnCancel) await this.release();
      this.config.callbacks.onStoppedLeading?.();
    }
  }

  /** A candidate's poll period: retryPeriod jittered downwards to retryPeriod/1.2, never above it. */
  private pollPeriod(): number {
    return (this.retryPeriodMs / JITTER_FACTOR) * (1 + this.random() * (JITTER_FACTOR - 1));
  }

  /** When the observed lease of another holder expires by this candidate's clock (undefined when it is free or ours). */
  private observedExpiry(): number | undefined {
    const spec = this.observed?.spec;
    const holder = spec?.holderIdentity ?? '';
    if (holder === '' || holder === this.config.lock.identity) return undefined;
    // client-go's LeaseSpecToLeaderElectionRecord reads an absent duration as 0: expired at once.
    return this.observedAt + (spec?.leaseDurationSeconds ?? 0) * 1000;
  }

  /**
   * The wait before the next attempt: the next poll, or the moment the observed lease expires if
   * that is sooner. Once that moment has passed (the attempt at it failed, e.g. the server did not
   * answer), the candidate polls again rather than retrying at once.
   */
  private nextAttemptDelay(): number {
    const poll = this.pollPeriod();
    const expiry = this.observedExpiry();
    const untilExpiry = expiry === undefined ? 0 : expiry - this.clock.now();
    return untilExpiry > 0 ? Math.min(poll, untilExpiry) : poll;
  }

  /** Tries until acquired (true) or the signal aborts (false); see nextAttemptDelay for when. */
  private async acquire(signal: AbortSignal): Promise<boolean> {
    for (;;) {
      if (signal.aborted) return false;
      const won = await this.tryAcquireOrRenew();
      if (won) {
        this.acquisition = { attemptStartedAt: won.now, acquiredAt: this.clock.now(), leaseExpiredAt: won.expiredAt };
        return true;
      }
      await sleep(this.clock, this.nextAttemptDelay(), signal).catch(() => undefined);
    }
  }

  /** Renews every retryPeriod; returns when a round fails for renewDeadline or the signal aborts. */
  private async renew(signal: AbortSignal): Promise<void> {
    for (;;) {
      await sleep(this.clock, this.retryPeriodMs, signal).catch(() => undefined);
      if (signal.aborted) return;
      // renewDeadline per round, and never past the lease this leader last wrote (see the header).
      const deadline = Math.min(this.clock.now() + this.renewDeadlineMs, this.renewedAt + this.leaseDurationMs);
      let renewed = false;
      while (!renewed && this.clock.now() < deadline && !signal.aborted) {
        renewed = await this.withDeadline(this.tryAcquireOrRenew().then(Boolean), deadline);
        if (!renewed && this.clock.now() + this.retryPeriodMs < deadline) await sleep(this.clock, this.retryPeriodMs, signal).catch(() => undefined);
        else if (!renewed) break;
      }
      if (!renewed) return;
    }
  }

  /** The attempt's answer, or false when the deadline passes first (the attempt is abandoned). */
  private withDeadline(attempt: Promise<boolean>, deadline: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = this.clock.after(Math.max(0, deadline - this.clock.now()), () => resolve(false));
      attempt.then(
        (ok) => {
          timer.cancel();
          resolve(ok && this.clock.now() < deadline);
        },
        () => {
          timer.cancel();
          resolve(false);
        },
      );
    });
  }

  private record(holder: string, now: number, old?: Lease['spec']): NonNullable<Lease['spec']> {
    const same = old?.holderIdentity === holder;
    return {
      holderIdentity: holder,
      leaseDurationSeconds: Math.ceil(this.leaseDurationMs / 1000),
      acquireTime: same && old?.acquireTime ? old.acquireTime : microTime(now),
      renewTime: microTime(now),
      leaseTransitions: same ? (old?.leaseTransitions ?? 0) : old ? (old.leaseTransitions ?? 0) + 1 : 0,
    };
  }

  /**
   * client-go's tryAcquireOrRenew. A leader whose observed lease is still valid first renews with
   * one update built from that record (the fast path); otherwise, or if that fails, one get, then
   * one create or one update at the read resourceVersion.
   * One `now`, read before the get, both judges the observed lease (isLeaseValid(now)) and is
   * written as renewTime; a win reports that `now` and the expiry it judged, so the record of how a
   * term began never mixes two clock readings. Undefined when not acquired.
   */
  private async tryAcquireOrRenew(): Promise<WonAttempt | undefined> {
    const { client, name, identity } = this.config.lock;
    const now = this.clock.now();
    if (await this.renewOptimistically(now)) return { now };
    let current: Lease;
    try {
      current = await client.get(name);
    } catch (err) {
      if (!isNotFound(err)) return this.fail(err);
      try {
        const created = await client.create({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: this.record(identity, now) });
        this.observe(created, this.clock.now());
        this.renewedAt = now;
        return { now };
      } catch (createErr) {
        if (!isAlreadyExists(createErr)) this.config.onError?.(createErr);
        return undefined;
      }
    }
    this.observe(current, this.clock.now());
    const holder = current.spec?.holderIdentity ?? '';
    // Valid while observedAt + duration is after `now` (taken before the read, as client-go does).
    const expiry = this.observedExpiry();
    if (expiry !== undefined && expiry > now) return undefined;
    try {
      const updated = await client.update({ ...current, spec: this.record(identity, now, holder === '' ? { ...current.spec, holderIdentity: '' } : current.spec) });
      this.observe(updated, this.clock.now());
      this.renewedAt = now;
      return { now, expiredAt: expiry };
    } catch (err) {
      if (!isConflict(err)) this.config.onError?.(err);
      return undefined;
    }
  }

  /**
   * client-go's fast path: the leader, while its observed lease is valid at `now`
   * (observedTime + its duration is after now), updates the observed Lease at its resourceVersion,
   * keeping acquireTime and leaseTransitions. Any failure (a conflict: someone else wrote) falls
   * back to the slow path, which reads the Lease; client-go only logs it.
   */
  private async renewOptimistically(now: number): Promise<boolean> {
    const observed = this.observed;
    if (!observed || !this.isLeader() || this.observedAt + (observed.spec?.leaseDurationSeconds ?? 0) * 1000 <= now) return false;
    try {
      const updated = await this.config.lock.client.update({ ...observed, spec: this.record(this.config.lock.identity, now, observed.spec) });
      this.observe(updated, this.clock.now());
      this.renewedAt = now;
      return true;
    } catch {
      return false;
    }
  }

  private fail(err: unknown): undefined {
    this.config.onError?.(err);
    return undefined;
  }

  /**
   * Remembers the record; the local observation time moves only when the record changed (client-go
   * compares the whole raw record, so any field of the spec counts).
   */
  private observe(lease: Lease, now: number): void {
    const spec = lease.spec ?? {};
    if (!this.observed || leaseRecord(this.observed.spec) !== leaseRecord(spec)) this.observedAt = now;
    this.observed = lease;
    const leader = spec.holderIdentity ?? '';
    if (leader !== this.reportedLeader) {
      this.reportedLeader = leader;
      if (leader) this.config.callbacks.onNewLeader?.(leader);
    }
  }

  /** Gives the Lease up (client-go's release): no holder, so the next candidate need not wait. */
  private async release(): Promise<void> {
    if (!this.isLeader() || !this.observed) return;
    const now = this.clock.now();
    try {
      const released = await this.config.lock.client.update({
        ...this.observed,
        spec: { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: microTime(now), renewTime: microTime(now), leaseTransitions: this.observed.spec?.leaseTransitions ?? 0 },
      });
      this.observed = released;
    } catch (err) {
      this.config.onError?.(err);
    }
  }
}
