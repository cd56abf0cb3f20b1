/**
 * The data dir (`--data-dir`, default `.kgen`): the database, the kubeconfig and, under `pki/`,
 * every private key the server uses. It is checked before anything is read from it: it and its
 * `pki/` must belong to this user or root (runtime/authentication/credential-dir.ts says why).
 * A missing data dir is made with mode 0700.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { assertOwnedBy, claimCredentialDir } from '../authentication/credential-dir.js';
import { PKI_DIR } from './pki.js';

export interface DataDirUse {
  /** The server keeps credentials there (HTTPS: not insecure dev mode). */
  credentials: boolean;
  /** The data dir was asked for (else it is checked only if it exists: insecure dev mode with memory storage writes nothing). */
  explicit: boolean;
}

/** `uid` is the process's unless a test passes another. */
export function claimDataDir(dataDir: string, use: DataDirUse, uid?: number): void {
  if (!use.credentials && !use.explicit && !existsSync(dataDir)) return;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const st = statSync(dataDir);
  if (!st.isDirectory()) throw new Error(`--data-dir ${dataDir} is not a directory`);
  assertOwnedBy(dataDir, st, 'the data dir', uid);
  if (use.credentials) claimCredentialDir(join(dataDir, PKI_DIR), uid);
}
