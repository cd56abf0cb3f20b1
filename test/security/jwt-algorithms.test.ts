/**
 * JWS algorithm confusion (security review): verifyJWS accepts a signature only with an allowed
 * asymmetric algorithm that fits the key — never `none`, never HS256 keyed with the public key,
 * never RS* with an EC key — and ES256/384/512 only with the curve each names (P-256, P-384,
 * P-521), as go-jose under kube's OIDC authenticator.
 */
import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, it } from 'node:test';
import { decodeJWT, SUPPORTED_ALGORITHMS, verifyJWS } from '../../runtime/authentication/jwt.js';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const payload = { iss: 'https://issuer.example.com', sub: 'mallory', aud: 'kgen', exp: 4102444800 };

function token(alg: string, signature: (input: Buffer) => Buffer): string {
  const input = `${b64({ alg })}.${b64(payload)}`;
  return `${input}.${signature(Buffer.from(input)).toString('base64url')}`;
}
const verifies = (t: string, key: KeyObject) => verifyJWS(decodeJWT(t)!, key, SUPPORTED_ALGORITHMS);

describe('JWS algorithms', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });

  it('verifies the algorithms with their own key types', () => {
    assert.ok(verifies(token('RS256', (d) => sign('sha256', d, rsa.privateKey)), rsa.publicKey));
    assert.ok(verifies(token('ES256', (d) => sign('sha256', d, { key: p256.privateKey, dsaEncoding: 'ieee-p1363' })), p256.publicKey));
    assert.ok(verifies(token('ES384', (d) => sign('sha384', d, { key: p384.privateKey, dsaEncoding: 'ieee-p1363' })), p384.publicKey));
  });

  it('refuses none, HS256 keyed with the public key, and RS256 with an EC key', () => {
    assert.equal(verifies(token('none', () => Buffer.alloc(0)), rsa.publicKey), false);
    const pem = rsa.publicKey.export({ type: 'spki', format: 'pem' });
    assert.equal(verifies(token('HS256', (d) => createHmac('sha256', pem).update(d).digest()), rsa.publicKey), false);
    assert.equal(verifies(token('RS256', (d) => sign('sha256', d, { key: p256.privateKey, dsaEncoding: 'ieee-p1363' })), p256.publicKey), false);
  });

  it('refuses an ES256 header on a P-384 signature (the algorithm names the curve)', () => {
    const t = token('ES256', (d) => sign('sha256', d, { key: p384.privateKey, dsaEncoding: 'ieee-p1363' }));
    assert.equal(verifies(t, p384.publicKey), false);
  });
});
