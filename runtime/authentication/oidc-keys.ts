/**
 * An issuer's signing keys, as go-oidc's provider discovery and RemoteKeySet fetch them: the
 * discovery document (`<issuer>/.well-known/openid-configuration`, or the configured
 * discoveryURL), whose `issuer` must be the configured URL, names `jwks_uri`; the JWK set there is
 * cached and fetched again when a token names a key it does not hold (keys rotate). Concurrent
 * refreshes share one fetch. Only the configured CA is trusted (the system's roots when none).
 */
import { get as httpsGet } from 'node:https';
import type { KeyObject } from 'node:crypto';
import { checkServerIdentity } from '../api/server-identity.js';
import { publicKeyOf, type JWK } from './jwt.js';

const MAX_DOCUMENT_BYTES = 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;
/** At most one fetch of the keys per this long for tokens naming keys kgen does not hold. */
export const MISS_REFRESH_MS = 10_000;

export interface KeySetSource {
  issuerURL: string;
  discoveryURL?: string;
  certificateAuthority?: string;
}

export interface SigningKey {
  kid?: string;
  alg?: string;
  key: KeyObject;
}

export class RemoteKeySet {
  private keys: SigningKey[] | undefined;
  private jwksURI: string | undefined;
  private refreshing: Promise<SigningKey[]> | undefined;
  /** The last failed fetch, answered again for a while (see current()). */
  private lastFailure: { at: number; error: Error } | undefined;
  /** When a token naming an unknown key last made the keys be fetched again. */
  private lastMissRefresh: number | undefined;

  constructor(private readonly source: KeySetSource) {}

  /**
   * The cached keys, fetching them first when none are held yet. After a failed fetch the same
   * error is returned for MISS_REFRESH_MS before trying again, so requests cannot make the server
   * hammer an issuer that is down.
   */
  async current(): Promise<SigningKey[]> {
    if (this.keys) return this.keys;
    const failed = this.lastFailure;
    if (failed && Date.now() - failed.at < MISS_REFRESH_MS) throw failed.error;
    return this.refresh();
  }

  /**
   * The keys again for a token that names a key not held: fetched at once the first time, then at
   * most once per MISS_REFRESH_MS. A token is not yet authenticated here, so without the limit
   * anyone could make the server fetch the issuer's keys once per request with made-up key ids.
   */
  refreshForUnknownKey(now = Date.now()): Promise<SigningKey[]> {
    if (this.keys && this.lastMissRefresh !== undefined && now - this.lastMissRefresh < MISS_REFRESH_MS) return Promise.resolve(this.keys);
    this.lastMissRefresh = now;
    return this.refresh();
  }

  /** Fetches discovery (once it succeeded, only the JWK set) again; concurrent callers share it. */
  refresh(): Promise<SigningKey[]> {
    this.refreshing ??= this.fetchKeys()
      .catch((err: unknown) => {
        this.lastFailure = { at: Date.now(), error: err as Error };
        throw err;
      })
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  private async fetchKeys(): Promise<SigningKey[]> {
    this.jwksURI ??= await this.discover();
    const set = (await getJSON(this.jwksURI, this.source.certificateAuthority)) as { keys?: JWK[] };
    if (!set || !Array.isArray(set.keys)) throw new Error(`oidc: fetching keys: ${this.jwksURI} has no "keys" list`);
    const keys: SigningKey[] = [];
    for (const jwk of set.keys) {
      if (jwk.use !== undefined && jwk.use !== 'sig') continue;
      const key = publicKeyOf(jwk);
      if (key) keys.push({ kid: jwk.kid, alg: jwk.alg, key });
    }
    this.keys = keys;
    return keys;
  }

  private async discover(): Promise<string> {
    const base = this.source.issuerURL.replace(/\/+$/, '');
    const url = this.source.discoveryURL ?? `${base}/.well-known/openid-configuration`;
    const doc = (await getJSON(url, this.source.certificateAuthority)) as { issuer?: unknown; jwks_uri?: unknown };
    if (doc?.issuer !== this.source.issuerURL) {
      throw new Error(`oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(this.source.issuerURL)} got ${JSON.stringify(doc?.issuer)}`);
    }
    if (typeof doc.jwks_uri !== 'string') throw new Error(`oidc: ${url} has no jwks_uri`);
    return doc.jwks_uri;
  }
}

/**
 * GETs a JSON document over https, trusting `ca` (PEM) when given. `deadlineMs` bounds the whole
 * fetch (connect, headers, body), as go-oidc's remote key set runs under a context with a timeout:
 * an issuer trickling bytes cannot hold a fetch open longer (the socket idle timeout alone would
 * let it, one byte per idle period up to the size cap).
 */
export function getJSON(url: string, ca: string | undefined, deadlineMs = FETCH_TIMEOUT_MS): Promise<unknown> {
  return new Promise<unknown>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      settled = true;
      if (timer) clearTimeout(timer);
    };
    const fail = (why: string) => {
      if (settled) return;
      done();
      reject(new Error(`oidc: get ${url}: ${why}`));
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      fail('not a URL');
      return;
    }
    if (target.protocol !== 'https:') {
      fail('scheme must be https');
      return;
    }
    const req = httpsGet(target, { ca, checkServerIdentity, headers: { accept: 'application/json' }, timeout: deadlineMs }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_DOCUMENT_BYTES) req.destroy(new Error('document too large'));
        else chunks.push(chunk);
      });
      res.on('error', (err) => fail(err.message));
      res.on('end', () => {
        if (res.statusCode !== 200) return fail(`${res.statusCode} ${res.statusMessage ?? ''}`.trim());
        let value: unknown;
        try {
          value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch (err) {
          return fail((err as Error).message);
        }
        if (settled) return;
        done();
        resolve(value);
      });
    });
    timer = setTimeout(() => {
      fail(`no complete answer within ${deadlineMs} ms`);
      req.destroy();
    }, deadlineMs);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => fail(err.message));
  });
}
