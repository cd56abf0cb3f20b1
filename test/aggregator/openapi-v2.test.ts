/**
 * The Swagger 2.0 form of group/versions that publish only OpenAPI v3 (CRDs, remote APIServices):
 * references rewritten to `#/definitions/`, and a reference with annotations printed as kube
 * prints it (`$ref` beside them, not v3's `allOf` wrapper, which kubectl 1.27/1.28 cannot read).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rewriteRefs, v3ToV2 } from '../../runtime/aggregator/openapi-v2.js';
import { MergedOpenAPI } from '../../runtime/aggregator/openapi.js';
import { servedVersions } from '../../runtime/apiextensions/definition.js';
import { openapiDocument, openapiV2 } from '../../runtime/apiextensions/documents.js';
import { resourceOperations } from '../../runtime/endpoints/openapi/operations.js';
import { v3Paths } from '../../runtime/endpoints/openapi/v3.js';
import type { ServedGroupVersion } from '../../runtime/server/delegation.js';
import { crontabCRD } from '../apiextensions/chain.js';
import { checkSwagger2, collectRefs } from '../generator/openapi-check.js';

describe('v3ToV2', () => {
  it('puts an annotated reference beside its annotations and rewrites every reference', () => {
    const doc = {
      paths: {},
      components: {
        schemas: {
          'com.example.v1.Thing': {
            type: 'object',
            properties: {
              metadata: { description: 'Standard object metadata.', default: {}, allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }] },
              items: { type: 'array', items: { $ref: '#/components/schemas/com.example.v1.Item' } },
              either: { allOf: [{ $ref: '#/components/schemas/com.example.v1.A' }, { $ref: '#/components/schemas/com.example.v1.B' }] },
            },
          },
        },
      },
    };
    const { definitions } = v3ToV2(doc);
    assert.deepEqual(definitions['com.example.v1.Thing'], {
      type: 'object',
      properties: {
        metadata: { description: 'Standard object metadata.', default: {}, $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
        items: { type: 'array', items: { $ref: '#/definitions/com.example.v1.Item' } },
        // Two parts are a real allOf: kept.
        either: { allOf: [{ $ref: '#/definitions/com.example.v1.A' }, { $ref: '#/definitions/com.example.v1.B' }] },
      },
    });
  });

  it('keeps an allOf whose one part is more than a reference', () => {
    const schema = { allOf: [{ $ref: '#/components/schemas/X', description: 'x' }] };
    assert.deepEqual(rewriteRefs(schema), { allOf: [{ $ref: '#/definitions/X', description: 'x' }] });
  });
});

/**
 * The merged /openapi/v2 (runtime/aggregator/openapi.ts): the compiled APIs' document, a CRD's part
 * (apiextensions prints it with its shared parameters) and an APIService's v3 document (converted,
 * its parameters shared as its own server would) merge their `parameters` as kube-aggregator does:
 * one declaration per key and content, a key held with other content renamed `<key>_v2`.
 */
describe('the merged /openapi/v2: shared parameters', () => {
  const GENERATED = JSON.parse(readFileSync(fileURLToPath(new URL('../../generated/openapi/v2/swagger.json', import.meta.url)), 'utf8'));
  const crd = crontabCRD({ group: 'stable.example.com' }) as any;
  crd.status = { acceptedNames: crd.spec.names };
  const entries = servedVersions(crd).map((v) => ({ ...v, storageVersion: 'v1' }));
  const served = (group: string, version: string, parts: { v3: unknown; v2?: () => any }): ServedGroupVersion => ({
    group,
    version,
    groupPriority: 1000,
    versionPriority: 15,
    resourceList: () => ({}),
    aggregated: () => ({}),
    openapiV3: () => parts.v3,
    ...(parts.v2 ? { openapiV2: parts.v2 } : {}),
  });
  // A remote server's v3 document: kgen's own printer, for a group the front does not compile.
  const remote = { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'unversioned' }, paths: v3Paths(entries.flatMap((e) => resourceOperations({ ...e.definition, group: 'remote.example.org', customResource: false }))), components: { schemas: {} } };
  // A server whose declaration of kgen's `pretty` key holds another text.
  const conflicting = {
    paths: { '/apis/odd.example.org/v1/things': { get: { operationId: 'listOddThings', parameters: [{ $ref: '#/parameters/pretty-nN7o5FEq' }], responses: { '200': { description: 'OK' } } } } },
    definitions: {},
    parameters: { 'pretty-nN7o5FEq': { name: 'pretty', in: 'query', description: 'another text', type: 'string', uniqueItems: true } },
  };
  const sources = [
    served('stable.example.com', 'v1', { v3: openapiDocument(entries), v2: () => openapiV2(entries) }),
    served('remote.example.org', 'v1', { v3: remote }),
    served('odd.example.org', 'v1', { v3: { openapi: '3.0.0', paths: {} }, v2: () => conflicting }),
  ];
  const merged = new MergedOpenAPI(() => sources, { document: () => GENERATED, covers: () => false });
  const response = merged.serve(['openapi', 'v2'], new URLSearchParams(), { accept: 'application/json' }) as any;
  const doc = JSON.parse(response.payload);

  it('declares every shared parameter once and every reference resolves', () => {
    assert.deepEqual(checkSwagger2(doc), []);
    const refs = collectRefs(doc).filter(({ ref }) => ref.startsWith('#/parameters/'));
    assert.ok(refs.length > 100);
    // The CRD's and the remote server's parameters are the compiled APIs' own: no new keys for them.
    const declared = Object.keys(doc.parameters).sort();
    assert.deepEqual(declared, [...Object.keys(GENERATED.parameters), 'pretty-nN7o5FEq_v2'].sort());
    for (const path of ['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}', '/apis/remote.example.org/v1/namespaces/{namespace}/crontabs/{name}']) {
      assert.deepEqual(doc.paths[path].parameters[1], { $ref: '#/parameters/namespace-vgWSWtn3' }, path);
      assert.ok(doc.paths[path].delete.parameters.some((p: any) => p.$ref === '#/parameters/body-2Y1dVQaQ'), path);
      assert.ok(doc.paths[path].patch.parameters.some((p: any) => p.name === 'fieldValidation' && p.in === 'query'), `${path}: fieldValidation in place`);
    }
  });

  it('renames a conflicting key and never replaces the compiled APIs’ declaration', () => {
    assert.deepEqual(doc.parameters['pretty-nN7o5FEq'], GENERATED.parameters['pretty-nN7o5FEq']);
    assert.equal(doc.parameters['pretty-nN7o5FEq_v2'].description, 'another text');
    assert.deepEqual(doc.paths['/apis/odd.example.org/v1/things'].get.parameters, [{ $ref: '#/parameters/pretty-nN7o5FEq_v2' }]);
  });
});
