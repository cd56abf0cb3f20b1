/**
 * Real kubectl against a server with the secure defaults (HTTPS, the written admin kubeconfig,
 * a static token file, RBAC):
 * - `kubectl auth can-i … --as` (the admin impersonating) answers as the authorization matrix: the
 *   server's answer to every question over the matrix slice, as one SelfSubjectAccessReview with
 *   kubectl's impersonation headers each, and kubectl itself asking each question for a user it
 *   allows and one it denies;
 * - `kubectl auth can-i --list` (SelfSubjectRulesReview);
 * - kubectl with a token from the token file is limited to that user's RBAC;
 * - `kubectl create role/clusterrole/rolebinding/clusterrolebinding`, with escalation refused.
 *
 * The server runs in this process, so kubectl runs asynchronously.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { buildKubeconfig } from '../../runtime/controlplane/kubeconfig.js';
import { allCases, expectAllowed, fixtureObjects, policyObjects, USERS, type Case } from '../authorization/matrix.js';
import { startRBACServer, waitUntil, type RBACServer } from '../authorization/rbacserver.js';

let rbac: RBACServer;
let adminConfig: string;
const tokenConfig: Record<string, string> = {};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function kubectl(kubeconfig: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    // HOME: kubectl's discovery cache stays with this server's data.
    execFile('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: rbac.dataDir }, timeout: 30_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

async function kubectlOk(kubeconfig: string, args: string[]): Promise<string> {
  const r = await kubectl(kubeconfig, args);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** Runs fn over items, at most `limit` at a time. */
async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

before(async () => {
  rbac = await startRBACServer();
  adminConfig = rbac.server.kubeconfigPath!;
  const admin = rbac.as.admin!;
  for (const ns of ['ns1', 'ns2']) await admin('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
  for (const { path, body } of [...policyObjects(), ...fixtureObjects()]) assert.equal((await admin('POST', path, { body })).status, 201);
  await waitUntil(async () => (await rbac.as.frank!('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/empty')).status === 200);
  for (const [user, [token]] of Object.entries(USERS)) {
    const path = join(rbac.dataDir, `kubeconfig-${user}`);
    writeFileSync(path, stringify(buildKubeconfig({ server: rbac.server.url, certificateAuthority: rbac.server.credentials!.servingCA, token })), { mode: 0o600 });
    tokenConfig[user] = path;
  }
});

after(() => rbac?.close());

/**
 * A slice of the matrix that touches every user, both namespaces, cluster scope, each
 * subresource and each kind (kubectl is slow to start; the HTTP matrix covers every verb).
 */
const CAN_I: Record<string, string[]> = {
  widgets: ['get', 'delete', 'deletecollection'],
  'widgets/status': ['update'],
  'widgets/scale': ['patch'],
  roles: ['create'],
  rolebindings: ['list'],
  namespaces: ['get', 'list'],
  clusterroles: ['create'],
  clusterrolebindings: ['watch'],
};

function canICases(): Case[] {
  return allCases().filter((c) => CAN_I[c.resource]?.includes(c.verb) && !(c.resource === 'namespaces' && c.verb === 'delete'));
}

function canIArgs(user: string, c: Case): string[] {
  const [resource, sub] = c.resource.split('/');
  const args = ['auth', 'can-i', c.verb, c.name && c.resource === 'namespaces' ? `namespaces/${c.name}` : resource!];
  if (sub) args.push(`--subresource=${sub}`);
  // A cluster-scoped question has no namespace; a namespace "is in itself".
  args.push(...(c.namespace ? ['-n', c.namespace] : ['--all-namespaces']));
  args.push(`--as=${user}`, ...USERS[user]![1].map((g) => `--as-group=${g}`));
  return args;
}

const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';

/** The SelfSubjectAccessReview `kubectl auth can-i` sends for a case (its resource resolved by discovery). */
function canIReview(c: Case): { apiVersion: string; kind: string; spec: { resourceAttributes: Record<string, string> } } {
  const [resource, subresource] = c.resource.split('/');
  const attrs: Record<string, string> = { namespace: c.namespace, verb: c.verb, group: c.group, resource: resource! };
  if (subresource) attrs.subresource = subresource;
  if (c.name && c.resource === 'namespaces') attrs.name = c.name;
  return { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: attrs } };
}

/** What kubectl's --as and --as-group send. */
function impersonation(user: string): Record<string, string> {
  const groups = USERS[user]![1];
  assert.ok(groups.length <= 1, 'one Impersonate-Group header per group');
  return { 'impersonate-user': user, ...(groups.length ? { 'impersonate-group': groups[0]! } : {}) };
}

/**
 * For each case, one user it allows and one it denies, the users taken in turn so that each is
 * asked as (and bob's and dave's --as-group counts). Every case has both: root may do anything,
 * erin nothing.
 */
function kubectlCanIJobs(): { user: string; c: Case }[] {
  const users = Object.keys(USERS);
  const jobs: { user: string; c: Case }[] = [];
  canICases().forEach((c, i) => {
    for (const allowed of [true, false]) {
      for (let k = 0; k < users.length; k++) {
        const user = users[(i + k) % users.length]!;
        if (expectAllowed(user, c) === allowed) {
          jobs.push({ user, c });
          break;
        }
      }
    }
  });
  return jobs;
}

describe('kubectl and RBAC', () => {
  it('kubectl auth can-i --as <user> answers as the authorization matrix', async () => {
    const failures: string[] = [];
    // The server's answer to each question (as kubectl would ask it) for every user: one SSAR each.
    const questions = Object.keys(USERS).flatMap((user) => canICases().map((c) => ({ user, c })));
    assert.ok(questions.length > 100, `${questions.length} questions`);
    await pool(questions, 6, async ({ user, c }) => {
      const expected = expectAllowed(user, c);
      const r = await rbac.as.admin!('POST', SSAR, { body: canIReview(c), headers: impersonation(user) });
      if (r.status !== 201 || r.body?.status?.allowed !== expected) failures.push(`SSAR as ${user} ${JSON.stringify(canIReview(c).spec)}: expected ${expected}, got ${r.status} ${r.text}`);
    });
    // kubectl asks each question twice: as a user it allows and as one it denies (users in turn).
    const jobs = kubectlCanIJobs();
    await pool(jobs, 6, async ({ user, c }) => {
      const args = canIArgs(user, c);
      const r = await kubectl(adminConfig, args);
      const expected = expectAllowed(user, c) ? 'yes' : 'no';
      if (r.stdout.trim() !== expected || r.code !== (expected === 'yes' ? 0 : 1)) failures.push(`kubectl ${args.join(' ')}: expected ${expected}, got ${r.code} ${r.stdout.trim()} ${r.stderr.trim()}`);
    });
    assert.deepEqual(failures, []);
    assert.deepEqual(new Set(jobs.map((j) => j.user)), new Set(Object.keys(USERS)), 'kubectl asks as every user');
    assert.equal(jobs.length, 2 * canICases().length, `${jobs.length} kubectl questions`);
  });

  it('kubectl auth can-i --list shows the rules of the user in the namespace', async () => {
    const alice = await kubectlOk(adminConfig, ['auth', 'can-i', '--list', '-n', 'ns1', '--as=alice']);
    const line = alice.split('\n').find((l) => l.startsWith('widgets.widgets.example.com '));
    assert.ok(line, alice);
    assert.match(line, /\[\]\s+\[\]\s+\[get list watch create update patch delete deletecollection\]$/);
    assert.match(alice, /^widgets\.widgets\.example\.com\/status\s+\[\]\s+\[\]\s+\[get update patch\]$/m);
    assert.match(alice, /^\s+\[\/apis\/\*\]\s+\[\]\s+\[get\]$/m);
    assert.match(alice, /^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m);
    const elsewhere = await kubectlOk(adminConfig, ['auth', 'can-i', '--list', '-n', 'ns2', '--as=alice']);
    assert.doesNotMatch(elsewhere, /^widgets/m);
    const viaToken = await kubectlOk(tokenConfig.dave!, ['auth', 'can-i', '--list', '-n', 'ns1']);
    assert.match(viaToken, /^\*\.\*\/scale\s+\[\]\s+\[\]\s+\[get update patch\]$/m);
  });

  it('kubectl with a token from the token file is limited to its RBAC', async () => {
    const alice = tokenConfig.alice!;
    const created = await kubectl(alice, ['apply', '-n', 'ns1', '--validate=false', '-f', writeManifest('w-alice')]);
    assert.equal(created.code, 0, created.stderr);
    assert.match(await kubectlOk(alice, ['get', 'widgets', '-n', 'ns1']), /^w-alice\s/m);
    const denied = await kubectl(alice, ['get', 'widgets', '-n', 'ns2']);
    assert.equal(denied.code, 1);
    assert.equal(denied.stderr.trim(), 'Error from server (Forbidden): widgets.widgets.example.com is forbidden: User "alice" cannot list resource "widgets" in API group "widgets.example.com" in the namespace "ns2"');
    const status = await kubectl(alice, ['get', 'namespaces']);
    assert.match(status.stderr, /namespaces is forbidden: User "alice" cannot list resource "namespaces" in API group "" at the cluster scope/);
    assert.equal((await kubectl(alice, ['auth', 'can-i', 'delete', 'widgets', '-n', 'ns1'])).stdout.trim(), 'yes');
    assert.equal((await kubectl(alice, ['auth', 'can-i', 'delete', 'widgets', '-n', 'ns2'])).stdout.trim(), 'no');
    // Impersonation needs the impersonate verb.
    const impersonating = await kubectl(alice, ['get', 'widgets', '-n', 'ns1', '--as=root']);
    assert.equal(impersonating.code, 1);
    assert.match(impersonating.stderr, /users "root" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope/);
  });

  it('kubectl create role/clusterrole/rolebinding/clusterrolebinding, with escalation refused', async () => {
    await kubectlOk(adminConfig, ['create', 'clusterrole', 'gadget-reader', '--verb=get,list', '--resource=gadgets']);
    await kubectlOk(adminConfig, ['create', 'clusterrole', 'health-reader', '--verb=get', '--non-resource-url=/healthz/*']);
    await kubectlOk(adminConfig, ['create', 'clusterrolebinding', 'erin-gadgets', '--clusterrole=gadget-reader', '--user=erin']);
    const gadgetRule = JSON.parse(await kubectlOk(adminConfig, ['get', 'clusterrole', 'gadget-reader', '-o', 'json'])).rules;
    assert.deepEqual(gadgetRule, [{ apiGroups: ['widgets.example.com'], resources: ['gadgets'], verbs: ['get', 'list'] }]);
    // kube's role printer: NAME and CREATED AT (RFC 3339), no AGE.
    const [header, row] = (await kubectlOk(adminConfig, ['get', 'clusterrole', 'gadget-reader'])).trim().split('\n').map((l) => l.trim().split(/\s{2,}/));
    assert.deepEqual(header, ['NAME', 'CREATED AT']);
    assert.equal(row![0], 'gadget-reader');
    assert.match(row![1]!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    await waitUntil(async () => (await kubectl(tokenConfig.erin!, ['get', 'gadgets'])).code === 0, 'erin to list gadgets');
    // carol administers ns2: she may hand out what she holds there, and nothing more.
    const carol = tokenConfig.carol!;
    await kubectlOk(carol, ['create', 'role', 'widget-scaler', '-n', 'ns2', '--verb=get,update', '--resource=widgets/scale']);
    await kubectlOk(carol, ['create', 'rolebinding', 'erin-scales', '-n', 'ns2', '--role=widget-scaler', '--user=erin']);
    assert.match(await kubectlOk(carol, ['get', 'roles,rolebindings', '-n', 'ns2']), /widget-scaler[\s\S]*erin-scales/);
    const escalation = await kubectl(carol, ['create', 'role', 'ns-deleter', '-n', 'ns2', '--verb=delete', '--resource=namespaces']);
    assert.equal(escalation.code, 1);
    assert.equal(
      escalation.stderr.trim(),
      'Error from server (Forbidden): roles.rbac.authorization.k8s.io "ns-deleter" is forbidden: user "carol" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["namespaces"], Verbs:["delete"]}',
    );
    const bindAdmin = await kubectl(carol, ['create', 'clusterrolebinding', 'carol-root', '--clusterrole=cluster-admin', '--user=carol']);
    assert.equal(bindAdmin.code, 1);
    assert.match(bindAdmin.stderr, /clusterrolebindings.rbac.authorization.k8s.io is forbidden: User "carol" cannot create resource "clusterrolebindings"/);
  });
});

describe('kubectl and the aggregationRule escalation (issue 12 item 1)', () => {
  const PATCH = '{"aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"kubernetes.io/bootstrapping":"rbac-defaults"}}]}}';

  it('a user with only get and patch on clusterroles cannot aggregate everything into system:basic-user', async () => {
    await kubectlOk(adminConfig, ['create', 'clusterrole', 'clusterrole-patcher', '--verb=get,patch', '--resource=clusterroles.rbac.authorization.k8s.io']);
    await kubectlOk(adminConfig, ['create', 'clusterrolebinding', 'erin-patches-clusterroles', '--clusterrole=clusterrole-patcher', '--user=erin']);
    const erin = tokenConfig.erin!;
    await waitUntil(async () => (await kubectl(erin, ['get', 'clusterrole', 'system:basic-user'])).code === 0, 'erin to get clusterroles');
    const probe = await kubectl(erin, ['patch', 'clusterrole', 'system:basic-user', '--type=merge', '-p', PATCH]);
    assert.equal(probe.code, 1, probe.stdout);
    assert.equal(probe.stderr.trim(), 'Error from server (Forbidden): clusterroles.rbac.authorization.k8s.io "system:basic-user" is forbidden: must have cluster-admin privileges to use the aggregationRule');
    const basic = JSON.parse(await kubectlOk(adminConfig, ['get', 'clusterrole', 'system:basic-user', '-o', 'json']));
    assert.equal(basic.aggregationRule, undefined);
    // Nothing was gained: erin still cannot bind herself cluster-admin or list namespaces.
    const bind = await kubectl(erin, ['create', 'clusterrolebinding', 'erin-root', '--clusterrole=cluster-admin', '--user=erin']);
    assert.equal(bind.code, 1);
    assert.match(bind.stderr, /forbidden: User "erin" cannot create resource "clusterrolebindings"/);
    assert.equal((await kubectl(erin, ['auth', 'can-i', 'list', 'namespaces'])).stdout.trim(), 'no');
  });

  it('creating a ClusterRole with an aggregationRule needs cluster-admin too', async () => {
    const frank = tokenConfig.frank!;
    const created = await kubectl(frank, ['create', 'clusterrole', 'gather-defaults', '--aggregation-rule=kubernetes.io/bootstrapping=rbac-defaults']);
    assert.equal(created.code, 1, created.stdout);
    assert.equal(created.stderr.trim(), 'Error from server (Forbidden): clusterroles.rbac.authorization.k8s.io "gather-defaults" is forbidden: must have cluster-admin privileges to use the aggregationRule');
    await kubectlOk(adminConfig, ['create', 'clusterrole', 'gather-defaults', '--aggregation-rule=kubernetes.io/bootstrapping=rbac-defaults']);
  });
});

function writeManifest(name: string): string {
  const path = join(rbac.dataDir, `${name}.json`);
  writeFileSync(path, JSON.stringify({ apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name }, spec: { replicas: 1 } }));
  return path;
}
