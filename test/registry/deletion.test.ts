/**
 * The generic store's deletion path, without controllers: finalizers and deletionTimestamp,
 * DeleteOptions (preconditions, propagationPolicy, dryRun), the GC finalizers, and namespaces'
 * Terminating phase and finalize subresource.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { KubeObject, WatchEvent } from '../../runtime/api/meta.js';
import { namespaceFinalizeStore } from '../../runtime/registry/namespaces.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { G, NS, W, getOrNone, installFixture, rejectsWith, type FixtureAPIs } from '../controllers/helpers.js';

const removeFinalizers = (keep: string[] = []) => ({
  updatedObject(current: KubeObject) {
    current.metadata.finalizers = (current.metadata.finalizers ?? []).filter((f) => keep.includes(f));
    return current;
  },
});

describe('store deletion', () => {
  let api: FixtureAPIs;

  beforeEach(async () => {
    api = await installFixture(new MemoryStorage());
  });

  it('marks an object with finalizers instead of deleting it, and deletes it when the last finalizer goes', async () => {
    const created = await api.widgets.create('default', W('held', { finalizers: ['example.com/a', 'example.com/b'] }));
    const marked = await api.widgets.deleteObject('default', 'held');
    assert.equal(marked.deleted, false);
    const meta = marked.object.metadata;
    assert.match(meta.deletionTimestamp ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.equal(meta.deletionGracePeriodSeconds, 0);
    assert.equal(meta.generation, (created.metadata.generation ?? 0) + 1, 'the first mark bumps generation');
    assert.deepEqual(meta.finalizers, ['example.com/a', 'example.com/b']);
    assert.deepEqual((await api.widgets.get('default', 'held')).metadata.deletionTimestamp, meta.deletionTimestamp);

    // A second DELETE changes nothing and answers with the object.
    const again = await api.widgets.deleteObject('default', 'held');
    assert.equal(again.deleted, false);
    assert.equal(again.object.metadata.resourceVersion, meta.resourceVersion);
    assert.equal(again.object.metadata.deletionTimestamp, meta.deletionTimestamp);

    const watch = api.widgets.watch('default', { resourceVersion: meta.resourceVersion });
    const one = await api.widgets.update('default', 'held', removeFinalizers(['example.com/b']));
    assert.deepEqual(one.metadata.finalizers, ['example.com/b']);
    assert.ok(await getOrNone(api.widgets, 'default', 'held'), 'still there with a finalizer left');

    const last = await api.widgets.update('default', 'held', removeFinalizers());
    assert.equal(last.metadata.name, 'held');
    assert.equal(await getOrNone(api.widgets, 'default', 'held'), undefined);

    const events: WatchEvent[] = [];
    for await (const e of watch) {
      events.push(e);
      if (events.length === 2) break;
    }
    watch.stop();
    assert.deepEqual(
      events.map((e) => e.type),
      ['MODIFIED', 'DELETED'],
    );
  });

  it('forbids adding finalizers while deleting, with kube\'s message', async () => {
    await api.widgets.create('default', W('w', { finalizers: ['example.com/a'] }));
    await api.widgets.delete('default', 'w');
    await rejectsWith(
      api.widgets.update('default', 'w', {
        updatedObject(current) {
          current.metadata.finalizers = ['example.com/a', 'example.com/z'];
          return current;
        },
      }),
      422,
      'Invalid',
      /^Widget\.widgets\.example\.com "w" is invalid: metadata\.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers \[\]string\{"example\.com\/z"\}$/,
    );
    // An update that keeps the finalizers may change other things; deletionTimestamp stays.
    const kept = await api.widgets.update('default', 'w', {
      updatedObject(current) {
        current.metadata.labels = { a: 'b' };
        delete current.metadata.deletionTimestamp;
        return current;
      },
    });
    assert.ok(kept.metadata.deletionTimestamp);
    assert.deepEqual(kept.metadata.labels, { a: 'b' });
  });

  it('checks uid and resourceVersion preconditions before marking or deleting (409)', async () => {
    const c = await api.widgets.create('default', W('p', { finalizers: ['example.com/a'] }));
    await rejectsWith(
      api.widgets.delete('default', 'p', { preconditions: { uid: 'other' } }),
      409,
      'Conflict',
      /^Operation cannot be fulfilled on Widget\.widgets\.example\.com "p": the UID in the precondition \(other\) does not match the UID in record \(.+\)\. The object might have been deleted and then recreated$/,
    );
    await rejectsWith(
      api.widgets.delete('default', 'p', { preconditions: { resourceVersion: '1' } }),
      409,
      'Conflict',
      /the ResourceVersion in the precondition \(1\) does not match the ResourceVersion in record \(\d+\)\. The object might have been modified$/,
    );
    assert.equal((await api.widgets.get('default', 'p')).metadata.deletionTimestamp, undefined);
    const ok = await api.widgets.delete('default', 'p', { preconditions: { uid: c.metadata.uid, resourceVersion: c.metadata.resourceVersion } });
    assert.ok(ok.metadata.deletionTimestamp);
  });

  it('dryRun computes the answer and stores nothing', async () => {
    await api.widgets.create('default', W('d', { finalizers: ['example.com/a'] }));
    const dry = await api.widgets.deleteObject('default', 'd', { dryRun: true });
    assert.equal(dry.deleted, false);
    assert.ok(dry.object.metadata.deletionTimestamp);
    assert.equal((await api.widgets.get('default', 'd')).metadata.deletionTimestamp, undefined);
    await api.widgets.create('default', W('plain'));
    assert.equal((await api.widgets.deleteObject('default', 'plain', { dryRun: true })).deleted, true);
    assert.ok(await getOrNone(api.widgets, 'default', 'plain'));
    // Removing the last finalizer of a deleting object in dry run does not delete it either.
    await api.widgets.delete('default', 'd');
    await api.widgets.update('default', 'd', removeFinalizers(), { dryRun: true });
    assert.ok(await getOrNone(api.widgets, 'default', 'd'));
  });

  it('sets the GC finalizers the propagation policy asks for', async () => {
    await api.widgets.create('default', W('fg'));
    const fg = await api.widgets.deleteObject('default', 'fg', { propagationPolicy: 'Foreground' });
    assert.equal(fg.deleted, false);
    assert.deepEqual(fg.object.metadata.finalizers, ['foregroundDeletion']);
    assert.ok(fg.object.metadata.deletionTimestamp);

    await api.gadgets.create(undefined, G('or', { finalizers: ['example.com/keep'] }));
    const or = await api.gadgets.delete(undefined, 'or', { propagationPolicy: 'Orphan' });
    assert.deepEqual(or.metadata.finalizers, ['example.com/keep', 'orphan']);
    // The deprecated orphanDependents means the same.
    await api.widgets.create('default', W('od'));
    assert.deepEqual((await api.widgets.delete('default', 'od', { orphanDependents: true })).metadata.finalizers, ['orphan']);

    // Background (the default for these kinds) deletes at once.
    await api.widgets.create('default', W('bg'));
    assert.equal((await api.widgets.deleteObject('default', 'bg', { propagationPolicy: 'Background' })).deleted, true);
    await api.widgets.create('default', W('none'));
    assert.equal((await api.widgets.deleteObject('default', 'none')).deleted, true);

    // A later Background delete of a foreground-deleting object switches it to background, as kube does.
    const switched = await api.widgets.deleteObject('default', 'fg', { propagationPolicy: 'Background' });
    assert.equal(switched.deleted, true);
    assert.equal(await getOrNone(api.widgets, 'default', 'fg'), undefined);
  });

  it('deletes collections through the same path', async () => {
    await api.widgets.create('default', W('c1', { labels: { app: 'x' } }));
    await api.widgets.create('default', W('c2', { labels: { app: 'x' }, finalizers: ['example.com/a'] }));
    const list = await api.widgets.deleteCollection('default', {});
    assert.deepEqual(list.items.map((i) => [i.metadata.name, !!i.metadata.deletionTimestamp]), [
      ['c1', false],
      ['c2', true],
    ]);
    assert.deepEqual((await api.widgets.list('default')).items.map((i) => i.metadata.name), ['c2']);
  });

  it('moves a namespace to Terminating, keeps it until its spec finalizers are gone, then deletes it', async () => {
    const ns = await api.namespaces.create(undefined, NS('team'));
    assert.deepEqual(ns.spec, { finalizers: ['kubernetes'] });
    assert.deepEqual(ns.status, { phase: 'Active' });
    // spec.finalizers cannot be changed by a plain update.
    const upd = await api.namespaces.update(undefined, 'team', {
      updatedObject(current) {
        current.spec = { finalizers: [] };
        return current;
      },
    });
    assert.deepEqual(upd.spec, { finalizers: ['kubernetes'] });

    const marked = await api.namespaces.deleteObject(undefined, 'team', { propagationPolicy: 'Background' });
    assert.equal(marked.deleted, false);
    assert.ok(marked.object.metadata.deletionTimestamp);
    assert.equal((marked.object.status as { phase: string }).phase, 'Terminating');
    assert.equal(marked.object.metadata.finalizers, undefined);
    assert.equal((await api.namespaces.deleteObject(undefined, 'team')).deleted, false, 'still finalizing');

    await rejectsWith(
      api.widgets.create('team', W('late')),
      403,
      'Forbidden',
      /^widgets\.widgets\.example\.com "late" is forbidden: unable to create new content in namespace team because it is being terminated$/,
    );

    const finalize = namespaceFinalizeStore(api.namespaces);
    await rejectsWith(
      finalize.update(undefined, 'team', {
        updatedObject(current) {
          current.spec = { finalizers: ['bogus'] };
          return current;
        },
      }),
      422,
      'Invalid',
      /spec\.finalizers\[0\]: Invalid value: "bogus": name is neither a standard finalizer name nor is it fully qualified/,
    );
    const last = await finalize.update(undefined, 'team', {
      updatedObject(current) {
        current.spec = { finalizers: [] };
        return current;
      },
    });
    assert.deepEqual(last.spec, { finalizers: [] });
    assert.equal(await getOrNone(api.namespaces, undefined, 'team'), undefined);
  });

  it('keeps refusing to delete the system namespaces', async () => {
    await rejectsWith(api.namespaces.delete(undefined, 'kube-system'), 403, 'Forbidden', /this namespace may not be deleted/);
    assert.equal((await api.namespaces.get(undefined, 'kube-system')).metadata.deletionTimestamp, undefined);
  });
});
