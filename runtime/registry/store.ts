/**
 * The generic store (k8s.io/apiserver/pkg/registry/generic/registry.Store): one per resource,
 * configured by a strategy, over the Storage interface. Every verb is a short sequence of named
 * steps; storage errors are interpreted into Status errors here and nowhere else.
 *
 * Callers (the endpoint handlers) hand in decoded, pruned objects whose apiVersion/kind and
 * metadata.namespace they have checked against the request; the store owns metadata, strategy,
 * validation and persistence.
 */
import type { KubeList, KubeObject } from '../api/meta.js';
import { apiVersionOf, type ResourceDefinition } from '../api/resource.js';
import { newAlreadyExists, newBadRequest, newConflict, newInvalid, newNotFound, type QualifiedResource } from '../api/status.js';
import type { Preconditions, Storage } from '../storage/interface.js';
import { moveItems } from '../storage/cacher/lazy-items.js';
import { namespacePrefix, objectKey, resourcePrefix } from '../storage/keys.js';
import { invalid, typeInvalid } from '../validation/field.js';
import { toStatusCauses } from '../validation/schema-validator.js';
import { deepCopy } from './equality.js';
import { CONFLICT_MESSAGE, interpretStorageError, newNamespaceMismatch } from './errors.js';
import {
  DeleteNow,
  EmptiedFinalizers,
  checkDeletePreconditions,
  deletionFinalizersForGarbageCollection,
  finalizersOf,
  markAsDeleting,
  shouldDeleteDuringUpdate,
  type DeletionHooks,
  type PropagationOptions,
} from './deletion.js';
import type { FieldSelector } from './fieldselector.js';
import type { LabelSelector } from '../api/labels.js';
import { carryUpdateMetadata, fillCreateMetadata, metadataOf, nowRFC3339 } from './objectmeta.js';
import type { RESTStrategy, RESTUpdateStrategy } from './strategy.js';
import { startStoreWatch, type StoreWatch } from './watch.js';

export type { StoreWatch };

/** NamespaceLifecycle admission: throws when objects may not be created in the namespace. */
export interface NamespaceLifecycle {
  /** `attributes` names what is being created, for kube's Forbidden message. */
  admitCreate(namespace: string, attributes?: { resource: QualifiedResource; name: string }): Promise<void>;
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
  /**
   * Where this resource's objects are stored, when not at their own `<root>/<group>/<plural>/`
   * (kube's ResourcePrefix): events.k8s.io/v1 Events are core/v1 Events' objects.
   */
  resourcePrefix?: string;
}

/** Computes the object an update stores from the current one (kube's rest.UpdatedObjectInfo). */
export interface UpdatedObjectInfo {
  /** Must not mutate `current`; may throw a StatusError to abort the update. */
  updatedObject(current: KubeObject): KubeObject | Promise<KubeObject>;
  /**
   * updatedObject returns a new object on every call, sharing nothing with `current` or with
   * anything its caller keeps: the store then uses `current` and the result as they are instead
   * of copying them (the handlers' objects decoded from the request body).
   */
  fresh?: boolean;
}

export interface WriteOptions {
  dryRun?: boolean;
  /**
   * create only: the caller hands its object over, so the store fills it in place instead of
   * copying it first (kube's Store.Create mutates the object it is given). Handlers pass their
   * freshly decoded request object; other callers keep the default, a copy.
   */
  handOver?: boolean;
  /**
   * Validating admission of a create (kube's rest.ValidateObjectFunc): runs after the strategy's
   * defaulting and validation, right before storage; throwing aborts the create.
   */
  createValidation?: (obj: KubeObject) => Promise<void>;
  /** Validating admission of an update (kube's rest.ValidateObjectUpdateFunc), inside the update's retry loop. */
  updateValidation?: (obj: KubeObject, old: KubeObject) => Promise<void>;
  /** Admission of a delete (mutating and validating, with the object being deleted), before anything changes. */
  deleteValidation?: (old: KubeObject) => Promise<void>;
  /**
   * The request's warnings, in the order they arise (kube's warning.AddWarning on the request's
   * context): the strategy's warningsOnCreate / warningsOnUpdate are appended once validation
   * passed, after mutating and before validating admission's. Without it they are not computed.
   */
  warnings?: string[];
}

/** metav1.DeleteOptions as the store applies them. gracePeriodSeconds is accepted; kgen kinds delete without grace. */
export interface DeleteRequest extends WriteOptions, PropagationOptions {
  preconditions?: Preconditions;
  gracePeriodSeconds?: number;
}

/** What a delete did: `deleted` is false while finalizers keep the (returned, marked) object. */
export interface DeleteResult {
  object: KubeObject;
  deleted: boolean;
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
  allowWatchBookmarks?: boolean;
  /** kube's WatchList; undefined keeps the legacy rules above (see ./watch.ts). */
  sendInitialEvents?: boolean;
  /** Ends the watch after this long (with a final bookmark when bookmarks are allowed). */
  timeoutSeconds?: number;
}

/** GetOptions: resourceVersion unset reads the most recent state; "0" or N may be served from the watch cache. */
export interface GetRequest {
  resourceVersion?: string;
}

export class Store {
  readonly definition: ResourceDefinition;
  readonly qualifiedResource: QualifiedResource;
  readonly prefix: string;

  constructor(private readonly config: StoreConfig) {
    this.definition = config.definition;
    this.qualifiedResource = { group: config.definition.group, resource: config.definition.plural };
    this.prefix = config.resourcePrefix ?? resourcePrefix(config.definition.group, config.definition.plural, config.keyRoot);
  }

  get namespaceScoped(): boolean {
    return this.definition.scope === 'Namespaced';
  }

  /** The kind's strategy (create, delete and default update rules). */
  get strategy(): RESTStrategy {
    return this.config.strategy;
  }

  /** The same store with another update strategy: how kube builds StatusREST. */
  withUpdateStrategy(updateStrategy: RESTUpdateStrategy): Store {
    return new Store({ ...this.config, updateStrategy });
  }

  async get(namespace: string | undefined, name: string, req: GetRequest = {}): Promise<KubeObject> {
    const key = this.keyFor(namespace, name);
    if (!req.resourceVersion) return this.loadExisting(key, name);
    return (await this.config.storage.get(key, { resourceVersion: req.resourceVersion }).catch(this.rethrow(name)))!;
  }

  /**
   * get() answered synchronously when the storage can (a watch cache current at the backend's
   * revision: Cacher.getIfCurrent), for a most-recent read only. Undefined means "call get()".
   */
  getNow(namespace: string | undefined, name: string, req: GetRequest = {}): KubeObject | undefined {
    const storage = this.config.storage as { getIfCurrent?(key: string): KubeObject | undefined };
    if (req.resourceVersion || !storage.getIfCurrent) return undefined;
    return storage.getIfCurrent(this.keyFor(namespace, name));
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
    const list = {
      apiVersion: apiVersionOf(this.definition.group, this.definition.version),
      kind: this.definition.listKind,
      metadata,
    } as KubeList;
    // Last, as before (the JSON's key order); still undecoded when the watch cache served the page.
    moveItems(list, result);
    return list;
  }

  async create(namespace: string | undefined, input: KubeObject, opts: WriteOptions = {}): Promise<KubeObject> {
    const obj = opts.handOver ? input : deepCopy(input);
    const meta = metadataOf(obj);
    if (meta.resourceVersion) throw newBadRequest('resourceVersion should not be set on objects to be created');
    this.scopeNamespace(obj, namespace);
    if (this.namespaceScoped && namespace) {
      await this.config.namespaceLifecycle?.admitCreate(namespace, { resource: this.qualifiedResource, name: meta.name ?? '' });
    }
    const finish = await this.config.strategy.beginCreate?.(obj, { dryRun: opts.dryRun === true });
    let stored = false;
    try {
      const created = await this.prepareAndPersist(namespace, obj, opts);
      stored = !opts.dryRun;
      return created;
    } finally {
      await finish?.(stored);
    }
  }

  private async prepareAndPersist(namespace: string | undefined, obj: KubeObject, opts: WriteOptions): Promise<KubeObject> {
    const meta = metadataOf(obj);
    this.config.strategy.prepareForCreate(obj);
    fillCreateMetadata(meta);
    this.throwIfInvalid(obj, this.config.strategy.validate(obj));
    if (opts.warnings !== undefined && this.config.strategy.warningsOnCreate !== undefined) opts.warnings.push(...this.config.strategy.warningsOnCreate(obj));
    this.config.strategy.canonicalize?.(obj);
    await opts.createValidation?.(obj);
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
    let replaced: KubeObject | undefined;
    const tryUpdate = async (current: KubeObject | undefined) => {
      const existing = this.requireExisting(current, name);
      replaced = existing;
      const updated = objInfo.fresh ? await objInfo.updatedObject(existing) : deepCopy(await objInfo.updatedObject(deepCopy(existing)));
      this.checkPreconditions(updated, existing, name);
      this.applyUpdateStrategy(updated, existing, name, opts.warnings);
      await opts.updateValidation?.(updated, existing);
      this.checkDeleteDuringUpdate(updated, existing);
      return updated;
    };
    try {
      if (opts.dryRun) return await tryUpdate(await this.config.storage.get(key, { ignoreNotFound: true }).catch(this.rethrow(name)));
      const stored = await this.config.storage.guaranteedUpdate(key, { ignoreNotFound: true }, tryUpdate).catch(this.rethrow(name));
      if (replaced) await this.updateStrategy.afterUpdate?.(stored, replaced);
      return stored;
    } catch (err) {
      if (err instanceof EmptiedFinalizers) return this.deleteWithoutFinalizers(key, name, err.object, opts);
      throw err;
    }
  }

  /** Delete, answering with the deleted object, or the marked one while finalizers keep it. */
  async delete(namespace: string | undefined, name: string, opts: DeleteRequest = {}): Promise<KubeObject> {
    return (await this.deleteObject(namespace, name, opts)).object;
  }

  /**
   * Delete (kube's Store.Delete): loadExisting → checkDeletable → the kind's marking step
   * (namespaces) → updateForDeletion when finalizers are or will be pending (sets
   * deletionTimestamp and the GC's finalizers, and keeps the object) → delete from storage,
   * re-checking preconditions atomically.
   */
  async deleteObject(namespace: string | undefined, name: string, opts: DeleteRequest = {}): Promise<DeleteResult> {
    const key = this.keyFor(namespace, name);
    const current = await this.loadExisting(key, name);
    this.checkDeletable(current, opts.preconditions, name);
    await opts.deleteValidation?.(current);
    const hooks = this.deletionHooks;
    if (hooks.markForDeletion) {
      if (!current.metadata.deletionTimestamp) return { object: await this.markForDeletion(key, name, opts), deleted: false };
      if (hooks.isFinalized && !hooks.isFinalized(current)) return { object: current, deleted: false };
    }
    if (finalizersOf(current).length > 0 || deletionFinalizersForGarbageCollection(current.metadata, opts)) {
      const marked = await this.updateForDeletion(key, name, opts);
      if (marked) return { object: marked, deleted: false };
    }
    if (opts.dryRun) return { object: current, deleted: true };
    const object = await this.config.storage
      .delete(key, { preconditions: opts.preconditions, validateDeletion: (obj) => this.checkDeletable(obj, opts.preconditions, name) })
      .catch(this.rethrow(name));
    await this.config.strategy.afterDelete?.(object);
    return { object, deleted: true };
  }

  /** Deletes every selected object one by one; objects deleted meanwhile are skipped. */
  async deleteCollection(namespace: string | undefined, selection: SelectionRequest, opts: Omit<DeleteRequest, 'preconditions'> = {}): Promise<KubeList> {
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
    return startStoreWatch({
      storage: this.config.storage,
      watchKey: exactKey ? this.keyFor(namespace, name) : this.listPrefix(namespace),
      listPrefix: this.listPrefix(namespace),
      resourceVersion: req.resourceVersion,
      predicate,
      allowWatchBookmarks: req.allowWatchBookmarks,
      sendInitialEvents: req.sendInitialEvents,
      timeoutSeconds: req.timeoutSeconds,
      qualifiedResource: this.qualifiedResource,
      apiVersion: apiVersionOf(this.definition.group, this.definition.version),
      kind: this.definition.kind,
    });
  }

  // ---- steps ----

  private async loadExisting(key: string, name: string): Promise<KubeObject> {
    return (await this.config.storage.get(key).catch(this.rethrow(name)))!;
  }

  private requireExisting(current: KubeObject | undefined, name: string): KubeObject {
    if (!current) throw newNotFound(this.qualifiedResource, name);
    return current;
  }

  /**
   * Optimistic concurrency: a stated resourceVersion must be the current one; none (or 0, as
   * kube's versioner parses it) means unconditional. kube's store compares revisions as numbers
   * (APIObjectVersioner.ObjectResourceVersion, strconv.ParseUint): "007" states revision 7 and
   * "000" none. One that is not a decimal uint64 at all is the client's mistake, not a conflict:
   * 422 naming the field, where a retry after a fresh GET would not help (kube's update path
   * leaves ParseUint's error uninterpreted: a 500).
   */
  private checkPreconditions(updated: KubeObject, existing: KubeObject, name: string): void {
    const meta = metadataOf(updated);
    const strategy = this.updateStrategy;
    const rv: unknown = meta.resourceVersion;
    const revision = rv === undefined || rv === null ? 0n : typeof rv === 'string' ? statedRevision(rv) : undefined;
    if (revision === undefined) {
      const field = 'metadata.resourceVersion';
      const cause = typeof rv === 'string' ? invalid(field, rv, 'must be a decimal resource version') : typeInvalid(field, rv, 'must be of type string');
      throw newInvalid({ group: this.definition.group, kind: this.definition.kind }, name, toStatusCauses([cause]));
    }
    if (revision === 0n) {
      if (!strategy.allowUnconditionalUpdate) {
        throw newInvalid({ group: this.definition.group, kind: this.definition.kind }, name, [
          { reason: 'FieldValueRequired', field: 'metadata.resourceVersion', message: 'Invalid value: 0x0: must be specified for an update' },
        ]);
      }
    } else if (revision !== statedRevision(existing.metadata.resourceVersion ?? '')) {
      throw newConflict(this.qualifiedResource, name, CONFLICT_MESSAGE);
    }
    meta.resourceVersion = existing.metadata.resourceVersion;
  }

  private applyUpdateStrategy(updated: KubeObject, existing: KubeObject, name: string, warnings?: string[]): void {
    const strategy = this.updateStrategy;
    this.scopeNamespace(updated, existing.metadata.namespace);
    carryUpdateMetadata(updated.metadata, existing.metadata);
    strategy.prepareForUpdate(updated, existing);
    this.throwIfInvalid(updated, strategy.validateUpdate(updated, existing), name);
    // Each attempt of a retried update adds its warnings; the response's headers drop repeats.
    if (warnings !== undefined && strategy.warningsOnUpdate !== undefined) warnings.push(...strategy.warningsOnUpdate(updated, existing));
    strategy.canonicalize?.(updated);
  }

  /** rest.BeforeDelete's preconditions, then the kind's own rule (system namespaces). */
  private checkDeletable(obj: KubeObject, pre: Preconditions | undefined, _name: string): void {
    checkDeletePreconditions(obj, pre, this.definition);
    this.config.strategy.checkDelete?.(obj);
  }

  /**
   * updateForGracefulDeletionAndFinalizers: inside one compare-and-swap, sets the GC finalizers
   * the options ask for and, when any finalizer remains, marks the object as deleting. Returns the
   * marked object, or undefined when nothing holds it back (delete now).
   */
  private async updateForDeletion(key: string, name: string, opts: DeleteRequest): Promise<KubeObject | undefined> {
    const tryUpdate = (current: KubeObject | undefined): KubeObject => {
      const existing = deepCopy(this.requireExisting(current, name));
      this.checkDeletable(existing, opts.preconditions, name);
      const finalizers = deletionFinalizersForGarbageCollection(existing.metadata, opts);
      if (finalizers) existing.metadata.finalizers = finalizers;
      if (finalizersOf(existing).length === 0) throw new DeleteNow();
      markAsDeleting(existing.metadata);
      return existing;
    };
    try {
      if (opts.dryRun) return tryUpdate(await this.config.storage.get(key, { ignoreNotFound: true }).catch(this.rethrow(name)));
      return await this.config.storage.guaranteedUpdate(key, {}, tryUpdate).catch(this.rethrow(name));
    } catch (err) {
      if (err instanceof DeleteNow) return undefined;
      throw err;
    }
  }

  /**
   * The kind's first DELETE (kube's namespace REST Delete): deletionTimestamp, the kind's marks
   * (phase Terminating) and the GC finalizers the options ask for; never deletes.
   */
  private async markForDeletion(key: string, name: string, opts: DeleteRequest): Promise<KubeObject> {
    const tryUpdate = (current: KubeObject | undefined): KubeObject => {
      const existing = deepCopy(this.requireExisting(current, name));
      this.checkDeletable(existing, opts.preconditions, name);
      existing.metadata.deletionTimestamp ??= nowRFC3339();
      this.deletionHooks.markForDeletion?.(existing);
      const finalizers = deletionFinalizersForGarbageCollection(existing.metadata, opts);
      if (finalizers) existing.metadata.finalizers = finalizers;
      if (existing.metadata.finalizers?.length === 0) delete existing.metadata.finalizers;
      return existing;
    };
    if (opts.dryRun) return tryUpdate(await this.config.storage.get(key, { ignoreNotFound: true }).catch(this.rethrow(name)));
    return this.config.storage.guaranteedUpdate(key, {}, tryUpdate).catch(this.rethrow(name));
  }

  /** ShouldDeleteDuringUpdate: an update that removes the last finalizer of a deleting object deletes it. */
  private checkDeleteDuringUpdate(updated: KubeObject, existing: KubeObject): void {
    if (shouldDeleteDuringUpdate(updated, existing, this.deletionHooks)) throw new EmptiedFinalizers(updated);
  }

  /**
   * deleteWithoutFinalizers: deletes an object whose finalizers an update emptied; a concurrent
   * delete that won is fine. Answers with the updated object, as kube does.
   */
  private async deleteWithoutFinalizers(key: string, name: string, updated: KubeObject, opts: WriteOptions): Promise<KubeObject> {
    if (opts.dryRun) return updated;
    try {
      // Deleted first: an optional call would skip evaluating its argument when there is no hook.
      const deleted = await this.config.storage.delete(key);
      await this.config.strategy.afterDelete?.(deleted);
    } catch (err) {
      const status = interpretStorageError(err, this.qualifiedResource, name);
      if ((status as { code?: unknown }).code !== 404) throw status;
    }
    return updated;
  }

  // ---- helpers ----

  private get updateStrategy(): RESTUpdateStrategy {
    return this.config.updateStrategy ?? this.config.strategy;
  }

  /** Delete hooks live on the kind's main strategy, shared by its status and finalize stores. */
  private get deletionHooks(): DeletionHooks {
    return this.config.strategy as RESTStrategy & DeletionHooks;
  }

  private throwIfInvalid(obj: KubeObject, causes: ReturnType<RESTStrategy['validate']>, name?: string): void {
    if (causes.length === 0) return;
    throw newInvalid({ group: this.definition.group, kind: this.definition.kind }, name ?? obj.metadata.name ?? '', causes);
  }

  /** Namespaced objects carry the request's namespace; cluster-scoped ones none. */
  /**
   * rest.EnsureObjectNamespaceMatchesRequestNamespace, as BeforeCreate and BeforeUpdate run it on
   * the object mutating admission returned: an unset namespace is the request's, another one is
   * refused (400), never silently replaced; a cluster-scoped kind's is cleared.
   */
  private scopeNamespace(obj: KubeObject, namespace: string | undefined): void {
    const own = obj.metadata.namespace;
    if (this.namespaceScoped && namespace && own && own !== namespace) throw newNamespaceMismatch();
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

const MAX_UINT64 = 2n ** 64n - 1n;

/**
 * A resourceVersion as kube's update path reads it (strconv.ParseUint base 10, 64 bits): the
 * revision ("" and any run of zeros are 0, unset), or undefined when it is none.
 */
function statedRevision(rv: string): bigint | undefined {
  if (rv === '') return 0n;
  if (!/^\d+$/.test(rv)) return undefined;
  // Zeros in front do not count; more than uint64's 20 digits need no BigInt to be refused.
  const digits = rv.replace(/^0+/, '');
  if (digits.length > 20) return undefined;
  const revision = BigInt(digits === '' ? '0' : digits);
  return revision <= MAX_UINT64 ? revision : undefined;
}
