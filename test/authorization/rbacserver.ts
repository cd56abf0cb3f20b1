/**
 * An in-process kgen server with the secure defaults (HTTPS, client certificates, a static token
 * file, RBAC) over the test fixture, with an HTTPS requester per matrix user and for the admin
 * (the generated client certificate, in system:masters).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer, type ServerOptions } from '../../runtime/controlplane/index.js';
import { FIXTURE_DIR } from '../server/testserver.js';
import { httpsClient, type Credentials, type Requester } from './https.js';
import { USERS, writeTokenFile } from './matrix.js';

export interface RBACServer {
  server: RunningServer;
  dataDir: string;
  /** A requester per user of USERS, plus `admin` (client certificate). */
  as: Record<string, Requester>;
  client(creds: Credentials): Requester;
  close(): Promise<void>;
}

export async function startRBACServer(overrides: Partial<ServerOptions> = {}): Promise<RBACServer> {
  const ownDir = overrides.dataDir === undefined;
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'kgen-rbac-'));
  const server = await startServer({ generatedDir: FIXTURE_DIR, storage: 'memory:', port: 0, dataDir, tokenAuthFile: writeTokenFile(dataDir), controllers: false, ...overrides });
  const clients: { close(): void }[] = [];
  const client = (creds: Credentials) => {
    const c = httpsClient(server.url, server.credentials!.servingCA!, creds);
    clients.push(c);
    return c.request;
  };
  const as: Record<string, Requester> = {};
  for (const [name, [token]] of Object.entries(USERS)) as[name] = client({ token });
  as.admin = client({ cert: server.credentials!.admin.cert, key: server.credentials!.admin.key });
  return {
    server,
    dataDir,
    as,
    client,
    async close() {
      for (const c of clients) c.close();
      await server.close();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The RBAC index follows the stores through a watch: poll until a change has taken effect. */
export async function waitUntil(check: () => Promise<boolean>, what = 'the RBAC policy to take effect'): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}
