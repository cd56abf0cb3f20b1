import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestAuthenticator } from '../../../runtime/authentication/authenticator.js';
import { withAuthentication } from '../../../runtime/server/filters/authentication.js';
import { alice, body, contextFor, recordingHandler } from './helpers.js';

const fixed = (result: ReturnType<RequestAuthenticator['authenticate']>): RequestAuthenticator => ({ authenticate: () => result });

describe('authentication filter', () => {
  it('sets the authenticated user on the context for later filters and the handler', async () => {
    const next = recordingHandler();
    const ctx = contextFor('GET', '/api/v1/namespaces');
    await withAuthentication(fixed({ user: alice }))(ctx, next);
    assert.deepEqual(next.calls[0]!.user, alice);
  });

  it('refuses failed credentials with kube’s 401 Status and logs why', async () => {
    const logs: string[] = [];
    const next = recordingHandler();
    const response = await withAuthentication(fixed({ error: 'invalid bearer token' }), (l) => logs.push(l))(contextFor('GET', '/api/v1/namespaces'), next);
    assert.equal(response.code, 401);
    assert.deepEqual(body(response), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    assert.equal(next.calls.length, 0);
    assert.deepEqual(logs, ['Unable to authenticate the request: invalid bearer token']);
  });

  it('refuses a request no authenticator recognised', async () => {
    const response = await withAuthentication(fixed(undefined))(contextFor('GET', '/apis'), recordingHandler());
    assert.equal(response.code, 401);
  });
});
