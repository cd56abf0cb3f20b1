/**
 * Shared parameters of /openapi/v2 as kube-openapi's builder declares them and kube-aggregator
 * merges them (runtime/endpoints/openapi/v2-parameters.ts). The keys below are those of kube's own
 * document (kubernetes/kubernetes api/openapi-spec/swagger.json, kube-openapi's builder tests),
 * computed here from the same parameters.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ParameterKeys, goParameterJSON, isShared, mergeParameters, shareParameters } from '../../../runtime/endpoints/openapi/v2-parameters.js';

const NAMESPACE = { name: 'namespace', in: 'path', description: 'object name and auth scope, such as for teams and projects', required: true, type: 'string', uniqueItems: true };
const KUBE_PRETTY = {
  name: 'pretty',
  in: 'query',
  description: "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).",
  type: 'string',
  uniqueItems: true,
};
const KUBE_BOOKMARKS = {
  name: 'allowWatchBookmarks',
  in: 'query',
  description:
    'allowWatchBookmarks requests watch events with type "BOOKMARK". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server\'s discretion. Clients should not assume bookmarks are returned at any specific interval, nor may they assume the server will send any BOOKMARK event during a session. If this is not a watch, this field is ignored.',
  type: 'boolean',
  uniqueItems: true,
};
const DELETE_BODY = { name: 'body', in: 'body', required: false, schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions' } };
const PATCH_BODY = { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' } };
const KIND_BODY = { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.api.core.v1.Pod' } };
const NAME = { name: 'name', in: 'path', description: 'name of the Pod', required: true, type: 'string', uniqueItems: true };
const DRY_RUN = { name: 'dryRun', in: 'query', description: 'dry run', type: 'string', uniqueItems: true };
const FIELD_VALIDATION = { name: 'fieldValidation', in: 'query', description: 'field validation', type: 'string', uniqueItems: true };

describe('shared /openapi/v2 parameters: kube-openapi’s keys', () => {
  it('names a parameter by its name and the FNV-1 hash of its Go JSON, as kube', () => {
    const keys = new ParameterKeys();
    assert.equal(keys.keyOf(NAMESPACE), 'namespace-vgWSWtn3');
    assert.equal(keys.keyOf(KUBE_PRETTY), 'pretty-tJGM1-ng');
    assert.equal(keys.keyOf(KUBE_BOOKMARKS), 'allowWatchBookmarks-HC2hJt-J');
    // required: false is Go's zero value, left out of the JSON as kube's struct leaves it.
    assert.equal(keys.keyOf(DELETE_BODY), 'body-2Y1dVQaQ');
    assert.equal(keys.keyOf(PATCH_BODY), 'body-78PwaGsr');
    // kube-openapi's own builder test (pkg/builder/openapi_test.go).
    assert.equal(keys.keyOf({ name: 'pretty', in: 'query', description: "If 'true', then the output is pretty printed.", type: 'string', uniqueItems: true }), 'pretty-nN7o5FEq');
    assert.equal(keys.collided, false);
  });

  it('prints the Go JSON in spec.Parameter’s field order, zero values left out, HTML escaped', () => {
    assert.equal(goParameterJSON(NAMESPACE), '{"uniqueItems":true,"type":"string","description":"object name and auth scope, such as for teams and projects","name":"namespace","in":"path","required":true}');
    assert.equal(goParameterJSON({ in: 'query', name: 'x', 'x-b': 1, description: 'a<b & c>d', type: 'integer', 'x-a': { z: 1, a: 2 }, required: false }), '{"type":"integer","description":"a\\u003cb \\u0026 c\\u003ed","name":"x","in":"query","x-a":{"a":2,"z":1},"x-b":1}');
  });

  it('keeps in place what kube keeps: name, dryRun, fieldValidation, a kind’s body', () => {
    for (const p of [NAME, { ...NAME, in: 'query' }, DRY_RUN, FIELD_VALIDATION, KIND_BODY, { $ref: '#/parameters/x' }]) assert.equal(isShared(p), false, JSON.stringify(p));
    for (const p of [NAMESPACE, KUBE_PRETTY, DELETE_BODY, PATCH_BODY, { ...DRY_RUN, in: 'header' }]) assert.equal(isShared(p), true, JSON.stringify(p));
  });
});

describe('shareParameters (kube-openapi deduplicateParameters)', () => {
  const paths = {
    '/api/v1/namespaces/{namespace}/pods/{name}': {
      parameters: [NAME, NAMESPACE],
      get: { operationId: 'read', parameters: [KUBE_PRETTY] },
      delete: { operationId: 'delete', parameters: [DELETE_BODY, DRY_RUN, KUBE_PRETTY] },
      put: { operationId: 'replace', parameters: [KIND_BODY, DRY_RUN, FIELD_VALIDATION, { ...KUBE_PRETTY }] },
    },
    '/api/v1/namespaces/{namespace}/pods': { parameters: [NAMESPACE], get: { operationId: 'list', parameters: [KUBE_BOOKMARKS, KUBE_PRETTY] } },
  };

  it('declares each shared parameter once, sorted, and refers to it', () => {
    const before = JSON.stringify(paths);
    const shared = shareParameters(paths);
    assert.equal(JSON.stringify(paths), before, 'the input is not changed');
    assert.deepEqual(Object.keys(shared.parameters), ['allowWatchBookmarks-HC2hJt-J', 'body-2Y1dVQaQ', 'namespace-vgWSWtn3', 'pretty-tJGM1-ng']);
    assert.deepEqual(shared.parameters['namespace-vgWSWtn3'], NAMESPACE);
    const item = shared.paths['/api/v1/namespaces/{namespace}/pods/{name}'] as any;
    assert.deepEqual(item.parameters, [NAME, { $ref: '#/parameters/namespace-vgWSWtn3' }]);
    assert.deepEqual(item.delete.parameters, [{ $ref: '#/parameters/body-2Y1dVQaQ' }, DRY_RUN, { $ref: '#/parameters/pretty-tJGM1-ng' }]);
    assert.deepEqual(item.put.parameters, [KIND_BODY, DRY_RUN, FIELD_VALIDATION, { $ref: '#/parameters/pretty-tJGM1-ng' }]);
    assert.equal(item.put.operationId, 'replace');
    // Idempotent, as kube's: references are left alone.
    assert.deepEqual(shareParameters(shared.paths), { paths: shared.paths, parameters: {} });
  });
});

describe('mergeParameters (kube-aggregator mergeSpecs)', () => {
  const ref = (key: string) => ({ $ref: `#/parameters/${key}` });
  const sourcePaths = () => ({ '/apis/b/v1/things': { parameters: [ref('namespace-vgWSWtn3')], get: { parameters: [ref('pretty-X'), ref('limit-Y')] } } });

  it('takes new keys and keys held with the same content once', () => {
    const dest: Record<string, unknown> = { 'namespace-vgWSWtn3': { ...NAMESPACE } };
    const paths = sourcePaths();
    const merged = mergeParameters(dest, { paths, parameters: { 'namespace-vgWSWtn3': NAMESPACE, 'pretty-X': KUBE_PRETTY } });
    assert.equal(merged, paths, 'nothing renamed: the same paths');
    assert.deepEqual(Object.keys(dest), ['namespace-vgWSWtn3', 'pretty-X']);
  });

  it('renames a key the destination holds with other content, and the source’s references follow', () => {
    const other = { ...KUBE_PRETTY, description: 'another' };
    const dest: Record<string, unknown> = { 'pretty-X': KUBE_PRETTY };
    const merged = mergeParameters(dest, { paths: sourcePaths(), parameters: { 'pretty-X': other, 'limit-Y': { name: 'limit', in: 'query', type: 'integer' } } }) as any;
    assert.deepEqual(dest['pretty-X'], KUBE_PRETTY, 'the destination’s declaration is never replaced');
    assert.deepEqual(dest['pretty-X_v2'], other);
    assert.deepEqual(merged['/apis/b/v1/things'].get.parameters, [ref('pretty-X_v2'), ref('limit-Y')]);
    assert.deepEqual(merged['/apis/b/v1/things'].parameters, [ref('namespace-vgWSWtn3')]);
    // A third document with the same conflicting content reuses _v2; a different one takes _v3.
    const again = mergeParameters(dest, { paths: sourcePaths(), parameters: { 'pretty-X': { ...other } } }) as any;
    assert.deepEqual(again['/apis/b/v1/things'].get.parameters[0], ref('pretty-X_v2'));
    const third = mergeParameters(dest, { paths: sourcePaths(), parameters: { 'pretty-X': { ...other, description: 'third' } } }) as any;
    assert.deepEqual(third['/apis/b/v1/things'].get.parameters[0], ref('pretty-X_v3'));
    assert.deepEqual(Object.keys(dest).sort(), ['limit-Y', 'pretty-X', 'pretty-X_v2', 'pretty-X_v3']);
  });
});
