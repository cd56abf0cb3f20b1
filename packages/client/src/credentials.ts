/**
 * Where a request's credentials come from, read when requests need them rather than once: a
 * static token or certificate, a token file read again whenever it changes (as client-go's
 * cachingTokenSource for in-cluster bound tokens), or an exec plugin whose credential is kept until
 * it expires and fetched again after a 401 (as client-go's exec Authenticator).
 */
import { readFileSync, statSync } from 'node:fs';
import type { RestConfig } from './config.js';
import { runExecPlugin, type ExecConfig } from './exec.js';

export interface Credentials {
  token?: string;
  cert?: string | Buffer;
  key?: string | Buffer;
}

export interface CredentialSource {
  /** The credentials for the next request. */
  get(): Credentials | Promise<Credentials>;
  /**
   * The server answered 401 to a request sent with `used`. Returns true when fetching again may
   * give other credentials (a request is then retried once); false when nothing would change.
   */
  unauthorized(used: Credentials): boolean;
}

/** The source a config names: exec, then a token, then a token file; certificates from the config join them. */
export function credentialSource(config: RestConfig): CredentialSource {
  const tls: Credentials = {};
  if (config.cert) tls.cert = config.cert;
  if (config.key) tls.key = config.key;
  if (config.exec) return new ExecSource(config.exec, tls);
  if (config.token) return staticSource({ ...tls, token: config.token });
  if (config.tokenFile) return new TokenFileSource(config.tokenFile, tls);
  return staticSource(tls);
}

function staticSource(creds: Credentials): CredentialSource {
  return { get: () => creds, unauthorized: () => false };
}

/** The token in a file, re-read when the file's size, mtime or inode change (a rotated token is a new file). */
export class TokenFileSource implements CredentialSource {
  private stamp = '';
  private creds: Credentials = {};

  constructor(
    readonly path: string,
    private readonly tls: Credentials = {},
  ) {}

  get(): Credentials {
    let stamp: string;
    try {
      const st = statSync(this.path);
      stamp = `${st.size}:${st.mtimeMs}:${st.ino}`;
    } catch (err) {
      throw new Error(`cannot read token file ${this.path}: ${(err as Error).message}`);
    }
    if (stamp !== this.stamp) {
      const token = readFileSync(this.path, 'utf8').trim();
      this.creds = token ? { ...this.tls, token } : { ...this.tls };
      this.stamp = stamp;
    }
    return this.creds;
  }

  unauthorized(): boolean {
    // Read the file again next time even if its stamp looks the same (a rewrite within the mtime's resolution).
    this.stamp = '';
    return false;
  }
}

/** Skew, as client-go: a credential this close to its expiry is already treated as expired. */
const EXPIRY_SKEW_MS = 1_000;

export class ExecSource implements CredentialSource {
  private current: (Credentials & { expiresAt?: number }) | undefined;
  private pending: Promise<Credentials> | undefined;

  constructor(
    readonly config: ExecConfig,
    private readonly tls: Credentials = {},
    private readonly now: () => number = Date.now,
  ) {}

  get(): Credentials | Promise<Credentials> {
    const cur = this.current;
    if (cur && (cur.expiresAt === undefined || cur.expiresAt - EXPIRY_SKEW_MS > this.now())) return cur;
    // One plugin run at a time; concurrent requests share it.
    return (this.pending ??= runExecPlugin(this.config)
      .then((cred) => {
        const creds: Credentials & { expiresAt?: number } = { ...this.tls, ...cred };
        this.current = creds;
        return creds;
      })
      .finally(() => (this.pending = undefined)));
  }

  unauthorized(used: Credentials): boolean {
    // Only the credential that failed is dropped: another request may already have fetched a new one.
    if (this.current === used || this.current?.token === used.token) this.current = undefined;
    return true;
  }
}
