/**
 * kindValidator (the generated clients' validators) with a kind's Go facts: a plain Go field's
 * zero value is what Go decodes for an absent field, so its default replaces it, as on the server;
 * without the facts (a kind that numbers no field) the zero is checked as sent, as on the server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kindValidator } from '../../runtime/registry/validate-object.js';

const schemas = () => ({
  'com.example.v1.Gizmo': {
    type: 'object',
    properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec: { $ref: '#/components/schemas/com.example.v1.GizmoSpec' } },
  },
  'com.example.v1.GizmoSpec': {
    type: 'object',
    properties: { protocol: { type: 'string', enum: ['TCP', 'UDP'], default: 'TCP' } },
  },
});
const info = { group: 'example.com', version: 'v1', kind: 'Gizmo', plural: 'gizmos', namespaced: true, status: false };
const gizmo = { apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name: 'g', namespace: 'default' }, spec: { protocol: '' } };

describe('kindValidator and Go facts', () => {
  it('with the facts, a plain field\'s "" is defaulted and accepted', () => {
    const v = kindValidator(info, 'com.example.v1.Gizmo', schemas, () => ({ 'com.example.v1.Gizmo': { metadata: 1, spec: 2 }, 'com.example.v1.GizmoSpec': { protocol: 1 } }));
    assert.deepEqual(v.validate(structuredClone(gizmo)), []);
  });

  it('a pointer field\'s "" and a kind without facts keep the zero, which the enum refuses', () => {
    const pointer = kindValidator(info, 'com.example.v1.Gizmo', schemas, () => ({ 'com.example.v1.GizmoSpec': { protocol: { number: 1, pointer: true } } }));
    const none = kindValidator(info, 'com.example.v1.Gizmo', schemas);
    for (const v of [pointer, none]) {
      assert.deepEqual(
        v.validate(structuredClone(gizmo)).map((p) => `${p.field}: ${p.message}`),
        ['spec.protocol: Unsupported value: "": supported values: "TCP", "UDP"'],
      );
    }
  });
});
