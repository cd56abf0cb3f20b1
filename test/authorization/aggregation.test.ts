/**
 * The ClusterRole aggregation controller (issue 15 item 7): aggregated rules are written back into
 * aggregating ClusterRoles on every change of a matching role, as kube's clusterroleaggregation
 * controller does (server-side apply by `clusterrole-aggregation-controller`), and those writes
 * pass the RBAC escalation check as its own identity.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { LabelSelectorError } from '../../runtime/api/labels.js';
import { aggregateClusterRoleRules, rulesEqual, type ClusterRole, type PolicyRule } from '../../runtime/authorization/index.js';
import { clusterRole } from './helpers.js';
import { policyObjects, RBAC, W } from './matrix.js';
import { startRBACServer, type RBACServer } from './rbacserver.js';

const R = `/apis/${RBAC}/v1`;
const TO_VIEW = 'rbac.authorization.k8s.io/aggregate-to-view';
const CONTROLLER = 'system:controller:clusterrole-aggregation-controller';

describe('aggregateClusterRoleRules', () => {
  const get = (verb: string, resource: string): PolicyRule => ({ verbs: [verb], apiGroups: [W], resources: [resource] });

  it('gathers the selected roles by selector then name, each rule once, never the role itself', () => {
    const agg = clusterRole('agg', [get('own', 'rule')], { pick: 'me' });
    agg.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { pick: 'me' } }, { matchExpressions: [{ key: 'second', operator: 'Exists' }] }] };
    const roles: ClusterRole[] = [
      agg,
      clusterRole('b', [get('get', 'widgets'), get('list', 'widgets')], { pick: 'me' }),
      clusterRole('a', [get('list', 'widgets'), { ...get('get', 'gadgets'), resourceNames: [] }], { pick: 'me' }),
      clusterRole('Z', [get('watch', 'widgets')], { pick: 'me' }),
      clusterRole('c', [get('delete', 'widgets'), get('get', 'widgets')], { second: '' }),
      clusterRole('d', [get('patch', 'widgets')], { pick: 'other' }),
    ];
    const rules = aggregateClusterRoleRules(agg, roles, (r) => r.rules ?? []);
    // Go sorts names by bytes: "Z" before "a".
    assert.deepEqual(rules, [get('watch', 'widgets'), get('list', 'widgets'), { ...get('get', 'gadgets'), resourceNames: [] }, get('get', 'widgets'), get('delete', 'widgets')]);
  });

  it('throws for a selector LabelSelectorAsSelector refuses, failing the sync as kube\'s controller does', () => {
    const agg = clusterRole('agg', []);
    agg.aggregationRule = { clusterRoleSelectors: [{ matchExpressions: [{ key: 'second', operator: 'Exists', values: ['x'] }] }] };
    assert.throws(() => aggregateClusterRoleRules(agg, [agg, clusterRole('b', [get('get', 'widgets')], { second: '' })], (r) => r.rules ?? []), LabelSelectorError);
  });

  it('compares rules as Semantic.DeepEqual does: an empty list is no list', () => {
    assert.equal(rulesEqual([{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]), true);
    assert.equal(rulesEqual([], undefined), true);
    assert.equal(rulesEqual([get('get', 'a'), get('get', 'b')], [get('get', 'b'), get('get', 'a')]), false);
  });
});

describe('the ClusterRole aggregation controller in a server', () => {
  let rbac: RBACServer;
  const logs: string[] = [];
  const admin = () => rbac.as.admin!;
  const viewRules = async (): Promise<PolicyRule[]> => (await admin()('GET', `${R}/clusterroles/view`)).body.rules ?? [];
  const hasRule = (rules: PolicyRule[], rule: PolicyRule) => rules.some((r) => JSON.stringify(r) === JSON.stringify(rule));
  const DELETE_WIDGETS: PolicyRule = { apiGroups: [W], resources: ['widgets'], verbs: ['delete'] };
  const labelled = (name: string, labels: Record<string, string>, rules: PolicyRule[]) => ({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name, labels }, rules });

  async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
    for (let i = 0; i < 1000; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  before(async () => {
    rbac = await startRBACServer({ controllers: true, log: (line) => logs.push(line) });
    for (const ns of ['ns1', 'ns2']) await admin()('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
    for (const { path, body } of policyObjects()) assert.equal((await admin()('POST', path, { body })).status, 201);
  });
  after(() => rbac?.close());

  it('writes a newly labelled role\'s rules into view, by server-side apply, and takes them out again', async () => {
    assert.equal(hasRule(await viewRules(), DELETE_WIDGETS), false);
    assert.equal((await admin()('POST', `${R}/clusterroles`, { body: labelled('widget-deleter', { [TO_VIEW]: 'true' }, [DELETE_WIDGETS]) })).status, 201);
    await eventually(async () => hasRule(await viewRules(), DELETE_WIDGETS), 'view to gather widget-deleter');
    const view = (await admin()('GET', `${R}/clusterroles/view`)).body;
    const entry = view.metadata.managedFields.find((m: { manager: string }) => m.manager === 'clusterrole-aggregation-controller');
    assert.ok(entry, JSON.stringify(view.metadata.managedFields));
    assert.equal(entry.operation, 'Apply');
    assert.ok(entry.fieldsV1['f:rules'], JSON.stringify(entry));
    // edit and admin aggregate view: they follow.
    for (const name of ['edit', 'admin']) {
      await eventually(async () => hasRule((await admin()('GET', `${R}/clusterroles/${name}`)).body.rules, DELETE_WIDGETS), `${name} to gather it`);
    }
    // bob (group viewers, bound to view) may now delete widgets; the authorizer agrees with what is stored.
    await eventually(async () => (await rbac.as.bob!('DELETE', `/apis/${W}/v1/namespaces/ns1/widgets/none`)).status === 404, 'bob to delete widgets');
    const relabelled = await admin()('PATCH', `${R}/clusterroles/widget-deleter`, { body: { metadata: { labels: { [TO_VIEW]: null } } }, contentType: 'application/merge-patch+json' });
    assert.equal(relabelled.status, 200, relabelled.text);
    await eventually(async () => !hasRule(await viewRules(), DELETE_WIDGETS), 'view to drop widget-deleter');
    assert.equal((await rbac.as.bob!('DELETE', `/apis/${W}/v1/namespaces/ns1/widgets/none`)).status, 403);
  });

  it('overwrites rules written by hand into an aggregating role, which never grant anything', async () => {
    const before = await viewRules();
    const GET_SECRETS: PolicyRule = { apiGroups: [''], resources: ['secrets'], verbs: ['get'] };
    const patched = await admin()('PATCH', `${R}/clusterroles/view`, { body: [{ op: 'add', path: '/rules/-', value: GET_SECRETS }], contentType: 'application/json-patch+json' });
    assert.equal(patched.status, 200, patched.text);
    assert.equal((await rbac.as.bob!('GET', '/api/v1/namespaces/ns1/secrets/x')).status, 403);
    await eventually(async () => rulesEqual(await viewRules(), before), 'the controller to restore view');
  });

  it('kubectl get clusterrole view -o yaml shows the aggregated rules', async () => {
    const rule: PolicyRule = { apiGroups: [W], resources: ['gadgets/status'], verbs: ['get'] };
    assert.equal((await admin()('POST', `${R}/clusterroles`, { body: labelled('gadget-status-reader', { [TO_VIEW]: 'true' }, [rule]) })).status, 201);
    await eventually(async () => hasRule(await viewRules(), rule), 'view to gather gadget-status-reader');
    const yaml = await new Promise<string>((resolve, reject) =>
      execFile('kubectl', ['get', 'clusterrole', 'view', '-o', 'yaml'], { env: { ...process.env, KUBECONFIG: rbac.server.kubeconfigPath!, HOME: rbac.dataDir }, timeout: 60_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    const view = parse(yaml) as ClusterRole;
    assert.ok(hasRule(view.rules ?? [], rule), yaml);
  });

  it('writes as its own identity, through the escalation check: without escalate it is refused', async () => {
    // Take the controller's escalate away (autoupdate=false keeps the bootstrap from restoring it).
    const noEscalate = { metadata: { annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, rules: [{ apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['get', 'list', 'patch', 'update', 'watch'] }] };
    assert.equal((await admin()('PATCH', `${R}/clusterroles/${CONTROLLER}`, { body: noEscalate, contentType: 'application/merge-patch+json' })).status, 200);
    const rule: PolicyRule = { apiGroups: [W], resources: ['gadgets'], verbs: ['delete'] };
    assert.equal((await admin()('POST', `${R}/clusterroles`, { body: labelled('gadget-deleter', { [TO_VIEW]: 'true' }, [rule]) })).status, 201);
    await eventually(async () => logs.some((l) => l.includes('clusterrole-aggregation-controller: view:') && l.includes('attempting to grant RBAC permissions not currently held')), 'the refusal in the log');
    const refusal = logs.find((l) => l.includes('clusterrole-aggregation-controller: view:'))!;
    assert.match(refusal, /clusterroles\.rbac\.authorization\.k8s\.io "view" is forbidden: user "system:serviceaccount:kube-system:clusterrole-aggregation-controller"/);
    assert.equal(hasRule(await viewRules(), rule), false, 'nothing was written');
    // Given escalate back, it catches up.
    const restored = { rules: [{ apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['escalate', 'get', 'list', 'patch', 'update', 'watch'] }] };
    assert.equal((await admin()('PATCH', `${R}/clusterroles/${CONTROLLER}`, { body: restored, contentType: 'application/merge-patch+json' })).status, 200);
    await eventually(async () => hasRule(await viewRules(), rule), 'view to gather gadget-deleter');
  });
});
