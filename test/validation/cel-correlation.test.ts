/**
 * Correlating a list-type=map's entries with the old list's (cel-validate.ts): the indexed
 * correlator gives, for every entry, the old entry correlatedItem's linear search gives (the first
 * whose key fields are deepEqualJSON), whatever the keys hold; and transition rules see the old
 * entry of the same key after a reorder.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { correlatedItem, correlator } from '../../runtime/validation/cel-validate.js';
import { compileSchemaValidator } from '../../runtime/validation/index.js';

const KEY_VALUES: unknown[] = ['a', 'b', 'a,b', '"a"', 'null', 'number:1', '1', 1, -0, 0, 1.5, NaN, true, false, null, undefined, 1n, { x: 1 }, { x: 1 }, [1], ''];

function pseudoRandom(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

test('the index answers as the linear search for every entry, keys of every kind', () => {
  const rand = pseudoRandom(7);
  const pick = () => KEY_VALUES[Math.floor(rand() * KEY_VALUES.length)];
  const entry = (keys: string[]) => Object.fromEntries(keys.filter(() => rand() > 0.1).map((k) => [k, pick()]));
  for (let round = 0; round < 400; round++) {
    const keys = rand() > 0.5 ? ['name'] : ['name', 'protocol'];
    const olds: unknown[] = Array.from({ length: Math.floor(rand() * 12) }, () => (rand() > 0.9 ? 'not an object' : entry(keys)));
    const items: unknown[] = Array.from({ length: 12 }, () => (rand() > 0.9 ? 7 : entry(keys)));
    items.push(...olds.filter((o) => typeof o === 'object').map((o) => ({ ...(o as object) })));
    const correlate = correlator(keys, olds);
    for (const item of items) assert.equal(correlate(item), correlatedItem(keys, item, olds), `${round}: ${String(JSON.stringify(item, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)))}`);
  }
});

test('a transition rule on list-map entries sees the old entry of the same key after a reorder', () => {
  const v = compileSchemaValidator(
    {
      R: {
        type: 'object',
        properties: {
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.port == oldSelf.port', message: 'port is immutable' }] },
          },
        },
      },
    } as never,
    'R',
  );
  const old = { ports: Array.from({ length: 50 }, (_, i) => ({ name: `p${i}`, port: i })) };
  assert.deepEqual(v.validate({ ports: [...old.ports].reverse() }, old), []);
  const changed = { ports: [...old.ports].reverse().map((p) => (p.name === 'p7' ? { ...p, port: 70 } : p)) };
  assert.deepEqual(v.validate(changed, old).map((e) => `${e.field}: ${e.message}`), ['ports[42]: Invalid value: "object": port is immutable']);
});
