/**
 * The naming and establishing decisions (kube's naming_controller.go / establishing_controller.go)
 * and CRD conditions, as pure functions: NamesAccepted reasons and messages, acceptedNames, and
 * the Established condition that follows.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { acceptedNamesForGroup, addNames, calculateNamesAndConditions, emptyNamesInUse } from '../../runtime/apiextensions/naming.js';
import { setCondition } from '../../runtime/apiextensions/conditions.js';
import type { CRDNames, CustomResourceDefinition } from '../../runtime/apiextensions/types.js';

function crd(names: CRDNames, status?: CustomResourceDefinition['status'], group = 'stable.example.com'): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${names.plural}.${group}` },
    spec: { group, scope: 'Namespaced', names, versions: [{ name: 'v1', served: true, storage: true }] },
    ...(status ? { status } : {}),
  };
}

const CRONTAB: CRDNames = { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'] };

describe('calculateNamesAndConditions', () => {
  it('accepts fresh names: NoConflicts, and Established False Installing', () => {
    const r = calculateNamesAndConditions(crd(CRONTAB), emptyNamesInUse());
    assert.deepEqual(r.acceptedNames, { plural: 'crontabs', kind: 'CronTab', singular: 'crontab', shortNames: ['ct'], listKind: 'CronTabList' });
    assert.deepEqual(r.namesAccepted, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
    assert.deepEqual(r.established, { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' });
  });

  it('refuses a plural another CRD of the group serves: PluralConflict, Established NotAccepted', () => {
    const other = crd({ plural: 'crontabs', singular: 'other', kind: 'Other', listKind: 'OtherList' }, { acceptedNames: { plural: 'crontabs', singular: 'other', kind: 'Other', listKind: 'OtherList' } });
    const mine = crd({ ...CRONTAB, shortNames: undefined });
    const used = acceptedNamesForGroup([other, mine], 'stable.example.com');
    const r = calculateNamesAndConditions(mine, used);
    assert.deepEqual(r.namesAccepted, { type: 'NamesAccepted', status: 'False', reason: 'PluralConflict', message: '"crontabs" is already in use' });
    assert.deepEqual(r.established, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
    // What does not conflict is accepted; the plural stays unaccepted (empty, as Go writes it).
    assert.equal(r.acceptedNames.plural, '');
    assert.equal(r.acceptedNames.kind, 'CronTab');
  });

  it('reports the last conflict found, as kube does (kind after plural)', () => {
    const used = emptyNamesInUse();
    addNames(used, { plural: 'crontabs', kind: 'CronTab' });
    const r = calculateNamesAndConditions(crd(CRONTAB), used);
    assert.equal(r.namesAccepted.reason, 'KindConflict');
    assert.equal(r.namesAccepted.message, '"CronTab" is already in use');
  });

  it('checks short names one by one and aggregates the errors', () => {
    const used = emptyNamesInUse();
    addNames(used, { plural: 'a', shortNames: ['ct', 'cts'], kind: 'A' });
    const r = calculateNamesAndConditions(crd({ ...CRONTAB, shortNames: ['ct', 'cts', 'free'] }), used);
    assert.deepEqual(r.namesAccepted, { type: 'NamesAccepted', status: 'False', reason: 'ShortNamesConflict', message: '["ct" is already in use, "cts" is already in use]' });
    assert.equal(r.acceptedNames.shortNames, undefined);
  });

  it('refuses a singular and a list kind in use', () => {
    const used = emptyNamesInUse();
    addNames(used, { plural: 'crontab', kind: 'X', listKind: 'CronTabList' });
    const r = calculateNamesAndConditions(crd({ ...CRONTAB, shortNames: undefined }), used);
    // Both conflict; the condition carries the last one checked (listKind).
    assert.equal(r.namesAccepted.reason, 'ListKindConflict');
    assert.equal(r.acceptedNames.singular, undefined);
  });

  it("never conflicts with the CRD's own accepted names, and keeps an Established condition", () => {
    const accepted = { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'] };
    const established = { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: '2024-01-01T00:00:00Z' };
    const mine = crd(CRONTAB, { acceptedNames: accepted, conditions: [established] });
    const r = calculateNamesAndConditions(mine, acceptedNamesForGroup([mine], 'stable.example.com'));
    assert.equal(r.namesAccepted.status, 'True');
    assert.deepEqual(r.established, established);
  });

  it('a names change that conflicts keeps the old accepted names', () => {
    const accepted = { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList' };
    const other = crd({ plural: 'others', kind: 'Other', shortNames: ['o'] }, { acceptedNames: { plural: 'others', kind: 'Other', shortNames: ['o'] } });
    const mine = crd({ ...CRONTAB, shortNames: ['o'] }, { acceptedNames: accepted });
    const r = calculateNamesAndConditions(mine, acceptedNamesForGroup([other, mine], 'stable.example.com'));
    assert.equal(r.namesAccepted.reason, 'ShortNamesConflict');
    assert.equal(r.acceptedNames.shortNames, undefined);
    assert.equal(r.acceptedNames.plural, 'crontabs');
  });

  it('only names of the same group are in use', () => {
    const other = crd(CRONTAB, { acceptedNames: CRONTAB }, 'other.example.com');
    const used = acceptedNamesForGroup([other], 'stable.example.com');
    assert.equal(used.resources.size, 0);
    assert.equal(calculateNamesAndConditions(crd(CRONTAB), used).namesAccepted.status, 'True');
  });
});

describe('setCondition', () => {
  it('keeps lastTransitionTime while the status stays, and moves it when the status changes', () => {
    const c = crd(CRONTAB);
    setCondition(c, { type: 'Established', status: 'False', reason: 'Installing', message: 'm1' }, new Date('2024-01-01T00:00:00.123Z'));
    assert.deepEqual(c.status?.conditions, [{ type: 'Established', status: 'False', reason: 'Installing', message: 'm1', lastTransitionTime: '2024-01-01T00:00:00Z' }]);
    setCondition(c, { type: 'Established', status: 'False', reason: 'Other', message: 'm2' }, new Date('2024-01-02T00:00:00Z'));
    assert.equal(c.status?.conditions?.[0]?.lastTransitionTime, '2024-01-01T00:00:00Z');
    assert.equal(c.status?.conditions?.[0]?.reason, 'Other');
    setCondition(c, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'm3' }, new Date('2024-01-03T00:00:00Z'));
    assert.equal(c.status?.conditions?.[0]?.lastTransitionTime, '2024-01-03T00:00:00Z');
    assert.equal(c.status?.conditions?.length, 1);
  });
});
