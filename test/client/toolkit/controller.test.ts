/**
 * The controller runner against a kgen server: informers feed the queue keyed namespace/name,
 * workers reconcile after sync, owned objects map to their owner's key, results requeue after a
 * delay, errors back off and retry, and a stop drains.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RestClient, ResourceClient, SharedIndexInformer, type APIObject } from '../../../runtime/client/index.js';
import { Controller, ItemExponentialFailureRateLimiter, ownerKeys, ownerReference } from '../../../packages/client/src/toolkit/index.js';
import { startTestServer, widget, type TestServer } from '../../server/testserver.js';

const WIDGETS = { group: 'widgets.example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true };
const CONFIGMAPS = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true };

async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('Controller', () => {
  let t: TestServer;
  let rest: RestClient;
  before(async () => {
    t = await startTestServer();
    rest = new RestClient({ server: t.url, qps: 0 });
  });
  after(() => t.close());

  it('reconciles each key after sync, maps owned objects to their owner, requeues and backs off', async () => {
    const widgets = new ResourceClient<APIObject>(rest, WIDGETS, 'default');
    const configmaps = new ResourceClient<APIObject>(rest, CONFIGMAPS, 'default');
    const w1 = await widgets.create(widget('w1') as APIObject);
    const calls: string[] = [];
    let failures = 0;
    let concurrent = 0;
    let maxConcurrent = 0;
    const controller = new Controller({
      name: 'test',
      informer: new SharedIndexInformer(widgets.inNamespace(undefined)),
      watches: [{ informer: new SharedIndexInformer(configmaps.inNamespace(undefined)), keys: ownerKeys('Widget') }],
      workers: 3,
      rateLimiter: new ItemExponentialFailureRateLimiter(10, 100),
      reconcile: async (key) => {
        calls.push(key);
        concurrent++;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        await new Promise((r) => setTimeout(r, 5));
        concurrent--;
        if (key === 'default/flaky' && failures < 3) {
          failures++;
          throw new Error('not yet');
        }
        if (key === 'default/again' && calls.filter((c) => c === key).length === 1) return { requeueAfter: 50 };
        return undefined;
      },
    });
    const stop = new AbortController();
    const running = controller.run(stop.signal);
    await until('w1 reconciled', () => calls.includes('default/w1'));
    await widgets.create(widget('flaky') as APIObject);
    await until('flaky retried until it succeeds', () => calls.filter((c) => c === 'default/flaky').length === 4);
    await widgets.create(widget('again') as APIObject);
    await until('again requeued after 50 ms', () => calls.filter((c) => c === 'default/again').length === 2);
    const before = calls.filter((c) => c === 'default/w1').length;
    await configmaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owned', ownerReferences: [ownerReference(w1)] } } as APIObject);
    await until('the owner reconciled for its ConfigMap', () => calls.filter((c) => c === 'default/w1').length > before);
    assert.equal(controller.queue.numRequeues('default/flaky'), 0, 'forgotten after success');
    assert.ok(maxConcurrent <= 3);
    stop.abort();
    await running;
    assert.equal(controller.queue.shuttingDown(), true);
  });
});
