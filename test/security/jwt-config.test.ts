/**
 * JWT authenticator configurations kube refuses because they let someone in (security review),
 * as k8s.io/apiserver/pkg/apis/apiserver/validation does:
 *
 * - a username expression over claims.email that never looks at claims.email_verified: anyone
 *   with an unverified address at the issuer would be that user;
 * - an extra mapping under kubernetes.io or k8s.io: those keys carry what Kubernetes itself
 *   vouches for (credential ids, node and pod bindings);
 * - an issuer that is the service account issuer: a ServiceAccount token the ServiceAccount
 *   authenticator refused (account deleted or recreated, bound Secret gone) would then be tried
 *   as an OIDC token.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER } from '../../runtime/authentication/index.js';
import { validateJWTAuthenticators, type JWTAuthenticatorConfig } from '../../runtime/authentication/jwt-config.js';
import { startTestServer } from '../server/testserver.js';

const base = (over: Partial<JWTAuthenticatorConfig> = {}, mappings: Partial<JWTAuthenticatorConfig['claimMappings']> = {}): JWTAuthenticatorConfig => ({
  issuer: { url: 'https://issuer.example.com', audiences: ['kgen'] },
  ...over,
  claimMappings: { username: { expression: 'claims.sub' }, ...mappings },
});

describe('JWT authenticator configuration', () => {
  it('refuses a username taken from claims.email unless claims.email_verified is checked', () => {
    const errors = validateJWTAuthenticators([base({}, { username: { expression: 'claims.email' } })]);
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, /^jwt\[0\]\.claimMappings\.username\.expression: Invalid value: "claims\.email": claims\.email_verified must be used in/);
    assert.equal(validateJWTAuthenticators([base({}, { username: { expression: 'claims.?email.orValue("x")' } })]).length, 1);
    // Checked in the expression itself, in a claim validation rule, or in an extra mapping: accepted.
    assert.deepEqual(validateJWTAuthenticators([base({}, { username: { expression: "claims.email_verified ? claims.email : ''" } })]), []);
    assert.deepEqual(validateJWTAuthenticators([base({ claimValidationRules: [{ expression: 'claims.email_verified == true' }] }, { username: { expression: 'claims.email' } })]), []);
    assert.deepEqual(validateJWTAuthenticators([base({}, { username: { expression: 'claims.email' }, extra: [{ key: 'example.com/verified', valueExpression: 'string(claims.email_verified)' }] })]), []);
    // Other claims are not concerned.
    assert.deepEqual(validateJWTAuthenticators([base({}, { username: { expression: 'claims.emails_seen' } })]), []);
  });

  it('refuses extra keys under kubernetes.io and k8s.io', () => {
    for (const key of ['authentication.kubernetes.io/credential-id', 'kubernetes.io/x', 'k8s.io/x', 'a.k8s.io/x']) {
      const errors = validateJWTAuthenticators([base({}, { extra: [{ key, valueExpression: 'claims.sub' }] })]);
      assert.deepEqual(errors, [`jwt[0].claimMappings.extra[0].key: Invalid value: ${JSON.stringify(key)}: k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use`]);
    }
    assert.deepEqual(validateJWTAuthenticators([base({}, { extra: [{ key: 'notkubernetes.io/x', valueExpression: 'claims.sub' }] })]), []);
  });

  it('refuses an issuer that is the service account issuer', async () => {
    const jwt = [base({ issuer: { url: DEFAULT_SERVICE_ACCOUNT_ISSUER, audiences: ['kgen'] } })];
    await assert.rejects(startTestServer({ jwt }), /jwt\[0\]\.issuer\.url: Invalid value: "https:\/\/kubernetes\.default\.svc\.cluster\.local": URL must not overlap with disallowed issuers/);
  });
});
