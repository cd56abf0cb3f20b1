/**
 * The namespace controller over the fixture API and memory storage: a deleted namespace empties
 * and goes, waits for content held by finalizers (reporting it in its conditions), and a namespace
 * left Terminating while no controller ran is finished on start.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { startControllers, type RunningControllers } from '../../runtime/controllers/index.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { G, NS, W, eventually, getOrNone, installFixture, ownerRef, type FixtureAPIs } from './helpers.js';

const FAST = { baseDelayMs: 5, maxDelayMs: 50 };

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
}
const conditionsOf = (ns: KubeObject) => ((ns.status as { conditions?: Condition[] }).conditions ?? []);

describe('namespace controller', () => {
  let api: FixtureAPIs;
  let controllers: RunningControllers | undefined;
  const logs: string[] = [];

  const start = async () => {
    controllers = startControllers({ apis: api.installer, log: (l) => logs.push(l), queue: FAST });
    await controllers.synced;
  };
  const nsGone = (name: string) => eventually(async () => (await getOrNone(api.namespaces, undefined, name)) === undefined, `namespace ${name} to go`);

  beforeEach(async () => {
    api = await installFixture(new MemoryStorage());
    logs.length = 0;
  });
  afterEach(async () => {
    await controllers?.stop();
    controllers = undefined;
  });

  it('deletes everything in a terminating namespace, then the namespace, and nothing elsewhere', async () => {
    await start();
    await api.namespaces.create(undefined, NS('team'));
    for (const n of ['a', 'b', 'c']) await api.widgets.create('team', W(n));
    await api.widgets.create('default', W('a'));
    await api.gadgets.create(undefined, G('cluster-wide'));

    const marked = await api.namespaces.delete(undefined, 'team');
    assert.equal((marked.status as { phase: string }).phase, 'Terminating');
    await nsGone('team');
    assert.deepEqual((await api.widgets.list('team')).items, []);
    assert.ok(await getOrNone(api.widgets, 'default', 'a'));
    assert.ok(await getOrNone(api.gadgets, undefined, 'cluster-wide'));
    // The name can be used again at once.
    const again = await api.namespaces.create(undefined, NS('team'));
    assert.equal((again.status as { phase: string }).phase, 'Active');
    assert.deepEqual(logs, []);
  });

  it('waits for content held by finalizers and reports it in the namespace conditions', async () => {
    await start();
    await api.namespaces.create(undefined, NS('held'));
    await api.widgets.create('held', W('stuck', { finalizers: ['example.com/hold'] }));
    await api.widgets.create('held', W('free'));
    await api.namespaces.delete(undefined, 'held');

    const ns = await eventually(async () => {
      const n = await api.namespaces.get(undefined, 'held');
      return conditionsOf(n).some((c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True') ? n : undefined;
    }, 'the conditions to report the finalizer');
    const byType = new Map(conditionsOf(ns).map((c) => [c.type, c]));
    assert.deepEqual(byType.get('NamespaceContentRemaining'), {
      ...byType.get('NamespaceContentRemaining'),
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: widgets.widgets.example.com has 1 resource instances',
    });
    assert.equal(byType.get('NamespaceFinalizersRemaining')!.message, 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances');
    assert.equal(byType.get('NamespaceDeletionContentFailure')!.status, 'False');
    assert.equal(await getOrNone(api.widgets, 'held', 'free'), undefined);
    assert.ok((await api.widgets.get('held', 'stuck')).metadata.deletionTimestamp);
    assert.deepEqual((await api.namespaces.get(undefined, 'held')).spec, { finalizers: ['kubernetes'] });

    await api.widgets.update('held', 'stuck', {
      updatedObject(current) {
        current.metadata.finalizers = [];
        return current;
      },
    });
    await nsGone('held');
  });

  it('a Foreground namespace delete goes through the GC and the namespace controller together', async () => {
    await start();
    await api.namespaces.create(undefined, NS('gc'));
    const owner = await api.widgets.create('gc', W('owner'));
    await api.widgets.create('gc', W('dep', { ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] }));
    await api.namespaces.delete(undefined, 'gc', { propagationPolicy: 'Foreground' });
    await nsGone('gc');
    assert.deepEqual((await api.widgets.list('gc')).items, []);
  });

  it('finishes a namespace left Terminating while no controller ran', async () => {
    await api.namespaces.create(undefined, NS('crashed'));
    await api.widgets.create('crashed', W('x'));
    await api.namespaces.delete(undefined, 'crashed');
    assert.equal((await api.namespaces.get(undefined, 'crashed')).metadata.deletionTimestamp !== undefined, true);
    await start();
    await nsGone('crashed');
    assert.equal(await getOrNone(api.widgets, 'crashed', 'x'), undefined);
  });

  it('stops cleanly and can be stopped twice', async () => {
    await start();
    const c = controllers!;
    await c.stop();
    await c.stop();
    controllers = undefined;
    // Nothing runs after stop: a terminating namespace stays.
    await api.namespaces.create(undefined, NS('after'));
    await api.namespaces.delete(undefined, 'after');
    await new Promise((r) => setTimeout(r, 30));
    assert.ok(await getOrNone(api.namespaces, undefined, 'after'));
  });
});
