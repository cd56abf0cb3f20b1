/**
 * The data dir's credentials, made on first start (k3s-style zero set-up):
 *
 *   <data-dir>/pki/ca/tls.{crt,key}               the CA (CN=kgen-ca)
 *   <data-dir>/pki/serving-<hash>/tls.{crt,key}   serving certificate for one set of SANs
 *   <data-dir>/pki/admin/tls.{crt,key}            admin client certificate (CN=kgen-admin, O=system:masters)
 *
 * Several replicas may share a data dir and start at once. Existing credentials are never
 * overwritten, and each credential is created atomically: its files are written to a private
 * temporary directory that is then renamed into place; rename(2) onto a non-empty directory
 * fails, so exactly one replica wins and the others read the winner's files. A serving
 * certificate is named by a hash of its SANs, so a replica with another --host adds its own
 * instead of replacing one.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertCredentialOwner, claimCredentialDir } from '../authentication/credential-dir.js';
import { newCA, newSignedCertificate, type CertificateAndKey } from './certs.js';

export const PKI_DIR = 'pki';
export const ADMIN_USER = 'kgen-admin';
export const ADMIN_GROUP = 'system:masters';
const CERT_FILE = 'tls.crt';
const KEY_FILE = 'tls.key';

export interface PKIOptions {
  dataDir: string;
  /** Host names and IPs the serving certificate must be valid for. */
  hosts: readonly string[];
  /** --tls-cert-file / --tls-private-key-file: serve this certificate instead of a generated one. */
  certFile?: string;
  keyFile?: string;
  /** --client-ca-file: verify client certificates against this bundle instead of the generated CA. */
  clientCAFile?: string;
}

export interface ServingCredentials {
  servingCert: string;
  servingKey: string;
  /** The CA that signed the serving certificate, for the kubeconfig; undefined with --tls-cert-file. */
  servingCA?: string;
  /** PEM bundle client certificates are verified against. */
  clientCA: string;
  /** The generated CA (signs the admin credential and, by default, the serving certificate). */
  ca: CertificateAndKey;
  /** The admin client credential; valid for this server unless --client-ca-file names another CA. */
  admin: CertificateAndKey;
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);

/** The serving SANs: localhost, 127.0.0.1, ::1, plus the listen host and advertised address. */
export function servingHosts(host?: string, advertiseAddress?: string): string[] {
  const hosts = ['localhost', '127.0.0.1', '::1'];
  for (const given of [host, advertiseAddress]) {
    // An IPv6 address may be given in its URL form (`[::1]`).
    const h = given?.replace(/^\[(.*)\]$/, '$1');
    if (h !== undefined && !WILDCARD_HOSTS.has(h) && !hosts.includes(h)) hosts.push(h);
  }
  return hosts;
}

function readPair(dir: string): CertificateAndKey | undefined {
  if (!existsSync(dir)) return undefined;
  // Made by another user (in a pki/ folder that was once open to them): not trusted.
  assertCredentialOwner(dir);
  const certPath = join(dir, CERT_FILE);
  const keyPath = join(dir, KEY_FILE);
  if (!existsSync(certPath) || !existsSync(keyPath)) {
    throw new Error(`${dir} exists but does not hold ${CERT_FILE} and ${KEY_FILE}; remove it to have the credential made again`);
  }
  return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
}

function isLostRace(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOTEMPTY' || code === 'EEXIST';
}

/** The credential in `<pkiDir>/<name>`, made by `make` if absent (see the file comment). */
export function loadOrCreate(pkiDir: string, name: string, make: () => CertificateAndKey): CertificateAndKey {
  const dir = join(pkiDir, name);
  const existing = readPair(dir);
  if (existing) return existing;
  const tmp = mkdtempSync(join(pkiDir, `.${name}.tmp-`));
  try {
    const pair = make();
    writeFileSync(join(tmp, KEY_FILE), pair.key, { mode: 0o600 });
    writeFileSync(join(tmp, CERT_FILE), pair.cert, { mode: 0o644 });
    try {
      renameSync(tmp, dir);
      return pair;
    } catch (err) {
      if (!isLostRace(err)) throw err;
      return readPair(dir)!;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function readFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${what} ${path}: ${(err as Error).message}`);
  }
}

function sansHash(hosts: readonly string[]): string {
  return createHash('sha256').update([...new Set(hosts)].sort().join(',')).digest('hex').slice(0, 12);
}

/** Loads the data dir's credentials, making whichever are missing. */
export function ensureCredentials(opts: PKIOptions): ServingCredentials {
  if ((opts.certFile === undefined) !== (opts.keyFile === undefined)) {
    throw new Error('--tls-cert-file and --tls-private-key-file must be given together');
  }
  const pkiDir = join(opts.dataDir, PKI_DIR);
  claimCredentialDir(pkiDir);
  const ca = loadOrCreate(pkiDir, 'ca', () => newCA('kgen-ca'));
  const admin = loadOrCreate(pkiDir, 'admin', () => newSignedCertificate(ca, { commonName: ADMIN_USER, organizations: [ADMIN_GROUP], usage: 'client' }));
  const clientCA = opts.clientCAFile ? readFile(opts.clientCAFile, '--client-ca-file') : ca.cert;
  if (opts.certFile && opts.keyFile) {
    return { servingCert: readFile(opts.certFile, '--tls-cert-file'), servingKey: readFile(opts.keyFile, '--tls-private-key-file'), clientCA, ca, admin };
  }
  const serving = loadOrCreate(pkiDir, `serving-${sansHash(opts.hosts)}`, () =>
    newSignedCertificate(ca, { commonName: 'kgen-apiserver', usage: 'server', hosts: opts.hosts }),
  );
  return { servingCert: serving.cert, servingKey: serving.key, servingCA: ca.cert, clientCA, ca, admin };
}
