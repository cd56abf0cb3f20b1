/**
 * The bootstrap policy: created at first start, reconciled (not duplicated, not rewritten) at
 * every later start, as kube's RBAC bootstrap hook; autoupdate=false protects an object.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { RBAC } from './matrix.js';
import { startRBACServer } from './rbacserver.js';

const R = `/apis/${RBAC}/v1`;
const dataDir = mkdtempSync(join(tmpdir(), 'kgen-rbac-bootstrap-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

const BOOTSTRAP_ROLES = ['admin', 'cluster-admin', 'edit', 'system:aggregate-to-admin', 'system:aggregate-to-edit', 'system:aggregate-to-view', 'system:auth-delegator', 'system:basic-user', 'system:controller:clusterrole-aggregation-controller', 'system:discovery', 'system:monitoring', 'system:public-info-viewer', 'system:service-account-issuer-discovery', 'view'];
const BOOTSTRAP_BINDINGS = ['cluster-admin', 'system:basic-user', 'system:controller:clusterrole-aggregation-controller', 'system:discovery', 'system:monitoring', 'system:public-info-viewer', 'system:service-account-issuer-discovery'];

async function withServer<T>(fn: (admin: (m: string, p: string, o?: { body?: unknown; contentType?: string }) => Promise<{ status: number; body: any }>) => Promise<T>): Promise<T> {
  const rbac = await startRBACServer({ storage: 'sqlite:', dataDir });
  try {
    return await fn(rbac.as.admin!);
  } finally {
    await rbac.close();
  }
}

const names = (list: { items: { metadata: { name: string } }[] }) => list.items.map((i) => i.metadata.name).sort();
const versions = (list: { items: { metadata: { name: string; resourceVersion: string } }[] }) => Object.fromEntries(list.items.map((i) => [i.metadata.name, i.metadata.resourceVersion]));

describe('RBAC bootstrap policy', () => {
  let firstVersions: Record<string, string> = {};

  it('creates kube\'s default roles and bindings at first start, covering the installed resources', async () => {
    await withServer(async (admin) => {
      const roles = (await admin('GET', `${R}/clusterroles`)).body;
      assert.deepEqual(names(roles), BOOTSTRAP_ROLES);
      const bindings = (await admin('GET', `${R}/clusterrolebindings`)).body;
      assert.deepEqual(names(bindings), BOOTSTRAP_BINDINGS);
      for (const item of [...roles.items, ...bindings.items]) {
        assert.equal(item.metadata.labels['kubernetes.io/bootstrapping'], 'rbac-defaults');
        assert.equal(item.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate'], 'true');
      }
      const clusterAdmin = (await admin('GET', `${R}/clusterrolebindings/cluster-admin`)).body;
      assert.deepEqual(clusterAdmin.subjects, [{ kind: 'Group', apiGroup: RBAC, name: 'system:masters' }]);
      const view = (await admin('GET', `${R}/clusterroles/view`)).body;
      assert.deepEqual(view.aggregationRule, { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }] });
      assert.deepEqual(view.rules, [
        // As kube's view: no Secrets; Events readable; no Leases; Deployments with their scale and status, claims with theirs.
        { apiGroups: [''], resources: ['configmaps', 'endpoints', 'events', 'namespaces', 'namespaces/status', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'serviceaccounts', 'services', 'services/status'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['apps'], resources: ['deployments', 'deployments/scale', 'deployments/status'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['widgets.example.com'], resources: ['gadgets', 'widgets', 'widgets/scale', 'widgets/status'], verbs: ['get', 'list', 'watch'] },
      ]);
      const edit = (await admin('GET', `${R}/clusterroles/system:aggregate-to-edit`)).body;
      assert.deepEqual(edit.rules, [
        // As kube's edit: Events stay read-only, and Endpoints (kube 1.22, CVE-2021-25740: they
        // steer the aggregator's and webhooks' service resolution); Secrets readable and
        // writable; ServiceAccount tokens and impersonation.
        { apiGroups: [''], resources: ['configmaps', 'persistentvolumeclaims', 'secrets', 'serviceaccounts', 'services'], verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'] },
        { apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'], verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'] },
        { apiGroups: ['widgets.example.com'], resources: ['widgets', 'widgets/scale'], verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] },
        { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
      ]);
      // What that means for a namespace editor or admin (SubjectAccessReviews): they read Endpoints and
      // write ConfigMaps, but cannot write Endpoints, which would redirect an APIService or webhook.
      const sar = async (user: string, verb: string, resource: string, group = '') => {
        const res = await admin('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
          body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user, resourceAttributes: { namespace: 'default', verb, resource, group } } },
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return res.body.status.allowed === true;
      };
      for (const role of ['edit', 'admin']) {
        const user = `${role}-user`;
        const bound = await admin('POST', `${R}/namespaces/default/rolebindings`, {
          body: { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: user }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role }, subjects: [{ apiGroup: RBAC, kind: 'User', name: user }] },
        });
        assert.equal(bound.status, 201, JSON.stringify(bound.body));
        for (const verb of ['create', 'update', 'patch', 'delete']) assert.equal(await sar(user, verb, 'endpoints'), false, `${role} may ${verb} endpoints`);
        assert.equal(await sar(user, 'get', 'endpoints'), true);
        assert.equal(await sar(user, 'create', 'configmaps'), true);
        // kube's aggregate-to-admin: an admin asks what others may do in its namespace; an editor does not.
        assert.equal(await sar(user, 'create', 'localsubjectaccessreviews', 'authorization.k8s.io'), role === 'admin', `${role} and localsubjectaccessreviews`);
        assert.equal((await admin('DELETE', `${R}/namespaces/default/rolebindings/${user}`)).status, 200);
      }
      const toAdmin = (await admin('GET', `${R}/clusterroles/system:aggregate-to-admin`)).body;
      assert.deepEqual(toAdmin.rules, [
        { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'], verbs: ['create'] },
        { apiGroups: [RBAC], resources: ['rolebindings', 'roles'], verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] },
      ]);
      const publicInfo = (await admin('GET', `${R}/clusterrolebindings/system:public-info-viewer`)).body;
      assert.deepEqual(publicInfo.subjects.map((s: { name: string }) => s.name), ['system:authenticated', 'system:unauthenticated']);
      firstVersions = { ...versions(roles), ...versions(bindings) };
    });
  });

  it('changes nothing at a restart', async () => {
    await withServer(async (admin) => {
      const roles = (await admin('GET', `${R}/clusterroles`)).body;
      const bindings = (await admin('GET', `${R}/clusterrolebindings`)).body;
      assert.deepEqual({ ...versions(roles), ...versions(bindings) }, firstVersions);
    });
  });

  it('restores what was removed from auto-updated objects, and leaves autoupdate=false ones alone', async () => {
    const patch = { contentType: 'application/merge-patch+json' };
    await withServer(async (admin) => {
      assert.equal((await admin('PATCH', `${R}/clusterroles/system:basic-user`, { ...patch, body: { rules: [] } })).status, 200);
      const protectedView = { metadata: { annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, rules: [], aggregationRule: null };
      assert.equal((await admin('PATCH', `${R}/clusterroles/view`, { ...patch, body: protectedView })).status, 200);
      assert.equal((await admin('DELETE', `${R}/clusterrolebindings/system:discovery`)).status, 200);
    });
    await withServer(async (admin) => {
      const basic = (await admin('GET', `${R}/clusterroles/system:basic-user`)).body;
      assert.ok(basic.rules.some((r: { resources?: string[] }) => r.resources?.includes('selfsubjectaccessreviews')));
      const view = (await admin('GET', `${R}/clusterroles/view`)).body;
      assert.deepEqual(view.rules, []);
      assert.equal(view.aggregationRule, undefined);
      assert.equal((await admin('GET', `${R}/clusterrolebindings/system:discovery`)).status, 200);
    });
  });
});
