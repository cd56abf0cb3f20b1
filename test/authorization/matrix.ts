/**
 * The authorization matrix shared by the HTTP matrix test and the `kubectl auth can-i` test:
 * users (static tokens) and groups, the Roles, ClusterRoles and bindings that grant them access at
 * namespace and cluster scope, an independent statement of what each user may do, and every
 * (verb, resource/subresource, namespace) case with the request that exercises it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Requester } from './https.js';

export const W = 'widgets.example.com';
export const RBAC = 'rbac.authorization.k8s.io';
export const NAMESPACES = ['ns1', 'ns2'] as const;
export const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'] as const;
export const SUB_VERBS = ['get', 'update', 'patch'] as const;
const READ = ['get', 'list', 'watch'];

/** user → [token, groups]. root is in system:masters; erin is bound to nothing. */
export const USERS: Record<string, [string, string[]]> = {
  root: ['token-root', ['system:masters']],
  alice: ['token-alice', []],
  bob: ['token-bob', ['viewers']],
  carol: ['token-carol', []],
  dave: ['token-dave', ['scalers']],
  erin: ['token-erin', []],
  frank: ['token-frank', []],
};

export function writeTokenFile(dir: string): string {
  const path = join(dir, 'tokens.csv');
  const lines = Object.entries(USERS).map(([name, [token, groups]], i) => `${token},${name},uid-${i}${groups.length ? `,"${groups.join(',')}"` : ''}`);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

/** What each user may do, stated independently of the RBAC objects below (which must agree). */
export function expectAllowed(user: string, c: { namespace: string; resource: string; verb: string }): boolean {
  const { namespace, resource, verb } = c;
  const rbacKind = ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'].includes(resource);
  switch (user) {
    case 'root':
      return true;
    case 'alice': // Role widget-editor, bound in ns1
      return namespace === 'ns1' && (resource === 'widgets' || (resource === 'widgets/status' && verb !== 'list'));
    case 'bob': // group viewers: ClusterRole view, cluster-wide
      return ['widgets', 'widgets/status', 'widgets/scale', 'namespaces'].includes(resource) && READ.includes(verb);
    case 'carol': // ClusterRole admin bound in ns2 (a namespace "is in itself")
      if (namespace !== 'ns2') return false;
      if (['widgets', 'widgets/scale', 'roles', 'rolebindings'].includes(resource)) return true;
      return (resource === 'widgets/status' || resource === 'namespaces') && verb === 'get';
    case 'dave': // group scalers: ClusterRole scaler (*/scale) bound in ns1
      return namespace === 'ns1' && resource === 'widgets/scale';
    case 'frank': // ClusterRole rbac-manager, cluster-wide
      return rbacKind || (resource === 'namespaces' && READ.includes(verb));
    default:
      return false;
  }
}

const obj = (apiVersion: string, kind: string, metadata: Record<string, unknown>, rest: Record<string, unknown> = {}) => ({ apiVersion, kind, metadata, ...rest });
const ALL = [...VERBS];

/** The policy under test, created by the admin. */
export function policyObjects(): { path: string; body: unknown }[] {
  const rbac = `/apis/${RBAC}/v1`;
  const role = (ns: string, name: string, rules: unknown[]) => ({ path: `${rbac}/namespaces/${ns}/roles`, body: obj(`${RBAC}/v1`, 'Role', { name }, { rules }) });
  const clusterRole = (name: string, rules: unknown[]) => ({ path: `${rbac}/clusterroles`, body: obj(`${RBAC}/v1`, 'ClusterRole', { name }, { rules }) });
  const subject = (kind: string, name: string) => ({ kind, apiGroup: RBAC, name });
  const roleBinding = (ns: string, name: string, kind: string, roleName: string, subjects: unknown[]) => ({
    path: `${rbac}/namespaces/${ns}/rolebindings`,
    body: obj(`${RBAC}/v1`, 'RoleBinding', { name }, { roleRef: { apiGroup: RBAC, kind, name: roleName }, subjects }),
  });
  const clusterBinding = (name: string, roleName: string, subjects: unknown[]) => ({
    path: `${rbac}/clusterrolebindings`,
    body: obj(`${RBAC}/v1`, 'ClusterRoleBinding', { name }, { roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName }, subjects }),
  });
  return [
    role('ns1', 'widget-editor', [
      { apiGroups: [W], resources: ['widgets'], verbs: ALL },
      { apiGroups: [W], resources: ['widgets/status'], verbs: ['get', 'update', 'patch'] },
    ]),
    roleBinding('ns1', 'alice-edits', 'Role', 'widget-editor', [subject('User', 'alice')]),
    clusterBinding('viewers-view', 'view', [subject('Group', 'viewers')]),
    roleBinding('ns2', 'carol-admin', 'ClusterRole', 'admin', [subject('User', 'carol')]),
    clusterRole('scaler', [{ apiGroups: ['*'], resources: ['*/scale'], verbs: ['get', 'update', 'patch'] }]),
    roleBinding('ns1', 'scalers', 'ClusterRole', 'scaler', [subject('Group', 'scalers')]),
    clusterRole('rbac-manager', [
      // Every verb but escalate and bind: writing roles and bindings is subject to escalation checks.
      { apiGroups: [RBAC], resources: ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'], verbs: ALL },
      { apiGroups: [''], resources: ['namespaces'], verbs: READ },
    ]),
    clusterBinding('frank-rbac', 'rbac-manager', [subject('User', 'frank')]),
    clusterRole('empty', []),
  ];
}

export interface Case {
  namespace: string;
  group: string;
  /** `widgets` or `widgets/status`. */
  resource: string;
  verb: string;
  /** The object's name for get/update/patch/delete ('' otherwise). */
  name: string;
}

export const mainResource = (c: Case) => c.resource.split('/')[0]!;
export const subresourceOf = (c: Case) => c.resource.split('/')[1] ?? '';

/** Every case: namespaced kinds in both namespaces, cluster-scoped kinds once, namespaces by name. */
export function allCases(): Case[] {
  const cases: Case[] = [];
  const nameFor = (verb: string, name = 'target') => (['get', 'update', 'patch', 'delete'].includes(verb) ? name : '');
  for (const namespace of NAMESPACES) {
    for (const [group, resource] of [[W, 'widgets'], [RBAC, 'roles'], [RBAC, 'rolebindings']] as const) {
      for (const verb of VERBS) cases.push({ namespace, group, resource, verb, name: nameFor(verb) });
    }
    for (const sub of ['status', 'scale']) for (const verb of SUB_VERBS) cases.push({ namespace, group: W, resource: `widgets/${sub}`, verb, name: 'target' });
    // A namespace is addressed by name, and "is in itself".
    for (const verb of ['get', 'update', 'patch']) cases.push({ namespace, group: '', resource: 'namespaces', verb, name: namespace });
  }
  for (const resource of ['clusterroles', 'clusterrolebindings']) {
    for (const verb of VERBS) cases.push({ namespace: '', group: RBAC, resource, verb, name: nameFor(verb) });
  }
  for (const verb of ['list', 'watch', 'create']) cases.push({ namespace: '', group: '', resource: 'namespaces', verb, name: '' });
  cases.push({ namespace: '', group: '', resource: 'namespaces', verb: 'delete', name: 'victim' });
  return cases;
}

/** kube's 403 message for a case the user may not do. */
export function forbiddenMessage(user: string, c: Case, name: string): string {
  const main = mainResource(c);
  const qualified = c.group ? `${main}.${c.group}` : main;
  // RequestInfo puts a namespace's own name in the namespace field.
  const namespace = main === 'namespaces' && name ? name : c.namespace;
  const where = namespace ? `in the namespace ${JSON.stringify(namespace)}` : 'at the cluster scope';
  const what = `User ${JSON.stringify(user)} cannot ${c.verb} resource ${JSON.stringify(c.resource)} in API group ${JSON.stringify(c.group)} ${where}`;
  return name ? `${qualified} ${JSON.stringify(name)} is forbidden: ${what}` : `${qualified} is forbidden: ${what}`;
}

function collectionPath(group: string, resource: string, namespace: string): string {
  const base = group ? `/apis/${group}/v1` : '/api/v1';
  return namespace && resource !== 'namespaces' ? `${base}/namespaces/${namespace}/${resource}` : `${base}/${resource}`;
}

function kindOf(resource: string): [string, string] {
  const kinds: Record<string, [string, string]> = {
    widgets: [`${W}/v1`, 'Widget'],
    roles: [`${RBAC}/v1`, 'Role'],
    rolebindings: [`${RBAC}/v1`, 'RoleBinding'],
    clusterroles: [`${RBAC}/v1`, 'ClusterRole'],
    clusterrolebindings: [`${RBAC}/v1`, 'ClusterRoleBinding'],
    namespaces: ['v1', 'Namespace'],
  };
  return kinds[resource]!;
}

/** A valid object of a resource, harmless to grant (empty rules, a binding to the empty role). */
export function objectFor(resource: string, name: string, labels: Record<string, string> = {}): Record<string, unknown> {
  const [apiVersion, kind] = kindOf(resource);
  const metadata = { name, labels };
  if (resource === 'widgets') return obj(apiVersion, kind, metadata, { spec: { replicas: 1 } });
  if (resource === 'roles' || resource === 'clusterroles') return obj(apiVersion, kind, metadata, { rules: [] });
  if (resource.endsWith('bindings')) return obj(apiVersion, kind, metadata, { roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'empty' }, subjects: [] });
  return obj(apiVersion, kind, metadata);
}

/** The objects every case's get/update/patch works on. */
export function fixtureObjects(): { path: string; body: unknown }[] {
  const out: { path: string; body: unknown }[] = [];
  for (const ns of NAMESPACES) {
    for (const [group, resource] of [[W, 'widgets'], [RBAC, 'roles'], [RBAC, 'rolebindings']] as const) out.push({ path: collectionPath(group, resource, ns), body: objectFor(resource, 'target') });
  }
  for (const resource of ['clusterroles', 'clusterrolebindings']) out.push({ path: collectionPath(RBAC, resource, ''), body: objectFor(resource, 'target') });
  return out;
}

let counter = 0;

/**
 * Performs a case as `request`; the admin (`admin`) first creates what a delete or
 * deletecollection removes. Returns the reply and the name the 403 message carries.
 */
export async function perform(c: Case, request: Requester, admin: Requester): Promise<{ status: number; body: { message?: string; reason?: string } | undefined; text: string; name: string }> {
  const main = mainResource(c);
  const sub = subresourceOf(c);
  const collection = collectionPath(c.group, main, c.namespace);
  const unique = `v${++counter}`;
  const ensure = async (body: unknown) => {
    const r = await admin('POST', collection, { body });
    if (r.status !== 201) throw new Error(`admin could not create ${collection}: ${r.status} ${r.text}`);
  };
  let name = c.name;
  let reply;
  switch (c.verb) {
    case 'get':
      reply = await request('GET', `${collection}/${name}${sub ? `/${sub}` : ''}`);
      break;
    case 'list':
      reply = await request('GET', collection);
      break;
    case 'watch':
      reply = await request('GET', `${collection}?watch=true`, { headersOnly: true });
      break;
    case 'create':
      reply = await request('POST', collection, { body: objectFor(main, `c-${unique}`) });
      break;
    case 'update': {
      const body = sub === 'scale' ? { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name, namespace: c.namespace }, spec: { replicas: 2 } } : objectFor(main, name, { updated: unique });
      if (sub === 'status') (body as Record<string, unknown>).status = { phase: unique };
      reply = await request('PUT', `${collection}/${name}${sub ? `/${sub}` : ''}`, { body });
      break;
    }
    case 'patch': {
      const patch = sub === 'scale' ? { spec: { replicas: 3 } } : sub === 'status' ? { status: { phase: unique } } : { metadata: { labels: { patched: unique } } };
      reply = await request('PATCH', `${collection}/${name}${sub ? `/${sub}` : ''}`, { body: patch, contentType: 'application/merge-patch+json' });
      break;
    }
    case 'delete':
      name = `d-${unique}`;
      await ensure(objectFor(main, name));
      reply = await request('DELETE', `${collection}/${name}`);
      break;
    case 'deletecollection':
      await ensure(objectFor(main, `d-${unique}`, { victim: unique }));
      reply = await request('DELETE', `${collection}?labelSelector=victim%3D${unique}`);
      break;
    default:
      throw new Error(`unknown verb ${c.verb}`);
  }
  return { ...reply, name };
}
