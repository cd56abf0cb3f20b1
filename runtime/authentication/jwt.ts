/**
 * JSON Web Tokens as kube's JWT authenticators read them (go-jose under go-oidc): compact JWS
 * with a JSON payload, signed with RS256/384/512, PS256/384/512 or ES256/384/512, verified
 * with public keys from a JWK set. Nothing here trusts a token: decodeJWT only splits and
 * parses it (to find its issuer), verifyJWS checks the signature with a key of the set.
 */
import { constants, createPublicKey, verify, type KeyObject } from 'node:crypto';

export interface JWK {
  kty: string;
  kid?: string;
  alg?: string;
  use?: string;
  [member: string]: unknown;
}

export interface DecodedJWT {
  header: { alg?: string; kid?: string; typ?: string };
  payload: Record<string, unknown>;
  /** The signed part (`header.payload`) and the signature bytes. */
  signingInput: string;
  signature: Buffer;
}

/** Splits and parses a compact JWS; undefined when `token` is not one. */
export function decodeJWT(token: string): DecodedJWT | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'));
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    if (!header || typeof header !== 'object' || !payload || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
    return { header, payload, signingInput: `${parts[0]}.${parts[1]}`, signature: Buffer.from(parts[2]!, 'base64url') };
  } catch {
    return undefined;
  }
}

export const SUPPORTED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'] as const;

const EC_CURVES: Record<string, string> = { ES256: 'prime256v1', ES384: 'secp384r1', ES512: 'secp521r1' };

function digestOf(alg: string): string {
  return `sha${alg.slice(2)}`;
}

/** The public key of a JWK, or undefined when it is not a usable public key. */
export function publicKeyOf(jwk: JWK): KeyObject | undefined {
  try {
    const key = createPublicKey({ key: jwk as never, format: 'jwk' });
    return key.type === 'public' ? key : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `jwt` is signed by `key` with its header's algorithm (which must be in `allowed`). */
export function verifyJWS(jwt: DecodedJWT, key: KeyObject, allowed: readonly string[]): boolean {
  const alg = jwt.header.alg ?? '';
  if (!allowed.includes(alg) || !(SUPPORTED_ALGORITHMS as readonly string[]).includes(alg)) return false;
  const data = Buffer.from(jwt.signingInput);
  try {
    if (alg.startsWith('RS')) return key.asymmetricKeyType === 'rsa' && verify(digestOf(alg), data, key, jwt.signature);
    if (alg.startsWith('PS')) {
      return (
        (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss') &&
        verify(digestOf(alg), data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }, jwt.signature)
      );
    }
    // ES256/384/512 each name their curve (RFC 7518 §3.4), as go-jose holds them to by key size.
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === EC_CURVES[alg] && verify(digestOf(alg), data, { key, dsaEncoding: 'ieee-p1363' }, jwt.signature);
  } catch {
    return false;
  }
}
