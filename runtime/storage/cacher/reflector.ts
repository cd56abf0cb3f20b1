/**
 * Reflector: keeps a watch cache in step with the backend (client-go's Reflector.ListAndWatch as
 * the cacher uses it): list the prefix once, then follow a watch from the list's revision. When
 * the watch breaks (the revision was compacted, the backend failed, or the cache rejected a
 * change), it reports the break and lists again after a backoff.
 */
import type { KubeObject } from '../../api/meta.js';
import type { Storage, StorageEvent, Watcher } from '../interface.js';
import { entryOf, type CacheEntry } from './cache-entry.js';

export interface ReflectorHooks {
  /** The state at `revision` replaces whatever the cache held. */
  onReplace(entries: CacheEntry[], revision: number): void;
  /** One change, in revision order; throwing makes the reflector list again. */
  onEvent(event: StorageEvent): void;
  /** The watch broke; the cache is stale until the next onReplace. */
  onBroken(error: unknown): void;
}

const MIN_BACKOFF_MS = 25;
/**
 * The initial list is read in pages of this many objects; each page's decoded objects are
 * garbage once its entries are made, small enough to die in V8's young generation.
 */
const LIST_PAGE_SIZE = 500;
const MAX_BACKOFF_MS = 2000;

const everything = (): boolean => true;

export class Reflector {
  private stopped = false;
  private watcher?: Watcher;
  private sleeper?: { timer: NodeJS.Timeout; resolve: () => void };
  /** True while following a watch whose list has been delivered. */
  watching = false;
  /** The last error that broke the watch, for diagnostics. */
  lastError: unknown;

  constructor(
    private readonly backend: Storage,
    private readonly prefix: string,
    /** The key an entry is kept under (the watch cache's local key); undefined: not kept (outside the cache's prefix). */
    private readonly keyFunc: (obj: KubeObject) => string | undefined,
    private readonly hooks: ReflectorHooks,
  ) {}

  start(): void {
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.watching = false;
    this.watcher?.stop();
    if (this.sleeper) {
      clearTimeout(this.sleeper.timer);
      this.sleeper.resolve();
    }
  }

  private async run(): Promise<void> {
    let backoff = 0;
    while (!this.stopped) {
      let error: unknown = new Error('the backend watch ended');
      try {
        if (await this.listAndWatch()) backoff = 0;
      } catch (err) {
        error = err;
      }
      this.watching = false;
      if (this.stopped) return;
      this.lastError = error;
      this.hooks.onBroken(error);
      await this.sleep(backoff);
      backoff = Math.min(Math.max(backoff * 2, MIN_BACKOFF_MS), MAX_BACKOFF_MS);
    }
  }

  /**
   * Returns when the watch ends (true if it delivered any change, so a healthy reconnect needs
   * no backoff); throws when the list or the watch fails.
   */
  private async listAndWatch(): Promise<boolean> {
    const resourceVersion = await this.listAndReplace();
    if (resourceVersion === undefined) return false;
    // Registered in the same tick as the state was installed: changes after the list's revision
    // arrive through the watch, from the backend's history if need be.
    const watcher = this.backend.watch(this.prefix, { resourceVersion });
    this.watcher = watcher;
    this.watching = true;
    let delivered = false;
    try {
      const iterator = watcher[Symbol.asyncIterator]();
      for (;;) {
        const result = await iterator.next();
        if (result.done || this.stopped) return delivered;
        this.hooks.onEvent(result.value);
        delivered = true;
      }
    } finally {
      watcher.stop();
    }
  }

  /**
   * Lists and installs the state; returns its revision (undefined when stopped meanwhile). A
   * function of its own, so that the list is not kept alive by the watch loop's frame.
   */
  private async listAndReplace(): Promise<string | undefined> {
    const list = await this.listAll();
    if (this.stopped) return undefined;
    this.hooks.onReplace(list.entries, Number(list.resourceVersion));
    return list.resourceVersion;
  }

  /**
   * The prefix's state at one revision, read in pages (continue tokens keep the first page's
   * revision) and turned into cache entries page by page, so neither the backend's rows nor the
   * decoded objects of the whole prefix are ever all in memory at once.
   */
  private async listAll(): Promise<{ entries: CacheEntry[]; resourceVersion: string }> {
    const entries: CacheEntry[] = [];
    let token: string | undefined;
    let resourceVersion = '';
    do {
      // A predicate (passing everything) spares the backend counting the remaining keys for every page.
      const page = await this.backend.getList(this.prefix, { limit: LIST_PAGE_SIZE, continue: token, predicate: everything });
      if (this.stopped) return { entries, resourceVersion: page.resourceVersion };
      for (const obj of page.items) {
        const key = this.keyFunc(obj);
        if (key !== undefined) entries.push(entryOf(key, obj, false));
      }
      resourceVersion = page.resourceVersion;
      token = page.continue;
    } while (token);
    return { entries, resourceVersion };
  }

  private sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.sleeper = undefined;
        resolve();
      }, ms);
      timer.unref();
      this.sleeper = { timer, resolve };
    });
  }
}
