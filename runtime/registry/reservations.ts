/**
 * Reservations of a Service's allocated values (cluster IPs, node ports) in storage, one object per
 * value under a key prefix, created only if absent: the store's create is the allocation, so
 * replicas sharing a storage never hand out one value twice. A reservation names its Service;
 * it is released when the Service goes, and one whose Service is gone (or holds another value)
 * and is older than `staleAfterMs` is taken over with a resourceVersion precondition (kube's
 * repair controllers' job), so a crash between reserving and storing leaks nothing for long.
 */
import type { KubeObject } from '../api/meta.js';
import { StorageError, type Storage } from '../storage/interface.js';

export interface ServiceRef {
  namespace: string;
  name: string;
}

export interface ReservationOptions {
  storage: Storage;
  /** Key prefix ending in `/`; a reservation's key is prefix + value. */
  prefix: string;
  /** The reservation object for `value` held by `ref`. */
  objectFor: (value: string, ref: ServiceRef) => KubeObject;
  /** Whether the Service `ref` still holds `value` (false when it is gone). */
  stillHeld: (ref: ServiceRef, value: string) => Promise<boolean>;
  staleAfterMs: number;
}

export class Reservations {
  constructor(private readonly opts: ReservationOptions) {}

  /** Every reserved value. */
  async list(): Promise<string[]> {
    const { items } = await this.opts.storage.getList(this.opts.prefix);
    return items.map((r) => r.metadata.name ?? '').filter(Boolean);
  }

  /** Creates value's reservation only if absent (or stale); false when another holds it. */
  async reserve(value: string, ref: ServiceRef): Promise<boolean> {
    const key = this.opts.prefix + value;
    try {
      await this.opts.storage.create(key, this.opts.objectFor(value, ref));
      return true;
    } catch (err) {
      if (!(err instanceof StorageError) || err.code !== 'KeyExists') throw err;
    }
    const current = await this.opts.storage.get(key, { ignoreNotFound: true });
    if (!current || !(await this.isStale(current, value))) return false;
    try {
      await this.opts.storage.guaranteedUpdate(key, { preconditions: { resourceVersion: current.metadata.resourceVersion } }, () => this.opts.objectFor(value, ref));
      return true;
    } catch (err) {
      if (err instanceof StorageError && (err.code === 'ResourceVersionConflicts' || err.code === 'KeyNotFound')) return false;
      throw err;
    }
  }

  /** Whether reserve() would succeed now, reserving nothing (dry runs). */
  async available(value: string): Promise<boolean> {
    const current = await this.opts.storage.get(this.opts.prefix + value, { ignoreNotFound: true });
    return !current || this.isStale(current, value);
  }

  /** Releases value when its reservation names ref. */
  async release(value: string, ref: ServiceRef): Promise<void> {
    const key = this.opts.prefix + value;
    const current = await this.opts.storage.get(key, { ignoreNotFound: true });
    const parent = parentOf(current);
    if (!current || parent?.namespace !== ref.namespace || parent?.name !== ref.name) return;
    await this.opts.storage.delete(key, { preconditions: { resourceVersion: current.metadata.resourceVersion } }).catch((err) => {
      if (!(err instanceof StorageError)) throw err;
    });
  }

  /** A reservation whose Service is gone or holds another value, older than staleAfterMs. */
  private async isStale(reservation: KubeObject, value: string): Promise<boolean> {
    const created = Date.parse(reservation.metadata.creationTimestamp ?? '');
    if (Number.isFinite(created) && Date.now() - created < this.opts.staleAfterMs) return false;
    const parent = parentOf(reservation);
    if (!parent?.name) return true;
    return !(await this.opts.stillHeld({ namespace: parent.namespace ?? '', name: parent.name }, value));
  }
}

function parentOf(reservation: KubeObject | undefined): { namespace?: string; name?: string } | undefined {
  return (reservation?.spec as { parentRef?: { namespace?: string; name?: string } } | undefined)?.parentRef;
}

/** creationTimestamp's form: RFC 3339 in seconds. */
export const nowTimestamp = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** kube's iterator: from a random offset in [lo, hi], the first value `free` accepts, wrapping around once. */
export function randomFree(lo: number, hi: number, random: () => number, free: (n: number) => boolean): number | undefined {
  const count = hi - lo + 1;
  if (count <= 0) return undefined;
  const start = Math.floor(random() * count);
  for (let i = 0; i < count; i++) {
    const n = lo + ((start + i) % count);
    if (free(n)) return n;
  }
  return undefined;
}
