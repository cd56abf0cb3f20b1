/**
 * The data dir's credentials: a CA, serving and admin certificates that verify, made once and
 * never overwritten, and made exactly once when several processes start on one data dir at once.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
// test/run.js's TypeScript loader for the child, not tsx's costlier hooks (~1 s of CPU less per process).
const TS_LOADER = fileURLToPath(new URL('../support/ts-loader.mjs', import.meta.url));
import { promisify } from 'node:util';
import { ensureCredentials, servingHosts } from '../../runtime/controlplane/pki.js';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'kgen-pki-'));
  dirs.push(d);
  return d;
};
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('certificates', () => {
  it('makes a CA and leaf certificates that verify against it, with the right names and usages', () => {
    const ca = newCA('test-ca');
    const caCert = new X509Certificate(ca.cert);
    assert.equal(caCert.ca, true);
    assert.equal(caCert.subject, 'CN=test-ca');
    const server = new X509Certificate(newSignedCertificate(ca, { commonName: 'srv', usage: 'server', hosts: ['localhost', '127.0.0.1', '::1', 'kgen.example'] }).cert);
    assert.equal(server.verify(caCert.publicKey), true);
    assert.equal(server.checkIssued(caCert), true);
    assert.equal(server.ca, false);
    assert.equal(server.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:kgen.example');
    assert.deepEqual(server.keyUsage, ['1.3.6.1.5.5.7.3.1']);
    assert.ok(server.checkHost('kgen.example'));
    const client = new X509Certificate(newSignedCertificate(ca, { commonName: 'alice', organizations: ['dev', 'system:masters'], usage: 'client' }).cert);
    assert.equal(client.verify(caCert.publicKey), true);
    assert.equal(client.subject, 'O=dev\nO=system:masters\nCN=alice');
    assert.deepEqual(client.keyUsage, ['1.3.6.1.5.5.7.3.2']);
    assert.ok(Date.parse(client.validTo) > Date.now() + 365 * 86_400_000);
  });
});

describe('data dir credentials', () => {
  it('are made on first use and read back unchanged afterwards', () => {
    const dataDir = tempDir();
    const first = ensureCredentials({ dataDir, hosts: servingHosts('127.0.0.1') });
    const admin = new X509Certificate(first.admin.cert);
    assert.equal(admin.subject, 'O=system:masters\nCN=kgen-admin');
    assert.equal(first.servingCA, first.ca.cert);
    assert.equal(first.clientCA, first.ca.cert);
    const again = ensureCredentials({ dataDir, hosts: servingHosts('127.0.0.1') });
    assert.deepEqual(again, first);
    assert.equal(readFileSync(join(dataDir, 'pki', 'ca', 'tls.crt'), 'utf8'), first.ca.cert);
  });

  it('add a serving certificate for other SANs without touching the CA or the admin credential', () => {
    const dataDir = tempDir();
    const a = ensureCredentials({ dataDir, hosts: servingHosts('127.0.0.1') });
    const b = ensureCredentials({ dataDir, hosts: servingHosts('0.0.0.0', '10.1.2.3') });
    assert.equal(b.ca.cert, a.ca.cert);
    assert.equal(b.admin.cert, a.admin.cert);
    assert.notEqual(b.servingCert, a.servingCert);
    assert.match(new X509Certificate(b.servingCert).subjectAltName!, /IP Address:10\.1\.2\.3/);
    assert.equal(readdirSync(join(dataDir, 'pki')).filter((n) => n.startsWith('serving-')).length, 2);
  });

  it('never overwrite credentials that exist, and use certificate files when given', () => {
    const dataDir = tempDir();
    const own = newCA('my-own-ca');
    ensureCredentials({ dataDir, hosts: [] });
    writeFileSync(join(dataDir, 'pki', 'ca', 'tls.crt'), own.cert);
    writeFileSync(join(dataDir, 'pki', 'ca', 'tls.key'), own.key);
    assert.equal(ensureCredentials({ dataDir, hosts: ['localhost'] }).ca.cert, own.cert);
    const files = tempDir();
    const serving = newSignedCertificate(own, { commonName: 'x', usage: 'server', hosts: ['localhost'] });
    writeFileSync(join(files, 'tls.crt'), serving.cert);
    writeFileSync(join(files, 'tls.key'), serving.key);
    writeFileSync(join(files, 'ca.crt'), own.cert);
    const withFiles = ensureCredentials({ dataDir, hosts: [], certFile: join(files, 'tls.crt'), keyFile: join(files, 'tls.key'), clientCAFile: join(files, 'ca.crt') });
    assert.equal(withFiles.servingCert, serving.cert);
    assert.equal(withFiles.servingCA, undefined);
    assert.equal(withFiles.clientCA, own.cert);
    assert.throws(() => ensureCredentials({ dataDir, hosts: [], certFile: join(files, 'tls.crt') }), /must be given together/);
    assert.throws(() => ensureCredentials({ dataDir, hosts: [], certFile: join(files, 'nope'), keyFile: join(files, 'tls.key') }), /cannot read --tls-cert-file/);
  });

  it('are made exactly once when several processes start on one empty data dir at the same moment', async () => {
    const dataDir = tempDir();
    const startAt = Date.now() + 2500;
    const script = `
      import { ensureCredentials, servingHosts } from ${JSON.stringify(join(REPO, 'runtime/controlplane/pki.ts'))};
      while (Date.now() < ${startAt}) {}
      const c = ensureCredentials({ dataDir: ${JSON.stringify(dataDir)}, hosts: servingHosts('127.0.0.1') });
      console.log(JSON.stringify([c.ca.cert, c.admin.cert, c.servingCert]));
    `;
    const run = () => promisify(execFile)(process.execPath, ['--import', TS_LOADER, '--input-type=module', '-e', script], { cwd: REPO });
    const outputs = await Promise.all(Array.from({ length: 4 }, run));
    const results = outputs.map((o) => o.stdout.trim());
    assert.equal(new Set(results).size, 1, 'every process reads the same credentials');
    const [ca, admin, serving] = JSON.parse(results[0]!) as string[];
    assert.equal(readFileSync(join(dataDir, 'pki', 'ca', 'tls.crt'), 'utf8'), ca);
    assert.equal(readFileSync(join(dataDir, 'pki', 'admin', 'tls.crt'), 'utf8'), admin);
    assert.ok(new X509Certificate(serving!).verify(new X509Certificate(ca!).publicKey));
    assert.deepEqual(readdirSync(join(dataDir, 'pki')).filter((n) => n.startsWith('.')), [], 'no temporary directories are left');
  });
});
