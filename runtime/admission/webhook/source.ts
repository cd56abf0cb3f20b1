/**
 * The webhook configurations of one type, kept in memory by list-and-watch (kube's
 * configuration manager over an informer): requests read the in-memory list, never storage.
 * Configurations are sorted by name and their webhooks kept in order, as kube calls them.
 */
import type { Store } from '../../registry/store.js';
import type { WebhookAccessor, WebhookConfiguration } from './types.js';

/** Retry delay after a failed list or a broken watch. */
const RELIST_DELAY_MS = 200;

export class WebhookConfigurationSource {
  private configurations = new Map<string, WebhookConfiguration>();
  private accessors: readonly WebhookAccessor[] = [];
  private stopped = false;
  private stopWatch?: () => void;
  private synced?: Promise<void>;
  private listeners: (() => void)[] = [];

  constructor(private readonly store: Store) {}

  /** Starts list-and-watch; resolves once the first list is in (kube's HasSynced). */
  start(): Promise<void> {
    this.synced ??= new Promise<void>((resolve) => {
      this.listeners.push(resolve);
      void this.run();
    });
    return this.synced;
  }

  stop(): void {
    this.stopped = true;
    this.stopWatch?.();
  }

  /** The webhooks of every configuration, configurations by name, webhooks in their order. */
  webhooks(): readonly WebhookAccessor[] {
    return this.accessors;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.listAndWatch();
      } catch {
        // Storage hiccup: relist below.
      }
      if (!this.stopped) await new Promise((r) => setTimeout(r, RELIST_DELAY_MS).unref());
    }
  }

  /** One reflector cycle: list (replacing the whole state at once), then apply watch events. */
  private async listAndWatch(): Promise<void> {
    const list = await this.store.list(undefined);
    this.configurations = new Map(list.items.map((item) => [item.metadata.name!, item as WebhookConfiguration]));
    this.rebuild();
    for (const resolve of this.listeners.splice(0)) resolve();
    if (this.stopped) return;
    const watch = this.store.watch(undefined, { resourceVersion: list.metadata.resourceVersion });
    this.stopWatch = () => watch.stop();
    try {
      for await (const event of watch) {
        if (event.type === 'ERROR') return;
        if (event.type === 'BOOKMARK') continue;
        const obj = event.object as WebhookConfiguration;
        const name = obj.metadata?.name ?? '';
        if (event.type === 'DELETED') this.configurations.delete(name);
        else this.configurations.set(name, obj);
        this.rebuild();
      }
    } finally {
      watch.stop();
    }
  }

  private rebuild(): void {
    const names = [...this.configurations.keys()].sort();
    this.accessors = names.flatMap((name) =>
      (this.configurations.get(name)!.webhooks ?? []).map((webhook, i) => ({ uid: `${name}/${i}`, configurationName: name, webhook })),
    );
  }
}
