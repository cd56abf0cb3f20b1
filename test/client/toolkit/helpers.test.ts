/** Condition and owner reference helpers (meta.SetStatusCondition, controllerutil). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { APIObject } from '../../../runtime/api/meta.js';
import { type Condition, findCondition, getControllerOf, isConditionTrue, isControlledBy, ownerReference, removeCondition, setCondition, setControllerReference } from '../../../packages/client/src/toolkit/index.js';

describe('conditions', () => {
  it('adds, updates and keeps lastTransitionTime unless the status changes', () => {
    const t0 = new Date('2026-01-01T00:00:00Z');
    const t1 = new Date('2026-01-01T00:05:00Z');
    let { conditions, changed } = setCondition<Condition>(undefined, { type: 'Ready', status: 'False', reason: 'Pending', observedGeneration: 1 }, t0);
    assert.equal(changed, true);
    assert.equal(conditions[0]!.lastTransitionTime, '2026-01-01T00:00:00Z');
    ({ conditions, changed } = setCondition(conditions, { type: 'Ready', status: 'False', reason: 'Pending', observedGeneration: 1 }, t1));
    assert.equal(changed, false, 'nothing new');
    ({ conditions, changed } = setCondition(conditions, { type: 'Ready', status: 'False', reason: 'Still', observedGeneration: 2 }, t1));
    assert.equal(changed, true);
    assert.equal(conditions[0]!.lastTransitionTime, '2026-01-01T00:00:00Z', 'same status: time kept');
    ({ conditions } = setCondition(conditions, { type: 'Ready', status: 'True', reason: 'Done', observedGeneration: 2 }, t1));
    assert.equal(conditions[0]!.lastTransitionTime, '2026-01-01T00:05:00Z');
    assert.equal(isConditionTrue(conditions, 'Ready'), true);
    assert.equal(findCondition(conditions, 'Other'), undefined);
    assert.deepEqual(removeCondition(conditions, 'Ready'), []);
  });
});

describe('owner references', () => {
  const owner = { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'w1', uid: 'u1' } };
  it('makes a controller reference and refuses a second controller', () => {
    assert.deepEqual(ownerReference(owner), { apiVersion: 'widgets.example.com/v1', kind: 'Widget', name: 'w1', uid: 'u1', controller: true, blockOwnerDeletion: true });
    const cm: APIObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
    setControllerReference(owner, cm);
    setControllerReference(owner, cm);
    assert.equal(cm.metadata?.ownerReferences?.length, 1);
    assert.equal(isControlledBy(cm, owner), true);
    assert.equal(getControllerOf(cm)?.name, 'w1');
    assert.throws(() => setControllerReference({ ...owner, metadata: { name: 'w2', uid: 'u2' } }, cm), /already owned by another Widget controller w1/);
    assert.throws(() => ownerReference({ metadata: { name: 'x' } }), /owner must have/);
  });
});
