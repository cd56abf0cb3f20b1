import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateJSONPath, JSONPathError, simpleFieldPath } from '../../runtime/registry/jsonpath.js';

const obj = {
  spec: { replicas: 2, 'dotted.key': 'yes', items: [{ n: 1 }, { n: 2 }] },
  status: { conditions: [{ type: 'Ready', status: 'True' }, { type: 'Synced', status: 'False' }] },
};

describe('JSONPath evaluator', () => {
  it('evaluates the forms printer columns use', () => {
    assert.deepEqual(evaluateJSONPath(obj, '.spec.replicas'), [2]);
    assert.deepEqual(evaluateJSONPath(obj, '{.spec.replicas}'), [2]);
    assert.deepEqual(evaluateJSONPath(obj, '.spec.items[1].n'), [2]);
    assert.deepEqual(evaluateJSONPath(obj, '.spec.items[-1].n'), [2]);
    assert.deepEqual(evaluateJSONPath(obj, '.spec.items[*].n'), [1, 2]);
    assert.deepEqual(evaluateJSONPath(obj, ".spec['dotted.key']"), ['yes']);
    assert.deepEqual(evaluateJSONPath(obj, '.status.conditions[?(@.type=="Ready")].status'), ['True']);
    assert.deepEqual(evaluateJSONPath(obj, ".status.conditions[?(@.type!='Ready')].type"), ['Synced']);
  });

  it('yields nothing for missing fields', () => {
    assert.deepEqual(evaluateJSONPath(obj, '.spec.missing.deeper'), []);
    assert.deepEqual(evaluateJSONPath(obj, '.spec.items[5].n'), []);
    assert.deepEqual(evaluateJSONPath(obj, '.spec.replicas.x'), []);
  });

  it('rejects expressions it does not support', () => {
    assert.throws(() => evaluateJSONPath(obj, '..spec'), JSONPathError);
    assert.throws(() => evaluateJSONPath(obj, '.spec[?(@.a > 1)]'), JSONPathError);
    assert.throws(() => evaluateJSONPath(obj, 'spec'), JSONPathError);
  });

  it('recognises simple field paths', () => {
    assert.deepEqual(simpleFieldPath('.spec.replicas'), ['spec', 'replicas']);
    assert.equal(simpleFieldPath('.spec.items[0]'), undefined);
  });
});
