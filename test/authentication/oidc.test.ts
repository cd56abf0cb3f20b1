/**
 * The JWT (OIDC) authenticator against a real issuer over HTTPS (discovery, JWK set, rotation):
 * each check of kube's JWT authenticator, claim mappings with CEL, and configuration validation
 * with kube's field paths.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { after, before, describe, it, mock } from 'node:test';
import { stringify } from 'yaml';
import type { AuthenticationResult } from '../../runtime/authentication/authenticator.js';
import { loadAuthenticationConfig, oidcFlagsConfig, type JWTAuthenticatorConfig } from '../../runtime/authentication/jwt-config.js';
import { jwtAuthenticator } from '../../runtime/authentication/oidc.js';
import { getJSON } from '../../runtime/authentication/oidc-keys.js';
import type { IncomingAPIRequest } from '../../runtime/server/handler.js';
import { tempDir } from '../e2e/harness.js';
import { TestIssuer } from '../support/oidc-issuer.js';

const request = (token: string) => ({ headers: { authorization: `Bearer ${token}` } }) as unknown as IncomingAPIRequest;
const errorOf = (r: AuthenticationResult) => (r && 'error' in r ? r.error : `not an error: ${JSON.stringify(r)}`);

let issuer: TestIssuer;
before(async () => {
  issuer = await TestIssuer.start();
});
after(() => issuer?.close());

const flagsConfig = (over: Partial<Parameters<typeof oidcFlagsConfig>[0]> = {}) =>
  oidcFlagsConfig({ issuerURL: issuer.url, clientID: 'kgen', caFile: undefined, ...over })!;

function withCA(config: JWTAuthenticatorConfig): JWTAuthenticatorConfig {
  return { ...config, issuer: { ...config.issuer, certificateAuthority: issuer.ca.cert } };
}

describe('JWT authenticator (the --oidc-* flags)', () => {
  it("maps sub with kube's default prefix, and email without one when verified", async () => {
    const authn = jwtAuthenticator([withCA(flagsConfig())]);
    assert.deepEqual(await authn.authenticate(request(issuer.token({ sub: 'alice', aud: 'kgen' }))), { user: { username: `${issuer.url}#alice`, groups: [] } });
    const byEmail = jwtAuthenticator([withCA(flagsConfig({ usernameClaim: 'email', groupsClaim: 'groups', groupsPrefix: 'oidc:' }))]);
    const req = request(issuer.token({ sub: 'a', email: 'alice@example.com', email_verified: true, groups: ['devs', 'ops'], aud: ['other', 'kgen'] }));
    assert.deepEqual(await byEmail.authenticate(req), { user: { username: 'alice@example.com', groups: ['oidc:devs', 'oidc:ops'] } });
    assert.equal(req.headers.authorization, undefined, 'the credential is consumed');
    assert.equal(errorOf(await byEmail.authenticate(request(issuer.token({ email: 'x@example.com', email_verified: false, aud: 'kgen' })))), 'oidc: email not verified');
  });

  it('leaves tokens of other issuers, and tokens that are not JWTs, to the next authenticator', () => {
    const authn = jwtAuthenticator([withCA(flagsConfig())]);
    assert.equal(authn.authenticate(request('not-a-jwt')), undefined);
    assert.equal(authn.authenticate(request(issuer.token({ iss: 'https://elsewhere.example', aud: 'kgen' }))), undefined);
  });

  it('refuses expired, not-yet-valid, wrongly addressed and unsigned tokens', async () => {
    const authn = jwtAuthenticator([withCA(flagsConfig({ requiredClaims: { hd: 'example.com' } }))]);
    const now = Math.floor(Date.now() / 1000);
    const ok = { sub: 's', aud: 'kgen', hd: 'example.com' };
    assert.match(errorOf(await authn.authenticate(request(issuer.token({ ...ok, exp: now - 10 })))), /^oidc: verify token: oidc: token is expired \(Token Expiry: /);
    assert.match(errorOf(await authn.authenticate(request(issuer.token({ ...ok, nbf: now + 3600 })))), /before the nbf \(not before\) time/);
    assert.match(errorOf(await authn.authenticate(request(issuer.token({ ...ok, aud: 'someone-else' })))), /oidc: expected audience in \["kgen"\] got \["someone-else"\]/);
    assert.match(errorOf(await authn.authenticate(request(issuer.token({ ...ok, exp: undefined })))), /oidc: token has no expiry/);
    assert.equal(errorOf(await authn.authenticate(request(issuer.token({ ...ok, hd: 'evil.com' })))), 'oidc: required claim hd value does not match. Got = evil.com, want = example.com');
    assert.equal(errorOf(await authn.authenticate(request(issuer.token({ sub: 's', aud: 'kgen' })))), 'oidc: required claim hd not present');
    const good = issuer.token(ok);
    const [h, p] = good.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${p}.`;
    assert.match(errorOf(await authn.authenticate(request(none))), /failed to verify signature/);
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), sub: 'root' })).toString('base64url')}.${good.split('.')[2]}`;
    assert.match(errorOf(await authn.authenticate(request(tampered))), /failed to verify signature/);
    assert.ok('user' in ((await authn.authenticate(request(good))) as object));
  });

  it('reads exp, nbf and iat as go-oidc does: numbers in range (1e400 is no time), or strings holding one', async () => {
    const authn = jwtAuthenticator([withCA(flagsConfig())]);
    const now = Math.floor(Date.now() / 1000);
    const payload = (times: string) => `{"iss":${JSON.stringify(issuer.url)},"sub":"s","aud":"kgen",${times}}`;
    // JSON.parse makes 1e400 Infinity: an exp that never comes, where Go refuses the claim.
    for (const times of [`"exp":1e400`, `"exp":${now + 60},"nbf":-1e400`, `"exp":${now + 60},"iat":1e999`, `"exp":${now + 60},"nbf":"soon"`, `"exp":true`]) {
      assert.match(errorOf(await authn.authenticate(request(issuer.tokenFromJSON(payload(times))))), /^oidc: failed to unmarshal claims: "(exp|nbf|iat)" is not a time in seconds/, times);
    }
    // A string holding a number is one (Go's json.Number): a future nbf is still in the future.
    assert.match(errorOf(await authn.authenticate(request(issuer.tokenFromJSON(payload(`"exp":"${now + 7200}","nbf":"${now + 3600}"`))))), /before the nbf \(not before\) time/);
    assert.ok('user' in ((await authn.authenticate(request(issuer.tokenFromJSON(payload(`"exp":"${now + 60}"`))))) as object));
  });

  it('answers times beyond the calendar or int64 with a 401, never a 500 or a token that never expires', async () => {
    const authn = jwtAuthenticator([withCA(flagsConfig())]);
    const now = Math.floor(Date.now() / 1000);
    const payload = (times: string) => `{"iss":${JSON.stringify(issuer.url)},"sub":"s","aud":"kgen",${times}}`;
    const outcome = async (times: string) => {
      try {
        return errorOf(await authn.authenticate(request(issuer.tokenFromJSON(payload(times)))));
      } catch (err) {
        return `threw ${(err as Error).message}`;
      }
    };
    // Within int64 seconds but beyond what a JavaScript Date holds (±8.64e12 s): still the answer.
    assert.match(await outcome(`"exp":${now + 7200},"nbf":1e13`), /^oidc: verify token: oidc: current time \S+ before the nbf \(not before\) time: 10000000000000 seconds since the epoch$/);
    assert.match(await outcome(`"exp":-1e13`), /^oidc: verify token: oidc: token is expired \(Token Expiry: -10000000000000 seconds since the epoch\)$/);
    // Beyond int64 seconds Go's int64(float64) conversion depends on the CPU (amd64 wraps to the
    // minimum, an expired token; arm64 saturates, one that never expires): refused, fail closed.
    for (const times of [`"exp":1e300`, `"exp":9223372036854775808`, `"exp":${now + 60},"nbf":-1e19`]) {
      assert.match(await outcome(times), /^oidc: failed to unmarshal claims: "(exp|nbf)" is not a time in seconds/, times);
    }
  });

  it('accepts only the configured algorithms (RS256 by default)', async () => {
    const es = await TestIssuer.start('ES256');
    try {
      const config = (algs?: string[]) => ({ ...oidcFlagsConfig({ issuerURL: es.url, clientID: 'kgen', signingAlgs: algs })!, issuer: { url: es.url, audiences: ['kgen'], certificateAuthority: es.ca.cert } });
      const token = es.token({ sub: 's', aud: 'kgen' });
      assert.match(errorOf(await jwtAuthenticator([config()]).authenticate(request(token))), /failed to verify signature/);
      assert.ok('user' in ((await jwtAuthenticator([config(['ES256'])]).authenticate(request(token))) as object));
    } finally {
      es.close();
    }
  });

  it('refuses algorithm confusion: HS256 keyed with the public RSA key, none, and an alg the key is not for', async () => {
    const authn = jwtAuthenticator([withCA(flagsConfig({ signingAlgs: ['RS256', 'ES256'] }))]);
    const good = issuer.token({ sub: 's', aud: 'kgen' });
    assert.ok('user' in ((await authn.authenticate(request(good))) as object));
    const [head, payload] = good.split('.');
    const { kid } = JSON.parse(Buffer.from(head!, 'base64url').toString());
    const set = (await getJSON(`${issuer.url}/keys`, issuer.ca.cert)) as { keys: crypto.JsonWebKey[] };
    const rsa = crypto.createPublicKey({ key: set.keys.find((k) => (k as { kid?: string }).kid === kid)!, format: 'jwk' });
    // Every form a confused verifier might take the public key in as an HMAC secret.
    const secrets = [rsa.export({ type: 'spki', format: 'pem' }), rsa.export({ type: 'pkcs1', format: 'pem' }), rsa.export({ type: 'spki', format: 'der' }), JSON.stringify(rsa.export({ format: 'jwk' }))];
    const forged = (header: Record<string, unknown>, sign: (input: string) => Buffer) => {
      const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${payload}`;
      return `${input}.${sign(input).toString('base64url')}`;
    };
    for (const secret of secrets) {
      for (const alg of ['HS256', 'HS384', 'HS512']) {
        const token = forged({ alg, kid, typ: 'JWT' }, (input) => crypto.createHmac(`sha${alg.slice(2)}`, secret).update(input).digest());
        assert.match(errorOf(await authn.authenticate(request(token))), /failed to verify signature/, alg);
      }
    }
    for (const alg of ['none', 'None', 'NONE', '']) {
      assert.match(errorOf(await authn.authenticate(request(forged({ alg, kid }, () => Buffer.alloc(0))))), /failed to verify signature/, alg);
    }
    // The RSA signature under another RSA algorithm, and under ES256 (allowed, but not for an RSA key).
    const signature = good.split('.')[2];
    for (const alg of ['RS384', 'PS256', 'ES256']) {
      const input = `${Buffer.from(JSON.stringify({ alg, kid })).toString('base64url')}.${payload}`;
      assert.match(errorOf(await authn.authenticate(request(`${input}.${signature}`))), /failed to verify signature/, alg);
    }
  });

  it('fetches the key set again when a token names a key it does not hold (rotation)', async () => {
    const rotating = await TestIssuer.start();
    try {
      const authn = jwtAuthenticator([{ ...oidcFlagsConfig({ issuerURL: rotating.url, clientID: 'kgen' })!, issuer: { url: rotating.url, audiences: ['kgen'], certificateAuthority: rotating.ca.cert } }]);
      const before = rotating.token({ sub: 's', aud: 'kgen' });
      assert.ok('user' in ((await authn.authenticate(request(before))) as object));
      assert.ok('user' in ((await authn.authenticate(request(before))) as object));
      assert.equal(rotating.jwksFetches, 1, 'keys are cached');
      rotating.rotate();
      assert.ok('user' in ((await authn.authenticate(request(rotating.token({ sub: 's', aud: 'kgen' })))) as object), 'the new key is fetched');
      assert.equal(rotating.jwksFetches, 2);
      assert.match(errorOf(await authn.authenticate(request(before))), /failed to verify signature/, 'the withdrawn key no longer verifies');
      // Tokens are not authenticated yet when their key is looked up: made-up key ids must not make
      // the server fetch the issuer's keys once per request (at most once per 10 s).
      for (let i = 0; i < 5; i++) {
        assert.match(errorOf(await authn.authenticate(request(rotating.token({ sub: 's', aud: 'kgen' }, { kid: `forged-${i}` })))), /failed to verify signature/);
      }
      assert.equal(rotating.jwksFetches, 2, 'no fetch for the withdrawn key nor for made-up ones within 10 s of the last');
    } finally {
      rotating.close();
    }
  });

  it('checks a token\'s signature once per key set: again after a rotation, and never for a withdrawn key', async () => {
    const rotating = await TestIssuer.start();
    const verifies = mock.method(crypto, 'verify');
    syncBuiltinESMExports();
    try {
      // The authenticator's clock (seconds), moved on by the test: a loaded machine could otherwise
      // pass a one-second expiry before the first request, and a real wait cost 2 s.
      let clock = Date.now() / 1000;
      const authn = jwtAuthenticator([{ ...oidcFlagsConfig({ issuerURL: rotating.url, clientID: 'kgen' })!, issuer: { url: rotating.url, audiences: ['kgen'], certificateAuthority: rotating.ca.cert } }], { now: () => clock });
      const token = rotating.token({ sub: 's', aud: 'kgen' });
      for (let i = 0; i < 3; i++) assert.ok('user' in ((await authn.authenticate(request(token))) as object));
      assert.equal(verifies.mock.callCount(), 1, 'one signature check for three requests');
      // Expiry is still the request's: the remembered signature does not keep a token alive.
      const expiring = rotating.token({ sub: 's', aud: 'kgen', exp: Math.floor(clock) + 1 });
      assert.ok('user' in ((await authn.authenticate(request(expiring))) as object));
      clock += 2.1;
      assert.match(errorOf(await authn.authenticate(request(expiring))), /token is expired/);
      rotating.rotate();
      const fresh = rotating.token({ sub: 's', aud: 'kgen' });
      assert.ok('user' in ((await authn.authenticate(request(fresh))) as object));
      assert.match(errorOf(await authn.authenticate(request(token))), /failed to verify signature/, 'a token of the withdrawn key is refused, though it verified before');
    } finally {
      verifies.mock.restore();
      syncBuiltinESMExports();
      rotating.close();
    }
  });

  it('reports an issuer it cannot reach, or that names another issuer, as not initialized', async () => {
    const unknownCA = jwtAuthenticator([flagsConfig()]);
    assert.match(errorOf(await unknownCA.authenticate(request(issuer.token({ sub: 's', aud: 'kgen' })))), /^oidc: authenticator for issuer "https:\/\/127\.0\.0\.1:\d+" is not initialized: oidc: get .*openid-configuration: (self-signed certificate|unable to verify)/);
    // The failure is answered again for a while instead of fetching once per request.
    const again = errorOf(await unknownCA.authenticate(request(issuer.token({ sub: 's', aud: 'kgen' }))));
    assert.match(again, /is not initialized/);
  });

  it("follows kube's defaults and checks of the flags", () => {
    assert.equal(oidcFlagsConfig({}), undefined);
    assert.throws(() => oidcFlagsConfig({ clientID: 'x' }), /--oidc-issuer-url is required when other --oidc-\* flags are set/);
    assert.throws(() => oidcFlagsConfig({ issuerURL: 'https://x' }), /oidc-client-id is required when oidc-issuer-url is set/);
    assert.throws(() => oidcFlagsConfig({ issuerURL: 'http://x', clientID: 'k' }), /--oidc-\* flags: issuer\.url: Invalid value: "http:\/\/x": URL scheme must be https/);
    assert.equal(oidcFlagsConfig({ issuerURL: 'https://x', clientID: 'k', usernamePrefix: '-' })!.claimMappings.username.prefix, '');
    assert.throws(() => oidcFlagsConfig({ issuerURL: 'https://x', clientID: 'k', signingAlgs: ['HS256'] }), /"HS256": not a supported asymmetric algorithm/);
  });
});

describe('JWT authenticator (--authentication-config)', () => {
  const dir = tempDir('authn-config');
  const write = (name: string, jwt: unknown[]) => {
    const file = join(dir, name);
    writeFileSync(file, stringify({ apiVersion: 'apiserver.config.k8s.io/v1beta1', kind: 'AuthenticationConfiguration', jwt }));
    return file;
  };

  it('maps with CEL expressions and enforces claim and user validation rules', async () => {
    const file = write('cel.yaml', [
      {
        issuer: { url: issuer.url, audiences: ['kgen', 'other'], audienceMatchPolicy: 'MatchAny', certificateAuthority: issuer.ca.cert },
        claimValidationRules: [{ expression: 'claims.tenant == "acme"', message: 'tenant must be acme' }],
        claimMappings: {
          username: { expression: 'claims.sub + "@acme"' },
          groups: { claim: 'roles', prefix: 'acme:' },
          uid: { claim: 'sub' },
          extra: [{ key: 'acme.io/tenant', valueExpression: 'claims.tenant' }],
        },
        userValidationRules: [{ expression: "!user.username.startsWith('system:')", message: 'username cannot use the reserved system: prefix' }],
      },
    ]);
    const authn = jwtAuthenticator(loadAuthenticationConfig(file));
    assert.deepEqual(await authn.authenticate(request(issuer.token({ sub: 'bob', tenant: 'acme', roles: 'dev', aud: 'kgen' }))), {
      user: { username: 'bob@acme', uid: 'bob', groups: ['acme:dev'], extra: { 'acme.io/tenant': ['acme'] } },
    });
    assert.equal(
      errorOf(await authn.authenticate(request(issuer.token({ sub: 'bob', tenant: 'other', aud: 'kgen' })))),
      'oidc: error evaluating claim validation expression: validation expression "claims.tenant == \\"acme\\"" failed: tenant must be acme',
    );
    assert.match(errorOf(await authn.authenticate(request(issuer.token({ sub: 'system:x', tenant: 'acme', aud: 'kgen' })))), /username cannot use the reserved system: prefix/);
  });

  it("lists every problem of a file with kube's field paths", () => {
    const file = write('bad.yaml', [
      { issuer: { url: 'http://insecure.example', audiences: [] }, claimMappings: { username: { claim: 'sub' } } },
      { issuer: { url: 'https://a.example', audiences: ['x', 'y'] }, claimMappings: { username: { claim: 'sub', prefix: '', expression: 'claims.sub' } }, claimValidationRules: [{ claim: 'c', expression: 'true' }] },
      { issuer: { url: 'https://a.example', audiences: ['x'] }, claimMappings: {} },
    ]);
    assert.throws(() => loadAuthenticationConfig(file), (err: Error) => {
      for (const expected of [
        'jwt[0].issuer.url: Invalid value: "http://insecure.example": URL scheme must be https',
        'jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required',
        'jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing',
        'jwt[1].issuer.audienceMatchPolicy: Invalid value: "": audienceMatchPolicy must be MatchAny for multiple audiences',
        'jwt[1].claimMappings.username: Invalid value: claim and expression can\'t both be set',
        'jwt[1].claimValidationRules[0]: Invalid value: claim and expression can\'t both be set',
        'jwt[2].issuer.url: Duplicate value: "https://a.example"',
        'jwt[2].claimMappings.username: Required value: claim or expression is required',
      ]) {
        assert.ok(err.message.includes(expected), `missing ${expected} in\n${err.message}`);
      }
      return true;
    });
    const badCEL = write('cel-bad.yaml', [{ issuer: { url: 'https://b.example', audiences: ['x'] }, claimMappings: { username: { expression: 'claims.sub +' } } }]);
    assert.throws(() => jwtAuthenticator(loadAuthenticationConfig(badCEL)), /^Error: jwt\[0\]\.claimMappings\.username\.expression: Invalid value: "claims\.sub \+": compilation failed: /);
    // kube's base environment refuses mixed literals and bad literal arguments here too.
    const mixed = write('cel-mixed.yaml', [{ issuer: { url: 'https://b.example', audiences: ['x'] }, claimMappings: { username: { expression: "[claims.sub, 1][0]" } } }]);
    // claims.sub is dyn; cel-go's check refuses dyn beside a typed element as well.
    assert.throws(() => jwtAuthenticator(loadAuthenticationConfig(mixed)), /compilation failed: ERROR: <input>:1:14: expected type 'dyn' but found 'int'/);
    const literal = write('cel-literal.yaml', [{ issuer: { url: 'https://b.example', audiences: ['x'] }, claimMappings: { username: { expression: "[1, 'a'][1]" } } }]);
    assert.throws(() => jwtAuthenticator(loadAuthenticationConfig(literal)), /^Error: jwt\[0\]\.claimMappings\.username\.expression: Invalid value: "\[1, 'a'\]\[1\]": compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'/);
    const duration = write('cel-duration.yaml', [{ issuer: { url: 'https://b.example', audiences: ['x'] }, claimMappings: { username: { expression: "duration('1x') > duration('1s') ? 'a' : 'b'" } } }]);
    assert.throws(() => jwtAuthenticator(loadAuthenticationConfig(duration)), /compilation failed: ERROR: <input>:1:10: invalid duration argument/);
  });
});
