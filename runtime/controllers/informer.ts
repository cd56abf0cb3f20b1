/**
 * Shared informers over the registry's stores (client-go's reflector + shared informer, in
 * process): one list-then-watch per resource through Store.list/Store.watch, so controllers see
 * the same events API clients do. Each informer knows the last state of every object (kept by
 * itself, or read from its consumer's index: see known.ts); when a watch ends or fails (410 Gone,
 * storage hiccup) it relists with backoff and reconciles what it knows with the list, reporting
 * what changed meanwhile as adds, updates and deletes.
 */
import type { KubeObject } from '../api/meta.js';
import { isGone } from '../api/status.js';
import type { Store, StoreWatch } from '../registry/store.js';
import { loadedObjects } from '../storage/cacher/memory-release.js';
import { IndexedStates, ObjectCache, keyOf, type InformerIndex, type Known, type KnownStates } from './known.js';

export { compactVersion, expandVersion, type IndexedObject, type InformerIndex } from './known.js';

export interface InformerHandlers {
  onAdd?(obj: KubeObject): void;
  onUpdate?(old: KubeObject, obj: KubeObject): void;
  onDelete?(obj: KubeObject): void;
  /**
   * The informer relisted after its watch broke (not called for the first list). Over a partial
   * index (InformerIndex.partial) the deletions meanwhile of objects the index did not hold went
   * unreported: a handler that wakes on deletions looks again at what it waits for.
   */
  onRelist?(): void;
}

export type Log = (line: string) => void;

/**
 * Applied to every object before the informer keeps it or hands it to a handler (client-go's
 * TransformFunc): lets an informer keep only what its controllers read.
 */
export type InformerTransform = (obj: KubeObject) => KubeObject;

/**
 * An object's metadata only (kube's PartialObjectMetadata, what the GC's and the namespace
 * controller's metadata informers hold): the fields they read, sharing the (frozen) arrays and
 * maps of the original, so the full object can be dropped by the watch cache without the
 * controllers keeping it alive.
 */
export function metadataOnly(obj: KubeObject): KubeObject {
  const m = obj.metadata;
  const { name, uid, resourceVersion, labels } = m;
  const namespace = intern(m.namespace);
  // One literal per common shape: properties added later would live in a separate array.
  const metadata: KubeObject['metadata'] =
    namespace !== undefined
      ? labels !== undefined
        ? { name, namespace, uid, resourceVersion, labels }
        : { name, namespace, uid, resourceVersion }
      : labels !== undefined
        ? { name, uid, resourceVersion, labels }
        : { name, uid, resourceVersion };
  if (m.ownerReferences !== undefined) metadata.ownerReferences = m.ownerReferences;
  if (m.finalizers !== undefined) metadata.finalizers = m.finalizers;
  if (m.deletionTimestamp !== undefined) metadata.deletionTimestamp = m.deletionTimestamp;
  if (m.deletionGracePeriodSeconds !== undefined) metadata.deletionGracePeriodSeconds = m.deletionGracePeriodSeconds;
  return { apiVersion: intern(obj.apiVersion), kind: intern(obj.kind), metadata };
}

/**
 * One string for each apiVersion, kind and namespace across the copies (a decoded object has
 * its own): 100,000 copies would otherwise hold 300,000 equal strings. Bounded: past the bound,
 * strings are kept as they come.
 */
const interned = new Map<string, string>();
const MAX_INTERNED = 10_000;

function intern<T>(value: T): T {
  if (typeof value !== 'string') return value;
  const known = interned.get(value);
  if (known !== undefined) return known as T;
  if (interned.size < MAX_INTERNED) interned.set(value, value);
  return value;
}

const RELIST_BASE_MS = 100;
/** The relist reads pages of this many objects (client-go's pager: 500), so a large resource is never decoded whole at once. */
const LIST_PAGE_SIZE = 500;
const RELIST_MAX_MS = 10_000;

/** How an informer keeps what it has seen: its own copies (the default) or its consumer's index. */
export interface InformerOptions {
  /** Applied to every object before it is kept or handed to a handler (see InformerTransform). */
  transform?: InformerTransform;
  /**
   * Keep no copies and read the last known states here (see InformerIndex). Handlers then get
   * the objects received, and where an object is no longer at hand (the old state of an update,
   * a deletion found by a relist) a stub with its name, namespace, uid and resourceVersion.
   */
  index?: InformerIndex;
}

export class ResourceInformer {
  private readonly known: KnownStates;
  private readonly transform: InformerTransform | undefined;
  private readonly handlers: InformerHandlers[] = [];
  private watch: StoreWatch | undefined;
  private timer: NodeJS.Timeout | undefined;
  private wakeTimer: (() => void) | undefined;
  private stopped = false;
  private failures = 0;
  /** Took over another informer's state (seed): its first list is a relist. */
  private seeded = false;
  private loop: Promise<void> | undefined;
  private markSynced!: () => void;
  /** Resolves once the first list has been delivered to the handlers. */
  readonly synced: Promise<void>;

  /** With a transform (or options.transform), objects are kept and handed to handlers as it returns them. */
  constructor(
    readonly store: Store,
    private readonly log: Log,
    options?: InformerTransform | InformerOptions,
  ) {
    const opts: InformerOptions = typeof options === 'function' ? { transform: options } : (options ?? {});
    this.transform = opts.transform;
    this.known = opts.index ? new IndexedStates(opts.index, store) : new ObjectCache();
    this.synced = new Promise((resolve) => (this.markSynced = resolve));
  }

  addHandlers(h: InformerHandlers): void {
    this.handlers.push(h);
  }

  /** Last known state of every object. */
  list(): KubeObject[] {
    return this.known.all().map((k) => k.object());
  }

  /**
   * Takes over another informer's last known state before starting (its resource was rebuilt
   * over the same storage): the first list then reports only what changed since, not every
   * object as new. Over an index, its owner moves the objects to the new store. That first list
   * follows a gap (the other informer's watch ended), so handlers get onRelist after it too.
   */
  seed(from: ResourceInformer): void {
    for (const known of from.known.all()) this.known.set(known.object());
    this.seeded = true;
  }

  /** The resource is no longer served: every object it held is reported deleted. */
  forgetAll(): void {
    for (const known of this.known.all()) this.forget(known);
  }

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.watch?.stop();
    if (this.timer) clearTimeout(this.timer);
    this.wakeTimer?.();
    this.markSynced();
    await this.loop;
  }

  private async run(): Promise<void> {
    let listed = this.seeded;
    while (!this.stopped) {
      try {
        const rv = await this.relist();
        this.markSynced();
        if (listed && !this.stopped) this.dispatch((h) => h.onRelist?.());
        listed = true;
        await this.watchFrom(rv);
        this.failures = 0;
      } catch (err) {
        if (this.stopped) return;
        if (this.failures++ === 0) this.log(`informer ${this.resource}: ${(err as Error).message}; retrying`);
      }
      if (!this.stopped) await this.sleep(Math.min(RELIST_BASE_MS * 2 ** Math.max(this.failures - 1, 0), RELIST_MAX_MS));
    }
  }

  get resource(): string {
    const { group, plural } = this.store.definition;
    return group ? `${plural}.${group}` : plural;
  }

  /**
   * Lists (in pages at one resourceVersion, as client-go's pager does), reconciles the last known
   * states with the list, and returns the list's resourceVersion. Objects are applied page by
   * page: every page is of the same state, and deletions are only reported once the list is
   * complete. States are matched by key, so an object re-created meanwhile is reported deleted,
   * then added.
   */
  private async relist(): Promise<string> {
    let before = this.byKey();
    /** The keys the list confirmed (only tracked when something was known before). */
    const seen = new Set<string>();
    let listed = 0;
    let resourceVersion = '';
    let token: string | undefined;
    do {
      let list;
      try {
        list = await this.store.list(undefined, { limit: LIST_PAGE_SIZE, continue: token });
      } catch (err) {
        // client-go's pager: when the continue token expired, fall back to one full list.
        if (token === undefined || !isGone(err)) throw err;
        seen.clear();
        listed = 0;
        before = this.byKey();
        list = await this.store.list(undefined, {});
      }
      if (this.stopped) return list.metadata.resourceVersion ?? '';
      resourceVersion = list.metadata.resourceVersion ?? '';
      listed += list.items.length;
      for (const obj of list.items) {
        if (before.states.size === 0) {
          // Nothing known before (a first list): nothing to match or to find deleted.
          this.upsert(obj, undefined);
          continue;
        }
        const key = keyOf(obj.metadata.namespace, obj.metadata.name);
        seen.add(key);
        this.upsert(obj, this.matching(before, key, obj));
      }
      token = list.metadata.continue || undefined;
    } while (token);
    for (const [key, known] of before.states) {
      if (seen.has(key)) continue;
      this.forget(known);
      for (const other of before.shared?.get(key) ?? []) this.forget(other);
    }
    loadedObjects(listed);
    return resourceVersion;
  }

  /**
   * The last known states by key. An index may hold several under one key (the GC's virtual
   * node of an owner named by a stale reference has the coordinates of the object that now has
   * that name, with another uid): the first is in `states`, the others in `shared`, so that none
   * is lost to the relist (a deletion found by it is a deletion of every uid under the key).
   */
  private byKey(): { states: Map<string, Known>; shared: Map<string, Known[]> | undefined } {
    const states = new Map<string, Known>();
    let shared: Map<string, Known[]> | undefined;
    for (const known of this.known.all()) {
      if (!states.has(known.key)) states.set(known.key, known);
      else {
        shared ??= new Map();
        const more = shared.get(known.key);
        if (more) more.push(known);
        else shared.set(known.key, [known]);
      }
    }
    return { states, shared };
  }

  /**
   * The last known state of the listed `obj` under `key`. When several uids were known under the
   * key, the one of obj's uid is it, and the others are reported deleted (their objects are not
   * under that name any more, or never were).
   */
  private matching(before: { states: Map<string, Known>; shared: Map<string, Known[]> | undefined }, key: string, obj: KubeObject): Known | undefined {
    const first = before.states.get(key);
    const more = before.shared?.get(key);
    if (!more) return first;
    let match: Known | undefined;
    for (const known of [first!, ...more]) {
      if (match === undefined && known.uid === obj.metadata.uid) match = known;
      else this.forget(known);
    }
    before.shared!.delete(key);
    if (match) before.states.set(key, match);
    else before.states.delete(key);
    return match;
  }

  /** Follows the watch until it ends; throws on an ERROR event so run() relists. */
  private async watchFrom(resourceVersion: string): Promise<void> {
    if (this.stopped) return;
    const watch = this.store.watch(undefined, { resourceVersion });
    this.watch = watch;
    try {
      for await (const event of watch) {
        if (this.stopped) return;
        if (event.type === 'ERROR') {
          const status = event.object as unknown as { message?: string; code?: number };
          // 410 (the watch's resourceVersion was compacted) is an ordinary end of a watch: run()
          // lists again with no warning, as client-go's reflector logs it at V(4) only
          // (isExpiredError). client-go then waits its backoff manager (800 ms, doubling) before
          // the next ListAndWatch, which spares a server; this informer lists its own process's
          // store, so it lists again at once.
          if (status.code === 410) return;
          throw new Error(`watch failed: ${status.message ?? 'unknown error'}`);
        }
        if (event.type === 'BOOKMARK') continue;
        this.failures = 0;
        if (this.known.partial) this.deliver(event.type, event.object);
        else if (event.type === 'DELETED') this.remove(event.object);
        else this.upsert(event.object, this.known.find(event.object));
      }
    } finally {
      watch.stop();
      this.watch = undefined;
    }
  }

  /** Delivers received, whose key's last known state is `old`. */
  private upsert(received: KubeObject, old: Known | undefined): void {
    if (old && old.resourceVersion === received.metadata.resourceVersion) return;
    const obj = this.transform ? this.transform(received) : received;
    if (old && old.uid !== obj.metadata.uid) {
      // Deleted and recreated while we were not watching.
      this.forget(old);
      this.known.set(obj);
      this.dispatch((h) => h.onAdd?.(obj));
      return;
    }
    const previous = old?.object();
    this.known.set(obj);
    if (previous) this.dispatch((h) => h.onUpdate?.(previous, obj));
    else this.dispatch((h) => h.onAdd?.(obj));
  }

  /**
   * A watch event over a partial index: the event's type tells an add from an update, as the
   * index may not hold the object (its last state is then a stub without resourceVersion), and
   * every deletion is handed over as received.
   */
  private deliver(type: 'ADDED' | 'MODIFIED' | 'DELETED', received: KubeObject): void {
    const old = this.known.find(received);
    if (type === 'DELETED') {
      if (old) this.known.delete(old);
      const obj = this.transform ? this.transform(received) : received;
      this.dispatch((h) => h.onDelete?.(obj));
      return;
    }
    if (old && old.resourceVersion === received.metadata.resourceVersion) return;
    const obj = this.transform ? this.transform(received) : received;
    this.known.set(obj);
    if (type === 'ADDED') {
      this.dispatch((h) => h.onAdd?.(obj));
      return;
    }
    const previous = old ? old.object() : stubOf(obj);
    this.dispatch((h) => h.onUpdate?.(previous, obj));
  }

  /** A DELETED event: handlers get the object received. */
  private remove(received: KubeObject): void {
    const old = this.known.find(received);
    if (!old) return;
    this.known.delete(old);
    const obj = this.transform ? this.transform(received) : received;
    this.dispatch((h) => h.onDelete?.(obj));
  }

  /**
   * A deletion the informer found itself (relist, re-creation, resource gone): handlers get what it
   * knew. Over a partial index, only a state the index still holds as it was: a virtual node (an
   * owner known from a reference, with the reference's coordinates) may have been replaced during
   * the relist by the object listed under its real key, with the same uid, and that object was
   * not deleted.
   */
  private forget(known: Known): void {
    const obj = known.object();
    if (this.known.partial && this.known.find(obj)?.key !== known.key) return;
    this.known.delete(known);
    this.dispatch((h) => h.onDelete?.(obj));
  }

  private dispatch(call: (h: InformerHandlers) => void): void {
    for (const h of this.handlers) {
      try {
        call(h);
      } catch (err) {
        this.log(`informer ${this.resource}: handler failed: ${(err as Error).message}`);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wakeTimer = resolve;
      this.timer = setTimeout(resolve, ms);
      this.timer.unref?.();
    }).then(() => {
      this.timer = undefined;
      this.wakeTimer = undefined;
    });
  }
}

/** The previous state of an object an index did not hold: its coordinates and uid, no resourceVersion. */
function stubOf(obj: KubeObject): KubeObject {
  const { name, namespace, uid } = obj.metadata;
  const metadata: KubeObject['metadata'] = { name };
  if (namespace !== undefined) metadata.namespace = namespace;
  if (uid !== undefined) metadata.uid = uid;
  return { apiVersion: obj.apiVersion, kind: obj.kind, metadata };
}

/** Told when an informer joins or leaves (a resource served or gone at run time). */
export interface InformerSetListener {
  /** A new informer, before it starts; `replaces` is the one it takes over from, if any. */
  added?(informer: ResourceInformer, replaces?: ResourceInformer): void;
  /** An informer that stopped; its objects were reported deleted first. */
  removed?(informer: ResourceInformer): void;
}

/**
 * One informer per store, started together; `synced` resolves when every first list is in.
 * Informers added later (kube's GC and namespace controller resync with discovery) start at once
 * when the set has started.
 */
export class SharedInformers {
  private readonly informers = new Map<Store, ResourceInformer>();
  private readonly listeners: InformerSetListener[] = [];
  private started = false;
  private stopped = false;
  /** Informers replaced or removed whose loops are still ending. */
  private readonly retiring = new Set<Promise<void>>();

  /** With a transform or options, every informer of the set applies them (see ResourceInformer). */
  constructor(
    stores: Store[],
    private readonly log: Log,
    private readonly options?: InformerTransform | InformerOptions,
  ) {
    for (const store of stores) this.informers.set(store, new ResourceInformer(store, log, options));
  }

  get all(): ResourceInformer[] {
    return [...this.informers.values()];
  }

  /** The resources watched, as `plural.group`. */
  resources(): string[] {
    return this.all.map((i) => i.resource);
  }

  informerFor(store: Store): ResourceInformer | undefined {
    return this.informers.get(store);
  }

  onChange(listener: InformerSetListener): void {
    this.listeners.push(listener);
  }

  start(): Promise<void> {
    this.started = true;
    for (const informer of this.informers.values()) informer.start();
    return Promise.all(this.all.map((i) => i.synced)).then(() => undefined);
  }

  /** Watches a resource served from now on; with `replaces`, one rebuilt over the same storage. */
  add(store: Store, replaces?: Store): void {
    if (this.stopped || this.informers.has(store)) return;
    const informer = new ResourceInformer(store, this.log, this.options);
    const old = replaces && this.informers.get(replaces);
    if (old) {
      this.informers.delete(replaces!);
      this.retire(old);
      informer.seed(old);
    }
    this.informers.set(store, informer);
    this.notify((l) => l.added?.(informer, old));
    if (this.started) informer.start();
  }

  /** Stops watching a resource no longer served. */
  async remove(store: Store): Promise<void> {
    const informer = this.informers.get(store);
    if (!informer) return;
    this.informers.delete(store);
    await this.retire(informer);
    informer.forgetAll();
    this.notify((l) => l.removed?.(informer));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.all.map((i) => i.stop()), ...this.retiring]);
  }

  /** Stops an informer (no event is delivered after this call) and tracks its end. */
  private retire(informer: ResourceInformer): Promise<void> {
    const done = informer.stop().finally(() => this.retiring.delete(done));
    this.retiring.add(done);
    return done;
  }

  private notify(call: (l: InformerSetListener) => void): void {
    for (const l of this.listeners) {
      try {
        call(l);
      } catch (err) {
        this.log(`informers: listener failed: ${(err as Error).message}`);
      }
    }
  }
}
