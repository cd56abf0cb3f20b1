/**
 * Reflector: keeps a watch cache in step with the backend (client-go's Reflector.ListAndWatch as
 * the cacher uses it): list the prefix once, then follow a watch from the list's revision. When
 * the watch breaks (the revision was compacted, the backend failed, or the cache rejected a
 * change), it reports the break and lists again after a backoff.
 */
import type { KubeObject } from '../../api/meta.js';
import type { Storage, StorageEvent, Watcher } from '../interface.js';

export interface ReflectorHooks {
  /** The state at `revision` replaces whatever the cache held. */
  onReplace(entries: Array<[string, KubeObject]>, revision: number): void;
  /** One change, in revision order; throwing makes the reflector list again. */
  onEvent(event: StorageEvent): void;
  /** The watch broke; the cache is stale until the next onReplace. */
  onBroken(error: unknown): void;
}

const MIN_BACKOFF_MS = 25;
const MAX_BACKOFF_MS = 2000;

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
    private readonly keyFunc: (obj: KubeObject) => string,
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
    const list = await this.backend.getList(this.prefix);
    if (this.stopped) return false;
    this.hooks.onReplace(list.items.map((obj) => [this.keyFunc(obj), obj]), Number(list.resourceVersion));
    // Registered in the same tick as the state was installed: changes after the list's revision
    // arrive through the watch, from the backend's history if need be.
    const watcher = this.backend.watch(this.prefix, { resourceVersion: list.resourceVersion });
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
