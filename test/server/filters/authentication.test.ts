import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestAuthenticator } from '../../../runtime/authentication/authenticator.js';
import { newAuthenticator } from '../../../runtime/authentication/index.js';
import { proxyHeaders } from '../../../runtime/aggregator/transport.js';
import { newCA, newSignedCertificate } from '../../../runtime/controlplane/certs.js';
import { withAuthentication } from '../../../runtime/server/filters/authentication.js';
import { X509Certificate } from 'node:crypto';
import { alice, body, contextFor, recordingHandler } from './helpers.js';

const fixed = (result: ReturnType<RequestAuthenticator['authenticate']>): RequestAuthenticator => ({ authenticate: () => result });

describe('authentication filter', () => {
  it('sets the authenticated user on the context for later filters and the handler', async () => {
    const next = recordingHandler();
    const ctx = contextFor('GET', '/api/v1/namespaces');
    await withAuthentication(fixed({ user: alice }))(next)(ctx);
    assert.deepEqual(next.calls[0]!.user, alice);
  });

  it('refuses failed credentials with kube’s 401 Status and logs why', async () => {
    const logs: string[] = [];
    const next = recordingHandler();
    const response = await withAuthentication(fixed({ error: 'invalid bearer token' }), (l) => logs.push(l))(next)(contextFor('GET', '/api/v1/namespaces'));
    assert.equal(response.code, 401);
    assert.deepEqual(body(response), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    assert.equal(next.calls.length, 0);
    assert.deepEqual(logs, ['Unable to authenticate the request: invalid bearer token']);
  });

  it('refuses a request no authenticator recognised', async () => {
    const response = await withAuthentication(fixed(undefined))(recordingHandler())(contextFor('GET', '/apis'));
    assert.equal(response.code, 401);
  });

  it('removes Authorization and every front-proxy header, standard and configured, from an authenticated request (kube WithAuthentication)', async () => {
    // A server configured with --requestheader-username-headers=X-User (etc.) publishes those names
    // in extension-apiserver-authentication; an aggregated server believes them from this server's
    // front-proxy certificate. A client-certificate user's own X-User must not survive to the
    // aggregator's proxy, or the backend would take it for the user the front proxy vouches for.
    const frontProxyCA = newCA('front-proxy-ca');
    const clientCA = newCA('client-ca');
    const alicePEM = newSignedCertificate(clientCA, { commonName: 'alice', usage: 'client' }).cert;
    const x = new X509Certificate(alicePEM);
    const clientCertificate = { verified: true, commonName: 'alice', organizations: [], extKeyUsage: x.keyUsage, raw: x.raw };
    const authenticator = newAuthenticator({
      requestHeader: { clientCA: frontProxyCA.cert, x509ClientCA: clientCA.cert, usernameHeaders: ['X-User'], uidHeaders: ['X-Uid'], groupHeaders: ['X-Group'], extraHeaderPrefixes: ['X-Extra-'] },
    });
    const forged = {
      authorization: 'Bearer not-needed',
      'x-user': 'kgen-admin',
      'x-uid': 'u',
      'x-group': 'system:masters',
      'x-extra-scopes': 'all',
      'x-remote-user': 'kgen-admin',
      'x-remote-uid': 'u',
      'x-remote-group': 'system:masters',
      'x-remote-extra-scopes': 'all',
      accept: 'application/json',
    };
    const ctx = contextFor('GET', '/apis/metrics.k8s.io/v1beta1/pods', { headers: forged, extra: { clientCertificate, headersDistinct: Object.fromEntries(Object.entries(forged).map(([k, v]) => [k, [v]])) } });
    const next = recordingHandler();
    await withAuthentication(authenticator)(next)(ctx);
    const seen = next.calls[0]!;
    assert.equal(seen.user?.username, 'alice');
    assert.deepEqual(seen.request.headers, { accept: 'application/json' });
    assert.deepEqual(Object.keys(seen.request.headersDistinct ?? {}), ['accept']);
    // What the aggregator sends the backend: the user it authenticated, nothing the client wrote.
    const sent = proxyHeaders(seen.request.headers, seen.user!);
    assert.equal(sent['x-user'], undefined);
    assert.equal(sent['x-group'], undefined);
    assert.equal(sent['x-remote-user'], 'alice');
  });
});
