/**
 * Client TLS to etcd, as kube-apiserver's --etcd-cafile, --etcd-certfile and --etcd-keyfile set
 * it: one CA bundle the members' serving certificates must chain to, and one client certificate
 * and key presented to every member (etcd's --client-cert-auth). The same material is used by
 * every path to etcd: unary calls over our own gRPC channel (grpc.ts) and watch streams (etcd3's
 * grpc-js pool).
 *
 * Problems with the files are reported when the files are read, naming the flag; problems with
 * the handshake (an unknown CA, a refused client certificate) are recognised by isTLSError so
 * start-up can fail with the cause instead of retrying until a deadline.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';

export interface EtcdTLS {
  /** PEM CA bundle; the system's roots when absent. */
  ca?: Buffer;
  /** PEM client certificate (chain); needs `key`. */
  cert?: Buffer;
  /** PEM private key of `cert`. */
  key?: Buffer;
}

export interface EtcdTLSFiles {
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

/** Reads and checks the files; undefined when none is given. Throws an Error naming the flag. */
export function loadEtcdTLS(files: EtcdTLSFiles): EtcdTLS | undefined {
  const { caFile, certFile, keyFile } = files;
  if (!caFile && !certFile && !keyFile) return undefined;
  if (Boolean(certFile) !== Boolean(keyFile)) {
    throw new Error('--etcd-certfile and --etcd-keyfile must be given together');
  }
  const read = (flag: string, path: string | undefined) => {
    if (!path) return undefined;
    try {
      return readFileSync(path);
    } catch (err) {
      throw new Error(`${flag} ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
    }
  };
  const tls: EtcdTLS = { ca: read('--etcd-cafile', caFile), cert: read('--etcd-certfile', certFile), key: read('--etcd-keyfile', keyFile) };
  if (tls.ca) {
    const problem = caBundleProblem(tls.ca);
    if (problem) throw new Error(`--etcd-cafile ${caFile}: not a PEM CA bundle (${problem})`);
  }
  try {
    if (tls.cert) createSecureContext({ cert: tls.cert, key: tls.key });
  } catch (err) {
    throw new Error(`--etcd-certfile ${certFile} / --etcd-keyfile ${keyFile}: ${(err as Error).message}`);
  }
  return tls;
}

/** Why `pem` is not a bundle of PEM certificates, or undefined when it is one. */
function caBundleProblem(pem: Buffer): string | undefined {
  const blocks = pem.toString('latin1').match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g);
  if (!blocks) return 'no certificate in it';
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch (err) {
      return (err as Error).message;
    }
  }
  return undefined;
}

/** OpenSSL's and Node's codes for certificate and handshake failures. */
const TLS_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Whether `err` is a TLS handshake or certificate failure (not a refused or lost connection). */
export function isTLSError(err: unknown): boolean {
  const e = err as { code?: unknown; library?: unknown } | undefined;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && (TLS_CODES.has(e.code) || /^ERR_SSL_|^ERR_TLS_/.test(e.code))) return true;
  return e.library === 'SSL routines';
}

/**
 * A one-line account of a TLS failure: OpenSSL's reason rather than its raw error string, and
 * which side refused (an alert from the member means it refused our client certificate).
 */
export function describeTLSError(err: Error): string {
  const { code, reason } = err as { code?: string; reason?: string };
  const what = (reason ?? err.message).trim().split('\n')[0];
  if (typeof code === 'string' && /_ALERT_/.test(code)) return `the member refused the client certificate (${what})`;
  return what;
}
