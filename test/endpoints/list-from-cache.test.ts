/**
 * LIST over HTTP from the watch cache: pages are written from the stored bytes without decoding
 * the objects (storage/cacher/lazy-items.ts), and say the same as the decoded objects would:
 * items, continue tokens, remainingItemCount, selectors; Tables and metadata-only lists decode.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forgetDecoded } from '../../runtime/storage/cacher/cache-entry.js';
import { decodesAsync } from '../support/cache-decodes.js';
import { startTestServer, TABLE_ACCEPT, widget, WIDGETS, type TestServer } from '../server/testserver.js';


describe('LIST from the watch cache', () => {
  let t: TestServer;
  const names = Array.from({ length: 11 }, (_, i) => `w${String(i).padStart(2, '0')}`);
  before(async () => {
    t = await startTestServer({ controllers: false });
    for (const [i, name] of names.entries()) {
      const labels = { tier: i % 2 === 0 ? 'even' : 'odd' };
      const reply = await t.request('POST', WIDGETS, { body: widget(name, { replicas: i }, { metadata: { labels, annotations: { note: `grüß ${i} 😀` } } }) });
      assert.equal(reply.status, 201, reply.text);
    }
  });
  after(() => t.close());

  it('walks the pages without decoding an object, and each page says what the objects say', async () => {
    forgetDecoded();
    const walked = await decodesAsync(async () => {
      const pages = [];
      let token = '';
      for (;;) {
        const reply = await t.request('GET', `${WIDGETS}?limit=4${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
        assert.equal(reply.status, 200, reply.text);
        pages.push(reply);
        token = reply.body.metadata.continue ?? '';
        if (!token) return pages;
      }
    });
    assert.equal(walked.count, 0, 'no object was decoded');
    const pages = walked.result;
    assert.deepEqual(
      pages.map((p) => p.body.items.map((o: { metadata: { name: string } }) => o.metadata.name)),
      [names.slice(0, 4), names.slice(4, 8), names.slice(8)],
    );
    assert.deepEqual(
      pages.map((p) => p.body.metadata.remainingItemCount),
      [7, 3, undefined],
    );
    assert.ok(pages.every((p) => p.body.metadata.resourceVersion === pages[0]!.body.metadata.resourceVersion), 'every page at the first page\'s revision');
    for (const page of pages) {
      assert.equal(page.text, JSON.stringify(page.body), 'compact JSON, as JSON.stringify writes it');
      assert.deepEqual(Object.keys(page.body), ['apiVersion', 'kind', 'metadata', 'items']);
    }
    // Each item is the object a GET returns.
    const single = await t.request('GET', `${WIDGETS}/w05`);
    assert.deepEqual(pages[1]!.body.items[1], single.body);
    assert.equal(single.body.metadata.annotations.note, 'grüß 5 😀');
  });

  it('a label selector filters on the stored labels, still without decoding; the envelope has no remaining count', async () => {
    forgetDecoded();
    const { result: reply, count } = await decodesAsync(() => t.request('GET', `${WIDGETS}?labelSelector=tier%3Dodd&limit=3`));
    assert.equal(reply.status, 200, reply.text);
    assert.equal(count, 0);
    assert.deepEqual(reply.body.items.map((o: { metadata: { name: string } }) => o.metadata.name), ['w01', 'w03', 'w05']);
    assert.ok(reply.body.metadata.continue);
    assert.equal(reply.body.metadata.remainingItemCount, undefined);
  });

  it('YAML lists decode the objects and hold the same items', async () => {
    const reply = await t.request('GET', `${WIDGETS}?limit=2`, { accept: 'application/yaml' });
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.headers.get('content-type') ?? '', /yaml/);
    assert.match(reply.text, /^apiVersion: widgets\.example\.com\/v1\n/m);
    assert.match(reply.text, /name: w00\n/);
    assert.match(reply.text, /name: w01\n/);
    assert.match(reply.text, /remainingItemCount: 9\n/);
  });

  it('Tables and metadata-only lists decode the objects they show', async () => {
    forgetDecoded();
    const table = await decodesAsync(() => t.request('GET', `${WIDGETS}?limit=5`, { accept: TABLE_ACCEPT }));
    assert.equal(table.result.status, 200, table.result.text);
    assert.equal(table.result.body.kind, 'Table');
    assert.deepEqual(table.result.body.rows.map((r: { cells: unknown[] }) => r.cells[0]), names.slice(0, 5));
    assert.equal(table.result.body.metadata.remainingItemCount, 6);
    assert.ok(table.count >= 5);
    const partial = await t.request('GET', `${WIDGETS}?limit=2`, { accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' });
    assert.equal(partial.status, 200, partial.text);
    assert.equal(partial.body.kind, 'PartialObjectMetadataList');
    assert.deepEqual(partial.body.items.map((o: { metadata: { name: string; annotations: Record<string, string> } }) => [o.metadata.name, o.metadata.annotations.note]), [
      ['w00', 'grüß 0 😀'],
      ['w01', 'grüß 1 😀'],
    ]);
  });
});
