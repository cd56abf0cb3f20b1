/** Request decoding: duplicate fields under each fieldValidation directive, deprecated-field warnings, YAML limits. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findDuplicateJSONKeys } from '../../runtime/endpoints/duplicatefields.js';
import { buildTypeSchema } from '../../runtime/endpoints/fieldmanager/typeschema.js';
import { deprecatedFieldWarnings } from '../../runtime/endpoints/fieldvalidation.js';
import { assertLinearGrowth } from '../support/linear-growth.js';
import { startTestServer, widget, WIDGETS, type TestServer } from '../server/testserver.js';

const MERGE = 'application/merge-patch+json';
const JSONPATCH = 'application/json-patch+json';
const APPLY = 'application/apply-patch+yaml';

const DUPLICATE_JSON = `{
  "apiVersion": "widgets.example.com/v1",
  "kind": "Widget",
  "metadata": {"name": "NAME"},
  "spec": {"replicas": 1, "replicas": 2, "bogus": 1, "ports": [{"name": "a", "port": 1, "port": 2}]}
}`;

const DUPLICATE_YAML = `apiVersion: widgets.example.com/v1
kind: Widget
metadata:
  name: NAME
spec:
  replicas: 1
  replicas: 2
  bogus: 1
`;

function warnings(r: { headers: Headers }): string[] {
  const header = r.headers.get('warning');
  if (!header) return [];
  return [...header.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
}

describe('duplicate fields', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it('Strict rejects duplicate JSON fields before unknown ones, in kube\'s words', async () => {
    const r = await t.request('POST', `${WIDGETS}?fieldValidation=Strict`, { body: DUPLICATE_JSON.replace('NAME', 'd1') });
    assert.equal(r.status, 400);
    assert.equal(
      r.body.message,
      'Widget in version "v1" cannot be handled as a Widget: strict decoding error: duplicate field "spec.replicas", duplicate field "spec.ports[0].port", unknown field "spec.bogus"',
    );
  });

  it('the warnings recorded before a request fails reach the client with the error, as kube\'s', async () => {
    // A 422 from validation after decoding warned (kube's decoder records them first).
    const invalid = await t.request('POST', WIDGETS, { body: DUPLICATE_JSON.replace('NAME', 'w1').replace('"replicas": 2', '"replicas": 200') });
    assert.equal(invalid.status, 422, invalid.text);
    assert.deepEqual(warnings(invalid), ['duplicate field "spec.replicas"', 'duplicate field "spec.ports[0].port"', 'unknown field "spec.bogus"']);
    // A 409 from storage, on create and on an update's conflict.
    assert.equal((await t.request('POST', WIDGETS, { body: DUPLICATE_JSON.replace('NAME', 'w2') })).status, 201);
    const exists = await t.request('POST', WIDGETS, { body: DUPLICATE_JSON.replace('NAME', 'w2') });
    assert.equal(exists.status, 409, exists.text);
    assert.deepEqual(warnings(exists), ['duplicate field "spec.replicas"', 'duplicate field "spec.ports[0].port"', 'unknown field "spec.bogus"']);
    const stale = await t.request('PUT', `${WIDGETS}/w2`, { body: DUPLICATE_JSON.replace('NAME', 'w2').replace('"name": "w2"', '"name": "w2", "resourceVersion": "1"') });
    assert.equal(stale.status, 409, stale.text);
    assert.deepEqual(warnings(stale), ['duplicate field "spec.replicas"', 'duplicate field "spec.ports[0].port"', 'unknown field "spec.bogus"']);
    // A patch whose result is invalid.
    const patch = await t.request('PATCH', `${WIDGETS}/w2`, { body: '{"spec":{"replicas":500,"nope":1}}', contentType: MERGE });
    assert.equal(patch.status, 422, patch.text);
    assert.deepEqual(warnings(patch), ['unknown field "spec.nope"']);
    // An error before anything was recorded carries no Warning header.
    const undecodable = await t.request('PUT', `${WIDGETS}/w2`, { body: '{"spec":' });
    assert.equal(undecodable.status, 400, undecodable.text);
    assert.equal(undecodable.headers.get('warning'), null);
  });

  it('Warn answers with one Warning per problem and keeps the last value; Ignore says nothing', async () => {
    const r = await t.request('POST', WIDGETS, { body: DUPLICATE_JSON.replace('NAME', 'd2') });
    assert.equal(r.status, 201, r.text);
    // Named by their path, as sigs.k8s.io/json's strict field stack names them.
    assert.deepEqual(warnings(r), ['duplicate field "spec.replicas"', 'duplicate field "spec.ports[0].port"', 'unknown field "spec.bogus"']);
    assert.equal(r.body.spec.replicas, 2);
    assert.deepEqual(r.body.spec.ports, [{ name: 'a', port: 2 }]);
    const quiet = await t.request('POST', `${WIDGETS}?fieldValidation=Ignore`, { body: DUPLICATE_JSON.replace('NAME', 'd3') });
    assert.equal(quiet.status, 201);
    assert.deepEqual(warnings(quiet), []);
  });

  it('reports YAML duplicates with their line, as kube\'s YAML decoder does', async () => {
    const r = await t.request('POST', WIDGETS, { body: DUPLICATE_YAML.replace('NAME', 'd4'), contentType: 'application/yaml' });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(warnings(r), ['line 7: key "replicas" already set in map', 'unknown field "spec.bogus"']);
    const strict = await t.request('POST', `${WIDGETS}?fieldValidation=Strict`, { body: DUPLICATE_YAML.replace('NAME', 'd5'), contentType: 'application/yaml' });
    assert.equal(strict.status, 400);
    assert.match(strict.body.message, /strict decoding error: line 7: key "replicas" already set in map, unknown field "spec\.bogus"$/);
  });

  it('checks PUT and merge patch bodies the same way', async () => {
    await t.request('POST', WIDGETS, { body: widget('d6') });
    const current = (await t.request('GET', `${WIDGETS}/d6`)).body;
    const text = JSON.stringify(current).replace('"replicas":1', '"replicas":1,"replicas":3');
    const put = await t.request('PUT', `${WIDGETS}/d6?fieldValidation=Strict`, { body: text });
    assert.equal(put.status, 400);
    assert.match(put.body.message, /strict decoding error: duplicate field "spec\.replicas"$/);
    const patch = await t.request('PATCH', `${WIDGETS}/d6`, { body: '{"spec": {"color": "red", "color": "blue"}}', contentType: MERGE });
    assert.equal(patch.status, 200);
    assert.deepEqual(warnings(patch), ['duplicate field "spec.color"']);
    assert.equal(patch.body.spec.color, 'blue');
  });

  it('reports JSON patch operation problems, not duplicates inside values', async () => {
    const ops = '[{"op": "replace", "path": "/spec/replicas", "path": "/spec/replicas", "value": 4, "foo": 1}, {"op": "add", "path": "/metadata/labels", "value": {"a": "1", "a": "2"}}]';
    const r = await t.request('PATCH', `${WIDGETS}/d6`, { body: ops, contentType: JSONPATCH });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(warnings(r), ['json patch duplicate field "path"', 'json patch unknown field "foo"']);
    const strict = await t.request('PATCH', `${WIDGETS}/d6?fieldValidation=Strict`, { body: ops, contentType: JSONPATCH });
    assert.equal(strict.status, 400);
    assert.match(strict.body.message, /strict decoding error: json patch duplicate field "path", json patch unknown field "foo"/);
  });

  it('reports apply duplicates as YAML errors: a warning, or 400 under Strict', async () => {
    const body = DUPLICATE_YAML.replace('NAME', 'd7').replace('  bogus: 1\n', '');
    const warn = await t.request('PATCH', `${WIDGETS}/d7?fieldManager=m`, { body, contentType: APPLY });
    assert.equal(warn.status, 201, warn.text);
    assert.deepEqual(warnings(warn), ['line 7: key "replicas" already set in map']);
    const strict = await t.request('PATCH', `${WIDGETS}/d7?fieldManager=m&fieldValidation=Strict`, { body, contentType: APPLY });
    assert.equal(strict.status, 400);
    assert.equal(
      strict.body.message,
      'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "replicas" already set in map',
    );
    const json = '{"apiVersion": "widgets.example.com/v1", "kind": "Widget", "metadata": {"name": "d7"},\n "spec": {"replicas": 1, "replicas": 2}}';
    const fromJSON = await t.request('PATCH', `${WIDGETS}/d7?fieldManager=m`, { body: json, contentType: APPLY });
    assert.deepEqual(warnings(fromJSON), ['line 2: key "replicas" already set in map']);
  });

  it('refuses a YAML alias bomb in a create body with 400', async () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) lines.push(`${'abcdefghi'[i]}: &${'abcdefghi'[i]} [${Array(9).fill(`*${'abcdefghi'[i - 1]}`).join(',')}]`);
    const r = await t.request('POST', WIDGETS, { body: lines.join('\n'), contentType: 'application/yaml' });
    assert.equal(r.status, 400);
    assert.match(r.body.message, /Excessive alias count/);
  });
});

describe('values without a JSON form', () => {
  // kube's decoders refuse numbers beyond float64 (400) rather than storing what the client did
  // not send; JSON.parse makes them Infinity, which JSON.stringify would have stored as null.
  let t: TestServer;
  const THINGS = '/apis/ex.com/v1/namespaces/default/things';
  before(async () => {
    t = await startTestServer();
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'things.ex.com' },
      spec: {
        group: 'ex.com',
        scope: 'Namespaced',
        names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { n: { type: 'number' }, free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } } } }],
      },
    };
    assert.equal((await t.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd })).status, 201);
    for (let i = 0; i < 200 && (await t.request('GET', THINGS)).status !== 200; i++) await new Promise((r) => setTimeout(r, 25));
  });
  after(() => t.close());

  it('refuses JSON numbers beyond float64 in create, update and patch bodies with 400', async () => {
    const thing = (name: string, spec: string) => `{"apiVersion":"ex.com/v1","kind":"Thing","metadata":{"name":"${name}"},"spec":${spec}}`;
    for (const [spec, literal] of [
      ['{"n":1e400}', '1e400'],
      ['{"free":{"x":[-1.5E+999]}}', '-1.5E+999'],
      [`{"free":{"x":${'9'.repeat(400)}}}`, `${'9'.repeat(40)}...`],
    ]) {
      const r = await t.request('POST', THINGS, { body: thing('a', spec) });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.message, `json: cannot unmarshal number ${literal} into Go value of type float64`);
    }
    // Numbers that fit, and look-alikes inside strings, are kept as sent.
    const ok = await t.request('POST', THINGS, { body: thing('a', '{"n":1e308,"free":{"s":"1e400","m":-2.5e-300}}') });
    assert.equal(ok.status, 201, ok.text);
    assert.deepEqual(ok.body.spec, { n: 1e308, free: { s: '1e400', m: -2.5e-300 } });
    const put = await t.request('PUT', `${THINGS}/a`, { body: thing('a', '{"n":2e999}') });
    assert.equal(put.status, 400, put.text);
    const patch = await t.request('PATCH', `${THINGS}/a`, { body: '{"spec":{"n":2e999}}', contentType: MERGE });
    assert.equal(patch.status, 400, patch.text);
    assert.deepEqual((await t.request('GET', `${THINGS}/a`)).body.spec, { n: 1e308, free: { s: '1e400', m: -2.5e-300 } });
  });

  it('refuses YAML .inf and .nan (no JSON form) with 400, in create and apply bodies', async () => {
    for (const [value, shown] of [
      ['.inf', '+Inf'],
      ['-.inf', '-Inf'],
      ['.nan', 'NaN'],
    ]) {
      const body = `apiVersion: ex.com/v1\nkind: Thing\nmetadata:\n  name: y\nspec:\n  n: ${value}\n`;
      const r = await t.request('POST', THINGS, { body, contentType: 'application/yaml' });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.message, `error converting YAML to JSON: json: unsupported value: ${shown}`);
      const apply = await t.request('PATCH', `${THINGS}/y?fieldManager=m`, { body, contentType: APPLY });
      assert.equal(apply.status, 400, apply.text);
    }
  });
  it('keeps YAML 1.1 tags (!!set, !!omap) as the plain maps and lists they are written as, and decodes !!binary as goyaml.v2 does', async () => {
    // Resolved, these were a Set and a Map: stored as {} (their items lost).
    const tagged = 'apiVersion: ex.com/v1\nkind: Thing\nmetadata:\n  name: t\nspec:\n  free:\n    s: !!set {a, b}\n    o: !!omap [a: 1]\n    b: !!binary aGVsbG8=\n';
    const r = await t.request('POST', THINGS, { body: tagged, contentType: 'application/yaml' });
    assert.equal(r.status, 201, r.text);
    // goyaml.v2 decodes !!binary to its bytes as a Go string, which the JSON kube decodes carries.
    assert.deepEqual(r.body.spec.free, { s: { a: null, b: null }, o: [{ a: 1 }], b: 'hello' });
    const yamlBody = (kind: string, name: string, value: string) => `apiVersion: v1\nkind: ${kind}\nmetadata:\n  name: ${name}\ndata:\n  k: ${value}\n`;
    const post = (resource: string, body: string) => t.request('POST', `/api/v1/namespaces/default/${resource}`, { body, contentType: 'application/yaml' });
    const cm = await post('configmaps', yamlBody('ConfigMap', 'c', '!!binary aGVsbG8='));
    assert.equal(cm.status, 201, cm.text);
    assert.deepEqual(cm.body.data, { k: 'hello' });
    // Go's StdEncoding ignores line breaks: a block scalar over two lines.
    const block = await post('configmaps', yamlBody('ConfigMap', 'c2', '!!binary |\n    aGVs\n    bG8=\n'));
    assert.equal(block.status, 201, block.text);
    assert.deepEqual(block.body.data, { k: 'hello' });
    // A Secret's data ([]byte) is base64 in the JSON: !!binary of base64 text stores those bytes.
    const secret = await post('secrets', yamlBody('Secret', 's', '!!binary YUdWc2JHOD0='));
    assert.equal(secret.status, 201, secret.text);
    assert.deepEqual(secret.body.data, { k: 'aGVsbG8=' });
    // Text that is no base64 (missing padding) fails the document, with goyaml.v2's message.
    const bad = await post('configmaps', yamlBody('ConfigMap', 'c3', '!!binary aGVsbG8'));
    assert.equal(bad.status, 400, bad.text);
    assert.match(bad.body.message, /!!binary value contains invalid base64 data/);
  });
});

describe('deprecated fields', () => {
  it('finds deprecated fields reached only through recursive types, whichever type is walked first', () => {
    const schemas = {
      A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B' }, x: { type: 'integer', deprecated: true } } },
      B: { type: 'object', properties: { a: { $ref: '#/components/schemas/A' }, n: { type: 'integer' } } },
      C: { type: 'object', properties: { n: { type: 'integer' }, free: { type: 'object', additionalProperties: { type: 'string' } } } },
    };
    const b = buildTypeSchema(schemas, 'B');
    assert.deepEqual(deprecatedFieldWarnings({ n: 1, a: { b: { a: { x: 1 } } } }, b), ['a.b.a.x: deprecated']);
    const a = buildTypeSchema(schemas, 'A');
    assert.deepEqual(deprecatedFieldWarnings({ x: 2, b: { a: { x: 1 } } }, a), ['x: deprecated', 'b.a.x: deprecated']);
    assert.deepEqual(deprecatedFieldWarnings({ n: 1, free: { x: 'y' } }, buildTypeSchema(schemas, 'C')), []);
  });

  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it('warns `<path>: deprecated` on create, update, every patch type and apply, without failing', async () => {
    const created = await t.request('POST', WIDGETS, { body: widget('dep', { replicas: 1, colour: 'red' }) });
    assert.equal(created.status, 201);
    assert.deepEqual(warnings(created), ['spec.colour: deprecated']);
    assert.equal(created.body.spec.colour, 'red');
    const merge = await t.request('PATCH', `${WIDGETS}/dep`, { body: { spec: { colour: 'blue' } }, contentType: MERGE });
    assert.deepEqual(warnings(merge), ['spec.colour: deprecated']);
    const unrelated = await t.request('PATCH', `${WIDGETS}/dep`, { body: { spec: { replicas: 2 } }, contentType: MERGE });
    assert.deepEqual(warnings(unrelated), []);
    const json = await t.request('PATCH', `${WIDGETS}/dep`, { body: [{ op: 'replace', path: '/spec/colour', value: 'green' }], contentType: JSONPATCH });
    assert.deepEqual(warnings(json), ['spec.colour: deprecated']);
    const whole = await t.request('PATCH', `${WIDGETS}/dep`, { body: [{ op: 'replace', path: '/spec', value: { replicas: 1, colour: 'x' } }], contentType: JSONPATCH });
    assert.deepEqual(warnings(whole), ['spec.colour: deprecated']);
    const current = (await t.request('GET', `${WIDGETS}/dep`)).body;
    const put = await t.request('PUT', `${WIDGETS}/dep`, { body: current });
    assert.deepEqual(warnings(put), ['spec.colour: deprecated']);
    const applied = await t.request('PATCH', `${WIDGETS}/dep?fieldManager=m&force=true`, {
      body: { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'dep' }, spec: { colour: 'red' } },
      contentType: APPLY,
    });
    assert.equal(applied.status, 200, applied.text);
    assert.deepEqual(warnings(applied), ['spec.colour: deprecated']);
  });
});

describe('findDuplicateJSONKeys', () => {
  it('sees repeated keys at any depth, with their line, ignoring look-alikes inside strings', () => {
    const text = '{"a": "{\\"a\\": 1, \\"a\\": 2}", "b": [{"c": 1}, {"c": 2, "c": 3}],\n "a\\u0062": 1, "ab": 2, "k\\"q": 1, "k\\"q": 2}';
    assert.deepEqual(findDuplicateJSONKeys(text), [
      { key: 'c', path: 'b[1].c', line: 1, depth: 3 },
      { key: 'ab', path: 'ab', line: 2, depth: 1 },
      { key: 'k"q', path: 'k"q', line: 2, depth: 1 },
    ]);
    assert.deepEqual(findDuplicateJSONKeys('[1, "x", {"y": {"y": 1}}]'), []);
    // The path as sigs.k8s.io/json's strict field stack writes it: keys by `.`, list indexes as `[i]`.
    assert.deepEqual(
      findDuplicateJSONKeys('{"a": [1, [{"x": 1}, {"x": 1, "x": 2}]], "m": {"k,": {"z": [], "z": {}}}}').map((d) => d.path),
      ['a[1][1].x', 'm.k,.z'],
    );
  });

  it('finds a repeat among many keys (past the short list the scan keeps per object)', () => {
    const keys = Array.from({ length: 20 }, (_, i) => `"k${i}": ${i}`);
    const object = (...extra: string[]) => `{${[...keys, ...extra].join(', ')}}`;
    assert.deepEqual(findDuplicateJSONKeys(object()), []);
    assert.deepEqual(
      findDuplicateJSONKeys(`{"m": ${object('"k3": 0', '"k19": 0', '"k20": 0', '"k20": 1')}, "n": [${object('"k0": 1')}]}`).map((d) => d.path),
      ['m.k3', 'm.k19', 'm.k20', 'n[0].k0'],
    );
    assert.deepEqual(findDuplicateJSONKeys('{"a": 1, "b": 2, "a": 3, "a": 4}').map((d) => d.path), ['a', 'a']);
  });

  it('scans a large body in time linear in its size', () => {
    const body = (n: number) => JSON.stringify({ items: Array.from({ length: n }, (_, i) => ({ name: `n${i}`, value: i, nested: { a: 1, b: [1, 2] } })) });
    assert.deepEqual(findDuplicateJSONKeys(body(50_000)), []);
    // As growth (6,250 and 50,000 items), not against a clock: see linear-growth.ts.
    assertLinearGrowth('findDuplicateJSONKeys', 6_250, body, (text) => findDuplicateJSONKeys(text));
  });
});
