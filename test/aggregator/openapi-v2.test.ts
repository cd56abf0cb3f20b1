/**
 * The Swagger 2.0 form of group/versions that publish only OpenAPI v3 (CRDs, remote APIServices):
 * references rewritten to `#/definitions/`, and a reference with annotations printed as kube
 * prints it (`$ref` beside them, not v3's `allOf` wrapper, which kubectl 1.27/1.28 cannot read).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rewriteRefs, v3ToV2 } from '../../runtime/aggregator/openapi-v2.js';

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
