/**
 * Conformance of guaranteedUpdate with a cached guess of the current object (UpdateOptions'
 * cachedExistingObject, kube's cachedExistingObject): whether a backend uses the guess or reads,
 * the outcome is the one a read would have given, and the guess itself is never changed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import type { Storage } from '../../runtime/storage/interface.js';
import { key, rejectsWith, widget } from './conformance-fixtures.js';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

const spec = (o: KubeObject | undefined) => o?.spec as { v: number };
const withV = (cur: KubeObject | undefined, v: number): KubeObject => ({ ...(cur as KubeObject), spec: { v } });

export function describeCachedUpdateConformance(storage: () => Storage): void {
  describe('guaranteedUpdate with a cached guess', () => {
    it('a current guess: tryUpdate gets a copy of it, the guess stays untouched', async () => {
      const s = storage();
      const created = deepFreeze(await s.create(key('ns1', 'a'), widget('a', { v: 1 })));
      let seen: KubeObject | undefined;
      const updated = await s.guaranteedUpdate(key('ns1', 'a'), { cachedExistingObject: created }, (cur) => {
        seen = cur;
        cur!.metadata.labels = { touched: 'yes' };
        return withV(cur, 2);
      });
      assert.notEqual(seen, created);
      assert.equal(seen?.metadata.resourceVersion, created.metadata.resourceVersion);
      assert.deepEqual(spec(updated), { v: 2 });
      assert.deepEqual(await s.get(key('ns1', 'a')), updated);
      assert.equal(created.metadata.labels, undefined);
    });

    it('a stale guess: the update is applied to the current state', async () => {
      const s = storage();
      const stale = deepFreeze(await s.create(key('ns1', 'a'), widget('a', { v: 1 })));
      const current = await s.guaranteedUpdate(key('ns1', 'a'), {}, (cur) => withV(cur, 2));
      const seen: number[] = [];
      const updated = await s.guaranteedUpdate(
        key('ns1', 'a'),
        { cachedExistingObject: stale, preconditions: { resourceVersion: current.metadata.resourceVersion } },
        (cur) => {
          seen.push(spec(cur).v);
          return withV(cur, spec(cur).v + 10);
        },
      );
      assert.deepEqual(spec(updated), { v: 12 });
      assert.deepEqual(spec(await s.get(key('ns1', 'a'))), { v: 12 });
      assert.equal(seen[seen.length - 1], 2, 'the last attempt ran on the current object');
    });

    it('a stale guess that looks like a no-op is checked against the current state', async () => {
      const s = storage();
      const stale = deepFreeze(await s.create(key('ns1', 'a'), widget('a', { v: 1 })));
      const current = await s.guaranteedUpdate(key('ns1', 'a'), {}, (cur) => withV(cur, 2));
      const updated = await s.guaranteedUpdate(key('ns1', 'a'), { cachedExistingObject: stale }, (cur) => withV(cur, 1));
      assert.deepEqual(spec(updated), { v: 1 });
      assert.ok(Number(updated.metadata.resourceVersion) > Number(current.metadata.resourceVersion), 'written, not skipped');
      assert.deepEqual(await s.get(key('ns1', 'a')), updated);
    });

    it('a stale guess rejected by tryUpdate is retried on the current state; a current one is not', async () => {
      const s = storage();
      const stale = deepFreeze(await s.create(key('ns1', 'a'), widget('a', { v: 1 })));
      const current = deepFreeze(await s.guaranteedUpdate(key('ns1', 'a'), {}, (cur) => withV(cur, 2)));
      const onlyOnCurrent = (cur: KubeObject | undefined) => {
        if (cur?.metadata.resourceVersion !== current.metadata.resourceVersion) throw new Error('stale');
        return withV(cur, 3);
      };
      const updated = await s.guaranteedUpdate(key('ns1', 'a'), { cachedExistingObject: stale }, onlyOnCurrent);
      assert.deepEqual(spec(updated), { v: 3 });
      await assert.rejects(
        s.guaranteedUpdate(key('ns1', 'a'), { cachedExistingObject: updated }, () => {
          throw new Error('nope');
        }),
        /nope/,
      );
      assert.deepEqual(await s.get(key('ns1', 'a')), updated);
    });

    it('a guess of a key deleted since: KeyNotFound, or created with ignoreNotFound', async () => {
      const s = storage();
      const stale = deepFreeze(await s.create(key('ns1', 'a'), widget('a', { v: 1 })));
      await s.delete(key('ns1', 'a'));
      await rejectsWith(s.guaranteedUpdate(key('ns1', 'a'), { cachedExistingObject: stale }, (cur) => withV(cur, 2)), 'KeyNotFound');
      let seen: KubeObject | undefined | 'unset' = 'unset';
      const created = await s.guaranteedUpdate(key('ns1', 'a'), { cachedExistingObject: stale, ignoreNotFound: true }, (cur) => {
        seen = cur;
        return widget('a', { v: 5 });
      });
      assert.equal(seen, undefined);
      assert.deepEqual(spec(created), { v: 5 });
    });
  });
}
