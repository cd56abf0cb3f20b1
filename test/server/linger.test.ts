/**
 * lingerOnClose: a refused request whose body was left unread closes with a linger; a request
 * whose client has already gone (res.socket null, as the fuzzer found: it crashed the server)
 * has nothing to linger on.
 */
import assert from 'node:assert/strict';
import { Socket } from 'node:net';
import { describe, it } from 'node:test';
import { lingerOnClose } from '../../runtime/server/linger.js';

describe('lingerOnClose', () => {
  it('does nothing for a response whose connection is gone', () => {
    assert.doesNotThrow(() => lingerOnClose(null));
    const destroyed = new Socket();
    destroyed.destroy();
    const before = (destroyed as unknown as { destroySoon: unknown }).destroySoon;
    lingerOnClose(destroyed);
    assert.equal((destroyed as unknown as { destroySoon: unknown }).destroySoon, before);
  });

  it('replaces destroySoon on a live socket only', () => {
    const live = new Socket();
    const shared = Socket.prototype.destroySoon;
    lingerOnClose(live);
    assert.notEqual((live as unknown as { destroySoon: unknown }).destroySoon, shared);
    assert.equal(Socket.prototype.destroySoon, shared);
    live.destroy();
  });
});
