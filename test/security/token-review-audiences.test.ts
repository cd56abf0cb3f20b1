/**
 * TokenReview audiences (security review): a service that verifies tokens with a TokenReview for
 * its own audience (`vault`) must not be told that a token the API server issued for itself is
 * valid for it — else any pod's default ServiceAccount token, or a user's token for the API
 * server, could be replayed to that service. kube's rules (pkg/registry/authentication/tokenreview,
 * pkg/serviceaccount/jwt.go, authenticator.WrapAudienceAgnosticToken):
 *
 * - ServiceAccount tokens are audience-aware: valid for (token audiences ∩ audiences asked about);
 * - static tokens (and OIDC) are audience-agnostic: valid only for the server's --api-audiences
 *   (by default the service account issuer) among those asked about.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER } from '../../runtime/authentication/index.js';
import { startTestServer, type TestServer } from '../server/testserver.js';

const SA = '/api/v1/namespaces/default/serviceaccounts';
const TR = '/apis/authentication.k8s.io/v1/tokenreviews';

describe('TokenReview audiences', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kgen-tr-audiences-'));
  let t: TestServer;
  const tokenFor = async (spec: Record<string, unknown>) => {
    const res = await t.request('POST', `${SA}/bot/token`, { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec } });
    assert.equal(res.status, 201, res.text);
    return res.body.status.token as string;
  };
  const review = async (token: string, audiences?: string[]) => {
    const res = await t.request('POST', TR, { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, ...(audiences ? { audiences } : {}) } } });
    assert.equal(res.status, 201, res.text);
    return res.body.status as { authenticated?: boolean; audiences?: string[]; user?: { username?: string } };
  };

  before(async () => {
    const tokenFile = join(dataDir, 'tokens.csv');
    writeFileSync(tokenFile, 'token-carol,carol,uid-carol\n');
    t = await startTestServer({ tls: true, dataDir, tokenAuthFile: tokenFile });
    assert.equal((await t.request('POST', SA, { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'bot' } } })).status, 201);
  });
  after(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('does not accept a ServiceAccount token made for the API server as one for another audience', async () => {
    const token = await tokenFor({});
    const forVault = await review(token, ['vault']);
    assert.notEqual(forVault.authenticated, true, 'a token for the API server was accepted for vault');
    const forServer = await review(token);
    assert.equal(forServer.authenticated, true);
    assert.deepEqual(forServer.audiences, [DEFAULT_SERVICE_ACCOUNT_ISSUER]);
  });

  it('accepts a ServiceAccount token made for that audience, and reports only the audiences it is valid for', async () => {
    const token = await tokenFor({ audiences: ['vault'] });
    const forVault = await review(token, ['vault', 'other']);
    assert.equal(forVault.authenticated, true);
    assert.equal(forVault.user?.username, 'system:serviceaccount:default:bot');
    assert.deepEqual(forVault.audiences, ['vault']);
    // Nor is the vault token good for the API server itself.
    assert.notEqual((await review(token)).authenticated, true);
    assert.equal((await t.fetchAs({ token })(`${t.url}/api/v1/namespaces`)).status, 401);
  });

  it('accepts an audience-agnostic token (static token file) only for the server\'s own audiences', async () => {
    assert.notEqual((await review('token-carol', ['vault'])).authenticated, true, 'a token for the API server was accepted for vault');
    const forServer = await review('token-carol', [DEFAULT_SERVICE_ACCOUNT_ISSUER]);
    assert.equal(forServer.authenticated, true);
    assert.deepEqual(forServer.audiences, [DEFAULT_SERVICE_ACCOUNT_ISSUER]);
    assert.equal((await review('token-carol')).authenticated, true);
  });
});
