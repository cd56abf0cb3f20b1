/**
 * Malformed objects never reach code that assumes validation ran (issue 12, item 5). The probe:
 * `POST …/customresourcedefinitions` with `{"metadata":{"name":"x"}}` answered 500 `Cannot read
 * properties of undefined (reading 'group')`; kube answers 422 Invalid with field causes.
 *
 * Beyond the probe, a systematic sweep: for every kind the server serves (built-in kinds, the
 * fixture's Widget and Gadget), every field of a valid object of that kind (to depth 4) is
 * removed or set to each wrong type in turn, and the result is sent as a create, an update, a
 * merge patch and a server-side apply. None may get a 5xx; every refusal is a Status.
 * (authorization.k8s.io has only the self reviews in kgen.)
 */
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../server/testserver.js';
import { startRBACServer, waitUntil, type RBACServer } from '../authorization/rbacserver.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

const webhook = {
  name: 'w.example.com',
  clientConfig: { url: 'https://127.0.0.1:1/x', caBundle: 'Zm9v' },
  rules: [{ operations: ['CREATE'], apiGroups: ['nothing.example'], apiVersions: ['v1'], resources: ['nothings'], scope: '*' }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  failurePolicy: 'Ignore',
  matchPolicy: 'Equivalent',
  namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['b'] }] },
  objectSelector: { matchLabels: { a: 'b' } },
  timeoutSeconds: 5,
};

/** A valid object of each kind the sweep covers, keyed by collection path (namespaced ones in `default`). */
const TEMPLATES: Record<string, Record<string, unknown>> = {
  [CRDS]: {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'things.sweep.example.com' },
    spec: {
      group: 'sweep.example.com',
      scope: 'Namespaced',
      names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList', shortNames: ['th'], categories: ['all'] },
      conversion: { strategy: 'None' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', minimum: 0 } }, 'x-kubernetes-validations': [{ rule: 'self.size < 10' }] } } } },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' } },
          additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
        },
      ],
    },
  },
  '/apis/apiregistration.k8s.io/v1/apiservices': {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: 'v1.sweep.example.com' },
    spec: { group: 'sweep.example.com', version: 'v1', service: { namespace: 'default', name: 'svc', port: 443 }, groupPriorityMinimum: 100, versionPriority: 10, insecureSkipTLSVerify: true },
  },
  '/apis/rbac.authorization.k8s.io/v1/clusterroles': {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'sweep' },
    rules: [{ apiGroups: [''], resources: ['services'], verbs: ['get'], resourceNames: ['a'] }, { nonResourceURLs: ['/healthz'], verbs: ['get'] }],
  },
  '/apis/rbac.authorization.k8s.io/v1/clusterroles?aggregated': {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'sweep-agg' },
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' }, matchExpressions: [{ key: 'c', operator: 'Exists' }] }] },
  },
  '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings': {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'sweep' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }, { kind: 'ServiceAccount', name: 'sa', namespace: 'default' }],
  },
  '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles': {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'sweep' },
    rules: [{ apiGroups: [''], resources: ['services'], verbs: ['get'] }],
  },
  '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings': {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'sweep' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'sweep' },
    subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' }],
  },
  '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations': {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'sweep' },
    webhooks: [webhook],
  },
  '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations': {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'sweep' },
    webhooks: [{ ...webhook, reinvocationPolicy: 'Never' }],
  },
  '/api/v1/namespaces': { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sweep', labels: { a: 'b' } }, spec: { finalizers: ['kubernetes'] } },
  '/api/v1/namespaces/default/services': {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'sweep' },
    spec: { type: 'ClusterIP', ports: [{ name: 'https', port: 443, targetPort: 8443, protocol: 'TCP' }], selector: { a: 'b' } },
  },
  '/api/v1/namespaces/default/endpoints': {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'sweep' },
    subsets: [{ addresses: [{ ip: '127.0.0.1', hostname: 'h' }], notReadyAddresses: [{ ip: '127.0.0.2' }], ports: [{ name: 'https', port: 8443, protocol: 'TCP' }] }],
  },
  '/apis/widgets.example.com/v1/namespaces/default/widgets': {
    apiVersion: 'widgets.example.com/v1',
    kind: 'Widget',
    // Every metadata field a client may send, so the sweep breaks each (field managers, owner
    // references and the garbage collector's inputs read them).
    metadata: {
      name: 'sweep',
      labels: { a: 'b' },
      annotations: { c: 'd' },
      finalizers: ['example.com/f'],
      generateName: 'sw-',
      ownerReferences: [{ apiVersion: 'v1', kind: 'Namespace', name: 'default', uid: '0f0f0f0f-0000-0000-0000-000000000000', controller: true, blockOwnerDeletion: false }],
      managedFields: [{ manager: 'm', operation: 'Apply', apiVersion: 'widgets.example.com/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, time: '2024-01-01T00:00:00Z' }],
    },
    spec: { replicas: 1 },
  },
  '/apis/widgets.example.com/v1/gadgets': { apiVersion: 'widgets.example.com/v1', kind: 'Gadget', metadata: { name: 'sweep' }, spec: { size: 'small' } },
  '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews': {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
  },
  '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews': { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'default' } },
};

const WRONG: unknown[] = [null, 1.5, true, 'x', [null], { x: 1 }];

type Path = (string | number)[];

function fieldPaths(value: unknown, prefix: Path = [], depth = 0, out: Path[] = []): Path[] {
  if (depth >= 5 || !value || typeof value !== 'object') return out;
  for (const [key, child] of Object.entries(value)) {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key];
    // The sweep keeps the object's name, or every variant would hit one "name mismatch" check.
    if (path.join('.') !== 'metadata.name') out.push(path);
    fieldPaths(child, path, depth + 1, out);
  }
  return out;
}

function variant(template: Record<string, unknown>, path: Path, value: unknown, remove: boolean): Record<string, unknown> {
  const obj = structuredClone(template);
  let cur = obj as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) cur = cur[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (remove) {
    if (Array.isArray(cur)) cur.splice(Number(last), 1);
    else delete cur[last];
  } else cur[last] = value;
  return obj;
}

/** What is wrong with the answer, if anything: a 5xx, or an error that is not a Status. */
function problem(status: number, text: string): string | undefined {
  if (status >= 500) return `${status} ${text.slice(0, 300)}`;
  if (status < 400) return undefined;
  try {
    const body = JSON.parse(text) as { kind?: string; code?: number };
    return body.kind === 'Status' && body.code === status ? undefined : `${status} without a Status: ${text.slice(0, 200)}`;
  } catch {
    return `${status} not JSON: ${text.slice(0, 200)}`;
  }
}

describe('malformed objects (issue 12, item 5)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
  });
  after(() => t?.close());

  it('answers a CustomResourceDefinition without spec with 422 Invalid and field causes, as kube', async () => {
    const res = await t.request('POST', CRDS, { body: { metadata: { name: 'x' } } });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.kind, 'Status');
    assert.equal(res.body.reason, 'Invalid');
    assert.equal(res.body.details.kind, 'CustomResourceDefinition');
    const fields = (res.body.details.causes as { field: string }[]).map((c) => c.field);
    assert.ok(fields.includes('spec.group'), `causes: ${JSON.stringify(res.body.details.causes)}`);
    assert.ok(fields.includes('spec.names.plural'), `causes: ${JSON.stringify(res.body.details.causes)}`);
  });

  // kube decodes a CRD into its Go struct, so a field of the wrong JSON type is the decoder's 400
  // (validation's 422 is for values of the right type).
  it('answers a CustomResourceDefinition whose spec fields have the wrong types with the decoder\'s 400, as kube, never 500', async () => {
    for (const spec of [5, 'x', [], { group: 5, names: 'x', versions: 'v1', scope: [] }, { group: 'a.example.com', names: { plural: 'as', kind: 'A' }, scope: 'Namespaced', versions: [5, null, 'x'] }, { versions: { name: 'v1' } }]) {
      const res = await t.request('POST', CRDS, { body: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'as.a.example.com' }, spec } });
      assert.equal(res.status, 400, `${JSON.stringify(spec)} → ${res.text}`);
      assert.equal(res.body.reason, 'BadRequest');
      assert.match(res.body.message, /^CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal \w+ into Go struct field /);
    }
  });

  it('never answers 5xx to a valid object of any kind with one field removed or of the wrong type (create, update, merge patch, apply)', async () => {
    const { sent, failures } = await sweep(keepAliveSend(t.url), Object.entries(TEMPLATES));
    assert.ok(sent > 2_000, `sent ${sent}`);
    console.log(`malformed objects: ${sent} requests`);
    assert.deepEqual(failures.slice(0, 15), [], `${failures.length} of ${sent} malformed objects got a 5xx or no Status`);
  });
});

describe('malformed objects from a user without cluster-admin (issue 12, item 5)', () => {
  let r: RBACServer;
  before(async () => {
    r = await startRBACServer();
    // erin may write RBAC objects and webhook configurations, but holds no other permission:
    // the escalation checks (which read the rules of what is written) run on every request.
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'sweeper' }, rules: [{ apiGroups: ['rbac.authorization.k8s.io', 'admissionregistration.k8s.io'], resources: ['*'], verbs: ['get', 'create', 'update', 'patch'] }] };
    assert.equal((await r.as.admin!('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { body: role })).status, 201);
    const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'sweeper' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'sweeper' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'erin' }] };
    assert.equal((await r.as.admin!('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { body: binding })).status, 201);
    await waitUntil(async () => (await r.as.erin!('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/sweeper')).status === 200);
  });
  after(() => r?.close());

  it('never answers 5xx to a broken Role, ClusterRole, binding or webhook configuration, whatever the escalation check decides', async () => {
    // The templates erin may create: rules she holds (none beyond sweeper's), bindings to sweeper.
    const mine = (rules: unknown) => rules;
    const templates: [string, Record<string, unknown>][] = [
      ['/apis/rbac.authorization.k8s.io/v1/clusterroles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'erin-role' }, rules: mine([{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['get'] }]) }],
      ['/apis/rbac.authorization.k8s.io/v1/clusterroles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'erin-agg' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } }],
      ['/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'erin-role' }, rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['get'], resourceNames: ['x'] }] }],
      ['/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'erin-b' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'sweeper' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'erin' }] }],
      ['/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'erin-b' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'sweeper' }, subjects: [{ kind: 'ServiceAccount', name: 'sa', namespace: 'default' }] }],
      ['/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', { ...TEMPLATES['/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations']!, metadata: { name: 'erin-vw' } }],
    ];
    const { sent, failures } = await sweep(
      (method, path, body, contentType) => r.as.erin!(method, path, { body, contentType }),
      templates,
      { setup: (path, body) => r.as.admin!('POST', path, { body }) },
    );
    console.log(`malformed objects as erin: ${sent} requests`);
    assert.ok(sent > 500, `sent ${sent}`);
    assert.deepEqual(failures.slice(0, 15), [], `${failures.length} of ${sent} malformed objects got a 5xx or no Status`);
  });
});

type Send = (method: string, path: string, body: string, contentType: string) => Promise<{ status: number; text: string }>;

/**
 * The sweep's requests over one kept-alive connection of node:http, to a plain-HTTP server: the
 * same method, path, Content-Type, Accept, User-Agent and body as t.request's fetch sends, at a
 * fraction of fetch's cost per request (undici's Request objects and web streams were ~15 % of
 * the file's CPU in a profile).
 */
function keepAliveSend(base: string): Send {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  after(() => agent.destroy());
  return (method, path, body, contentType) =>
    new Promise((resolve, reject) => {
      // Accept and User-Agent as fetch sends them (the user agent names an update's field manager).
      const headers = { accept: '*/*', 'user-agent': 'node', 'content-type': contentType, 'content-length': Buffer.byteLength(body) };
      const req = request(base + path, { method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
}

/**
 * Creates each template (through `setup`, else `send`), then sends every variant with one field
 * removed or of a wrong type as a create, an unconditional update, a merge patch and an apply.
 */
async function sweep(send: Send, templates: [string, Record<string, unknown>][], opts: { setup?: (path: string, body: unknown) => Promise<{ status: number; text: string }> } = {}): Promise<{ sent: number; failures: string[] }> {
  const failures: string[] = [];
  let sent = 0;
  for (const [key, template] of templates) {
    const collection = key.split('?')[0]!;
    const name = (template.metadata as { name?: string } | undefined)?.name;
    // The object the update and patches act on.
    const created = opts.setup ? await opts.setup(collection, template) : await send('POST', collection, JSON.stringify(template), 'application/json');
    assert.ok(created.status === 201, `${collection}: the template is valid: ${created.text}`);
    const isReview = collection.includes('authorization.k8s.io/v1/') && collection.endsWith('reviews');
    for (const path of fieldPaths(template)) {
      for (const [value, remove] of [[undefined, true] as const, ...WRONG.map((v) => [v, false] as const)]) {
        const body = variant(template, path, value, remove);
        const attempts: [string, string, string, unknown][] = [['POST', collection, 'application/json', { ...body, metadata: { ...((body.metadata as object) ?? {}), name: name ? `${name}-c` : undefined } }]];
        if (!isReview && name) {
          // Without resourceVersion: an unconditional update, as every kgen kind allows.
          attempts.push(['PUT', `${collection}/${name}`, 'application/json', body]);
          attempts.push(['PATCH', `${collection}/${name}`, 'application/merge-patch+json', body]);
          attempts.push(['PATCH', `${collection}/${name}?fieldManager=sweep&force=true`, 'application/apply-patch+yaml', body]);
        }
        for (const [method, target, contentType, payload] of attempts) {
          sent++;
          const res = await send(method, target, JSON.stringify(payload), contentType);
          const bad = problem(res.status, res.text);
          if (bad) failures.push(`${method} ${target} (${remove ? 'without' : 'with wrong'} ${path.join('.')}${remove ? '' : ` = ${JSON.stringify(value)}`}) → ${bad}`);
        }
      }
    }
  }
  return { sent, failures };
}
