/**
 * The storage conformance suite: one set of behaviours every backend must show, written against
 * the Storage interface only. Each backend's test file calls describeStorageConformance.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { StorageError, type Storage } from '../../runtime/storage/interface.js';
import { isRed, key, mutateOrRefuse, names, PREFIX, rejectsWith, widget } from './conformance-fixtures.js';
import { describeWatchConformance } from './conformance-watch.js';
import { describeCachedUpdateConformance } from './conformance-update.js';
import { EventCollector, summary } from './watch-helpers.js';

export interface OpenedStorage {
  storage: Storage;
  cleanup(): Promise<void>;
}

export function describeStorageConformance(name: string, open: () => Promise<OpenedStorage>): void {
  describe(`storage conformance: ${name}`, () => {
    let opened: OpenedStorage;
    let s: Storage;
    beforeEach(async () => {
      opened = await open();
      s = opened.storage;
    });
    afterEach(async () => {
      await opened.cleanup();
    });

    describe('create and get', () => {
      it('stores a copy and returns it with the revision as resourceVersion', async () => {
        const before = Number(await s.currentRevision());
        const input = widget('a', { size: 1 });
        input.metadata.resourceVersion = '999';
        const created = await s.create(key('ns1', 'a'), input);
        const rv = Number(created.metadata.resourceVersion);
        assert.ok(rv > before, 'revision advances');
        assert.equal(await s.currentRevision(), String(rv));
        input.spec = { size: 2 };
        created.spec = { size: 3 };
        const got = await s.get(key('ns1', 'a'));
        assert.deepEqual(got, { ...widget('a', { size: 1 }), metadata: { ...widget('a').metadata, resourceVersion: String(rv) } });
        // A backend hands out copies; a watch cache hands out its frozen, shared objects.
        mutateOrRefuse(got as KubeObject, (o) => (o.metadata.name = 'mutated'));
        assert.equal((await s.get(key('ns1', 'a')))?.metadata.name, 'a');
      });

      it('revisions strictly increase across keys', async () => {
        const a = await s.create(key('ns1', 'a'), widget('a'));
        const b = await s.create(key('ns1', 'b'), widget('b'));
        assert.ok(Number(b.metadata.resourceVersion) > Number(a.metadata.resourceVersion));
      });

      it('KeyExists on a second create, KeyNotFound for a missing key', async () => {
        await s.create(key('ns1', 'a'), widget('a'));
        await rejectsWith(s.create(key('ns1', 'a'), widget('a')), 'KeyExists');
        await rejectsWith(s.get(key('ns1', 'missing')), 'KeyNotFound');
        assert.equal(await s.get(key('ns1', 'missing'), { ignoreNotFound: true }), undefined);
      });

      it('a deleted key can be created again', async () => {
        await s.create(key('ns1', 'a'), widget('a', { v: 1 }));
        await s.delete(key('ns1', 'a'));
        await rejectsWith(s.get(key('ns1', 'a')), 'KeyNotFound');
        const again = await s.create(key('ns1', 'a'), widget('a', { v: 2 }));
        assert.deepEqual(again.spec, { v: 2 });
      });

      it('healthCheck resolves on an open store', async () => {
        await s.healthCheck();
      });
    });

    describe('getList', () => {
      it('lists keys under the prefix in key order, at the current revision', async () => {
        for (const [ns, n] of [['ns2', 'b'], ['ns1', 'c'], ['ns1', 'a'], ['ns2', 'a']]) await s.create(key(ns, n), widget(n));
        await s.create('/registry/example.com/widgetsx/ns1/z', widget('z'));
        await s.create('/registry/example.com/widget', widget('w'));
        const all = await s.getList(PREFIX);
        assert.deepEqual(all.items.map((o) => `${o.metadata.name}`), ['a', 'c', 'a', 'b']);
        assert.equal(all.resourceVersion, await s.currentRevision());
        assert.equal(all.continue, undefined);
        const ns1 = await s.getList(`${PREFIX}ns1/`);
        assert.deepEqual(names(ns1.items), ['a', 'c']);
        const noSlash = await s.getList(`${PREFIX}ns1`);
        assert.deepEqual(names(noSlash.items), ['a', 'c']);
        assert.deepEqual((await s.getList(`${PREFIX}ns3/`)).items, []);
      });

      it('items carry their own mod revisions', async () => {
        const a = await s.create(key('ns1', 'a'), widget('a'));
        await s.create(key('ns1', 'b'), widget('b'));
        const list = await s.getList(PREFIX);
        assert.equal(list.items[0].metadata.resourceVersion, a.metadata.resourceVersion);
      });

      it('pages with limit and continue at the first page revision while writes happen', async () => {
        for (let i = 0; i < 10; i++) await s.create(key('ns1', `w${i}`), widget(`w${i}`, { i }));
        const snapshot = await s.getList(PREFIX);
        const first = await s.getList(PREFIX, { limit: 3 });
        assert.deepEqual(names(first.items), ['w0', 'w1', 'w2']);
        assert.equal(first.remainingItemCount, 7);
        assert.ok(first.continue);
        assert.equal(first.resourceVersion, snapshot.resourceVersion);
        const collected = [...first.items];
        let token: string | undefined = first.continue;
        let step = 0;
        while (token) {
          // Writes between pages must not show up in the paged list.
          await s.create(key('ns1', `x${step}`), widget(`x${step}`));
          await s.delete(key('ns1', `w${9 - step}`));
          await s.guaranteedUpdate(key('ns1', 'w5'), {}, (cur) => ({ ...(cur as KubeObject), spec: { i: 100 + step } }));
          step++;
          const page = await s.getList(PREFIX, { limit: 3, continue: token });
          assert.equal(page.resourceVersion, snapshot.resourceVersion);
          assert.ok(page.items.length <= 3);
          collected.push(...page.items);
          token = page.continue;
          if (token) assert.equal(page.remainingItemCount, 10 - collected.length);
        }
        assert.deepEqual(collected, snapshot.items);
      });

      it('a predicate filters before counting towards limit', async () => {
        for (let i = 0; i < 12; i++) {
          await s.create(key('ns1', `w${String(i).padStart(2, '0')}`), widget(`w${i}`, {}, { color: i % 3 === 0 ? 'red' : 'blue' }));
        }
        const first = await s.getList(PREFIX, { limit: 2, predicate: isRed });
        assert.deepEqual(names(first.items), ['w0', 'w3']);
        assert.ok(first.continue);
        const second = await s.getList(PREFIX, { limit: 2, predicate: isRed, continue: first.continue });
        assert.deepEqual(names(second.items), ['w6', 'w9']);
        // Keys remain after w9 (w10, w11), so kube still hands out a token; the next page is empty.
        assert.ok(second.continue);
        const third = await s.getList(PREFIX, { limit: 2, predicate: isRed, continue: second.continue });
        assert.deepEqual(third.items, []);
        assert.equal(third.continue, undefined);
        const all = await s.getList(PREFIX, { predicate: isRed });
        assert.deepEqual(names(all.items), ['w0', 'w3', 'w6', 'w9']);
      });

      it('limit equal to the number of items returns no continue', async () => {
        for (const n of ['a', 'b']) await s.create(key('ns1', n), widget(n));
        const list = await s.getList(PREFIX, { limit: 2 });
        assert.equal(list.items.length, 2);
        assert.equal(list.continue, undefined);
      });

      it('serves resourceVersionMatch=Exact at an older revision', async () => {
        await s.create(key('ns1', 'a'), widget('a', { v: 1 }));
        await s.create(key('ns1', 'b'), widget('b', { v: 1 }));
        const old = await s.currentRevision();
        await s.guaranteedUpdate(key('ns1', 'a'), {}, (cur) => ({ ...(cur as KubeObject), spec: { v: 2 } }));
        await s.delete(key('ns1', 'b'));
        await s.create(key('ns1', 'c'), widget('c'));
        const exact = await s.getList(PREFIX, { resourceVersion: old, resourceVersionMatch: 'Exact' });
        assert.equal(exact.resourceVersion, old);
        assert.deepEqual(names(exact.items), ['a', 'b']);
        assert.deepEqual(exact.items.map((o) => o.spec), [{ v: 1 }, { v: 1 }]);
        const paged = await s.getList(PREFIX, { resourceVersion: old, resourceVersionMatch: 'Exact', limit: 1 });
        assert.deepEqual(names(paged.items), ['a']);
        const rest = await s.getList(PREFIX, { limit: 1, continue: paged.continue });
        assert.deepEqual(names(rest.items), ['b']);
        const latest = await s.getList(PREFIX, { resourceVersion: old });
        assert.deepEqual(names(latest.items), ['a', 'c']);
        assert.equal(latest.resourceVersion, await s.currentRevision());
      });

      it('rejects a revision newer than the current one', async () => {
        await s.create(key('ns1', 'a'), widget('a'));
        const future = String(Number(await s.currentRevision()) + 10);
        await rejectsWith(s.getList(PREFIX, { resourceVersion: future, resourceVersionMatch: 'Exact' }), 'TooLargeResourceVersion');
        await rejectsWith(s.getList(PREFIX, { resourceVersion: future }), 'TooLargeResourceVersion');
        assert.equal((await s.getList(PREFIX, { resourceVersion: '0' })).items.length, 1);
      });

      it('rejects malformed resourceVersions and continue tokens as InvalidObject', async () => {
        await rejectsWith(s.getList(PREFIX, { resourceVersion: 'abc' }), 'InvalidObject');
        await rejectsWith(s.getList(PREFIX, { resourceVersionMatch: 'Exact' }), 'InvalidObject');
        for (const token of [
          'not a token!',
          Buffer.from('not json').toString('base64url'),
          Buffer.from('{"v":"other/v1","rv":1,"start":"a"}').toString('base64url'),
          Buffer.from('{"v":"meta.k8s.io/v1","rv":1,"start":"../../secrets/x"}').toString('base64url'),
          Buffer.from('{"v":"meta.k8s.io/v1","rv":0,"start":"a"}').toString('base64url'),
        ]) {
          await rejectsWith(s.getList(PREFIX, { limit: 1, continue: token }), 'InvalidObject');
        }
      });
    });

    describe('guaranteedUpdate', () => {
      it('applies every one of 50 concurrent increments', async () => {
        await s.create(key('ns1', 'counter'), widget('counter', { n: 0 }));
        const watch = new EventCollector(s.watch(key('ns1', 'counter')));
        await Promise.all(
          Array.from({ length: 50 }, () =>
            s.guaranteedUpdate(key('ns1', 'counter'), {}, async (cur) => {
              await new Promise((r) => setImmediate(r));
              const obj = cur as KubeObject;
              return { ...obj, spec: { n: (obj.spec as { n: number }).n + 1 } };
            }),
          ),
        );
        assert.deepEqual((await s.get(key('ns1', 'counter')))?.spec, { n: 50 });
        const events = await watch.waitFor(50);
        watch.stop();
        assert.deepEqual(events.map((e) => (e.object.spec as { n: number }).n), Array.from({ length: 50 }, (_, i) => i + 1));
      });

      it('returns the written object and passes a copy of the current one', async () => {
        const created = await s.create(key('ns1', 'a'), widget('a', { v: 1 }));
        let seen: KubeObject | undefined;
        const updated = await s.guaranteedUpdate(key('ns1', 'a'), {}, (cur) => {
          seen = cur;
          return { ...(cur as KubeObject), spec: { v: 2 } };
        });
        assert.equal(seen?.metadata.resourceVersion, created.metadata.resourceVersion);
        assert.deepEqual(updated.spec, { v: 2 });
        assert.equal(updated.metadata.resourceVersion, await s.currentRevision());
        assert.deepEqual(await s.get(key('ns1', 'a')), updated);
      });

      it('KeyNotFound on a missing key unless ignoreNotFound, which creates', async () => {
        await rejectsWith(s.guaranteedUpdate(key('ns1', 'a'), {}, () => widget('a')), 'KeyNotFound');
        let seen: KubeObject | undefined | 'unset' = 'unset';
        const created = await s.guaranteedUpdate(key('ns1', 'a'), { ignoreNotFound: true }, (cur) => {
          seen = cur;
          return widget('a', { v: 1 });
        });
        assert.equal(seen, undefined);
        assert.deepEqual((await s.get(key('ns1', 'a')))?.spec, { v: 1 });
        assert.equal(created.metadata.resourceVersion, await s.currentRevision());
      });

      it('checks uid and resourceVersion preconditions', async () => {
        const created = await s.create(key('ns1', 'a'), widget('a', { v: 1 }));
        const bump = (cur: KubeObject | undefined) => ({ ...(cur as KubeObject), spec: { v: 2 } });
        await rejectsWith(s.guaranteedUpdate(key('ns1', 'a'), { preconditions: { uid: 'other' } }, bump), 'ResourceVersionConflicts');
        await rejectsWith(
          s.guaranteedUpdate(key('ns1', 'a'), { preconditions: { resourceVersion: '1' } }, bump),
          'ResourceVersionConflicts',
        );
        const ok = await s.guaranteedUpdate(
          key('ns1', 'a'),
          { preconditions: { uid: 'uid-a', resourceVersion: created.metadata.resourceVersion } },
          bump,
        );
        assert.deepEqual(ok.spec, { v: 2 });
      });

      it('skips a no-op update: same object and revision, no event', async () => {
        const created = await s.create(key('ns1', 'a'), widget('a', { v: 1, list: [1, 2] }));
        const watch = new EventCollector(s.watch(PREFIX));
        const rev = await s.currentRevision();
        const same = await s.guaranteedUpdate(key('ns1', 'a'), {}, (cur) => {
          const obj = cur as KubeObject;
          // Same content, different key order and resourceVersion.
          return { spec: { list: [1, 2], v: 1 }, metadata: { ...obj.metadata, resourceVersion: '12345' }, kind: obj.kind, apiVersion: obj.apiVersion };
        });
        assert.deepEqual(same, created);
        assert.equal(await s.currentRevision(), rev);
        const sentinel = await s.create(key('ns1', 'sentinel'), widget('sentinel'));
        const events = await watch.waitFor(1);
        watch.stop();
        assert.deepEqual(summary(events), [`ADDED ${key('ns1', 'sentinel')} ${sentinel.metadata.resourceVersion}`]);
      });

      it('a throwing tryUpdate aborts without writing', async () => {
        await s.create(key('ns1', 'a'), widget('a'));
        const rev = await s.currentRevision();
        await assert.rejects(
          s.guaranteedUpdate(key('ns1', 'a'), {}, () => {
            throw new Error('nope');
          }),
          /nope/,
        );
        assert.equal(await s.currentRevision(), rev);
      });
    });

    describe('size', () => {
      // etcd's default --max-request-bytes (1.5 MiB); memory and SQLite keep the same limit.
      it('refuses a create or an update over 1.5 MiB as RequestTooLarge, and writes nothing', async () => {
        const MiB = 1024 * 1024;
        await s.create(key('ns1', 'a'), widget('a', { blob: 'x'.repeat(MiB) }));
        const rev = await s.currentRevision();
        const err = await rejectsWith(s.create(key('ns1', 'b'), widget('b', { blob: 'x'.repeat(1.8 * MiB) })), 'RequestTooLarge');
        assert.match(err.message, /request is too large/);
        await rejectsWith(s.guaranteedUpdate(key('ns1', 'a'), {}, (cur) => ({ ...cur!, spec: { blob: 'x'.repeat(MiB), more: 'y'.repeat(MiB) } })), 'RequestTooLarge');
        assert.equal(await s.currentRevision(), rev);
        assert.equal(((await s.get(key('ns1', 'a')))!.spec as { blob: string }).blob.length, MiB);
        assert.equal(await s.get(key('ns1', 'b'), { ignoreNotFound: true }), undefined);
      });
    });

    describe('delete', () => {
      it('returns the last state with the deletion revision', async () => {
        const created = await s.create(key('ns1', 'a'), widget('a', { v: 1 }));
        const deleted = await s.delete(key('ns1', 'a'));
        assert.deepEqual(deleted.spec, { v: 1 });
        assert.ok(Number(deleted.metadata.resourceVersion) > Number(created.metadata.resourceVersion));
        assert.equal(deleted.metadata.resourceVersion, await s.currentRevision());
        await rejectsWith(s.delete(key('ns1', 'a')), 'KeyNotFound');
      });

      it('checks preconditions and validateDeletion', async () => {
        const created = await s.create(key('ns1', 'a'), widget('a'));
        await rejectsWith(s.delete(key('ns1', 'a'), { preconditions: { uid: 'other' } }), 'ResourceVersionConflicts');
        await rejectsWith(s.delete(key('ns1', 'a'), { preconditions: { resourceVersion: '1' } }), 'ResourceVersionConflicts');
        await assert.rejects(
          s.delete(key('ns1', 'a'), {
            validateDeletion: () => {
              throw new Error('has finalizers');
            },
          }),
          /has finalizers/,
        );
        assert.ok(await s.get(key('ns1', 'a')));
        let validated: KubeObject | undefined;
        await s.delete(key('ns1', 'a'), {
          preconditions: { uid: 'uid-a', resourceVersion: created.metadata.resourceVersion },
          validateDeletion: (cur) => {
            validated = cur;
          },
        });
        assert.equal(validated?.metadata.resourceVersion, created.metadata.resourceVersion);
        await rejectsWith(s.get(key('ns1', 'a')), 'KeyNotFound');
      });
    });

    describeWatchConformance(() => s);
    describeCachedUpdateConformance(() => s);

    describe('compaction', () => {
      it('expires older watches, continues and exact lists, and keeps the compacted revision readable', async () => {
        await s.create(key('ns1', 'a'), widget('a', { v: 1 }));
        await s.create(key('ns1', 'b'), widget('b'));
        await s.create(key('ns1', 'c'), widget('c'));
        const early = await s.currentRevision();
        const page = await s.getList(PREFIX, { limit: 1 });
        await s.guaranteedUpdate(key('ns1', 'a'), {}, (cur) => ({ ...(cur as KubeObject), spec: { v: 2 } }));
        await s.delete(key('ns1', 'b'));
        const compactAt = await s.currentRevision();
        await s.guaranteedUpdate(key('ns1', 'a'), {}, (cur) => ({ ...(cur as KubeObject), spec: { v: 3 } }));
        await s.compact(compactAt);

        const expired = new EventCollector(s.watch(PREFIX, { resourceVersion: early }));
        await expired.waitDone();
        assert.ok(expired.error instanceof StorageError && expired.error.code === 'Expired', String(expired.error));
        assert.deepEqual(expired.events, []);
        await rejectsWith(s.getList(PREFIX, { limit: 1, continue: page.continue }), 'Expired');
        await rejectsWith(s.getList(PREFIX, { resourceVersion: early, resourceVersionMatch: 'Exact' }), 'Expired');
        // kube's handleCompactedErrorForPaging: the Expired carries the same start key at rv -1,
        // which lists on at the latest revision ("inconsistent continue").
        const gone = await s.getList(PREFIX, { limit: 1, continue: page.continue }).catch((err: unknown) => err);
        assert.ok(gone instanceof StorageError && gone.continueToken, String(gone));
        const inconsistent = JSON.parse(Buffer.from(gone.continueToken, 'base64url').toString());
        assert.deepEqual(inconsistent, { v: 'meta.k8s.io/v1', rv: -1, start: 'ns1/a\u0000' });
        const latest = await s.currentRevision();
        const carried = await s.getList(PREFIX, { limit: 1, continue: gone.continueToken });
        assert.deepEqual(names(carried.items), ['c']);
        assert.deepEqual(carried.items[0].spec, {});
        assert.equal(carried.resourceVersion, latest);
        assert.equal(carried.continue, undefined);
        // Its next page is consistent again: served at, and carrying, the revision the page was read at.
        const atLatest = Buffer.from('{"v":"meta.k8s.io/v1","rv":-1,"start":"ns1/0"}').toString('base64url');
        const fromA = await s.getList(PREFIX, { limit: 1, continue: atLatest });
        assert.deepEqual(names(fromA.items), ['a']);
        assert.equal(fromA.resourceVersion, latest);
        assert.equal(JSON.parse(Buffer.from(fromA.continue ?? '', 'base64url').toString()).rv, Number(latest));

        const atCompacted = await s.getList(PREFIX, { resourceVersion: compactAt, resourceVersionMatch: 'Exact' });
        assert.deepEqual(names(atCompacted.items), ['a', 'c']);
        assert.deepEqual(atCompacted.items[0].spec, { v: 2 });
        const fromCompacted = new EventCollector(s.watch(PREFIX, { resourceVersion: compactAt }));
        const events = await fromCompacted.waitFor(1);
        fromCompacted.stop();
        assert.equal(events.length, 1);
        assert.equal(events[0].type, 'MODIFIED');
        assert.deepEqual(events[0].object.spec, { v: 3 });
        assert.deepEqual(events[0].prevObject?.spec, { v: 2 });
        assert.deepEqual(names((await s.getList(PREFIX)).items), ['a', 'c']);
      });

      it('rejects compacting beyond the current revision; compacting again lower is harmless', async () => {
        await s.create(key('ns1', 'a'), widget('a'));
        const rev = await s.currentRevision();
        await rejectsWith(s.compact(String(Number(rev) + 5)), 'TooLargeResourceVersion');
        await s.compact(rev);
        await s.compact(String(Number(rev) - 1));
        const after = await s.create(key('ns1', 'b'), widget('b'));
        assert.ok(Number(after.metadata.resourceVersion) > Number(rev));
        assert.deepEqual(names((await s.getList(PREFIX)).items), ['a', 'b']);
      });

      it('a key deleted before the compacted revision stays gone and can be recreated', async () => {
        await s.create(key('ns1', 'a'), widget('a'));
        await s.delete(key('ns1', 'a'));
        const rev = await s.currentRevision();
        await s.compact(rev);
        assert.equal(await s.currentRevision(), rev);
        await rejectsWith(s.get(key('ns1', 'a')), 'KeyNotFound');
        const watch = new EventCollector(s.watch(PREFIX, { resourceVersion: rev }));
        const again = await s.create(key('ns1', 'a'), widget('a'));
        assert.ok(Number(again.metadata.resourceVersion) > Number(rev));
        const events = await watch.waitFor(1);
        watch.stop();
        assert.deepEqual(summary(events), [`ADDED ${key('ns1', 'a')} ${again.metadata.resourceVersion}`]);
      });
    });

    describe('close', () => {
      it('ends every watcher and makes later calls Unavailable', async () => {
        const a = new EventCollector(s.watch(PREFIX));
        const b = new EventCollector(s.watch(key('ns1', 'a')));
        await s.close();
        await a.waitDone();
        await b.waitDone();
        assert.equal(a.error, undefined);
        await rejectsWith(s.get(key('ns1', 'a')), 'Unavailable');
        await rejectsWith(s.healthCheck(), 'Unavailable');
      });
    });
  });
}
