/**
 * A TLS test server for "who is this request?" tests: it registers its own before/after hooks in
 * the calling describe, reads the PKI `kgen serve` made (the client CA, the front-proxy CA and its
 * client), and asks a SelfSubjectReview with given credentials and headers.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { startTestServer, type TestServer } from '../server/testserver.js';

const SSR = '/apis/authentication.k8s.io/v1/selfsubjectreviews';

export interface PEMCertAndKey {
  cert: string;
  key: string;
}

export interface Credentials {
  cert?: string;
  key?: string;
  token?: string;
}

export interface TLSWhoServer {
  /** The running server (after the before hook). */
  readonly server: TestServer;
  /** A certificate and key of the server's PKI: `ca`, `front-proxy-ca`, `front-proxy-client`, … */
  pki(name: string): PEMCertAndKey;
  /** The SelfSubjectReview's user, or the status code when there is none. */
  whoAmI(creds: Credentials, headers?: Record<string, string>): Promise<{ username: string; groups?: string[] } | number>;
}

/** Call inside a describe: starts a TLS server before its tests and removes it and its data after. */
export function useTLSWhoServer(prefix: string): TLSWhoServer {
  const dataDir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  let t: TestServer | undefined;
  before(async () => {
    t = await startTestServer({ tls: true, dataDir });
  });
  after(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const server = (): TestServer => {
    if (!t) throw new Error('the TLS test server is not started (use it inside the describe\'s tests)');
    return t;
  };
  return {
    get server() {
      return server();
    },
    pki: (name) => ({ cert: readFileSync(join(dataDir, 'pki', name, 'tls.crt'), 'utf8'), key: readFileSync(join(dataDir, 'pki', name, 'tls.key'), 'utf8') }),
    async whoAmI(creds, headers = {}) {
      const s = server();
      const res = await s.fetchAs(creds)(s.url + SSR, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
      });
      const body = (await res.json()) as { status?: { userInfo?: { username: string; groups?: string[] } } };
      return res.status === 201 ? body.status!.userInfo! : res.status;
    },
  };
}
