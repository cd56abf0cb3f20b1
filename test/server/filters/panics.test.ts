import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newNotFound } from '../../../runtime/api/status.js';
import { withPanicRecovery } from '../../../runtime/server/filters/panics.js';
import { body, contextFor } from './helpers.js';

describe('panic recovery filter', () => {
  it('answers a thrown error with a 500 Status without the stack, and logs the stack', async () => {
    const logs: string[] = [];
    const filter = withPanicRecovery((l) => logs.push(l));
    const response = await filter(async () => {
      throw new TypeError('boom');
    })(contextFor('GET', '/apis/x/v1/things?secret=1'));
    assert.equal(response.code, 500);
    const status = body(response);
    assert.equal(status.kind, 'Status');
    assert.equal(status.reason, 'InternalError');
    assert.equal(status.message, 'Internal error occurred: boom');
    assert.doesNotMatch(JSON.stringify(status), /at .*\.ts/);
    assert.equal(logs.length, 1);
    assert.match(logs[0]!, /GET \/apis\/x\/v1\/things: TypeError: boom\n\s+at /);
    assert.doesNotMatch(logs[0]!, /secret/);
  });

  it('keeps a thrown StatusError as its own Status, unlogged', async () => {
    const logs: string[] = [];
    const response = await withPanicRecovery((l) => logs.push(l))(async () => {
      throw newNotFound({ group: '', resource: 'things' }, 'a');
    })(contextFor('GET', '/'));
    assert.equal(response.code, 404);
    assert.equal(body(response).message, 'things "a" not found');
    assert.deepEqual(logs, []);
  });

  it('passes responses through', async () => {
    const response = await withPanicRecovery(() => undefined)(async () => ({ kind: 'object', code: 201, contentType: 'x', headers: {}, payload: '' }))(contextFor('GET', '/'));
    assert.equal(response.code, 201);
  });
});
