/**
 * `kgen migrate-storage` against an in-process server of the bundled APIs: it picks the
 * multi-version resources from discovery, rewrites objects stored in an old version in the
 * storage version, retries a conflicting update on the object read again, and skips deleted ones.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { newConflict, newNotFound } from '../../runtime/api/status.js';
import { RestClient, type RequestOptions } from '@kgen/client';
import { startServer, type RunningServer } from '../../runtime/controlplane/index.js';
import { objectKey, resourcePrefix } from '../../runtime/storage/keys.js';
import { migrateStorage, migrationTargets } from '../../cli/migrate-storage.js';

const GENERATED = join(import.meta.dirname, '../../generated');
const PREFIX = resourcePrefix('widgets.example.com', 'widgets');
const QR = { group: 'widgets.example.com', resource: 'widgets' };

const oldWidget = (name: string, size: number) => ({
  apiVersion: 'widgets.example.com/v1beta1',
  kind: 'Widget',
  metadata: { name, namespace: 'default', uid: `uid-${name}`, creationTimestamp: '2024-01-01T00:00:00Z', generation: 1 },
  spec: { size, color: 'red' },
});

/** A RestClient whose `fail` hook may answer a request with an error instead of sending it. */
function faultyClient(rest: RestClient, fail: (opts: RequestOptions) => Error | undefined): RestClient {
  return new Proxy(rest, {
    get(target, prop, receiver) {
      if (prop !== 'request') return Reflect.get(target, prop, receiver);
      return async (opts: RequestOptions) => {
        const err = fail(opts);
        if (err) throw err;
        return target.request(opts);
      };
    },
  });
}

describe('kgen migrate-storage', () => {
  let server: RunningServer;
  let rest: RestClient;
  before(async () => {
    server = await startServer({ generatedDir: GENERATED, storage: 'memory:', port: 0, insecureDevMode: true });
    // No client-side rate limit (client-go's 5 qps, burst 10, the default): ~40 discovery and
    // migration requests per case are what is tested, not the limiter (test/client/rate-limiter).
    rest = new RestClient({ server: server.url, qps: -1 });
  });
  after(async () => {
    rest.close();
    await server.close();
  });

  test('targets the resources served in several versions, read through the preferred version', async () => {
    assert.deepEqual(await migrationTargets(rest), [{ group: 'widgets.example.com', version: 'v1', plural: 'widgets', namespaced: true }]);
    const extra = await migrationTargets(rest, ['widgetclasses.widgets.example.com']);
    assert.deepEqual(extra.map((t) => t.plural).sort(), ['widgetclasses', 'widgets']);
    await assert.rejects(migrationTargets(rest, ['nopes.example.com']), /no such resource: nopes\.example\.com/);
  });

  test('rewrites objects stored in v1beta1 in v1, retrying a conflict and skipping a deleted object', async () => {
    for (const [name, size] of [['m1', 1], ['m2', 2], ['m3', 3]] as const) await server.storage.create(objectKey(PREFIX, 'default', name), oldWidget(name, size));
    let conflicted = false;
    let deleted = false;
    const client = faultyClient(rest, (opts) => {
      if (opts.method === 'PUT' && opts.path.endsWith('/m1') && !conflicted) {
        conflicted = true;
        return newConflict(QR, 'm1', 'the object has been modified');
      }
      if (opts.method === 'PUT' && opts.path.endsWith('/m3') && !deleted) {
        deleted = true;
        return newNotFound(QR, 'm3');
      }
      return undefined;
    });
    const lines: string[] = [];
    const results = await migrateStorage(client, [], (l) => lines.push(l));
    assert.ok(conflicted && deleted);
    assert.deepEqual(lines, ['widgets.widgets.example.com: 2 objects migrated, 1 deleted meanwhile']);
    assert.deepEqual(results.map((r) => [r.migrated, r.gone]), [[2, 1]]);
    for (const [name, replicas] of [['m1', 1], ['m2', 2]] as const) {
      const stored = (await server.storage.get(objectKey(PREFIX, 'default', name)))!;
      assert.deepEqual([stored.apiVersion, stored.spec], ['widgets.example.com/v1', { replicas, color: 'red' }], name);
      assert.equal(stored.metadata.uid, `uid-${name}`);
    }
    assert.equal((await server.storage.get(objectKey(PREFIX, 'default', 'm3')))!.apiVersion, 'widgets.example.com/v1beta1', 'the one answered 404 was left alone');
  });

  test('a second run changes nothing in storage', async () => {
    const before = await server.storage.currentRevision();
    await migrateStorage(rest, []);
    // m3 is still stored in v1beta1 from the previous test: this run migrates it, and only it.
    const afterFirst = await server.storage.currentRevision();
    assert.equal(Number(afterFirst) - Number(before), 1);
    await migrateStorage(rest, []);
    assert.equal(await server.storage.currentRevision(), afterFirst, 'no-op updates are not written');
  });
});
