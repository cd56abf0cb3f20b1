import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Authorizer } from '../../../runtime/api/auth.js';
import { newAuthenticator } from '../../../runtime/authentication/index.js';
import { objectResponse } from '../../../runtime/endpoints/responsewriters.js';
import { buildHandlerChain, composeFilters, handlerChainFilters, serveThrough } from '../../../runtime/server/filters/chain.js';
import { parseRequestURL } from '../../../runtime/server/filters/context.js';
import { privilegedGroupAuthorizer } from '../../../runtime/server/authorizer.js';
import type { Filter } from '../../../runtime/server/filters/types.js';
import { body, recordingHandler, request } from './helpers.js';

const config = { authenticator: newAuthenticator(), authorizer: privilegedGroupAuthorizer() };
const adminCert = { verified: true, commonName: 'kgen-admin', organizations: ['system:masters'], extKeyUsage: ['1.3.6.1.5.5.7.3.2'] };

describe('the handler chain', () => {
  it('lists the filters in kube’s DefaultBuildHandlerChain order', () => {
    assert.deepEqual(handlerChainFilters(config).map((f) => f.name), [
      'panic-recovery', 'request-info', 'metrics', 'wait-group', 'timeout', 'cors', 'authentication', 'audit', 'impersonation', 'max-in-flight', 'authorization', 'request-body',
    ]);
    // Insecure dev mode checks the Host first (DNS rebinding).
    assert.equal(handlerChainFilters({ ...config, loopbackHostsOnly: true })[1]!.name, 'loopback-host');
  });

  it('composes filters outermost first', async () => {
    const order: string[] = [];
    const tag = (name: string): Filter => (next) => async (ctx) => {
      order.push(`${name}>`);
      const r = await next(ctx);
      order.push(`<${name}`);
      return r;
    };
    await composeFilters([{ name: 'a', filter: tag('a') }, { name: 'b', filter: tag('b') }], recordingHandler())(contextless());
    assert.deepEqual(order, ['a>', 'b>', '<b', '<a']);
  });

  it('authenticates, authorizes and hands the handler the user and RequestInfo', async () => {
    const handler = recordingHandler();
    const serve = buildHandlerChain(handler, config);
    const response = await serve(request('GET', '/apis/example.com/v1/namespaces/ns1/widgets', {}, { clientCertificate: adminCert }));
    assert.equal(response.code, 200);
    const ctx = handler.calls[0]!;
    assert.equal(ctx.user!.username, 'kgen-admin');
    assert.deepEqual(ctx.user!.groups, ['system:masters', 'system:authenticated']);
    assert.equal(ctx.info!.resource, 'widgets');
  });

  it('refuses anonymous requests with 401 except on health and version, which the authorizer allows', async () => {
    const serve = buildHandlerChain(recordingHandler(), config);
    assert.equal((await serve(request('GET', '/apis'))).code, 401);
    assert.equal((await serve(request('GET', '/api/v1/namespaces'))).code, 401);
    for (const path of ['/healthz', '/livez', '/readyz?verbose', '/version', '/livez/ping']) assert.equal((await serve(request('GET', path))).code, 200, path);
  });

  it('refuses dot segments, literal or percent-encoded, before any filter looks at the path', async () => {
    const handler = recordingHandler();
    const serve = buildHandlerChain(handler, config);
    const paths = [
      '/healthz/../api/v1/namespaces',
      '/healthz/%2e%2e/api/v1/namespaces',
      '/api/v1/namespaces/default/widgets/.',
      '/api/v1/namespaces/default/widgets/%2E',
      '/api/v1/namespaces/./widgets',
      '/api/v1/namespaces/.%2e/x',
      '/api/v1/namespaces/%2e./x?watch=1',
    ];
    for (const path of paths) {
      const response = await serve(request('GET', path, {}, { clientCertificate: adminCert }));
      assert.equal(response.code, 400, path);
      assert.equal(body(response).reason, 'BadRequest');
      assert.match(body(response).message, /may not be '\.' or '\.\.'/);
    }
    assert.equal(handler.calls.length, 0);
    // Names that merely contain dots are names.
    for (const path of ['/apis/example.com/v1/namespaces/ns1/widgets/a.b', '/apis/example.com/v1/namespaces/ns1/widgets/...', '/version?x=/../']) {
      assert.notEqual((await serve(request('GET', path, {}, { clientCertificate: adminCert }))).code, 400, path);
    }
  });

  it('merges headers filters added into the response', async () => {
    const addHeader: Filter = (next) => async (ctx) => {
      ctx.responseHeaders['Audit-Id'] = 'abc';
      return next(ctx);
    };
    const serve = serveThrough(composeFilters([{ name: 'audit', filter: addHeader }], async () => objectResponse(200, {})));
    assert.equal((await serve(request('GET', '/'))).headers['Audit-Id'], 'abc');
  });

  it('uses the authorizer it is given for impersonation and authorization', async () => {
    const asked: string[] = [];
    const authorizer: Authorizer = { authorize: async (a) => (asked.push(`${a.verb} ${a.resource}`), { decision: 'Allow', reason: '' }) };
    const serve = buildHandlerChain(recordingHandler(), { ...config, authorizer });
    const cert = { ...adminCert, commonName: 'alice', organizations: [] };
    const response = await serve(request('GET', '/api/v1/namespaces', { 'Impersonate-User': 'bob' }, { clientCertificate: cert }));
    assert.equal(response.code, 200);
    assert.deepEqual(asked, ['impersonate users', 'list namespaces']);
  });

  it('turns anything a filter throws into a Status', async () => {
    const serve = buildHandlerChain(async () => Promise.reject(new Error('kaput')), config);
    const response = await serve(request('GET', '/version'));
    assert.equal(response.code, 500);
    assert.equal(body(response).message, 'Internal error occurred: kaput');
  });
});

function contextless() {
  return { request: request('GET', '/'), url: parseRequestURL('/'), startedAt: 0, responseHeaders: {}, annotations: {} };
}
