/**
 * The PersistentVolumeClaim strategy's defaults and rules with kube's messages and paths
 * (pkg/apis/core/validation ValidatePersistentVolumeClaimSpec and ...Update, Kubernetes 1.34).
 * Over the server with kubectl: test/e2e/workloads-kubectl.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../runtime/api/meta.js';
import { normalizeDataSources, validateClaimUpdate, validatePersistentVolumeClaimSpec, withPersistentVolumeClaimStatusStrategy, withPersistentVolumeClaimStrategy } from '../../../runtime/registry/core/persistentvolumeclaims.js';
import type { RESTStrategy } from '../../../runtime/registry/strategy.js';
import { quantityValue } from '../../../runtime/registry/core/quantity.js';

const spec = (over: Record<string, unknown> = {}) => ({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem', ...over });
const messages = (s: Record<string, unknown>) => validatePersistentVolumeClaimSpec(s).map((e) => `${e.field}: ${e.message}`);
const claim = (s: Record<string, unknown>, status: Record<string, unknown> = { phase: 'Pending' }): KubeObject => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c' }, spec: s, status }) as KubeObject;
const updateMessages = (s: Record<string, unknown>, old: Record<string, unknown>, status?: Record<string, unknown>) => validateClaimUpdate(claim(s, status), claim(old, status)).map((e) => `${e.field}: ${e.message}`);

describe('PersistentVolumeClaim validation', () => {
  it('accepts a claim with an access mode and a storage request', () => assert.deepEqual(messages(spec()), []));

  it('requires access modes, known ones, and ReadWriteOncePod alone', () => {
    assert.deepEqual(messages(spec({ accessModes: [] })), ['spec.accessModes: Required value: at least 1 access mode is required']);
    assert.deepEqual(messages(spec({ accessModes: ['ReadWriteSometimes'] })), [
      'spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
    ]);
    assert.deepEqual(messages(spec({ accessModes: ['ReadWriteOncePod', 'ReadOnlyMany'] })), ['spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes']);
  });

  it('requires resources.requests.storage, greater than zero', () => {
    assert.deepEqual(messages(spec({ resources: {} })), ['spec.resources[storage]: Required value']);
    assert.deepEqual(messages(spec({ resources: { requests: { storage: '0' } } })), ['spec.resources[storage]: Invalid value: "0": must be greater than zero']);
    assert.deepEqual(messages(spec({ resources: { requests: { storage: '-1Gi' } } })), ['spec.resources[storage]: Invalid value: "-1Gi": must be greater than zero']);
  });

  it('checks volumeMode and the selector', () => {
    assert.deepEqual(messages(spec({ volumeMode: 'Raw', selector: { matchExpressions: [{ key: 'a', operator: 'In' }] } })), [
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      'spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"',
    ]);
  });
});

describe('PersistentVolumeClaim updates', () => {
  it('keeps the spec immutable but for resources.requests and volumeAttributesClassName', () => {
    const bound = { phase: 'Bound' };
    assert.deepEqual(updateMessages(spec({ resources: { requests: { storage: '2Gi' } }, volumeAttributesClassName: 'gold' }), spec(), bound), []);
    const [msg, ...rest] = updateMessages(spec({ accessModes: ['ReadWriteMany'] }), spec());
    assert.deepEqual(rest, []);
    assert.match(msg!, /^spec: Forbidden: spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims\n {2}core\.PersistentVolumeClaimSpec\{\n- \taccessModes: \["ReadWriteOnce"\],\n\+ \taccessModes: \["ReadWriteMany"\],\n {2}\}$/);
  });

  it('keeps resources.requests and volumeAttributesClassName immutable too until the claim is Bound, and any request but storage always (kube: quota)', () => {
    const immutable = /^spec: Forbidden: spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims\n/;
    const [grow, ...rest] = updateMessages(spec({ resources: { requests: { storage: '2Gi' } } }), spec());
    assert.deepEqual(rest, []);
    assert.match(grow!, immutable);
    assert.match(updateMessages(spec({ volumeAttributesClassName: 'gold' }), spec())[0]!, immutable);
    assert.match(updateMessages(spec({ resources: { requests: { storage: '1Gi', cpu: '1' } } }), spec(), { phase: 'Bound' })[0]!, immutable);
  });

  it('lets volumeName be set once, and storageClassName be set where it was absent on an unbound claim', () => {
    assert.deepEqual(updateMessages(spec({ volumeName: 'pv-1', storageClassName: 'fast' }), spec()), []);
    assert.equal(updateMessages(spec({ volumeName: 'pv-2' }), spec({ volumeName: 'pv-1' })).length, 1);
    assert.equal(updateMessages(spec({ storageClassName: 'slow' }), spec({ storageClassName: 'fast' })).length, 1);
  });

  it('lets the storage request go down only while it stays above status.capacity', () => {
    assert.deepEqual(updateMessages(spec({ resources: { requests: { storage: '1Gi' } } }), spec({ resources: { requests: { storage: '2Gi' } } }), { phase: 'Bound', capacity: { storage: '1Gi' } }), [
      'spec.resources.requests.storage: Forbidden: field can not be less than status.capacity',
    ]);
    assert.deepEqual(updateMessages(spec({ resources: { requests: { storage: '1536Mi' } } }), spec({ resources: { requests: { storage: '2Gi' } } }), { phase: 'Bound', capacity: { storage: '1Gi' } }), []);
  });

  it('fills dataSource and dataSourceRef from each other (NormalizeDataSources)', () => {
    const a: Record<string, unknown> = { dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } };
    normalizeDataSources(a);
    assert.deepEqual(a.dataSourceRef, { kind: 'PersistentVolumeClaim', name: 'src' });
    const b: Record<string, unknown> = { dataSourceRef: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 's' } };
    normalizeDataSources(b);
    assert.deepEqual(b.dataSource, { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 's' });
    const c: Record<string, unknown> = { dataSourceRef: { kind: 'X', name: 's', namespace: 'other' } };
    normalizeDataSources(c);
    assert.equal(c.dataSource, undefined);
  });

  it('reads quantities as kube writes them', () => {
    assert.equal(quantityValue('1Gi'), 2 ** 30);
    assert.equal(quantityValue('500M'), 5e8);
    assert.equal(quantityValue('1.5k'), 1500);
    assert.equal(quantityValue('2e3'), 2000);
    assert.equal(quantityValue('100m'), 0.1);
    assert.equal(quantityValue('lots'), undefined);
  });
});

describe('the PersistentVolumeClaim strategy over the generic one', () => {
  const base: RESTStrategy = {
    namespaceScoped: true,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    prepareForCreate: (obj) => void delete obj.status,
    prepareForUpdate: (obj, old) => void (obj.status = structuredClone(old.status)),
    validate: () => [],
    validateUpdate: () => [],
  };
  const strategy = withPersistentVolumeClaimStrategy(base);

  it('stores a new claim Pending, whatever status it was sent with, with both data source fields', () => {
    const obj = claim(spec({ dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } }), { phase: 'Bound', capacity: { storage: '9Gi' } });
    strategy.prepareForCreate(obj);
    assert.deepEqual(obj.status, { phase: 'Pending' });
    assert.deepEqual((obj.spec as Record<string, unknown>).dataSourceRef, { kind: 'PersistentVolumeClaim', name: 'src' });
  });

  it('a replace that omits dataSourceRef keeps it, and is no spec change', () => {
    const old = claim(spec({ dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } }));
    strategy.prepareForCreate(old);
    const replaced = claim(spec({ dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } }));
    strategy.prepareForUpdate(replaced, old);
    assert.deepEqual(strategy.validateUpdate(replaced, old), []);
  });

  it('a status write is defaulted (phase Pending) and its quantities validated, as kube decodes it and its ValidatePersistentVolumeClaimStatusUpdate', () => {
    // The generic status strategy: spec and metadata from the stored object, status from the write.
    const statusBase: RESTStrategy = { ...base, prepareForUpdate: (obj, old) => void (obj.spec = structuredClone(old.spec)) };
    const status = withPersistentVolumeClaimStatusStrategy(statusBase);
    const old = claim(spec(), { phase: 'Bound', capacity: { storage: '1Gi' } });
    const cleared = claim(spec(), {});
    status.prepareForUpdate(cleared, old);
    assert.deepEqual(cleared.status, { phase: 'Pending' });
    const negative = claim(spec(), { phase: 'Bound', capacity: { storage: '-1Gi' }, allocatedResources: { storage: '-1Ki' } });
    status.prepareForUpdate(negative, old);
    assert.deepEqual(
      status.validateUpdate(negative, old).map((c) => `${c.field}: ${c.message}`),
      ['status.capacity[storage]: Invalid value: -1073741824: must be a valid resource quantity', 'status.allocatedResources[storage]: Invalid value: -1024: must be a valid resource quantity'],
    );
    assert.deepEqual(status.validateUpdate(claim(spec(), { phase: 'Bound', capacity: { storage: '2Gi' } }), old), []);
  });
});
