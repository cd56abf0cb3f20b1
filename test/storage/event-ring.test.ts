/** The watch cache's ring of recent changes: bounded, oldest evicted, grown only as used. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { CachedEvent, EventRing } from '../../runtime/storage/cacher/event-ring.js';

function event(revision: number): CachedEvent {
  const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${revision}`, resourceVersion: String(revision) } } as KubeObject;
  return new CachedEvent('ADDED', `/registry/configmaps/default/c${revision}`, obj, revision);
}

function revisions(ring: EventRing): number[] {
  const out: number[] = [];
  for (let i = 0; i < ring.size; i++) out.push(ring.at(i).revision);
  return out;
}

describe('EventRing', () => {
  it('allocates no slot before its first event, and one per event until it is full', () => {
    const ring = new EventRing(1000);
    assert.equal(ring.allocated, 0);
    for (let r = 1; r <= 3; r++) ring.push(event(r));
    assert.equal(ring.allocated, 3);
    for (let r = 4; r <= 1500; r++) ring.push(event(r));
    assert.equal(ring.allocated, 1000);
    ring.clear();
    assert.equal(ring.allocated, 0);
    assert.equal(ring.size, 0);
  });

  it('keeps the last `capacity` events in order, across evictions and clears (against a model)', () => {
    for (const capacity of [1, 2, 7]) {
      const ring = new EventRing(capacity);
      let model: number[] = [];
      let revision = 0;
      for (let step = 0; step < 60; step++) {
        if (step % 23 === 22) {
          ring.clear();
          model = [];
          continue;
        }
        const e = event(++revision);
        const evicted = ring.push(e);
        model.push(revision);
        const expectedEvicted = model.length > capacity ? model.shift() : undefined;
        assert.equal(evicted?.revision, expectedEvicted, `capacity ${capacity}, step ${step}`);
        assert.deepEqual(revisions(ring), model);
        assert.equal(ring.size, model.length);
        for (const since of [0, revision - 3, revision - 1, revision]) {
          assert.deepEqual(
            ring.since(since).map((x) => x.revision),
            model.filter((r) => r > since),
          );
        }
      }
    }
  });

  it('rejects a capacity that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) assert.throws(() => new EventRing(bad), /positive integer/);
  });
});
