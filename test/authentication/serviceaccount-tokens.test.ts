/**
 * ServiceAccount tokens end to end over HTTPS: the TokenRequest subresource signs a JWT with the
 * data dir's key and kube's bound-token claims; the token authenticates as the service account
 * (RBAC applies to it); expired, foreign-audience, deleted-account and deleted-bound-object tokens
 * are refused; the OIDC issuer documents publish the key.
 */
import assert from 'node:assert/strict';
import { sign } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadOrCreateServiceAccountKey, signServiceAccountToken } from '../../runtime/authentication/index.js';
import { startTestServer, type TestServer } from '../server/testserver.js';

const SA = '/api/v1/namespaces/default/serviceaccounts';
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
const headerOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'));

describe('ServiceAccount tokens', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kgen-sa-tokens-'));
  let t: TestServer;
  const as = (token: string) => async (method: string, path: string, body?: unknown) => {
    const res = await t.fetchAs({ token })(t.url + path, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const token = async (name: string, spec: Record<string, unknown> = {}) => {
    const res = await t.request('POST', `${SA}/${name}/token`, { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec } });
    assert.equal(res.status, 201, res.text);
    return res.body.status.token as string;
  };

  before(async () => {
    t = await startTestServer({ tls: true, dataDir });
    assert.equal((await t.request('POST', SA, { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'bot' } } })).status, 201);
  });
  after(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('signs a token with kube\'s claims, with a key made under <data-dir>/pki', async () => {
    assert.ok(existsSync(join(dataDir, 'pki', 'service-account', 'sa.key')));
    const res = await t.request('POST', `${SA}/bot/token`, { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.kind, 'TokenRequest');
    assert.deepEqual(res.body.spec.audiences, ['https://kubernetes.default.svc.cluster.local']);
    assert.equal(res.body.spec.expirationSeconds, 3600);
    const claims = claimsOf(res.body.status.token);
    const uid = (await t.request('GET', `${SA}/bot`)).body.metadata.uid;
    assert.equal(claims.sub, 'system:serviceaccount:default:bot');
    assert.equal(claims.iss, 'https://kubernetes.default.svc.cluster.local');
    assert.deepEqual(claims.aud, ['https://kubernetes.default.svc.cluster.local']);
    assert.equal(claims.exp - claims.iat, 3600);
    assert.deepEqual(claims['kubernetes.io'], { namespace: 'default', serviceaccount: { name: 'bot', uid } });
    assert.equal(Date.parse(res.body.status.expirationTimestamp) / 1000, claims.exp);
    assert.equal(headerOf(res.body.status.token).kid, loadOrCreateServiceAccountKey(dataDir).kid, 'the key on disk signed it');
  });

  it('authenticates the token as the service account, in its groups, under RBAC', async () => {
    const bot = as(await token('bot'));
    const denied = await bot('GET', '/api/v1/namespaces/default/configmaps');
    assert.equal(denied.status, 403);
    assert.match(denied.body.message, /User "system:serviceaccount:default:bot" cannot list resource "configmaps"/);
    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'bot-view' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'Group', name: 'system:serviceaccounts:default' }],
    };
    assert.equal((await t.request('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', { body: binding })).status, 201);
    let allowed = 0;
    for (let i = 0; i < 100 && allowed !== 200; i++) {
      allowed = (await bot('GET', '/api/v1/namespaces/default/configmaps')).status;
      if (allowed !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(allowed, 200);
    // view does not read Secrets.
    assert.equal((await bot('GET', '/api/v1/namespaces/default/secrets')).status, 403);
  });

  it('refuses an invalid expiration, a missing account and unsupported bound kinds as kube does', async () => {
    const short = await t.request('POST', `${SA}/bot/token`, { body: { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', spec: { expirationSeconds: 599 } } });
    assert.equal(short.status, 422);
    assert.match(short.body.message, /spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes/);
    const missing = await t.request('POST', `${SA}/nobody/token`, { body: { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', spec: {} } });
    assert.equal(missing.status, 404);
    assert.match(missing.body.message, /serviceaccounts "nobody" not found/);
    const pod = await t.request('POST', `${SA}/bot/token`, { body: { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p' } } } });
    assert.equal(pod.status, 400);
    // A body naming another account (or namespace) than the URL is refused, as kube's TokenREST.
    for (const [metadata, message] of [
      [{ name: 'other' }, 'TokenRequest.authentication.k8s.io "bot" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified'],
      [{ name: 'bot', namespace: 'kube-system' }, 'TokenRequest.authentication.k8s.io "bot" is invalid: metadata.namespace: Invalid value: "kube-system": must match the service account namespace if specified'],
    ] as const) {
      const r = await t.request('POST', `${SA}/bot/token`, { body: { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', metadata, spec: {} } });
      assert.equal(r.status, 422, r.text);
      assert.equal(r.body.message, message);
    }
  });

  it('refuses an expired token and one for another audience', async () => {
    const key = t.server.serviceAccountTokens.key();
    const uid = (await t.request('GET', `${SA}/bot`)).body.metadata.uid;
    const base = { issuer: 'https://kubernetes.default.svc.cluster.local', namespace: 'default', serviceAccount: { name: 'bot', uid }, expirationSeconds: 600 };
    const expired = signServiceAccountToken(key, { ...base, audiences: ['https://kubernetes.default.svc.cluster.local'], now: Math.floor(Date.now() / 1000) - 700 }).token;
    assert.equal((await as(expired)('GET', '/api/v1/namespaces/default/configmaps')).status, 401);
    const other = await token('bot', { audiences: ['vault'] });
    assert.equal((await as(other)('GET', '/api/v1/namespaces/default/configmaps')).status, 401);
    const tampered = `${expired.split('.')[0]}.${Buffer.from(JSON.stringify({ ...claimsOf(expired), exp: 9999999999 })).toString('base64url')}.${expired.split('.')[2]}`;
    assert.equal((await as(tampered)('GET', '/api/v1/namespaces/default/configmaps')).status, 401);
  });

  it('accepts no legacy (secret-based) token, even one its own key signed: kgen issues none', async () => {
    const key = t.server.serviceAccountTokens.key();
    const uid = (await t.request('GET', `${SA}/bot`)).body.metadata.uid;
    const signed = (claims: Record<string, unknown>) => {
      const input = `${Buffer.from(JSON.stringify({ alg: 'RS256', kid: key.kid })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
      return `${input}.${sign('sha256', Buffer.from(input), key.privateKey).toString('base64url')}`;
    };
    // kube's legacy claims (pkg/serviceaccount/legacy.go): no exp, no aud, the legacy issuer.
    const legacy = {
      iss: 'kubernetes/serviceaccount',
      sub: 'system:serviceaccount:default:bot',
      'kubernetes.io/serviceaccount/namespace': 'default',
      'kubernetes.io/serviceaccount/secret.name': 'bot-token',
      'kubernetes.io/serviceaccount/service-account.name': 'bot',
      'kubernetes.io/serviceaccount/service-account.uid': uid,
    };
    assert.equal((await as(signed(legacy))('GET', '/api/v1/namespaces/default/configmaps')).status, 401);
    // The same claims under the server's issuer and audience, still without kubernetes.io: refused too.
    const now = Math.floor(Date.now() / 1000);
    const underIssuer = { ...legacy, iss: 'https://kubernetes.default.svc.cluster.local', aud: ['https://kubernetes.default.svc.cluster.local'], exp: now + 600, nbf: now, iat: now };
    assert.equal((await as(signed(underIssuer))('GET', '/api/v1/namespaces/default/configmaps')).status, 401);
  });

  it('refuses a token once its bound Secret or its ServiceAccount is deleted', async () => {
    const secret = await t.request('POST', '/api/v1/namespaces/default/secrets', { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'anchor' } } });
    const bound = await t.request('POST', `${SA}/bot/token`, { body: { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'anchor' } } } });
    assert.equal(bound.status, 201, bound.text);
    assert.deepEqual(claimsOf(bound.body.status.token)['kubernetes.io'].secret, { name: 'anchor', uid: secret.body.metadata.uid });
    const wrongUID = await t.request('POST', `${SA}/bot/token`, { body: { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'anchor', uid: 'nope' } } } });
    assert.equal(wrongUID.status, 409);
    const boundBot = as(bound.body.status.token);
    assert.equal((await boundBot('GET', '/api/v1/namespaces/default/configmaps')).status, 200);
    assert.equal((await t.request('DELETE', '/api/v1/namespaces/default/secrets/anchor')).status, 200);
    assert.equal((await boundBot('GET', '/api/v1/namespaces/default/configmaps')).status, 401);

    const plain = as(await token('bot'));
    assert.equal((await plain('GET', '/api/v1/namespaces/default/configmaps')).status, 200);
    assert.equal((await t.request('DELETE', `${SA}/bot`)).status, 200);
    assert.equal((await plain('GET', '/api/v1/namespaces/default/configmaps')).status, 401);
    // A new account of the same name is another identity: the old token stays refused.
    assert.equal((await t.request('POST', SA, { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'bot' } } })).status, 201);
    assert.equal((await plain('GET', '/api/v1/namespaces/default/configmaps')).status, 401);
  });

  it('publishes the issuer and its key, readable by service accounts', async () => {
    const config = await t.request('GET', '/.well-known/openid-configuration');
    assert.equal(config.status, 200);
    assert.deepEqual(config.body, {
      issuer: 'https://kubernetes.default.svc.cluster.local',
      jwks_uri: 'https://kubernetes.default.svc.cluster.local/openid/v1/jwks',
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
    const keys = await as(await token('bot'))('GET', '/openid/v1/jwks');
    assert.equal(keys.status, 200);
    assert.equal(keys.body.keys.length, 1);
    assert.deepEqual(Object.keys(keys.body.keys[0]).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use']);
    assert.equal(keys.body.keys[0].kid, t.server.serviceAccountTokens.key().kid);
    const anonymous = await fetch(t.url + '/openid/v1/jwks').catch(() => undefined);
    assert.ok(anonymous === undefined || anonymous.status === 401);
  });
});
