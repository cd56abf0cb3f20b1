/**
 * ServiceAccount tokens as kube-apiserver issues them (pkg/serviceaccount/jwt.go, claims.go):
 * RS256 JWTs signed with a key made at first start under `<data-dir>/pki/service-account/`
 * (`sa.key`, `sa.pub`; written atomically, never overwritten, so replicas sharing a data dir sign
 * and verify with one key), carrying kube's bound-token claims:
 *
 *   { iss, sub: system:serviceaccount:<ns>:<name>, aud: [...], iat, nbf, exp, jti,
 *     kubernetes.io: { namespace, serviceaccount: { name, uid }, secret?: { name, uid } } }
 *
 * The key id (`kid`) is kube's: base64url of the SHA-256 of the public key's DER.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertCredentialOwner, claimCredentialDir } from './credential-dir.js';
import { decodeJWT, verifyJWS } from './jwt.js';

/** kube-apiserver's usual --service-account-issuer (kubeadm, kind). */
export const DEFAULT_SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
export const SERVICE_ACCOUNT_USERNAME_PREFIX = 'system:serviceaccount:';
export const ALL_SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';
export const CREDENTIAL_ID_EXTRA = 'authentication.kubernetes.io/credential-id';

export interface ServiceAccountKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  kid: string;
}

/** A bound object reference in the token (kube binds to Pods, Secrets and Nodes; kgen serves Secrets). */
export interface BoundObject {
  kind: string;
  name: string;
  uid: string;
}

export interface ServiceAccountClaims {
  iss: string;
  sub: string;
  aud: string[];
  iat: number;
  nbf: number;
  exp: number;
  jti: string;
  'kubernetes.io': {
    namespace: string;
    serviceaccount: { name: string; uid: string };
    secret?: { name: string; uid: string };
  };
}

function keyId(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
}

function fromPEM(privatePEM: string): ServiceAccountKey {
  const privateKey = createPrivateKey(privatePEM);
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, kid: keyId(publicKey) };
}

function newKeyPEM(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
}

const KEY_FILE = 'sa.key';
const PUB_FILE = 'sa.pub';

/**
 * The signing key under `<dataDir>/pki/service-account/`, made if absent (atomically: the first of
 * several replicas to start wins, the others read its key). Without a data dir (insecure dev
 * mode writes nothing), a key in memory.
 */
export function loadOrCreateServiceAccountKey(dataDir?: string): ServiceAccountKey {
  if (dataDir === undefined) return fromPEM(newKeyPEM());
  const pki = join(dataDir, 'pki');
  const dir = join(pki, 'service-account');
  claimCredentialDir(pki);
  if (existsSync(join(dir, KEY_FILE))) {
    assertCredentialOwner(dir);
    return fromPEM(readFileSync(join(dir, KEY_FILE), 'utf8'));
  }
  const tmp = mkdtempSync(join(pki, '.service-account.tmp-'));
  try {
    const pem = newKeyPEM();
    const key = fromPEM(pem);
    writeFileSync(join(tmp, KEY_FILE), pem, { mode: 0o600 });
    writeFileSync(join(tmp, PUB_FILE), key.publicKey.export({ type: 'spki', format: 'pem' }) as string, { mode: 0o644 });
    try {
      renameSync(tmp, dir);
      return key;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
      return fromPEM(readFileSync(join(dir, KEY_FILE), 'utf8'));
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export interface TokenOptions {
  issuer: string;
  audiences: string[];
  namespace: string;
  serviceAccount: { name: string; uid: string };
  bound?: BoundObject;
  expirationSeconds: number;
  /** Seconds since the epoch; default now. */
  now?: number;
}

/** Signs a bound service account token; returns it with its claims. */
export function signServiceAccountToken(key: ServiceAccountKey, opts: TokenOptions): { token: string; claims: ServiceAccountClaims } {
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  const claims: ServiceAccountClaims = {
    aud: opts.audiences,
    exp: now + opts.expirationSeconds,
    iat: now,
    iss: opts.issuer,
    jti: randomUUID(),
    'kubernetes.io': {
      namespace: opts.namespace,
      serviceaccount: { name: opts.serviceAccount.name, uid: opts.serviceAccount.uid },
      ...(opts.bound ? { [opts.bound.kind.toLowerCase()]: { name: opts.bound.name, uid: opts.bound.uid } } : {}),
    },
    nbf: now,
    sub: `${SERVICE_ACCOUNT_USERNAME_PREFIX}${opts.namespace}:${opts.serviceAccount.name}`,
  };
  const signingInput = `${b64url({ alg: 'RS256', kid: key.kid })}.${b64url(claims)}`;
  const signature = sign('sha256', Buffer.from(signingInput), key.privateKey).toString('base64url');
  return { token: `${signingInput}.${signature}`, claims };
}

/**
 * The claims of a token this key signed for `issuer`; undefined when it is not such a token (not
 * a JWT, another issuer or key, a bad signature): another authenticator may know it.
 */
export function verifyServiceAccountToken(key: ServiceAccountKey, issuer: string, token: string): ServiceAccountClaims | undefined {
  const jwt = decodeJWT(token);
  if (!jwt || (jwt.header.kid !== undefined && jwt.header.kid !== key.kid)) return undefined;
  const claims = jwt.payload as unknown as ServiceAccountClaims;
  if (claims.iss !== issuer) return undefined;
  return verifyJWS(jwt, key.publicKey, ['RS256']) ? claims : undefined;
}

/** The key as a JSON Web Key Set (what /openid/v1/jwks serves). */
export function jwks(key: ServiceAccountKey): { keys: Record<string, unknown>[] } {
  const jwk = key.publicKey.export({ format: 'jwk' }) as Record<string, unknown>;
  return { keys: [{ use: 'sig', kty: jwk.kty, kid: key.kid, alg: 'RS256', n: jwk.n, e: jwk.e }] };
}
