/**
 * instrumentStorage: backend calls timed for etcd_request_duration_seconds without a Proxy: the
 * storage handed back is the backend itself (its class, private state and watch-cache hooks are
 * reached directly), every operation is counted once per call with kube's labels, failures count
 * as errors and are still timed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { etcdRequestDuration, etcdRequestErrors, etcdRequestsTotal } from '../../runtime/metrics/apiserver.js';
import { instrumentStorage } from '../../runtime/metrics/storage.js';
import { StorageError } from '../../runtime/storage/interface.js';
import { LogStorage } from '../../runtime/storage/log-storage.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';

const obj = (name: string) => ({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name, namespace: 'ns' } });

describe('instrumentStorage', () => {
  test('hands back the backend itself, with no Proxy in front of it', () => {
    const backend = new MemoryStorage();
    const storage = instrumentStorage(backend);
    assert.equal(storage, backend);
    assert.ok(storage instanceof LogStorage);
    assert.equal(instrumentStorage(storage), storage, 'instrumenting twice changes nothing');
    assert.equal(typeof (storage as unknown as { currentRevisionNow(): number }).currentRevisionNow(), 'number');
    // Members other than the timed operations are the class's own, not wrappers.
    assert.equal(Object.getOwnPropertyDescriptor(storage, 'currentRevision'), undefined);
    assert.ok(Object.getOwnPropertyDescriptor(storage, 'create'));
  });

  test('every call is counted and timed once, by operation, group and resource; failures are errors', async () => {
    const storage = instrumentStorage(new MemoryStorage());
    const labels = ['example.com', 'gadgets'] as const;
    const created = etcdRequestsTotal.with('create', ...labels).value;
    const timed = etcdRequestDuration.with('create', ...labels).count;
    const errors = etcdRequestErrors.with('create', ...labels).value;
    const updates = etcdRequestsTotal.with('update', ...labels).value;
    const lists = etcdRequestsTotal.with('list', ...labels).value;
    const coreGets = etcdRequestsTotal.with('get', '', 'configmaps').value;

    await storage.create('/registry/example.com/gadgets/ns/a', obj('a'));
    await storage.create('/registry/example.com/gadgets/ns/b', obj('b'));
    await assert.rejects(storage.create('/registry/example.com/gadgets/ns/a', obj('a')), (err: unknown) => err instanceof StorageError && err.code === 'KeyExists');
    await storage.guaranteedUpdate('/registry/example.com/gadgets/ns/a', {}, (cur) => ({ ...cur!, spec: { x: 1 } }));
    const list = await storage.getList('/registry/example.com/gadgets/', {});
    assert.equal(list.items.length, 2);
    await storage.get('/registry/core/configmaps/ns/none', { ignoreNotFound: true });

    assert.equal(etcdRequestsTotal.with('create', ...labels).value - created, 3);
    assert.equal(etcdRequestDuration.with('create', ...labels).count - timed, 3, 'a failed call is timed too');
    assert.equal(etcdRequestErrors.with('create', ...labels).value - errors, 1);
    assert.equal(etcdRequestsTotal.with('update', ...labels).value - updates, 1);
    assert.equal(etcdRequestsTotal.with('list', ...labels).value - lists, 1);
    assert.equal(etcdRequestsTotal.with('get', '', 'configmaps').value - coreGets, 1, 'the core group is labelled ""');
  });
});
