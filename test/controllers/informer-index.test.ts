/**
 * An informer over its consumer's index (the GC graph, as startControllers wires it): it keeps no
 * copy of its own, yet reconciles a relist exactly as an informer with a cache does, and hands
 * out stubs (name, namespace, uid, resourceVersion) for objects it no longer has at hand.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, WatchEvent } from '../../runtime/api/meta.js';
import { DependencyGraph, nodeOf } from '../../runtime/controllers/graph.js';
import { ResourceInformer, compactVersion, expandVersion } from '../../runtime/controllers/informer.js';
import type { Store } from '../../runtime/registry/store.js';
import { eventually, scriptedStore } from './helpers.js';


const obj = (name: string, rv: string, uid = `uid-${name}`): KubeObject => ({
  apiVersion: 'widgets.example.com/v1',
  kind: 'Widget',
  metadata: { name, namespace: 'default', uid, resourceVersion: rv },
  spec: { size: 1 },
});

/** An informer whose only state is a graph its first handler keeps, as the GC's does. */
function indexedInformer(store: Store, log: (l: string) => void = () => undefined) {
  const graph = new DependencyGraph();
  const informer = new ResourceInformer(store, log, { index: graph });
  informer.addHandlers({
    onAdd: (o) => graph.upsert(nodeOf(store, o)),
    onUpdate: (_old, o) => graph.upsert(nodeOf(store, o)),
    onDelete: (o) => graph.remove(o.metadata.uid!),
  });
  return { graph, informer };
}

describe('ResourceInformer over an index', () => {
  it('relists after a failed watch and reports adds, updates, re-creations and deletes in order', async () => {
    const store = scriptedStore(
      [
        [obj('keep', '1'), obj('change', '2'), obj('vanish', '3'), obj('recreated', '4')],
        [obj('keep', '1'), obj('change', '12'), obj('new', '13'), obj('recreated', '14', 'uid-other')],
      ],
      [[{ type: 'MODIFIED', object: obj('keep', '1') }, { type: 'ERROR', object: { kind: 'Status', message: 'too old resource version' } as never }]],
    );
    const seen: string[] = [];
    const { graph, informer } = indexedInformer(store);
    const deleted: KubeObject[] = [];
    const updatedFrom: KubeObject[] = [];
    informer.addHandlers({
      onAdd: (o) => seen.push(`add ${o.metadata.name}`),
      onUpdate: (old, o) => {
        updatedFrom.push(old);
        seen.push(`update ${o.metadata.name}`);
      },
      onDelete: (o) => {
        deleted.push(o);
        seen.push(`delete ${o.metadata.name}`);
      },
    });
    informer.start();
    await informer.synced;
    await eventually(() => seen.length >= 9, 'the relist to be reconciled');
    await informer.stop();
    assert.deepEqual(seen, [
      'add keep',
      'add change',
      'add vanish',
      'add recreated',
      'update change',
      'add new',
      'delete recreated',
      'add recreated',
      'delete vanish',
    ]);
    assert.deepEqual(updatedFrom, [
      { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'change', namespace: 'default', uid: 'uid-change', resourceVersion: '2' } },
    ]);
    assert.deepEqual(
      deleted.map((o) => o.metadata),
      [
        { name: 'recreated', namespace: 'default', uid: 'uid-recreated', resourceVersion: '4' },
        { name: 'vanish', namespace: 'default', uid: 'uid-vanish', resourceVersion: '3' },
      ],
    );
    assert.deepEqual(
      informer.list().map((o) => `${o.metadata.name} ${o.metadata.uid} ${o.metadata.resourceVersion}`).sort(),
      ['change uid-change 12', 'keep uid-keep 1', 'new uid-new 13', 'recreated uid-other 14'],
    );
    assert.equal(graph.get('uid-vanish'), undefined);
    assert.equal(graph.get('uid-other')?.version, 14, 'a small decimal resourceVersion is kept as a number');
  });

  it('hands watch deletions over as received, and forgets everything when the resource goes', async () => {
    const store = scriptedStore([[obj('a', '1'), obj('b', '2')]], [[{ type: 'DELETED', object: obj('a', '3') }]]);
    const { graph, informer } = indexedInformer(store);
    const gone: KubeObject[] = [];
    informer.addHandlers({ onDelete: (o) => gone.push(o) });
    informer.start();
    await eventually(() => gone.length === 1, 'the watch deletion');
    await informer.stop();
    assert.deepEqual(gone[0]!.spec, { size: 1 }, 'the object received');
    informer.forgetAll();
    assert.deepEqual(gone.map((o) => o.metadata.name), ['a', 'b']);
    assert.deepEqual(graph.objectsOf(store), []);
    assert.deepEqual(informer.list(), []);
  });

  it('over a partial index: tells adds from updates by the event type, hands every deletion over, and reports relists', async () => {
    // The index holds only objects labelled kept=yes (as the GC's partial graph holds only some).
    const store = scriptedStore(
      [
        [obj('plain', '1'), { ...obj('indexed', '2'), metadata: { ...obj('indexed', '2').metadata, labels: { kept: 'yes' } } }],
        [obj('plain', '5')],
      ],
      [
        [
          { type: 'MODIFIED', object: obj('plain', '3') },
          { type: 'ADDED', object: obj('fresh', '4') },
          { type: 'DELETED', object: obj('plain', '5') },
          { type: 'ERROR', object: { kind: 'Status', message: 'too old resource version' } as never },
        ],
      ],
    );
    const graph = new DependencyGraph({ partial: true });
    const informer = new ResourceInformer(store, () => undefined, { index: graph });
    const seen: string[] = [];
    informer.addHandlers({
      onAdd: (o) => {
        if (o.metadata.labels?.kept === 'yes') graph.upsert(nodeOf(store, o));
        seen.push(`add ${o.metadata.name}`);
      },
      onUpdate: (old, o) => seen.push(`update ${o.metadata.name} from ${JSON.stringify(old.metadata)}`),
      onDelete: (o) => {
        graph.remove(o.metadata.uid!);
        seen.push(`delete ${o.metadata.name}`);
      },
      onRelist: () => seen.push('relisted'),
    });
    informer.start();
    await eventually(() => seen.includes('relisted'), 'the relist');
    await informer.stop();
    assert.deepEqual(seen, [
      'add plain',
      'add indexed',
      'update plain from {"name":"plain","namespace":"default","uid":"uid-plain"}',
      'add fresh',
      'delete plain',
      // The relist: what the index held and the list lacks is deleted; what it did not hold is added.
      'add plain',
      'delete indexed',
      'relisted',
    ]);
  });

  it('an informer that took over from another reports its first list as a relist', async () => {
    const store = scriptedStore([[obj('a', '1')]], []);
    const graph = new DependencyGraph({ partial: true });
    const first = new ResourceInformer(store, () => undefined, { index: graph });
    const second = new ResourceInformer(store, () => undefined, { index: graph });
    const seen: string[] = [];
    for (const [name, informer] of [['first', first], ['second', second]] as const) {
      informer.addHandlers({ onAdd: (o) => seen.push(`${name} add ${o.metadata.name}`), onRelist: () => seen.push(`${name} relisted`) });
    }
    first.start();
    await first.synced;
    await first.stop();
    second.seed(first);
    second.start();
    await eventually(() => seen.includes('second relisted'), 'the relist of the informer that took over');
    await second.stop();
    assert.deepEqual(seen, ['first add a', 'second add a', 'second relisted']);
  });

  it('compacts only canonical small decimals', () => {
    for (const rv of ['0', '7', '123456789']) assert.equal(expandVersion(compactVersion(rv)), rv);
    assert.equal(compactVersion('123456789'), 123456789);
    for (const rv of ['007', '1234567890', 'abc', '', '-1', '1e3']) assert.equal(compactVersion(rv), rv);
    assert.equal(compactVersion(undefined), undefined);
  });
});
