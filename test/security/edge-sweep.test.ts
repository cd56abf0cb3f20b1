/**
 * A deterministic sweep of edge inputs that test/security/fuzz.test.ts (random, over compiled kinds)
 * and malformed-objects.test.ts (one field broken at a time) reach rarely or never: a CRD with
 * status and scale subresources, set and map lists, next to a compiled kind and a built-in, each
 * driven through the resource, `/status` and `/scale` with every patch type × odd bodies (strategic
 * merge directives, duplicate map keys and set items, apply with odd field managers, force), PUT
 * and POST with broken metadata, fieldValidation=Strict with unknown and duplicate fields,
 * dry-run, deletes and deletecollections with junk options, preconditions and selectors, lists and
 * watches with junk limit/continue/resourceVersion(Match)/timeoutSeconds, and the Table and
 * PartialObjectMetadata forms. None may be a 5xx, and every error is a metav1.Status without a
 * stack trace. (The review that wrote it sent 27,574 such requests, the aggregated API's and the
 * discovery and OpenAPI paths too: none was a 5xx apart from kube's own 504 for a resourceVersion
 * ahead of the store's, left out here for its 3 s wait.)
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestServer, widget, WIDGETS, type TestServer } from '../server/testserver.js';

const THINGS = '/apis/example.com/v1/namespaces/default/things';
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
let ts: TestServer;

/** A CRD with status and scale subresources, a map, a set and a map list. */
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'things.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  replicas: { type: 'integer' },
                  m: { type: 'object', additionalProperties: { type: 'string' } },
                  l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
                  ml: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['k'],
                    items: { type: 'object', required: ['k'], properties: { k: { type: 'string' }, v: { type: 'string' } } },
                  },
                },
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
};


before(async () => {
  ts = await startTestServer();
  assert.equal((await ts.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd })).status, 201);
  for (let i = 0; (await ts.request('GET', THINGS)).status !== 200; i++) {
    if (i > 200) throw new Error('the CRD was never served');
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.equal((await ts.request('POST', WIDGETS, { body: widget('w1') })).status, 201);
  const thing = { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't1', labels: { a: 'b' } }, spec: { replicas: 1, l: ['x'], ml: [{ k: 'a', v: '1' }] } };
  assert.equal((await ts.request('POST', THINGS, { body: thing })).status, 201);
  assert.equal((await ts.request('POST', CONFIGMAPS, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: 'b' } } })).status, 201);
});

after(() => ts?.close());

interface Probe {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
  accept?: string;
}

/** Sends the probes, eight at a time; returns the answers that break the rule. */
async function sweep(probes: Probe[]): Promise<string[]> {
  const bad: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < probes.length) {
      const p = probes[next++]!;
      const headers: Record<string, string> = {};
      if (p.body !== undefined) headers['content-type'] = p.contentType ?? 'application/json';
      if (p.accept) headers.accept = p.accept;
      let res: Response;
      let text: string;
      try {
        res = await ts.fetch(ts.url + p.path, { method: p.method, headers, body: p.body, signal: AbortSignal.timeout(10_000) });
        text = await res.text();
      } catch (err) {
        bad.push(`${p.method} ${p.path}: ${(err as Error).message}`);
        continue;
      }
      let kind: unknown;
      try {
        kind = JSON.parse(text).kind;
      } catch {
        kind = undefined;
      }
      if (res.status >= 500 || (res.status >= 400 && kind !== 'Status') || /\bat .*\.(ts|js):\d+/.test(text)) {
        bad.push(`${res.status} ${p.method} ${p.path} ${p.contentType ?? ''} ${(p.body ?? '').slice(0, 80)} => ${text.slice(0, 200)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return bad;
}

const ITEMS = [`${WIDGETS}/w1`, `${THINGS}/t1`, `${CONFIGMAPS}/cm1`];
const SUBRESOURCES = ['', '/status', '/scale'];
const COLLECTIONS = [WIDGETS, THINGS, CONFIGMAPS, '/apis/widgets.example.com/v1/widgets', '/apis/example.com/v1/things'];
const QUERY_JUNK: string[] = ['limit=-1', 'limit=abc', 'limit=99999999999999999999', 'continue=junk', 'continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoiIn0', 'limit=1&continue=%00', 'resourceVersion=abc', 'resourceVersion=-1', 'resourceVersion=0&resourceVersionMatch=Exact', 'resourceVersionMatch=NotOlderThan', 'resourceVersionMatch=Junk&resourceVersion=1', 'resourceVersion=99999999999&resourceVersionMatch=Exact', 'resourceVersion=1&resourceVersionMatch=NotOlderThan&limit=1', 'resourceVersion=99999999999999999999999', 'timeoutSeconds=abc', 'timeoutSeconds=-5', 'timeoutSeconds=1e99', 'labelSelector=a%3D%3D%3Db', 'labelSelector=!!', 'fieldSelector=spec.x=1', 'fieldSelector=metadata.name%3D%3Dx,', 'fieldSelector=metadata.name=a=b', 'watch=junk', 'watch=1&timeoutSeconds=0', 'sendInitialEvents=true', 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&watch=1&timeoutSeconds=1', 'sendInitialEvents=junk&watch=1', 'allowWatchBookmarks=maybe&watch=1&timeoutSeconds=1', 'pretty=junk', 'includeUninitialized=x', 'resourceVersion=1&resourceVersionMatch=Exact&limit=1&continue=abc', 'watch=1&resourceVersion=abc', 'watch=1&resourceVersion=1&timeoutSeconds=1', 'watch=1&resourceVersion=99999999999&timeoutSeconds=1', 'watch=1&labelSelector=!!', 'watch=1&fieldSelector=x'].filter((q: string) => !q.includes('99999999999&') && q !== 'watch=1&timeoutSeconds=0');
const BODIES: [string, string][] = [['application/json', '{'], ['application/json', '[]'], ['application/json', 'null'], ['application/json', '"str"'], ['application/json', '{"metadata":[]}'], ['application/json', '{"metadata":{"name":5}}'], ['application/json', '{"metadata":{"resourceVersion":"abc"}}'], ['application/json', '{"metadata":{"resourceVersion":5}}'], ['application/json', '{"spec":{"replicas":"x"}}'], ['application/json', '{"spec":{"replicas":1,"replicas":2}}'], ['application/json', '{"spec":{"unknown":1}}'], ['application/json', '{"status":5}'], ['application/json', '{"spec":null,"status":null,"metadata":null}'], ['application/json', '{"apiVersion":"autoscaling/v1","kind":"Scale","spec":{"replicas":"a"}}'], ['application/json', '{"apiVersion":"autoscaling/v1","kind":"Scale","spec":{"replicas":-1}}'], ['application/json', '{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"other"},"spec":{"replicas":2}}'], ['application/yaml', 'a: [\n'], ['application/yaml', '- 1\n- 2\n'], ['application/yaml', '--- \n---\n'], ['application/vnd.kubernetes.protobuf', '\x00\x01\x02'], ['text/plain', 'x'], ['application/json', '{"metadata":{"managedFields":[{"manager":5}]}}'], ['application/json', '{"metadata":{"managedFields":"x"}}'], ['application/json', '{"metadata":{"finalizers":"x"}}'], ['application/json', '{"metadata":{"ownerReferences":[{}]}}'], ['application/json', '{"metadata":{"deletionTimestamp":"junk"}}'], ['application/json', '{"metadata":{"creationTimestamp":5}}'], ['application/json', '{"metadata":{"generation":"x"}}'], ['application/json', '{"metadata":{"uid":{}}}']];
const WRITE_QUERIES = ['', 'dryRun=All&fieldValidation=Strict', 'fieldValidation=junk&dryRun=junk', 'fieldManager=a%0Ab&fieldValidation=Warn', 'fieldManager=' + 'x'.repeat(200)];
const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml', 'application/apply-patch+cbor', 'application/json'];
const PATCH_BODIES = ['{', '[]', '{}', 'null', '5', '"x"', '[{"op":"replace","path":"/spec/replicas","value":"x"}]', '[{"op":"junk","path":"/x"}]', '[{"op":"add","path":"/metadata/labels/x"}]', '[{"op":"move","from":"/spec","path":"/spec/x"}]', '[{"op":"remove","path":"/metadata"}]', '[{"op":"remove","path":"/kind"}]', '[{"op":"replace","path":"/apiVersion","value":"x/v9"}]', '[{"op":"replace","path":"","value":5}]', '[{"op":"replace","path":"","value":{}}]', '[{"op":"copy","from":"/metadata","path":"/status"}]', '[{"op":"test","path":"/spec/replicas","value":99}]', '{"metadata":{"name":"other"}}', '{"metadata":{"resourceVersion":"1"}}', '{"metadata":{"resourceVersion":"abc"}}', '{"metadata":{"uid":"x"}}', '{"spec":{"$patch":"delete"}}', '{"spec":{"$patch":"junk"}}', '{"$setElementOrder/spec":[1]}', '{"spec":{"l":[{"$patch":"delete"}]}}', '{"spec":{"ml":[{"$patch":"delete","k":"a"}]}}', '{"spec":{"$retainKeys":["x"]}}', '{"spec":{"$deleteFromPrimitiveList/l":["x"]}}', '{"spec":{"$deleteFromPrimitiveList/l":"x"}}', '{"spec":{"ml":"x"}}', '{"spec":{"ml":[{"v":"no-key"}]}}', '{"spec":{"ml":[{"k":"a"},{"k":"a"}]}}', '{"spec":{"l":["a","a"]}}', 'apiVersion: example.com/v1\nkind: Thing\n', 'apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  replicas: x\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm1\n  managedFields: [{}]\n', '{"apiVersion":"example.com/v1","kind":"Thing","metadata":{"name":"t1"},"spec":{"ml":[{"k":"a"},{"k":"a"}]}}', '{"apiVersion":"example.com/v1","kind":"Thing","metadata":{"name":"t1"},"spec":{"l":["a","a"]}}', '{"apiVersion":"example.com/v1","kind":"Thing","metadata":{"name":"t1"},"spec":{"replicas":1,"replicas":2}}', '{"apiVersion":"widgets.example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"replicas":1,"replicas":2}}', '{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"t1"},"spec":{"replicas":3}}'];
const PATCH_QUERIES = ['', 'fieldManager=m&force=true', 'fieldValidation=Strict&fieldManager=' + 'y'.repeat(200), 'dryRun=All&fieldManager=kubectl-client-side-apply&force=junk'];
const DELETE_BODIES = [undefined, '{', '[]', '{"propagationPolicy":"Junk"}', '{"propagationPolicy":"Foreground","orphanDependents":true}', '{"preconditions":{"uid":"x"}}', '{"preconditions":{"resourceVersion":"abc"}}', '{"preconditions":{"uid":5}}', '{"gracePeriodSeconds":-5}', '{"gracePeriodSeconds":"x"}', '{"dryRun":["junk"]}', '{"kind":"DeleteOptions","apiVersion":"v9"}', '{"kind":"Widget"}'];
const DELETE_QUERIES = ['', 'propagationPolicy=Junk&gracePeriodSeconds=abc', 'gracePeriodSeconds=-1&orphanDependents=x&dryRun=x', 'labelSelector=!!&fieldSelector=x=y', 'limit=abc&continue=junk&resourceVersion=abc', 'resourceVersionMatch=Exact&resourceVersion=1&timeoutSeconds=x'];

/** Each combination goes to one target, round robin: every target meets every kind of input, at a cost the suite can pay. */
function spread<T>(combos: T[], targets: string[], probe: (combo: T, target: string) => Probe): Probe[] {
  return combos.map((combo, k) => probe(combo, targets[(k * 5) % targets.length]!));
}

const TARGETS = ITEMS.flatMap((i) => SUBRESOURCES.map((s) => i + s));
const product = <A, B>(as: A[], bs: B[]): [A, B][] => as.flatMap((a) => bs.map((b): [A, B] => [a, b]));

it('lists, watches and gets with junk options', async () => {
  const probes: Probe[] = [];
  for (const c of COLLECTIONS) for (const q of QUERY_JUNK) probes.push({ method: 'GET', path: `${c}?${q}${q.includes('watch=1') && !q.includes('timeoutSeconds') ? '&timeoutSeconds=1' : ''}` });
  for (const t of TARGETS) for (const q of ['resourceVersion=abc', 'resourceVersionMatch=Exact&resourceVersion=1', 'resourceVersionMatch=NotOlderThan', 'watch=1&timeoutSeconds=1']) probes.push({ method: 'GET', path: `${t}?${q}` });
  for (const accept of ['application/json;as=Table;v=v1;g=meta.k8s.io', 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io', 'application/json;as=PartialObjectMetadata;v=v9;g=meta.k8s.io']) {
    for (const c of COLLECTIONS) for (const q of ['includeObject=Junk', 'limit=1', 'watch=1&timeoutSeconds=1']) probes.push({ method: 'GET', path: `${c}?${q}`, accept });
    for (const t of TARGETS) probes.push({ method: 'GET', path: t, accept });
  }
  assert.deepEqual(await sweep(probes), []);
});

it('PUT and POST with broken bodies and options', async () => {
  const combos = product(WRITE_QUERIES, BODIES);
  const probes = [
    ...spread(combos, TARGETS, ([q, [contentType, body]], t) => ({ method: 'PUT', path: `${t}?${q}`, body, contentType })),
    ...spread(combos, COLLECTIONS.slice(0, 3), ([q, [contentType, body]], c) => ({ method: 'POST', path: `${c}?${q}`, body, contentType })),
  ];
  assert.deepEqual(await sweep(probes), []);
});

it('every patch type × odd bodies, on the resource and its subresources', async () => {
  const combos = product(PATCH_TYPES, PATCH_BODIES).map(([contentType, body], k): [string, string, string] => [contentType, body, PATCH_QUERIES[k % PATCH_QUERIES.length]!]);
  assert.deepEqual(await sweep(spread(combos, TARGETS, ([contentType, body, q], t) => ({ method: 'PATCH', path: `${t}?${q}`, body, contentType }))), []);
});

it('deletes and deletecollections with junk options (dry run)', async () => {
  const combos = product(DELETE_BODIES, DELETE_QUERIES);
  const path = (p: string, q: string) => `${p}?${q}${q ? '&' : ''}dryRun=All`;
  const probes = [
    ...spread(combos, TARGETS, ([body, q], t) => ({ method: 'DELETE', path: path(t, q), body })),
    ...spread(combos, COLLECTIONS.slice(0, 3), ([body, q], c) => ({ method: 'DELETE', path: path(c, q), body })),
  ];
  assert.deepEqual(await sweep(probes), []);
});
