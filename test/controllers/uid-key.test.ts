/**
 * The GC graph's uid keys (runtime/controllers/uid-key.ts): a canonical uid packs to its 16 bytes,
 * anything else is kept as it is behind a mark, every uid comes back exactly, and no two uids
 * share a key.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { uidKey, uidOf } from '../../runtime/controllers/uid-key.js';

test('a canonical uid is kept as its 16 bytes and comes back exactly', () => {
  for (let i = 0; i < 1000; i++) {
    const uid = randomUUID();
    const key = uidKey(uid);
    assert.equal(key.length, 16);
    assert.ok([...key].every((c) => c.charCodeAt(0) < 256));
    assert.equal(uidOf(key), uid);
  }
  assert.equal(uidKey('00000000-0000-0000-0000-000000000000'), '\0'.repeat(16));
  assert.equal(uidOf('\xff'.repeat(16)), 'ffffffff-ffff-ffff-ffff-ffffffffffff');
});

test('any other string comes back exactly and never takes a canonical uid\'s key', () => {
  const canonical = '0123abcd-4567-89ef-0123-456789abcdef';
  const others = [
    '',
    'uid-vanish',
    canonical.toUpperCase(),
    canonical.slice(0, 35) + 'g',
    canonical.replace(/-/g, '_'),
    canonical + '0',
    ' ' + canonical.slice(1),
    uidKey(canonical),
    '\u0100' + uidKey(canonical),
    'abcdefghijklmnop',
    '\u0100',
    'ü'.repeat(16),
  ];
  const keys = new Map<string, string>([[uidKey(canonical), canonical]]);
  for (const uid of others) {
    const key = uidKey(uid);
    assert.equal(uidOf(key), uid, JSON.stringify(uid));
    assert.notEqual(key.length === 16 && key.charCodeAt(0) !== 0x100, true, `${JSON.stringify(uid)} must not look packed`);
    assert.equal(keys.get(key), undefined, `${JSON.stringify(uid)} shares a key with ${JSON.stringify(keys.get(key))}`);
    keys.set(key, uid);
  }
});
