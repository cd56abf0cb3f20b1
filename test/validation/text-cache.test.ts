/** TextKeyedCache: bounded by entries and by characters of key text, least recently used first. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TextKeyedCache } from '../../runtime/validation/text-cache.js';

describe('TextKeyedCache', () => {
  it('forgets the least recently used entry past its entry bound', () => {
    const cache = new TextKeyedCache<number>(2, 100);
    cache.set('a', 1);
    cache.set('b', 2);
    assert.equal(cache.get('a'), 1); // a is now the most recently used
    cache.set('c', 3);
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a'), 1);
    assert.equal(cache.get('c'), 3);
    assert.deepEqual(cache.size, { entries: 2, chars: 2 });
  });

  it('forgets as many as it takes to stay within its character bound, and keeps no key longer than it', () => {
    const cache = new TextKeyedCache<string>(100, 10);
    cache.set('aaaa', 'a');
    cache.set('bbbb', 'b');
    cache.set('cccccc', 'c');
    assert.deepEqual(cache.size, { entries: 2, chars: 10 });
    assert.equal(cache.get('aaaa'), undefined);
    cache.set('x'.repeat(11), 'too long');
    assert.equal(cache.get('x'.repeat(11)), undefined);
    assert.deepEqual(cache.size, { entries: 2, chars: 10 });
  });

  it('replacing a key counts its characters once', () => {
    const cache = new TextKeyedCache<number>(10, 10);
    cache.set('abc', 1);
    cache.set('abc', 2);
    assert.equal(cache.get('abc'), 2);
    assert.deepEqual(cache.size, { entries: 1, chars: 3 });
  });
});
