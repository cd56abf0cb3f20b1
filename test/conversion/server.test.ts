/**
 * A two-version kind served by the runtime (the bundled Widget: v1, the storage version, and
 * v1beta1, deprecated, whose `spec.size` is v1's `spec.replicas`): stored once in v1, served in
 * the version asked for in every verb, with the watch cache and without, and old objects stored
 * in v1beta1 read correctly.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { startServer, type RunningServer } from '../../runtime/controlplane/index.js';
import { objectKey, resourcePrefix } from '../../runtime/storage/keys.js';
import { openWatchStream } from '../support/watch-stream.js';

const GENERATED = join(import.meta.dirname, '../../generated');
const V1 = '/apis/widgets.example.com/v1/namespaces/default/widgets';
const V1BETA1 = '/apis/widgets.example.com/v1beta1/namespaces/default/widgets';
const WARNING = '299 - "widgets.example.com/v1beta1 Widget is deprecated; use widgets.example.com/v1 Widget"';
const key = (name: string) => objectKey(resourcePrefix('widgets.example.com', 'widgets'), 'default', name);

interface Reply {
  status: number;
  warning: string | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

function client(server: () => RunningServer) {
  return async (method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Reply> => {
    const res = await fetch(server().url + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': contentType },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, warning: res.headers.get('warning'), body: text ? JSON.parse(text) : undefined };
  };
}

const beta = (name: string, size: number, color = 'blue') => ({ apiVersion: 'widgets.example.com/v1beta1', kind: 'Widget', metadata: { name }, spec: { size, color } });

for (const watchCache of [true, false]) {
  describe(`a two-version kind (watch cache ${watchCache ? 'on' : 'off'})`, () => {
    let server: RunningServer;
    const req = client(() => server);
    before(async () => {
      server = await startServer({ generatedDir: GENERATED, storage: 'memory:', port: 0, insecureDevMode: true, ...(watchCache ? {} : { watchCache: false }) });
    });
    after(() => server.close());

    test('a create through v1beta1 is stored once, in v1, and read back in either version', async () => {
      const created = await req('POST', V1BETA1, beta('c1', 3));
      assert.equal(created.status, 201);
      assert.equal(created.body.apiVersion, 'widgets.example.com/v1beta1');
      assert.deepEqual(created.body.spec, { size: 3, color: 'blue' });
      const stored = (await server.storage.get(key('c1')))!;
      assert.equal(stored.apiVersion, 'widgets.example.com/v1');
      assert.deepEqual(stored.spec, { replicas: 3, color: 'blue' });
      const all = await server.storage.getList(resourcePrefix('widgets.example.com', 'widgets'));
      assert.deepEqual(all.items.map((o) => o.metadata.name), ['c1'], 'one object, not one per version');
      const v1 = await req('GET', `${V1}/c1`);
      assert.deepEqual([v1.body.apiVersion, v1.body.spec], ['widgets.example.com/v1', { replicas: 3, color: 'blue' }]);
      assert.equal(v1.body.metadata.resourceVersion, created.body.metadata.resourceVersion);
      const b = await req('GET', `${V1BETA1}/c1`);
      assert.deepEqual([b.body.apiVersion, b.body.spec], ['widgets.example.com/v1beta1', { size: 3, color: 'blue' }]);
    });

    test('lists are in the requested version, and field selectors see that version', async () => {
      await req('POST', V1, { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'l1' }, spec: { replicas: 2, color: 'green' } });
      const list = await req('GET', `${V1BETA1}?fieldSelector=spec.color%3Dgreen`);
      assert.equal(list.body.kind, 'WidgetList');
      assert.equal(list.body.apiVersion, 'widgets.example.com/v1beta1');
      assert.deepEqual(list.body.items.map((i: KubeObject) => [i.metadata.name, i.apiVersion, (i.spec as { size: number }).size]), [['l1', 'widgets.example.com/v1beta1', 2]]);
      const v1 = await req('GET', V1);
      assert.ok(v1.body.items.every((i: KubeObject) => i.apiVersion === 'widgets.example.com/v1' && !('size' in (i.spec as object))));
    });

    test('merge, JSON and server-side apply patches apply to the requested version', async () => {
      await req('POST', V1BETA1, beta('p1', 1));
      const merged = await req('PATCH', `${V1BETA1}/p1`, { spec: { size: 4 } }, 'application/merge-patch+json');
      assert.deepEqual([merged.status, merged.body.spec.size], [200, 4]);
      assert.equal((await req('GET', `${V1}/p1`)).body.spec.replicas, 4);
      const json = await req('PATCH', `${V1BETA1}/p1`, [{ op: 'replace', path: '/spec/size', value: 6 }], 'application/json-patch+json');
      assert.deepEqual([json.status, json.body.spec.size], [200, 6]);
      const applied = await req(
        'PATCH',
        `${V1BETA1}/p1?fieldManager=e2e&force=true`,
        { apiVersion: 'widgets.example.com/v1beta1', kind: 'Widget', metadata: { name: 'p1' }, spec: { size: 8 } },
        'application/apply-patch+yaml',
      );
      assert.equal(applied.status, 200, JSON.stringify(applied.body));
      assert.equal(applied.body.spec.size, 8);
      const entry = applied.body.metadata.managedFields.find((m: { manager: string }) => m.manager === 'e2e');
      assert.equal(entry.apiVersion, 'widgets.example.com/v1beta1', 'managedFields carry the version applied through');
      assert.ok('f:size' in entry.fieldsV1['f:spec']);
      assert.equal((await server.storage.get(key('p1')))!.spec && ((await server.storage.get(key('p1')))!.spec as { replicas: number }).replicas, 8);
    });

    test('an update through v1beta1 with a stale resourceVersion conflicts', async () => {
      const created = (await req('POST', V1BETA1, beta('u1', 1))).body;
      await req('PATCH', `${V1}/u1`, { spec: { replicas: 2 } }, 'application/merge-patch+json');
      const stale = await req('PUT', `${V1BETA1}/u1`, { ...created, spec: { size: 9 } });
      assert.equal(stale.status, 409);
      const fresh = (await req('GET', `${V1BETA1}/u1`)).body;
      const ok = await req('PUT', `${V1BETA1}/u1`, { ...fresh, spec: { ...fresh.spec, size: 9 } });
      assert.deepEqual([ok.status, ok.body.spec.size], [200, 9]);
    });

    test('the status and scale subresources are served in the requested version', async () => {
      await req('POST', V1BETA1, beta('s1', 2));
      const status = await req('PATCH', `${V1BETA1}/s1/status`, { status: { replicas: 2, phase: 'Spinning' } }, 'application/merge-patch+json');
      assert.deepEqual([status.status, status.body.apiVersion, status.body.status.phase], [200, 'widgets.example.com/v1beta1', 'Spinning']);
      assert.equal((await req('GET', `${V1}/s1`)).body.status.phase, 'Spinning');
      const scale = await req('GET', `${V1BETA1}/s1/scale`);
      assert.deepEqual([scale.body.kind, scale.body.spec.replicas], ['Scale', 2]);
      const scaled = await req('PATCH', `${V1BETA1}/s1/scale`, { spec: { replicas: 5 } }, 'application/merge-patch+json');
      assert.equal(scaled.status, 200);
      assert.equal((await req('GET', `${V1BETA1}/s1`)).body.spec.size, 5);
      assert.equal((await req('GET', `${V1}/s1`)).body.spec.replicas, 5);
    });

    test('a delete held by a finalizer answers with the object in the requested version', async () => {
      await req('POST', V1, { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'd1', finalizers: ['example.com/hold'] }, spec: { replicas: 7 } });
      const deleting = await req('DELETE', `${V1BETA1}/d1`);
      assert.deepEqual([deleting.status, deleting.body.apiVersion, deleting.body.spec.size], [200, 'widgets.example.com/v1beta1', 7]);
      assert.ok(deleting.body.metadata.deletionTimestamp);
      const released = await req('PATCH', `${V1BETA1}/d1`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
      assert.equal(released.status, 200);
      const deleted = await req('DELETE', `${V1BETA1}/d1`);
      assert.equal(deleted.status, 404, 'the update that emptied the finalizers deleted it');
      assert.equal(await server.storage.get(key('d1'), { ignoreNotFound: true }), undefined);
    });

    test('watches send initial events, changes and bookmarks in the requested version', async () => {
      await req('POST', V1, { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'w1', labels: { watch: 'yes' } }, spec: { replicas: 1 } });
      const stream = await openWatchStream(server.url, `${V1BETA1}?watch=true&labelSelector=watch%3Dyes&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan`);
      try {
        const first = await stream.next();
        assert.deepEqual([first?.type, first?.object.apiVersion, first?.object.spec.size], ['ADDED', 'widgets.example.com/v1beta1', 1]);
        const bookmark = await stream.next();
        assert.equal(bookmark?.type, 'BOOKMARK');
        assert.equal(bookmark?.object.apiVersion, 'widgets.example.com/v1beta1');
        await req('PATCH', `${V1}/w1`, { spec: { replicas: 3 } }, 'application/merge-patch+json');
        const modified = await stream.next();
        assert.deepEqual([modified?.type, modified?.object.apiVersion, modified?.object.spec.size], ['MODIFIED', 'widgets.example.com/v1beta1', 3]);
        await req('DELETE', `${V1}/w1`);
        const gone = await stream.next();
        assert.deepEqual([gone?.type, gone?.object.spec.size], ['DELETED', 3]);
      } finally {
        stream.close();
      }
    });

    test('an object stored in v1beta1 (before the storage version changed) is read in both versions and rewritten in v1 on update', async () => {
      const old = { apiVersion: 'widgets.example.com/v1beta1', kind: 'Widget', metadata: { name: 'old1', namespace: 'default', uid: 'u-old1', creationTimestamp: '2024-01-01T00:00:00Z', generation: 1 }, spec: { size: 5, color: 'red' } };
      await server.storage.create(key('old1'), old);
      const v1 = await req('GET', `${V1}/old1`);
      assert.deepEqual([v1.status, v1.body.spec], [200, { replicas: 5, color: 'red' }]);
      const listed = await req('GET', V1);
      assert.deepEqual(listed.body.items.find((i: KubeObject) => i.metadata.name === 'old1').spec, { replicas: 5, color: 'red' });
      assert.deepEqual((await req('GET', `${V1BETA1}/old1`)).body.spec, { size: 5, color: 'red' });
      const put = await req('PUT', `${V1}/old1`, v1.body);
      assert.equal(put.status, 200);
      const stored = (await server.storage.get(key('old1')))!;
      assert.deepEqual([stored.apiVersion, stored.spec], ['widgets.example.com/v1', { replicas: 5, color: 'red' }]);
    });

    test('every request to the deprecated version carries its Warning, errors included; v1 none', async () => {
      assert.equal((await req('GET', V1BETA1)).warning, WARNING);
      const missing = await req('GET', `${V1BETA1}/nope`);
      assert.deepEqual([missing.status, missing.warning], [404, WARNING]);
      const invalid = await req('POST', V1BETA1, beta('bad', 500));
      assert.equal(invalid.status, 422);
      assert.equal(invalid.body.details.causes[0].field, 'spec.size', 'validated against the v1beta1 schema');
      assert.ok(invalid.warning?.startsWith(WARNING));
      assert.equal((await req('GET', V1)).warning, null);
    });
  });
}

describe('discovery of a two-version kind', () => {
  let server: RunningServer;
  const req = client(() => server);
  before(async () => {
    server = await startServer({ generatedDir: GENERATED, storage: 'memory:', port: 0, insecureDevMode: true });
  });
  after(() => server.close());

  test('versions are listed in priority order, the preferred (v1) first, with one storage version hash', async () => {
    const group = (await req('GET', '/apis/widgets.example.com')).body;
    assert.deepEqual(group.versions.map((v: { version: string }) => v.version), ['v1', 'v1beta1']);
    assert.equal(group.preferredVersion.version, 'v1');
    const hash = async (v: string) => (await req('GET', `/apis/widgets.example.com/${v}`)).body.resources.find((r: { name: string }) => r.name === 'widgets').storageVersionHash;
    assert.equal(await hash('v1beta1'), await hash('v1'));
    const res = await fetch(`${server.url}/apis`, { headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } });
    const agg = (await res.json()) as { items: { metadata: { name: string }; versions: { version: string }[] }[] };
    assert.deepEqual(agg.items.find((i) => i.metadata.name === 'widgets.example.com')!.versions.map((v) => v.version), ['v1', 'v1beta1']);
  });
});
