/**
 * metadata.generation of every built-in kind kgen stores, against kube's strategies
 * (pkg/registry/<group>/<kind>/strategy.go): rest.BeforeCreate sets none, so a ConfigMap, Secret,
 * Namespace, Service, ... has none after a create (or keeps what the client sent) and an update
 * only carries the stored one; Deployment, CustomResourceDefinition and the webhook
 * configurations, like custom resources and kgen's compiled kinds, start at 1 and count changes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, WIDGETS, widget, type TestServer } from '../server/testserver.js';

interface Case {
  /** Collection path. */
  path: string;
  /** The created object (apiVersion, kind and name are added). */
  body: Record<string, unknown>;
  /** What an update changes besides metadata (merge patch), or a metadata-only change. */
  change: Record<string, unknown>;
  /** kube's generation after the create and after the update; undefined: none. */
  generations: [number | undefined, number | undefined];
}

const NS = '/api/v1/namespaces/default';
const RBAC = 'rbac.authorization.k8s.io';
const ROLE_REF = { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' };
const SUBJECT = { kind: 'User', name: 'someone', apiGroup: RBAC };
const RULES = [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }];
const TEMPLATE = { metadata: { labels: { app: 'g' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
const NOW = '2026-01-02T03:04:05.000000Z';

/** By `group/resource` as discovery lists them; every stored built-in resource must be here. */
const CASES: Record<string, Case & { apiVersion: string; kind: string }> = {
  '/configmaps': { apiVersion: 'v1', kind: 'ConfigMap', path: `${NS}/configmaps`, body: { data: { a: 'b' } }, change: { data: { a: 'c' } }, generations: [undefined, undefined] },
  '/secrets': { apiVersion: 'v1', kind: 'Secret', path: `${NS}/secrets`, body: { data: { a: 'Yg==' } }, change: { data: { a: 'Yw==' } }, generations: [undefined, undefined] },
  '/namespaces': { apiVersion: 'v1', kind: 'Namespace', path: '/api/v1/namespaces', body: {}, change: { metadata: { labels: { x: 'y' } } }, generations: [undefined, undefined] },
  '/services': { apiVersion: 'v1', kind: 'Service', path: `${NS}/services`, body: { spec: { ports: [{ port: 80 }] } }, change: { spec: { ports: [{ port: 81 }] } }, generations: [undefined, undefined] },
  '/serviceaccounts': { apiVersion: 'v1', kind: 'ServiceAccount', path: `${NS}/serviceaccounts`, body: {}, change: { automountServiceAccountToken: false }, generations: [undefined, undefined] },
  '/endpoints': {
    apiVersion: 'v1',
    kind: 'Endpoints',
    path: `${NS}/endpoints`,
    body: { subsets: [] },
    change: { subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ port: 80 }] }] },
    generations: [undefined, undefined],
  },
  '/events': {
    apiVersion: 'v1',
    kind: 'Event',
    path: `${NS}/events`,
    body: { involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'R', message: 'one', type: 'Normal', source: { component: 'test' } },
    change: { message: 'two' },
    generations: [undefined, undefined],
  },
  '/persistentvolumeclaims': {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    path: `${NS}/persistentvolumeclaims`,
    body: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
    change: { metadata: { labels: { x: 'y' } } },
    generations: [undefined, undefined],
  },
  'events.k8s.io/events': {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    path: '/apis/events.k8s.io/v1/namespaces/default/events',
    body: { eventTime: NOW, reportingController: 'test/x', reportingInstance: 'i', action: 'A', reason: 'R', type: 'Normal', regarding: { kind: 'Pod', name: 'p', namespace: 'default' }, note: 'one' },
    // Through events.k8s.io/v1 only a series may change (kube's ValidateEventUpdate).
    change: { series: { count: 2, lastObservedTime: NOW } },
    generations: [undefined, undefined],
  },
  'coordination.k8s.io/leases': {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    path: '/apis/coordination.k8s.io/v1/namespaces/default/leases',
    body: { spec: { holderIdentity: 'a' } },
    change: { spec: { holderIdentity: 'b' } },
    generations: [undefined, undefined],
  },
  'apiregistration.k8s.io/apiservices': {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    path: '/apis/apiregistration.k8s.io/v1/apiservices',
    body: { spec: { group: 'gen.example.org', version: 'v1', groupPriorityMinimum: 100, versionPriority: 10 } },
    change: { spec: { versionPriority: 11 } },
    generations: [undefined, undefined],
  },
  [`${RBAC}/roles`]: { apiVersion: `${RBAC}/v1`, kind: 'Role', path: `/apis/${RBAC}/v1/namespaces/default/roles`, body: { rules: [] }, change: { rules: RULES }, generations: [undefined, undefined] },
  [`${RBAC}/clusterroles`]: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', path: `/apis/${RBAC}/v1/clusterroles`, body: { rules: [] }, change: { rules: RULES }, generations: [undefined, undefined] },
  [`${RBAC}/rolebindings`]: {
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    path: `/apis/${RBAC}/v1/namespaces/default/rolebindings`,
    body: { roleRef: ROLE_REF, subjects: [] },
    change: { subjects: [SUBJECT] },
    generations: [undefined, undefined],
  },
  [`${RBAC}/clusterrolebindings`]: {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    path: `/apis/${RBAC}/v1/clusterrolebindings`,
    body: { roleRef: ROLE_REF, subjects: [] },
    change: { subjects: [SUBJECT] },
    generations: [undefined, undefined],
  },
  // Their kube strategies set 1 and count changes.
  'apps/deployments': {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    path: '/apis/apps/v1/namespaces/default/deployments',
    body: { spec: { replicas: 1, selector: { matchLabels: { app: 'g' } }, template: TEMPLATE } },
    change: { spec: { replicas: 2 } },
    generations: [1, 2],
  },
  'apiextensions.k8s.io/customresourcedefinitions': {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    body: {
      spec: {
        group: 'gen.example.org',
        names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
        scope: 'Namespaced',
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    },
    change: { spec: { names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList', shortNames: ['th'] } } },
    generations: [1, 2],
  },
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    path: '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
    // No rules: it matches no request, so it never calls the URL.
    body: { webhooks: [{ name: 'a.gen.example.org', clientConfig: { url: 'https://127.0.0.1:1/' }, sideEffects: 'None', admissionReviewVersions: ['v1'] }] },
    change: { webhooks: [{ name: 'a.gen.example.org', clientConfig: { url: 'https://127.0.0.1:1/' }, sideEffects: 'None', admissionReviewVersions: ['v1'], timeoutSeconds: 5 }] },
    generations: [1, 2],
  },
  'admissionregistration.k8s.io/validatingwebhookconfigurations': {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    path: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
    body: { webhooks: [{ name: 'a.gen.example.org', clientConfig: { url: 'https://127.0.0.1:1/' }, sideEffects: 'None', admissionReviewVersions: ['v1'] }] },
    change: { webhooks: [{ name: 'a.gen.example.org', clientConfig: { url: 'https://127.0.0.1:1/' }, sideEffects: 'None', admissionReviewVersions: ['v1'], timeoutSeconds: 5 }] },
    generations: [1, 2],
  },
};

describe('metadata.generation of built-in kinds, as their kube strategies manage it', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
  });
  after(() => t.close());

  it('every stored built-in resource is covered here', async () => {
    const stored: string[] = [];
    const core = await t.request('GET', '/api/v1');
    for (const r of core.body.resources) if (!r.name.includes('/') && r.verbs.includes('get')) stored.push(`/${r.name}`);
    const groups = await t.request('GET', '/apis');
    for (const g of groups.body.groups) {
      if (g.name.endsWith('example.com') || g.name.endsWith('example.org')) continue;
      for (const v of g.versions) {
        const list = await t.request('GET', `/apis/${v.groupVersion}`);
        for (const r of list.body.resources) if (!r.name.includes('/') && r.verbs.includes('get')) stored.push(`${g.name}/${r.name}`);
      }
    }
    assert.deepEqual([...new Set(stored)].sort(), Object.keys(CASES).sort());
  });

  for (const [index, [resource, c]] of Object.entries(CASES).entries()) {
    it(`${resource}: generation ${c.generations[0] ?? 'none'} on create, ${c.generations[1] ?? 'none'} after a change`, async () => {
      const name = c.kind === 'APIService' ? 'v1.gen.example.org' : c.kind === 'CustomResourceDefinition' ? 'things.gen.example.org' : `gen-${index}`;
      const created = await t.request('POST', c.path, { body: { apiVersion: c.apiVersion, kind: c.kind, metadata: { name }, ...c.body } });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.metadata.generation, c.generations[0]);
      const patched = await t.request('PATCH', `${c.path}/${name}`, { body: c.change, contentType: 'application/merge-patch+json' });
      assert.equal(patched.status, 200, patched.text);
      assert.notEqual(patched.body.metadata.resourceVersion, created.body.metadata.resourceVersion, 'the change was written');
      assert.equal(patched.body.metadata.generation, c.generations[1]);
      const read = await t.request('GET', `${c.path}/${name}`);
      assert.equal(read.body.metadata.generation, c.generations[1]);
    });
  }

  it('a kind without generation keeps what the client sent on create (0 is absent, as Go omits it), and an update keeps the stored one', async () => {
    const path = `${NS}/configmaps`;
    const sent = await t.request('POST', path, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'seven', generation: 7 }, data: { a: 'b' } } });
    assert.equal(sent.status, 201, sent.text);
    assert.equal(sent.body.metadata.generation, 7);
    const put = await t.request('PUT', `${path}/seven`, { body: { ...sent.body, metadata: { ...sent.body.metadata, generation: 9 }, data: { a: 'c' } } });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.metadata.generation, 7);
    const zero = await t.request('POST', path, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'zero', generation: 0 } } });
    assert.equal(zero.status, 201, zero.text);
    assert.equal('generation' in zero.body.metadata, false);
  });

  it("kgen's compiled kinds keep the custom-resource rule: 1, counting spec changes", async () => {
    const created = await t.request('POST', WIDGETS, { body: widget('gen') });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.metadata.generation, 1);
    const patched = await t.request('PATCH', `${WIDGETS}/gen`, { body: { spec: { replicas: 3 } }, contentType: 'application/merge-patch+json' });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.metadata.generation, 2);
    const labelled = await t.request('PATCH', `${WIDGETS}/gen`, { body: { metadata: { labels: { x: 'y' } } }, contentType: 'application/merge-patch+json' });
    assert.equal(labelled.body.metadata.generation, 2);
  });
});
