/**
 * The generic store (k8s.io/apiserver/pkg/registry/generic/registry.Store): one per resource,
 * configured by a strategy, over the Storage interface. Every verb is a short sequence of named
 * steps; storage errors are interpreted into Status errors here and nowhere else.
 *
 * Callers (the endpoint handlers) hand in decoded, pruned objects whose apiVersion/kind and
 * metadata.namespace they have checked against the request; the store owns metadata, strategy,
 * validation and persistence.
 */
import type { KubeList, KubeObject, WatchEvent } from '../api/meta.js';
import { apiVersionOf, type ResourceDefinition } from '../api/resource.js';
import { newAlreadyExists, newBadRequest, newConflict, newInvalid, newNotFound, type QualifiedResource } from '../api/status.js';
import type { Preconditions, Storage, Watcher } from '../storage/interface.js';
import { namespacePrefix, objectKey, resourcePrefix } from '../storage/keys.js';
import { deepCopy } from './equality.js';
import { CONFLICT_MESSAGE, interpretStorageError, toStatus } from './errors.js';
import type { FieldSelector } from './fieldselector.js';
import type { LabelSelector } from './labelselector.js';
import { carryUpdateMetadata, fillCreateMetadata, metadataOf } from './objectmeta.js';
import type { RESTStrategy, RESTUpdateStrategy } from './strategy.js';

/** NamespaceLifecycle admission: throws when objects may not be created in the namespace. */
export interface NamespaceLifecycle {
  admitCreate(namespace: string): Promise<void>;
}

export interface StoreConfig {
  definition: ResourceDefinition;
  storage: Storage;
  strategy: RESTStrategy;
  /** Overrides strategy for updates (the status subresource's store). */
  updateStrategy?: RESTUpdateStrategy;
  namespaceLifecycle?: NamespaceLifecycle;
  /** Storage key root, `/registry` by default. */
  keyRoot?: string;
}

/** Computes the object an update stores from the current one (kube's rest.UpdatedObjectInfo). */
export interface UpdatedObjectInfo {
  /** Must not mutate `current`; may throw a StatusError to abort the update. */
  updatedObject(current: KubeObject): KubeObject | Promise<KubeObject>;
}

export interface WriteOptions {
  dryRun?: boolean;
}

export interface DeleteRequest extends WriteOptions {
  preconditions?: Preconditions;
}

export interface SelectionRequest {
  labelSelector?: LabelSelector;
  fieldSelector?: FieldSelector;
}

export interface ListRequest extends SelectionRequest {
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan' | 'Exact';
}

export interface WatchRequest extends SelectionRequest {
  /** '' / '0' / undefined: synthetic ADDED events for current objects first, then changes. */
  resourceVersion?: string;
}

/** A running watch; iterate once. stop() ends the iteration and releases storage resources. */
export interface StoreWatch extends AsyncIterable<WatchEvent> {
  stop(): void;
}

export class Store {
  readonly definition: ResourceDefinition;
  readonly qualifiedResource: QualifiedResource;
  readonly prefix: string;

  constructor(private readonly config: StoreConfig) {
    this.definition = config.definition;
    this.qualifiedResource = { group: config.definition.group, resource: config.definition.plural };
    this.prefix = resourcePrefix(config.definition.group, config.definition.plural, config.keyRoot);
  }

  get namespaceScoped(): boolean {
    return this.definition.scope === 'Namespaced';
  }

  /** The same store with another update strategy: how kube builds StatusREST. */
  withUpdateStrategy(updateStrategy: RESTUpdateStrategy): Store {
    return new Store({ ...this.config, updateStrategy });
  }

  async get(namespace: string | undefined, name: string): Promise<KubeObject> {
    return this.loadExisting(this.keyFor(namespace, name), name);
  }

  async list(namespace: string | undefined, req: ListRequest = {}): Promise<KubeList> {
    const result = await this.config.storage
      .getList(this.listPrefix(namespace), {
        resourceVersion: req.resourceVersion,
        resourceVersionMatch: req.resourceVersionMatch,
        limit: req.limit,
        continue: req.continue,
        predicate: this.predicate(req),
      })
      .catch(this.rethrow(''));
    const metadata: KubeList['metadata'] = { resourceVersion: result.resourceVersion };
    if (result.continue) metadata.continue = result.continue;
    if (result.remainingItemCount !== undefined) metadata.remainingItemCount = result.remainingItemCount;
    return {
      apiVersion: apiVersionOf(this.definition.group, this.definition.version),
      kind: this.definition.listKind,
      metadata,
      items: result.items,
    };
  }

  async create(namespace: string | undefined, input: KubeObject, opts: WriteOptions = {}): Promise<KubeObject> {
    const obj = deepCopy(input);
    const meta = metadataOf(obj);
    if (meta.resourceVersion) throw newBadRequest('resourceVersion should not be set on objects to be created');
    this.scopeNamespace(obj, namespace);
    if (this.namespaceScoped && namespace) await this.config.namespaceLifecycle?.admitCreate(namespace);
    this.config.strategy.prepareForCreate(obj);
    fillCreateMetadata(meta);
    this.throwIfInvalid(obj, this.config.strategy.validate(obj));
    this.config.strategy.canonicalize?.(obj);
    const key = this.keyFor(namespace, meta.name!);
    if (opts.dryRun) {
      const existing = await this.config.storage.get(key, { ignoreNotFound: true }).catch(this.rethrow(meta.name!));
      if (existing) throw newAlreadyExists(this.qualifiedResource, meta.name!);
      return obj;
    }
    return this.config.storage.create(key, obj).catch(this.rethrow(meta.name!));
  }

  /**
   * Update: loadExisting → updatedObject → checkPreconditions → applyStrategy → persist, inside
   * storage's compare-and-swap loop so a concurrent write re-runs the steps on fresh state.
   */
  async update(namespace: string | undefined, name: string, objInfo: UpdatedObjectInfo, opts: WriteOptions = {}): Promise<KubeObject> {
    const key = this.keyFor(namespace, name);
    const tryUpdate = async (current: KubeObject | undefined) => {
      const existing = this.requireExisting(current, name);
      const updated = deepCopy(await objInfo.updatedObject(deepCopy(existing)));
      this.checkPreconditions(updated, existing, name);
      this.applyUpdateStrategy(updated, existing, name);
      return updated;
    };
    if (opts.dryRun) return tryUpdate(await this.config.storage.get(key, { ignoreNotFound: true }).catch(this.rethrow(name)));
    return this.config.storage.guaranteedUpdate(key, { ignoreNotFound: true }, tryUpdate).catch(this.rethrow(name));
  }

  /**
   * Delete: loadExisting → checkDeletable → delete from storage (re-checking preconditions
   * atomically). Finalizers will add a step between the last two: when the object has
   * finalizers, set deletionTimestamp with guaranteedUpdate and return it instead of deleting.
   */
  async delete(namespace: string | undefined, name: string, opts: DeleteRequest = {}): Promise<KubeObject> {
    const key = this.keyFor(namespace, name);
    const current = await this.loadExisting(key, name);
    this.checkDeletable(current, opts.preconditions, name);
    if (opts.dryRun) return current;
    return this.config.storage
      .delete(key, {
        preconditions: opts.preconditions,
        validateDeletion: (obj) => this.checkDeletable(obj, opts.preconditions, name),
      })
      .catch(this.rethrow(name));
  }

  /** Deletes every selected object one by one; objects deleted meanwhile are skipped. */
  async deleteCollection(namespace: string | undefined, selection: SelectionRequest, opts: WriteOptions = {}): Promise<KubeList> {
    const list = await this.list(namespace, selection);
    const deleted: KubeObject[] = [];
    for (const item of list.items) {
      const name = item.metadata.name!;
      try {
        deleted.push(await this.delete(this.namespaceScoped ? item.metadata.namespace : undefined, name, opts));
      } catch (err) {
        if ((err as { code?: unknown }).code !== 404) throw err;
      }
    }
    return { ...list, items: deleted };
  }

  watch(namespace: string | undefined, req: WatchRequest = {}): StoreWatch {
    const predicate = this.predicate(req);
    const name = req.fieldSelector?.requiresExactMatch('metadata.name');
    const exactKey = name !== undefined && (namespace !== undefined || !this.namespaceScoped);
    const prefix = exactKey ? this.keyFor(namespace, name) : this.listPrefix(namespace);
    return startWatch(this.config.storage, prefix, this.listPrefix(namespace), req.resourceVersion, predicate, this.qualifiedResource);
  }

  // ---- steps ----

  private async loadExisting(key: string, name: string): Promise<KubeObject> {
    return (await this.config.storage.get(key).catch(this.rethrow(name)))!;
  }

  private requireExisting(current: KubeObject | undefined, name: string): KubeObject {
    if (!current) throw newNotFound(this.qualifiedResource, name);
    return current;
  }

  /** Optimistic concurrency: a stated resourceVersion must be the current one; none means unconditional. */
  private checkPreconditions(updated: KubeObject, existing: KubeObject, name: string): void {
    const meta = metadataOf(updated);
    const strategy = this.updateStrategy;
    if (!meta.resourceVersion) {
      if (!strategy.allowUnconditionalUpdate) {
        throw newInvalid({ group: this.definition.group, kind: this.definition.kind }, name, [
          { reason: 'FieldValueRequired', field: 'metadata.resourceVersion', message: 'Invalid value: 0x0: must be specified for an update' },
        ]);
      }
    } else if (meta.resourceVersion !== existing.metadata.resourceVersion) {
      throw newConflict(this.qualifiedResource, name, CONFLICT_MESSAGE);
    }
    meta.resourceVersion = existing.metadata.resourceVersion;
  }

  private applyUpdateStrategy(updated: KubeObject, existing: KubeObject, name: string): void {
    const strategy = this.updateStrategy;
    this.scopeNamespace(updated, existing.metadata.namespace);
    carryUpdateMetadata(updated.metadata, existing.metadata);
    strategy.prepareForUpdate(updated, existing);
    this.throwIfInvalid(updated, strategy.validateUpdate(updated, existing), name);
    strategy.canonicalize?.(updated);
  }

  private checkDeletable(obj: KubeObject, pre: Preconditions | undefined, name: string): void {
    const meta = obj.metadata;
    if (pre?.uid !== undefined && pre.uid !== (meta.uid ?? '')) {
      throw newConflict(this.qualifiedResource, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid ?? ''}`);
    }
    if (pre?.resourceVersion !== undefined && pre.resourceVersion !== (meta.resourceVersion ?? '')) {
      throw newConflict(
        this.qualifiedResource,
        name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`,
      );
    }
    this.config.strategy.checkDelete?.(obj);
  }

  // ---- helpers ----

  private get updateStrategy(): RESTUpdateStrategy {
    return this.config.updateStrategy ?? this.config.strategy;
  }

  private throwIfInvalid(obj: KubeObject, causes: ReturnType<RESTStrategy['validate']>, name?: string): void {
    if (causes.length === 0) return;
    throw newInvalid({ group: this.definition.group, kind: this.definition.kind }, name ?? obj.metadata.name ?? '', causes);
  }

  /** Namespaced objects carry the request's namespace; cluster-scoped ones none. */
  private scopeNamespace(obj: KubeObject, namespace: string | undefined): void {
    if (this.namespaceScoped && namespace) obj.metadata.namespace = namespace;
    else if (!this.namespaceScoped) delete obj.metadata.namespace;
  }

  private keyFor(namespace: string | undefined, name: string): string {
    try {
      return objectKey(this.prefix, this.namespaceScoped ? namespace : undefined, name);
    } catch (err) {
      throw interpretStorageError(err, this.qualifiedResource, name);
    }
  }

  private listPrefix(namespace: string | undefined): string {
    if (!this.namespaceScoped || !namespace) return this.prefix;
    try {
      return namespacePrefix(this.prefix, namespace);
    } catch (err) {
      throw interpretStorageError(err, this.qualifiedResource, '');
    }
  }

  private predicate(req: SelectionRequest): ((obj: KubeObject) => boolean) | undefined {
    const { labelSelector, fieldSelector } = req;
    const hasLabels = labelSelector && !labelSelector.empty();
    const hasFields = fieldSelector && !fieldSelector.empty();
    if (!hasLabels && !hasFields) return undefined;
    return (obj) => (!hasLabels || labelSelector.matches(obj.metadata?.labels)) && (!hasFields || fieldSelector.matches(obj));
  }

  private rethrow(name: string): (err: unknown) => never {
    return (err) => {
      throw interpretStorageError(err, this.qualifiedResource, name);
    };
  }
}

/**
 * Starts a watch as kube's cacher/etcd3 watcher serve it: with no (or '0') resourceVersion, a
 * list's objects come first as synthetic ADDED events, then changes after that list's revision.
 * Storage errors (Expired, TooLargeResourceVersion) end the stream with one ERROR event.
 */
function startWatch(
  storage: Storage,
  watchPrefix: string,
  listPrefix: string,
  resourceVersion: string | undefined,
  predicate: ((obj: KubeObject) => boolean) | undefined,
  qr: QualifiedResource,
): StoreWatch {
  let stopped = false;
  let watcher: Watcher | undefined;
  const initialList = !resourceVersion || resourceVersion === '0';
  async function* events(): AsyncGenerator<WatchEvent> {
    try {
      let from = resourceVersion;
      if (initialList) {
        // One list read gives the objects and the revision they were read at, atomically.
        const list = await storage.getList(listPrefix, { predicate });
        for (const object of list.items) yield { type: 'ADDED', object };
        from = list.resourceVersion;
      }
      if (stopped) return;
      watcher = storage.watch(watchPrefix, { resourceVersion: from, predicate });
      for await (const event of watcher) yield { type: event.type, object: event.object };
    } catch (err) {
      if (!stopped) yield { type: 'ERROR', object: toStatus(interpretStorageError(err, qr, '')) as never };
    } finally {
      watcher?.stop();
    }
  }
  const iterable = events();
  return {
    [Symbol.asyncIterator]: () => iterable,
    stop() {
      stopped = true;
      watcher?.stop();
    },
  };
}
