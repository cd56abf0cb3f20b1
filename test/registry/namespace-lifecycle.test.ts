/**
 * NamespaceLifecycle over a watch cache (kube's plugin reads its informer): the cache answers
 * when it has the namespace; storage is read when the cache lacks it, or when this process marked
 * the namespace for deletion and the cache does not show that yet.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { StatusError } from '../../runtime/api/status.js';
import { newNamespaceLifecycle, withNamespaceStrategy } from '../../runtime/registry/namespaces.js';
import type { RESTStrategy } from '../../runtime/registry/strategy.js';
import type { DeletionHooks } from '../../runtime/registry/deletion.js';
import type { GetOptions, Storage } from '../../runtime/storage/interface.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';

const PREFIX = '/registry/core/namespaces/';
const ns = (name: string, more: Partial<KubeObject['metadata']> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...more } });
const attributes = { resource: { group: 'example.com', resource: 'widgets' }, name: 'w1' };

/** A cache that records the reads it served. */
function cacheOver(storage: Storage) {
  const reads: GetOptions[] = [];
  const cache = new Proxy(storage, {
    get(target, prop, receiver) {
      if (prop === 'get') return (key: string, opts: GetOptions) => (reads.push(opts), target.get(key, opts));
      return Reflect.get(target, prop, receiver);
    },
  });
  return { caches: () => ({ for: (prefix: string) => (assert.equal(prefix, PREFIX), cache) }), reads };
}

async function statusOf(p: Promise<unknown>): Promise<{ code?: number; reason?: string; message?: string }> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return err.status;
  }
  return {};
}

describe('NamespaceLifecycle over a watch cache', () => {
  it('answers from the cache without reading storage', async () => {
    const storage = new MemoryStorage();
    const cached = new MemoryStorage();
    await cached.create(`${PREFIX}a`, ns('a'));
    const { caches, reads } = cacheOver(cached);
    // Storage does not have it: only the cache was asked.
    await newNamespaceLifecycle(storage, undefined, caches).admitCreate('a', attributes);
    assert.deepEqual(reads, [{ resourceVersion: '0', ignoreNotFound: true }]);
    await cached.create(`${PREFIX}t`, ns('t', { deletionTimestamp: '2026-01-01T00:00:00Z' }));
    const s = await statusOf(newNamespaceLifecycle(storage, undefined, caches).admitCreate('t', attributes));
    assert.equal(s.code, 403);
    assert.match(s.message ?? '', /unable to create new content in namespace t because it is being terminated/);
  });

  it('reads storage when the cache does not have the namespace yet, 404 when neither has it', async () => {
    const storage = new MemoryStorage();
    await storage.create(`${PREFIX}fresh`, ns('fresh'));
    const lifecycle = newNamespaceLifecycle(storage, undefined, cacheOver(new MemoryStorage()).caches);
    await lifecycle.admitCreate('fresh', attributes);
    const s = await statusOf(lifecycle.admitCreate('missing', attributes));
    assert.equal(s.code, 404);
    assert.equal(s.message, 'namespaces "missing" not found');
  });

  it('reads storage for a namespace this process marked for deletion while the cache still shows it live', async () => {
    const storage = new MemoryStorage();
    const cached = new MemoryStorage();
    await cached.create(`${PREFIX}going`, ns('going'));
    await storage.create(`${PREFIX}going`, ns('going', { deletionTimestamp: '2026-01-01T00:00:00Z' }));
    const strategy = withNamespaceStrategy({ prepareForCreate() {}, canonicalize() {} } as unknown as RESTStrategy) as RESTStrategy & DeletionHooks;
    strategy.markForDeletion!(ns('going'));
    const s = await statusOf(newNamespaceLifecycle(storage, undefined, cacheOver(cached).caches).admitCreate('going', attributes));
    assert.equal(s.code, 403);
  });
});
