import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  anonymousAuthenticator,
  failOnError,
  insecureDevAuthenticator,
  newAuthenticator,
  unionAuthenticator,
  x509Authenticator,
  type RequestAuthenticator,
} from '../../runtime/authentication/index.js';
import { request } from '../server/filters/helpers.js';

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const cert = (over: object = {}) => ({ verified: true, commonName: 'alice', organizations: ['dev', 'ops'], extKeyUsage: [CLIENT_AUTH], ...over });

describe('x509 client certificate authenticator', () => {
  it('names the user by CN and the groups by O', () => {
    assert.deepEqual(x509Authenticator().authenticate(request('GET', '/', {}, { clientCertificate: cert() })), { user: { username: 'alice', groups: ['dev', 'ops'] } });
  });
  it('refuses an unverified certificate or one without the clientAuth usage; ignores one without CN', () => {
    assert.match((x509Authenticator().authenticate(request('GET', '/', {}, { clientCertificate: cert({ verified: false, verifyError: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }) })) as { error: string }).error, /UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
    assert.match((x509Authenticator().authenticate(request('GET', '/', {}, { clientCertificate: cert({ extKeyUsage: ['1.3.6.1.5.5.7.3.1'] }) })) as { error: string }).error, /incompatible key usage/);
    assert.equal(x509Authenticator().authenticate(request('GET', '/', {}, { clientCertificate: cert({ commonName: '' }) })), undefined);
    assert.equal(x509Authenticator().authenticate(request('GET', '/')), undefined);
  });
});

describe('anonymous authenticator (restricted to paths)', () => {
  it('is system:anonymous in system:unauthenticated on the health and version endpoints only', () => {
    const anon = anonymousAuthenticator();
    for (const url of ['/healthz', '/livez?verbose', '/readyz/shutdown', '/version', '/version/']) {
      assert.deepEqual(anon.authenticate(request('GET', url)), { user: { username: 'system:anonymous', groups: ['system:unauthenticated'] } }, url);
    }
    for (const url of ['/', '/api', '/apis/example.com/v1/widgets', '/healthzz', '/openapi/v3']) assert.equal(anon.authenticate(request('GET', url)), undefined, url);
  });
});

describe('union and fail-on-error', () => {
  const fixed = (r: ReturnType<RequestAuthenticator['authenticate']>): RequestAuthenticator => ({ authenticate: () => r });

  it('takes the first user, adds system:authenticated, and continues past errors', async () => {
    const union = unionAuthenticator([fixed(undefined), fixed({ error: 'bad cert' }), fixed({ user: { username: 'bob', groups: ['g'] } })]);
    assert.deepEqual(await union.authenticate(request('GET', '/')), { user: { username: 'bob', groups: ['g', 'system:authenticated'] } });
    assert.deepEqual(await unionAuthenticator([fixed({ error: 'a' }), fixed({ error: 'b' })]).authenticate(request('GET', '/')), { error: 'a, b' });
  });

  it('falls back to anonymous only when no credentials were presented', async () => {
    const anon = fixed({ user: { username: 'system:anonymous', groups: ['system:unauthenticated'] } });
    assert.deepEqual(await failOnError(fixed({ error: 'bad' }), anon).authenticate(request('GET', '/')), { error: 'bad' });
    assert.equal(((await failOnError(fixed(undefined), anon).authenticate(request('GET', '/'))) as { user: { username: string } }).user.username, 'system:anonymous');
  });

  it('newAuthenticator: certificate first, then tokens, then anonymous on health paths', async () => {
    const auth = newAuthenticator();
    assert.deepEqual(await auth.authenticate(request('GET', '/api', {}, { clientCertificate: cert() })), { user: { username: 'alice', groups: ['dev', 'ops', 'system:authenticated'] } });
    assert.equal(await auth.authenticate(request('GET', '/api')), undefined);
    assert.deepEqual(await auth.authenticate(request('GET', '/api', { authorization: 'Bearer x' })), undefined);
  });

  it('a bearer token no token authenticator knows is a 401 on every path, never anonymous (kube bearertoken)', async () => {
    // The health and version paths are anonymous ones: without kube's rule a bad, expired or
    // foreign token fell through to system:anonymous there (and to "no credentials" elsewhere).
    const serviceAccounts: RequestAuthenticator = { authenticate: () => undefined };
    const auth = newAuthenticator({ serviceAccounts });
    for (const url of ['/healthz', '/version', '/readyz?verbose', '/api']) {
      assert.deepEqual(await auth.authenticate(request('GET', url, { authorization: 'Bearer not-a-known-token' })), { error: 'invalid bearer token' }, url);
    }
    // No token, an empty one, or another scheme: no credentials (anonymous where it is allowed).
    for (const authorization of [undefined, 'Bearer', 'Basic YTpi']) {
      const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
      assert.equal(((await auth.authenticate(request('GET', '/healthz', headers))) as { user: { username: string } }).user.username, 'system:anonymous', String(authorization));
    }
    // A token someone knows still authenticates, and a certificate is asked first.
    const known = newAuthenticator({ serviceAccounts: { authenticate: (r) => (r.headers.authorization === 'Bearer good' ? { user: { username: 'sa', groups: [] } } : undefined) } });
    assert.deepEqual(await known.authenticate(request('GET', '/healthz', { authorization: 'Bearer good' })), { user: { username: 'sa', groups: ['system:authenticated'] } });
    assert.deepEqual(await known.authenticate(request('GET', '/api', { authorization: 'Bearer bad' }, { clientCertificate: cert() })), { user: { username: 'alice', groups: ['dev', 'ops', 'system:authenticated'] } });
    // What a TokenReview asks is the token authenticators alone: an unknown token is "not authenticated".
    assert.equal(await auth.tokens.authenticate(request('GET', '/', { authorization: 'Bearer not-a-known-token' })), undefined);
  });

  it('insecure dev mode makes every request kgen-dev in system:masters', () => {
    assert.deepEqual(insecureDevAuthenticator().authenticate(request('GET', '/anything')), { user: { username: 'kgen-dev', groups: ['system:masters', 'system:authenticated'] } });
  });
});
