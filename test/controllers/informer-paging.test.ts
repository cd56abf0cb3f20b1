/** The informer's relist in pages (client-go's pager), and its fall-back to a full list on 410. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { newGone } from '../../runtime/api/status.js';
import { ResourceInformer, metadataOnly } from '../../runtime/controllers/informer.js';
import type { ListRequest, Store, StoreWatch } from '../../runtime/registry/store.js';

function obj(name: string, namespace = 'default'): KubeObject {
  return { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name, namespace, uid: `uid-${name}`, resourceVersion: '5', labels: { a: 'b' } }, spec: { big: 'x'.repeat(50) } } as KubeObject;
}

/** A store of `count` objects over two namespaces whose list pages by limit/continue; `expireAfter` pages, continue tokens expire. */
function pagedStore(count: number, expireAfter = Infinity): { store: Store; requests: ListRequest[] } {
  const all = Array.from({ length: count }, (_, i) => obj(`w${String(i).padStart(5, '0')}`, i % 2 ? 'ns-b' : 'ns-a'));
  const requests: ListRequest[] = [];
  // A watch with no events that ends when stopped.
  let end: (() => void) | undefined;
  const ended = new Promise<IteratorResult<never>>((resolve) => (end = () => resolve({ done: true, value: undefined as never })));
  const idle = { [Symbol.asyncIterator]: () => ({ next: () => ended }), stop: () => end?.() } as unknown as StoreWatch;
  const store = {
    definition: { group: 'widgets.example.com', plural: 'widgets' },
    async list(_ns: string | undefined, req: ListRequest = {}) {
      requests.push(req);
      const start = req.continue ? Number(req.continue) : 0;
      if (req.continue && requests.length > expireAfter) throw newGone('The provided continue parameter is too old to display a consistent list result.');
      const end = req.limit ? Math.min(start + req.limit, all.length) : all.length;
      const metadata: { resourceVersion: string; continue?: string } = { resourceVersion: '5' };
      if (end < all.length) metadata.continue = String(end);
      return { apiVersion: 'v1', kind: 'List', metadata, items: all.slice(start, end) };
    },
    watch: () => idle,
  };
  return { store: store as unknown as Store, requests };
}

describe('informer relist in pages', () => {
  it('lists in pages of 500 at one resourceVersion and holds every object once', async () => {
    const { store, requests } = pagedStore(1234);
    const added: string[] = [];
    const informer = new ResourceInformer(store, () => undefined, metadataOnly);
    informer.addHandlers({ onAdd: (o) => added.push(`${o.metadata.namespace}/${o.metadata.name}`) });
    informer.start();
    await informer.synced;
    await informer.stop();
    assert.deepEqual(requests.map((r) => [r.limit, r.continue]), [[500, undefined], [500, '500'], [500, '1000']]);
    assert.equal(added.length, 1234);
    assert.equal(new Set(added).size, 1234);
    const held = informer.list();
    assert.equal(held.length, 1234);
    assert.equal(held[0]!.spec, undefined, 'metadata only');
  });

  it('falls back to one full list when a continue token expired, reporting nothing twice', async () => {
    const { store, requests } = pagedStore(1200, 1);
    const added: string[] = [];
    const deleted: string[] = [];
    const informer = new ResourceInformer(store, () => undefined);
    informer.addHandlers({ onAdd: (o) => added.push(o.metadata.name!), onDelete: (o) => deleted.push(o.metadata.name!) });
    informer.start();
    await informer.synced;
    await informer.stop();
    assert.deepEqual(requests.map((r) => [r.limit, r.continue]), [[500, undefined], [500, '500'], [undefined, undefined]]);
    assert.equal(added.length, 1200);
    assert.equal(new Set(added).size, 1200);
    assert.deepEqual(deleted, []);
    assert.equal(informer.list().length, 1200);
  });
});
