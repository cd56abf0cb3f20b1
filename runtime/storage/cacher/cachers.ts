/**
 * Cachers: the server's watch caches, one per resource prefix over one shared backend (kube
 * creates one Cacher per resource in its storage factory). Versions of a resource share a prefix
 * and so share a cache.
 */
import type { Storage } from '../interface.js';
import { Cacher, type CacherOptions } from './cacher.js';

export type SharedCacherOptions = Omit<CacherOptions, 'prefix' | 'keyFunc'>;

export class Cachers {
  private readonly byPrefix = new Map<string, Cacher>();

  constructor(
    readonly backend: Storage,
    private readonly options: SharedCacherOptions = {},
  ) {}

  /** The cacher of `prefix`, started on first use. */
  for(prefix: string): Cacher {
    let cacher = this.byPrefix.get(prefix);
    if (!cacher) {
      cacher = new Cacher(this.backend, { ...this.options, prefix });
      this.byPrefix.set(prefix, cacher);
    }
    return cacher;
  }

  get(prefix: string): Cacher | undefined {
    return this.byPrefix.get(prefix);
  }

  /** Stops and forgets the cache of `prefix` (a resource removed at run time, e.g. a CRD's). */
  async remove(prefix: string): Promise<void> {
    const cacher = this.byPrefix.get(prefix);
    this.byPrefix.delete(prefix);
    await cacher?.close();
  }

  all(): Cacher[] {
    return [...this.byPrefix.values()];
  }

  /** Open watches across every cache. */
  get watcherCount(): number {
    let n = 0;
    for (const cacher of this.byPrefix.values()) n += cacher.watcherCount;
    return n;
  }

  /** Stops every cache and its watches; the backend stays open. */
  async close(): Promise<void> {
    await Promise.all(this.all().map((c) => c.close()));
  }
}
