/**
 * What is special about core/v1 namespaces: kube's namespace strategy (status phase Active, the
 * `kubernetes.io/metadata.name` label, the `kubernetes` spec finalizer), its deletion (the first
 * DELETE moves it to Terminating; it goes once the namespace controller emptied spec.finalizers
 * through `namespaces/<name>/finalize`), the NamespaceLifecycle admission plugin (no objects in a
 * missing or terminating namespace; system namespaces cannot be deleted), and the namespaces every
 * cluster has.
 */
import type { KubeObject } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import { StatusError, newNotFound, statusError } from '../api/status.js';
import type { Storage } from '../storage/interface.js';
import { objectKey, resourcePrefix } from '../storage/keys.js';
import { toStatusCauses, isQualifiedName, field } from '../validation/index.js';
import type { DeletionHooks } from './deletion.js';
import type { NamespaceLifecycle, Store } from './store.js';
import type { RESTStrategy } from './strategy.js';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public'] as const;
export const LABEL_METADATA_NAME = 'kubernetes.io/metadata.name';
/** api.FinalizerKubernetes: the namespace controller's spec finalizer. */
export const FINALIZER_KUBERNETES = 'kubernetes';
/** The standard finalizers a name without a `/` may be (core validateFinalizerName). */
const STANDARD_FINALIZERS = new Set([FINALIZER_KUBERNETES, 'orphan', 'foregroundDeletion']);
const NAMESPACES = { group: '', resource: 'namespaces' };

export function isNamespaceResource(def: Pick<ResourceDefinition, 'group' | 'plural'>): boolean {
  return def.group === '' && def.plural === 'namespaces';
}

/** spec.finalizers of a namespace (empty when absent). */
export function namespaceFinalizers(obj: KubeObject): string[] {
  const spec = obj.spec as { finalizers?: unknown } | undefined;
  return Array.isArray(spec?.finalizers) ? (spec.finalizers as string[]) : [];
}

function setNamespaceFinalizers(obj: KubeObject, finalizers: string[] | undefined): void {
  const spec = (typeof obj.spec === 'object' && obj.spec !== null ? obj.spec : {}) as Record<string, unknown>;
  if (finalizers === undefined) delete spec.finalizers;
  else spec.finalizers = [...finalizers];
  obj.spec = spec;
}

function specFinalizersOrUndefined(obj: KubeObject): string[] | undefined {
  const spec = obj.spec as { finalizers?: unknown } | undefined;
  return Array.isArray(spec?.finalizers) ? [...(spec.finalizers as string[])] : undefined;
}

/** Wraps the generic strategy with kube's namespace strategy rules. */
export function withNamespaceStrategy(base: RESTStrategy): RESTStrategy & DeletionHooks {
  return {
    ...base,
    prepareForCreate(obj) {
      base.prepareForCreate(obj);
      // kube's namespace PrepareForCreate: the namespace controller finalizes every namespace.
      setNamespaceFinalizers(obj, [FINALIZER_KUBERNETES]);
      obj.status = { phase: 'Active' };
    },
    prepareForUpdate(obj, old) {
      base.prepareForUpdate(obj, old);
      // spec.finalizers change only through the finalize subresource.
      setNamespaceFinalizers(obj, specFinalizersOrUndefined(old));
    },
    markForDeletion(obj) {
      forceLiveLookup.set(obj.metadata.name ?? '', Date.now() + FORCE_LIVE_LOOKUP_MS);
      const status = (typeof obj.status === 'object' && obj.status !== null ? obj.status : {}) as Record<string, unknown>;
      status.phase = 'Terminating';
      obj.status = status;
    },
    isFinalized(obj) {
      return namespaceFinalizers(obj).length === 0;
    },
    canonicalize(obj) {
      base.canonicalize?.(obj);
      // Set after generateName resolved the name, as kube's namespace Canonicalize does.
      obj.metadata.labels = { ...(obj.metadata.labels ?? {}), [LABEL_METADATA_NAME]: obj.metadata.name ?? '' };
    },
    checkDelete(obj) {
      base.checkDelete?.(obj);
      const name = obj.metadata.name ?? '';
      if ((SYSTEM_NAMESPACES as readonly string[]).includes(name)) {
        throw statusError('Forbidden', `namespaces "${name}" is forbidden: this namespace may not be deleted`, {
          name,
          kind: 'namespaces',
        });
      }
    },
  };
}

/**
 * The finalize subresource's strategy (kube's finalizeNamespaceStrategy): spec.finalizers come
 * from the request; status stays the stored one.
 */
export function newNamespaceFinalizeStrategy(namespaceStrategy: RESTStrategy): RESTStrategy {
  return {
    ...namespaceStrategy,
    prepareForUpdate(obj, old) {
      const requested = specFinalizersOrUndefined(obj);
      namespaceStrategy.prepareForUpdate(obj, old);
      setNamespaceFinalizers(obj, requested);
    },
    validateUpdate(obj, old) {
      const causes = namespaceStrategy.validateUpdate(obj, old);
      const errors = namespaceFinalizers(obj).flatMap((f, i) => validateFinalizerName(f, `spec.finalizers[${i}]`));
      return [...causes, ...toStatusCauses(errors)];
    },
  };
}

/** Core validateFinalizerName: a qualified name, and one of the standard names when it has no `/`. */
function validateFinalizerName(name: string, path: string) {
  const errors = isQualifiedName(name).map((msg) => field.invalid(path, name, msg));
  if (errors.length === 0 && !name.includes('/') && !STANDARD_FINALIZERS.has(name)) {
    errors.push(field.invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified'));
  }
  return errors;
}

const finalizeStores = new WeakMap<Store, Store>();

/** The store behind `PUT /api/v1/namespaces/<name>/finalize` (kube's FinalizeREST). */
export function namespaceFinalizeStore(namespaces: Store): Store {
  let store = finalizeStores.get(namespaces);
  if (!store) {
    store = namespaces.withUpdateStrategy(newNamespaceFinalizeStrategy(namespaces.strategy));
    finalizeStores.set(namespaces, store);
  }
  return store;
}

/** The watch caches a lifecycle may read namespaces from (the installer's Cachers). */
export interface NamespaceCaches {
  for(prefix: string): Storage;
}

/**
 * kube's forceLiveLookupTTL: after this server marked a namespace for deletion, its cached copy
 * is not trusted for this long (the cache may not have seen the mark yet).
 */
const FORCE_LIVE_LOOKUP_MS = 30_000;
/** Namespace names this process marked for deletion recently, with when the mark expires. */
const forceLiveLookup = new Map<string, number>();

function markedRecently(name: string): boolean {
  const until = forceLiveLookup.get(name);
  if (until === undefined) return false;
  if (until > Date.now()) return true;
  forceLiveLookup.delete(name);
  return false;
}

/**
 * NamespaceLifecycle over the namespaces kept in storage under the given key root. As kube's
 * plugin reads its informer, it reads the namespaces' watch cache (`caches`, when given) and goes
 * to storage only when the cache does not have the namespace (created a moment ago, or missing)
 * or this process marked it for deletion within FORCE_LIVE_LOOKUP_MS while the cache still shows
 * it live. A create therefore costs no storage read in the common case.
 */
export function newNamespaceLifecycle(storage: Storage, keyRoot?: string, caches?: () => NamespaceCaches | undefined): NamespaceLifecycle {
  const prefix = resourcePrefix('', 'namespaces', keyRoot);
  return {
    async admitCreate(namespace, attributes) {
      const key = objectKey(prefix, undefined, namespace);
      let ns = await caches?.()?.for(prefix).get(key, { resourceVersion: '0', ignoreNotFound: true });
      if (!ns || (!ns.metadata.deletionTimestamp && markedRecently(namespace))) ns = await storage.get(key, { ignoreNotFound: true });
      if (!ns) throw newNotFound(NAMESPACES, namespace);
      if (ns.metadata.deletionTimestamp) throw namespaceTerminating(namespace, attributes);
    },
  };
}

/** admission.NewForbidden plus the NamespaceTerminating cause, as kube's NamespaceLifecycle answers. */
function namespaceTerminating(namespace: string, attributes?: { resource: { group: string; resource: string }; name: string }): StatusError {
  const why = `unable to create new content in namespace ${namespace} because it is being terminated`;
  const resource = attributes?.resource ?? NAMESPACES;
  const qualified = resource.group ? `${resource.resource}.${resource.group}` : resource.resource;
  const name = attributes ? attributes.name : namespace;
  return statusError('Forbidden', `${qualified} "${name}" is forbidden: ${why}`, {
    name,
    group: resource.group,
    kind: resource.resource,
    causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
  });
}

/** Creates the system namespaces that do not exist yet (kube's system namespaces controller). */
export async function ensureSystemNamespaces(namespaces: Store): Promise<void> {
  for (const name of SYSTEM_NAMESPACES) {
    const ns: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
    try {
      await namespaces.create(undefined, ns);
    } catch (err) {
      if (!(err instanceof StatusError && err.reason === 'AlreadyExists')) throw err;
    }
  }
}
