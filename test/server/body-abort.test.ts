/**
 * A request body read stops when the request's abort fires (the client went away, or the deadline
 * of the timeout filter passed), listening through LazyAbort.onAbort: no AbortSignal is made for it.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { BodyMemoryBudget, readBody } from '../../runtime/server/body.js';
import { LazyAbort } from '../../runtime/server/filters/context.js';

/** The parts of an IncomingMessage readBody uses. */
function fakeRequest(): IncomingMessage & EventEmitter {
  const req = new EventEmitter() as IncomingMessage & EventEmitter;
  (req as unknown as { resume(): void }).resume = () => undefined;
  return req;
}

const listening = (req: EventEmitter) => ['data', 'end', 'error', 'aborted'].map((e) => req.listenerCount(e));

describe('LazyAbort.onAbort', () => {
  it('calls a listener once with the reason, not after its removal, and makes no signal', () => {
    const abort = new LazyAbort();
    const calls: unknown[] = [];
    abort.onAbort((reason) => calls.push(['a', reason]));
    const remove = abort.onAbort((reason) => calls.push(['b', reason]));
    remove();
    remove();
    const reason = new Error('gone');
    abort.abort(reason);
    abort.abort(new Error('again'));
    assert.deepEqual(calls, [['a', reason]]);
    assert.equal(abort.reason, reason);
    assert.equal(abort.signalMade, false);
    let late = false;
    abort.onAbort(() => (late = true))();
    assert.equal(late, false, 'a listener added after the abort is not called (callers check aborted first)');
  });

  it('a deadline child fires its listeners on its own abort and on its parent\'s; a signal made later carries the same reason', () => {
    const parent = new LazyAbort();
    const deadline = parent.child();
    const seen: unknown[] = [];
    deadline.onAbort((reason) => seen.push(reason));
    const timeout = new Error('context deadline exceeded');
    deadline.abort(timeout);
    assert.deepEqual(seen, [timeout]);
    assert.equal(deadline.signal.reason, timeout);
    const other = new LazyAbort();
    const child = other.child();
    let fromParent: unknown;
    child.onAbort((reason) => (fromParent = reason));
    other.abort();
    assert.ok(fromParent instanceof DOMException && fromParent.name === 'AbortError', 'the request ended: an AbortError');
  });
});

describe('readBody and the request abort', () => {
  it('rejects with the abort reason mid-body, stops listening and keeps no chunks', async () => {
    const req = fakeRequest();
    const abort = new LazyAbort();
    const read = { reserved: 0 };
    const pending = readBody(req, 10, new BodyMemoryBudget(), read, abort);
    req.emit('data', Buffer.from('{"a"'));
    const timeout = new Error('context deadline exceeded');
    abort.abort(timeout);
    await assert.rejects(pending, (err) => err === timeout);
    assert.deepEqual(listening(req), [0, 0, 0, 0]);
    assert.equal(abort.signalMade, false, 'no AbortSignal was made for the read');
    assert.equal(read.reserved, 10, 'the declared bytes stay reserved until the request finishes');
  });

  it('resolves the body and removes its abort listener, so a later abort does nothing to it', async () => {
    const req = fakeRequest();
    const abort = new LazyAbort();
    const pending = readBody(req, undefined, new BodyMemoryBudget(), { reserved: 0 }, abort);
    req.emit('data', Buffer.from('{"a":'));
    req.emit('data', Buffer.from('1}'));
    req.emit('end');
    assert.equal((await pending).toString(), '{"a":1}');
    assert.deepEqual(listening(req), [0, 0, 0, 0]);
    abort.abort();
    assert.equal(abort.signalMade, false);
  });

  it('rejects at once when the request was already aborted', async () => {
    const abort = new LazyAbort();
    const reason = new Error('client gone');
    abort.abort(reason);
    const req = fakeRequest();
    await assert.rejects(readBody(req, 5, new BodyMemoryBudget(), { reserved: 0 }, abort), (err) => err === reason);
    assert.deepEqual(listening(req), [0, 0, 0, 0]);
  });
});
