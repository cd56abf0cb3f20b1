/**
 * What is special about core/v1 namespaces: kube's namespace strategy (status phase Active, the
 * `kubernetes.io/metadata.name` label), the NamespaceLifecycle admission plugin (no objects in a
 * missing namespace; system namespaces cannot be deleted), and the namespaces every cluster has.
 */
import type { KubeObject } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import { StatusError, newNotFound, statusError } from '../api/status.js';
import type { Storage } from '../storage/interface.js';
import { objectKey, resourcePrefix } from '../storage/keys.js';
import type { NamespaceLifecycle, Store } from './store.js';
import type { RESTStrategy } from './strategy.js';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public'] as const;
export const LABEL_METADATA_NAME = 'kubernetes.io/metadata.name';
const NAMESPACES = { group: '', resource: 'namespaces' };

export function isNamespaceResource(def: Pick<ResourceDefinition, 'group' | 'plural'>): boolean {
  return def.group === '' && def.plural === 'namespaces';
}

/** Wraps the generic strategy with kube's namespace strategy rules. */
export function withNamespaceStrategy(base: RESTStrategy): RESTStrategy {
  return {
    ...base,
    prepareForCreate(obj) {
      base.prepareForCreate(obj);
      obj.status = { phase: 'Active' };
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

/** NamespaceLifecycle over the namespaces kept in storage under the given key root. */
export function newNamespaceLifecycle(storage: Storage, keyRoot?: string): NamespaceLifecycle {
  const prefix = resourcePrefix('', 'namespaces', keyRoot);
  return {
    async admitCreate(namespace) {
      const ns = await storage.get(objectKey(prefix, undefined, namespace), { ignoreNotFound: true });
      if (!ns) throw newNotFound(NAMESPACES, namespace);
      if (ns.metadata.deletionTimestamp) {
        throw statusError(
          'Forbidden',
          `unable to create new content in namespace ${namespace} because it is being terminated`,
          { name: namespace, kind: 'namespaces' },
        );
      }
    },
  };
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
