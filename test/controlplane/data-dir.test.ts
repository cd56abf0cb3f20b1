/**
 * The data dir and its pki/ belong to the user who serves (runtime/controlplane/data-dir.ts,
 * runtime/authentication/credential-dir.ts). Another local user who made `/tmp/kgen` or its `pki/`
 * first (with a CA of their own, whose client certificates the server would accept) is refused;
 * a `pki/` of this user's that is open to others is tightened to 0700.
 *
 * "Another user" is made with chown when the tests run as root (as CI does); otherwise the checks
 * are given another uid than the process's, which is what they compare the owner with.
 */
import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { assertCredentialOwner, claimCredentialDir } from '../../runtime/authentication/credential-dir.js';
import { loadOrCreateServiceAccountKey } from '../../runtime/authentication/index.js';
import { newCA } from '../../runtime/controlplane/certs.js';
import { claimDataDir } from '../../runtime/controlplane/data-dir.js';
import { ensureCredentials, servingHosts } from '../../runtime/controlplane/pki.js';
import { startServer } from '../../runtime/controlplane/server.js';

const OTHER = 4242;
const root = process.getuid!() === 0;
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'kgen-data-dir-'));
  dirs.push(d);
  return d;
};
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Makes `path` (and what is under it) another user's: the uid to check with (undefined: the process's). */
function giveAway(...paths: string[]): number | undefined {
  if (!root) return process.getuid!() + 1;
  for (const p of paths) chownSync(p, OTHER, OTHER);
  return undefined;
}

/** A pki/ folder with a CA of someone else's in it. */
function plantedCA(dataDir: string): string[] {
  const ca = join(dataDir, 'pki', 'ca');
  mkdirSync(ca, { recursive: true, mode: 0o777 });
  const pair = newCA('not-kgen-ca');
  writeFileSync(join(ca, 'tls.crt'), pair.cert);
  writeFileSync(join(ca, 'tls.key'), pair.key);
  return [join(dataDir, 'pki'), ca, join(ca, 'tls.crt'), join(ca, 'tls.key')];
}

const BELONGS = /belongs to uid \d+, not to this user \(uid \d+\).*Remove it, or choose a --data-dir of your own/;

describe('data dir ownership', () => {
  it('a data dir another user owns is refused before anything is read from it', async () => {
    const dataDir = join(tempDir(), 'shared');
    mkdirSync(dataDir, { mode: 0o777 });
    const uid = giveAway(dataDir);
    assert.throws(() => claimDataDir(dataDir, { credentials: true, explicit: true }, uid), (err: Error) => {
      assert.match(err.message, /^the data dir .*shared belongs to uid/);
      assert.match(err.message, BELONGS);
      return true;
    });
    if (root) {
      // The server refuses to start on it (the check runs before the generated code is even loaded).
      await assert.rejects(startServer({ generatedDir: join(dataDir, 'nowhere'), dataDir, port: 0 }), BELONGS);
    }
  });

  it("a pki/ another user made, holding their CA, is refused: by the server, the CA's reader and the service-account key", async () => {
    const dataDir = tempDir();
    const uid = giveAway(...plantedCA(dataDir));
    assert.throws(() => claimDataDir(dataDir, { credentials: true, explicit: true }, uid), BELONGS);
    if (root) assert.throws(() => claimDataDir(dataDir, { credentials: true, explicit: true }), /^Error: the credentials folder .*pki belongs to uid/);
    assert.throws(() => claimCredentialDir(join(dataDir, 'pki'), uid), BELONGS);
    if (root) {
      assert.throws(() => ensureCredentials({ dataDir, hosts: servingHosts('127.0.0.1') }), BELONGS);
      assert.throws(() => loadOrCreateServiceAccountKey(dataDir), BELONGS);
      await assert.rejects(startServer({ generatedDir: join(dataDir, 'nowhere'), dataDir, port: 0 }), BELONGS);
    }
  });

  it('a credential another user put into an open pki/ of ours is refused once the folder is tightened', () => {
    const dataDir = tempDir();
    const [pki, ...ca] = plantedCA(dataDir);
    chmodSync(pki, 0o777);
    const uid = giveAway(...ca);
    claimCredentialDir(pki);
    assert.equal(statSync(pki).mode & 0o777, 0o700, 'our own pki/ is tightened to 0700');
    assert.throws(() => assertCredentialOwner(join(pki, 'ca'), uid), /^Error: the credential .*ca belongs to uid/);
    if (root) assert.throws(() => ensureCredentials({ dataDir, hosts: servingHosts('127.0.0.1') }), BELONGS);
  });

  it("a service-account key folder another user made is not read", () => {
    const dataDir = tempDir();
    mkdirSync(join(dataDir, 'pki'), { mode: 0o700 });
    const mine = loadOrCreateServiceAccountKey(dataDir);
    const dir = join(dataDir, 'pki', 'service-account');
    const uid = giveAway(dir);
    assert.throws(() => assertCredentialOwner(dir, uid), BELONGS);
    if (root) assert.throws(() => loadOrCreateServiceAccountKey(dataDir), BELONGS);
    else assert.equal(loadOrCreateServiceAccountKey(dataDir).kid, mine.kid);
  });

  it("this user's data dir is made 0700 with a 0700 pki/, and a loose pki/ of this user's is tightened", () => {
    const dataDir = join(tempDir(), 'new', 'data');
    claimDataDir(dataDir, { credentials: true, explicit: false });
    assert.equal(statSync(dataDir).mode & 0o777, 0o700);
    assert.equal(statSync(join(dataDir, 'pki')).mode & 0o777, 0o700);
    chmodSync(join(dataDir, 'pki'), 0o755);
    const creds = ensureCredentials({ dataDir, hosts: servingHosts('127.0.0.1') });
    assert.equal(statSync(join(dataDir, 'pki')).mode & 0o777, 0o700);
    assert.equal(ensureCredentials({ dataDir, hosts: servingHosts('127.0.0.1') }).ca.cert, creds.ca.cert);
  });

  it('a root-owned data dir is trusted (root can change anything anyway), and insecure dev mode without one makes none', () => {
    const dataDir = tempDir();
    if (root) chownSync(dataDir, 0, 0);
    // Checked as a user that is not root: a root-owned folder is accepted.
    if (root) claimDataDir(dataDir, { credentials: false, explicit: true }, OTHER);
    const absent = join(tempDir(), 'absent');
    claimDataDir(absent, { credentials: false, explicit: false });
    assert.throws(() => statSync(absent), /ENOENT/);
  });
});
