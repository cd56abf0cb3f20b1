/**
 * A small OpenID issuer for tests: discovery and a JWK set over HTTPS on loopback (a CA made for
 * the test signs its certificate), signing keys made by the test and rotated on demand, and
 * ID tokens signed with the current key.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';

interface SigningKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: KeyObject;
  publicJWK: Record<string, unknown>;
}

export class TestIssuer {
  readonly ca = newCA('oidc-test-ca');
  private server!: Server;
  private keys: SigningKey[] = [];
  private generation = 0;
  /** How many times the JWK set was fetched. */
  jwksFetches = 0;
  url = '';

  static async start(alg: 'RS256' | 'ES256' = 'RS256'): Promise<TestIssuer> {
    const issuer = new TestIssuer();
    issuer.keys = [issuer.newKey(alg)];
    const serving = newSignedCertificate(issuer.ca, { commonName: 'issuer', usage: 'server', hosts: ['127.0.0.1'] });
    issuer.server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/.well-known/openid-configuration') res.end(JSON.stringify({ issuer: issuer.url, jwks_uri: `${issuer.url}/keys` }));
      else if (req.url === '/keys') {
        issuer.jwksFetches++;
        res.end(JSON.stringify({ keys: issuer.keys.map((k) => k.publicJWK) }));
      } else res.writeHead(404).end('{}');
    });
    await new Promise<void>((resolve) => issuer.server.listen(0, '127.0.0.1', resolve));
    issuer.url = `https://127.0.0.1:${(issuer.server.address() as AddressInfo).port}`;
    return issuer;
  }

  private newKey(alg: 'RS256' | 'ES256'): SigningKey {
    const kid = `key-${++this.generation}`;
    const { privateKey, publicKey } = alg === 'RS256' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
    return { kid, alg, privateKey, publicJWK: { ...publicKey.export({ format: 'jwk' }), kid, alg, use: 'sig' } };
  }

  /** Publishes a new key and withdraws the old ones; later tokens are signed with the new key. */
  rotate(alg: 'RS256' | 'ES256' = 'RS256'): void {
    this.keys = [this.newKey(alg)];
  }

  /**
   * An ID token with `claims` (iss, iat and exp an hour ahead are filled in unless given), signed
   * with the current key; `header` overrides header fields (alg, kid) to forge bad tokens.
   */
  token(claims: Record<string, unknown>, header: Record<string, unknown> = {}): string {
    const key = this.keys[0]!;
    const now = Math.floor(Date.now() / 1000);
    const head = { alg: key.alg, kid: key.kid, typ: 'JWT', ...header };
    const body = { iss: this.url, iat: now, exp: now + 3600, ...claims };
    const input = `${b64(head)}.${b64(body)}`;
    const signature = sign('sha256', Buffer.from(input), key.alg === 'ES256' ? { key: key.privateKey, dsaEncoding: 'ieee-p1363' } : key.privateKey);
    return `${input}.${signature.toString('base64url')}`;
  }

  /** A token whose payload is `payloadJSON` as written (numbers JSON.stringify cannot write, such as 1e400). */
  tokenFromJSON(payloadJSON: string): string {
    const key = this.keys[0]!;
    const input = `${b64({ alg: key.alg, kid: key.kid, typ: 'JWT' })}.${Buffer.from(payloadJSON).toString('base64url')}`;
    const signature = sign('sha256', Buffer.from(input), key.alg === 'ES256' ? { key: key.privateKey, dsaEncoding: 'ieee-p1363' } : key.privateKey);
    return `${input}.${signature.toString('base64url')}`;
  }

  close(): void {
    this.server?.close();
  }
}

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
