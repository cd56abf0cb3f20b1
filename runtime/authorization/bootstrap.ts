/**
 * The bootstrap policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy) and kube's "RBAC
 * bootstrap hook" that reconciles it at every start: missing roles and bindings are created;
 * existing ones marked `rbac.authorization.kubernetes.io/autoupdate: "true"` get the rules and
 * subjects they lack added (nothing is removed); `"false"` leaves them alone.
 *
 * admin/edit/view aggregate, as in kube, from system:aggregate-to-{admin,edit,view}, whose rules
 * are computed from the installed resources: view reads everything outside the RBAC,
 * authorization and admission groups; edit writes the namespaced ones; admin adds roles and
 * role bindings. The in-process ClusterRole aggregation controller gets kube's
 * system:controller:clusterrole-aggregation-controller role (escalate on clusterroles), bound to
 * its service account kube-system/clusterrole-aggregation-controller.
 */
import type { KubeObject } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import { isAlreadyExists, isConflict, isNotFound } from '../api/status.js';
import type { Store } from '../registry/store.js';
import { AGGREGATION_CONTROLLER_NAME, AGGREGATION_CONTROLLER_NAMESPACE, AGGREGATION_CONTROLLER_ROLE } from './aggregation.js';
import { covers } from './covers.js';
import { PolicyIndex } from './policyindex.js';
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, AUTHORIZATION_GROUP, RBAC_GROUP, SYSTEM_PRIVILEGED_GROUP, type AggregationRule, type ClusterRole, type ClusterRoleBinding, type PolicyRule, type Role, type Subject } from './types.js';

export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';
const BOOTSTRAP_LABELS = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const AGGREGATE_TO = (role: 'admin' | 'edit' | 'view') => `rbac.authorization.k8s.io/aggregate-to-${role}`;
/** Groups whose kinds the default user-facing roles leave out (kube's view/edit hold no RBAC, webhooks, APIServices or CRDs). */
const SYSTEM_GROUPS = new Set([RBAC_GROUP, AUTHORIZATION_GROUP, 'authentication.k8s.io', 'admissionregistration.k8s.io', 'apiregistration.k8s.io', 'apiextensions.k8s.io']);
const READ = ['get', 'list', 'watch'];
/**
 * kube's escalating resources: view never reads them (a Secret may hold a token of more powerful
 * identity); edit reads and writes them.
 */
const ESCALATING = new Set(['/secrets']);
/**
 * Read-only even for edit, as kube's aggregate-to-edit leaves them to the system: Events; and
 * Endpoints and EndpointSlices (kube 1.22, CVE-2021-25740): they say where a Service's traffic
 * goes, and kgen's aggregator and webhook clients resolve an APIService's or a webhook's
 * service through them, so a namespace editor could point the API server at any address.
 */
const READ_ONLY = new Set(['/events', '/endpoints', 'discovery.k8s.io/endpointslices']);
/**
 * Held by no default user-facing role, as in kube: Leases are controllers' business, and view
 * reads Events through core/v1 only (events.k8s.io/v1 serves the same objects).
 */
const NOT_USER_FACING = new Set(['coordination.k8s.io', 'events.k8s.io']);
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];

type Installed = Pick<ResourceDefinition, 'group' | 'plural' | 'scope' | 'subresources' | 'virtual'>;

function meta(name: string, labels: Record<string, string> = {}): KubeObject['metadata'] {
  return { name, labels: { ...BOOTSTRAP_LABELS, ...labels }, annotations: { [AUTOUPDATE_ANNOTATION]: 'true' } };
}

function clusterRole(name: string, rules: PolicyRule[], extra: { labels?: Record<string, string>; aggregateFrom?: string } = {}): ClusterRole {
  const role: ClusterRole = { apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole', metadata: meta(name, extra.labels), rules };
  if (extra.aggregateFrom) role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [extra.aggregateFrom]: 'true' } }] };
  return role;
}

const group = (name: string): Subject => ({ kind: 'Group', apiGroup: RBAC_GROUP, name });

function binding(role: string, subjects: Subject[]): ClusterRoleBinding {
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: meta(role),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: role },
    subjects,
  };
}

/** One rule per API group, its resources sorted (what kube's bootstrap rules look like). */
function rulesByGroup(entries: { group: string; resource: string }[], verbs: string[]): PolicyRule[] {
  const byGroup = new Map<string, Set<string>>();
  for (const { group, resource } of entries) {
    if (!byGroup.has(group)) byGroup.set(group, new Set());
    byGroup.get(group)!.add(resource);
  }
  return [...byGroup.keys()].sort().map((g) => ({ apiGroups: [g], resources: [...byGroup.get(g)!].sort(), verbs: [...verbs] }));
}

function userFacing(resources: readonly Installed[]): Installed[] {
  const seen = new Set<string>();
  return resources.filter((r) => {
    const key = `${r.group}/${r.plural}`;
    if (r.virtual || SYSTEM_GROUPS.has(r.group) || NOT_USER_FACING.has(r.group) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The bootstrap ClusterRoles for the installed resources. */
export function bootstrapClusterRoles(installed: readonly Installed[]): ClusterRole[] {
  const resources = userFacing(installed);
  const readable = resources.filter((r) => !ESCALATING.has(`${r.group}/${r.plural}`)).flatMap((r) => [
    { group: r.group, resource: r.plural },
    ...(r.subresources.status ? [{ group: r.group, resource: `${r.plural}/status` }] : []),
    ...(r.subresources.scale ? [{ group: r.group, resource: `${r.plural}/scale` }] : []),
    // As kube's view role reads pods/log: custom GET subresources are readable.
    ...(r.subresources.custom ?? []).filter((c) => c.verbs.includes('get')).map((c) => ({ group: r.group, resource: `${r.plural}/${c.name}` })),
  ]);
  const namespaced = resources.filter((r) => r.scope === 'Namespaced');
  const writable = namespaced
    .filter((r) => !READ_ONLY.has(`${r.group}/${r.plural}`))
    .flatMap((r) => [
      { group: r.group, resource: r.plural },
      ...(r.subresources.scale ? [{ group: r.group, resource: `${r.plural}/scale` }] : []),
      // As kube's edit role may create pods/exec and pods/attach: CONNECT subresources.
      ...(r.subresources.custom ?? []).filter((c) => c.verbs.includes('connect')).map((c) => ({ group: r.group, resource: `${r.plural}/${c.name}` })),
    ]);
  const escalating = namespaced.filter((r) => ESCALATING.has(`${r.group}/${r.plural}`)).map((r) => ({ group: r.group, resource: r.plural }));
  const hasServiceAccounts = namespaced.some((r) => r.group === '' && r.plural === 'serviceaccounts');
  // kube's aggregate-to-edit: escalating resources readable, service account tokens and impersonation.
  const editExtras: PolicyRule[] = [
    ...rulesByGroup(escalating, READ),
    ...(hasServiceAccounts
      ? [
          { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] },
          { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
        ]
      : []),
  ];
  return [
    clusterRole('cluster-admin', [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ]),
    clusterRole('admin', [], { aggregateFrom: AGGREGATE_TO('admin') }),
    clusterRole('edit', [], { labels: { [AGGREGATE_TO('admin')]: 'true' }, aggregateFrom: AGGREGATE_TO('edit') }),
    clusterRole('view', [], { labels: { [AGGREGATE_TO('edit')]: 'true' }, aggregateFrom: AGGREGATE_TO('view') }),
    // kube's additional admin powers: asking what others may do in the namespace, and granting it.
    clusterRole('system:aggregate-to-admin', [
      { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'], verbs: ['create'] },
      { apiGroups: [RBAC_GROUP], resources: ['rolebindings', 'roles'], verbs: [...WRITE, ...READ].sort() },
    ], {
      labels: { [AGGREGATE_TO('admin')]: 'true' },
    }),
    clusterRole('system:aggregate-to-edit', [...rulesByGroup(writable, WRITE), ...editExtras], { labels: { [AGGREGATE_TO('edit')]: 'true' } }),
    clusterRole('system:aggregate-to-view', rulesByGroup(readable, READ), { labels: { [AGGREGATE_TO('view')]: 'true' } }),
    clusterRole('system:discovery', [
      { nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'], verbs: ['get'] },
      // kgen's HTML API reference (kgen docs), readable like the OpenAPI it is built from.
      { nonResourceURLs: ['/docs', '/docs/*'], verbs: ['get'] },
    ]),
    // kube's system:monitoring: metrics and the health endpoints' details.
    clusterRole('system:monitoring', [
      { nonResourceURLs: ['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'], verbs: ['get'] },
    ]),
    clusterRole('system:basic-user', [
      { apiGroups: [AUTHORIZATION_GROUP], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], verbs: ['create'] },
      { apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] },
    ]),
    clusterRole('system:public-info-viewer', [{ nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'], verbs: ['get'] }]),
    // Service account tokens' issuer documents, for their holders (kube binds it to system:serviceaccounts).
    clusterRole('system:service-account-issuer-discovery', [{ nonResourceURLs: ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/'], verbs: ['get'] }]),
    // What an aggregated API server needs of the server it delegates to (bound by its install manifests).
    clusterRole(AUTH_DELEGATOR_ROLE, [
      { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: [AUTHORIZATION_GROUP], resources: ['subjectaccessreviews'], verbs: ['create'] },
    ]),
  ];
}

/** kube's system:auth-delegator: create tokenreviews and subjectaccessreviews. */
export const AUTH_DELEGATOR_ROLE = 'system:auth-delegator';
/** kube's Role in kube-system that reads the extension-apiserver-authentication ConfigMap. */
export const AUTHENTICATION_READER_ROLE = 'extension-apiserver-authentication-reader';
export const AUTHENTICATION_CONFIGMAP = 'extension-apiserver-authentication';

/** kube's bootstrap namespaced Roles, with their namespace. */
export function bootstrapRoles(): (Role & { metadata: { namespace: string } })[] {
  const reader = clusterRole(AUTHENTICATION_READER_ROLE, [{ apiGroups: [''], resources: ['configmaps'], resourceNames: [AUTHENTICATION_CONFIGMAP], verbs: ['get', 'list', 'watch'] }]);
  return [{ ...reader, kind: 'Role', metadata: { ...reader.metadata, namespace: 'kube-system' } }];
}

/**
 * kube's controller roles that kgen's in-process controllers write with (system:controller:*),
 * each bound to its controller's service account in kube-system.
 */
function controllerClusterRoles(): ClusterRole[] {
  return [clusterRole(AGGREGATION_CONTROLLER_ROLE, [{ apiGroups: [RBAC_GROUP], resources: ['clusterroles'], verbs: ['escalate', 'get', 'list', 'patch', 'update', 'watch'] }])];
}

function controllerClusterRoleBindings(): ClusterRoleBinding[] {
  return [binding(AGGREGATION_CONTROLLER_ROLE, [{ kind: 'ServiceAccount', name: AGGREGATION_CONTROLLER_NAME, namespace: AGGREGATION_CONTROLLER_NAMESPACE }])];
}

export function bootstrapClusterRoleBindings(): ClusterRoleBinding[] {
  return [
    ...controllerClusterRoleBindings(),
    binding('cluster-admin', [group(SYSTEM_PRIVILEGED_GROUP)]),
    binding('system:discovery', [group(ALL_AUTHENTICATED)]),
    binding('system:basic-user', [group(ALL_AUTHENTICATED)]),
    binding('system:monitoring', [group('system:monitoring')]),
    binding('system:public-info-viewer', [group(ALL_AUTHENTICATED), group(ALL_UNAUTHENTICATED)]),
    binding('system:service-account-issuer-discovery', [group('system:serviceaccounts')]),
  ];
}

/**
 * The stored rules of an aggregated role are what kube's aggregation controller writes there,
 * computed the same way (./aggregation.ts), so the controller finds nothing to rewrite.
 */
function withAggregatedRules(roles: ClusterRole[]): ClusterRole[] {
  const index = new PolicyIndex();
  for (const role of roles) index.upsert('clusterroles', role);
  return roles.map((r) => (r.aggregationRule ? { ...r, rules: structuredClone([...index.clusterRoleRules(r)]) } : r));
}

/** Labels and annotations the existing object lacks, added (kube's reconcile merges them). */
function mergeMetadata(existing: KubeObject, expected: KubeObject): boolean {
  let changed = false;
  for (const key of ['labels', 'annotations'] as const) {
    for (const [k, v] of Object.entries(expected.metadata[key] ?? {})) {
      if (existing.metadata[key]?.[k] !== undefined) continue;
      existing.metadata[key] = { ...(existing.metadata[key] ?? {}), [k]: v };
      changed = true;
    }
  }
  return changed;
}

/** A Role or a ClusterRole: the fields reconciling reads. */
type AnyRole = KubeObject & { rules?: PolicyRule[]; aggregationRule?: AggregationRule };

function reconcileRole(existing: AnyRole, expected: AnyRole): boolean {
  let changed = mergeMetadata(existing, expected);
  const { missing } = covers(existing.rules ?? [], expected.rules ?? []);
  if (missing.length) {
    existing.rules = [...(existing.rules ?? []), ...missing];
    changed = true;
  }
  if (expected.aggregationRule && !existing.aggregationRule) {
    existing.aggregationRule = expected.aggregationRule;
    changed = true;
  }
  return changed;
}

function reconcileBinding(existing: ClusterRoleBinding, expected: ClusterRoleBinding): boolean {
  let changed = mergeMetadata(existing, expected);
  const have = existing.subjects ?? [];
  const missing = (expected.subjects ?? []).filter((s) => !have.some((h) => h.kind === s.kind && h.name === s.name && (h.namespace ?? '') === (s.namespace ?? '')));
  if (missing.length) {
    existing.subjects = [...have, ...missing];
    changed = true;
  }
  return changed;
}

async function ensure(store: Store, expected: KubeObject, reconcile: (existing: KubeObject) => boolean, log: (line: string) => void): Promise<void> {
  const name = expected.metadata.name!;
  const namespace = expected.metadata.namespace;
  for (let attempt = 0; attempt < 5; attempt++) {
    let existing: KubeObject | undefined;
    try {
      existing = await store.get(namespace, name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    try {
      if (!existing) {
        await store.create(namespace, expected);
        log(`created ${store.definition.kind.toLowerCase()}.${RBAC_GROUP}/${name}`);
        return;
      }
      if (existing.metadata.annotations?.[AUTOUPDATE_ANNOTATION] === 'false') return;
      const updated = structuredClone(existing);
      if (!reconcile(updated)) return;
      await store.update(namespace, name, { updatedObject: () => updated });
      log(`reconciled ${store.definition.kind.toLowerCase()}.${RBAC_GROUP}/${name}`);
      return;
    } catch (err) {
      // Another writer got there first: read again.
      if (!isAlreadyExists(err) && !isConflict(err)) throw err;
    }
  }
}

export interface BootstrapStores {
  clusterRoles: Store;
  clusterRoleBindings: Store;
  /** For kube's namespaced bootstrap Roles (kube-system); left out when absent. */
  roles?: Store;
}

/** kube's RBAC bootstrap hook: idempotent, safe to run at every start. */
export async function ensureBootstrapPolicy(stores: BootstrapStores, installed: readonly Installed[], log: (line: string) => void = () => undefined): Promise<void> {
  for (const role of withAggregatedRules([...bootstrapClusterRoles(installed), ...controllerClusterRoles()])) {
    await ensure(stores.clusterRoles, role, (existing) => reconcileRole(existing as ClusterRole, role), log);
  }
  if (stores.roles) {
    for (const role of bootstrapRoles()) await ensure(stores.roles, role, (existing) => reconcileRole(existing as ClusterRole, role), log);
  }
  for (const b of bootstrapClusterRoleBindings()) {
    await ensure(stores.clusterRoleBindings, b, (existing) => reconcileBinding(existing as ClusterRoleBinding, b), log);
  }
}
