/**
 * The front-proxy credentials (kube's --proxy-client-cert-file/--proxy-client-key-file and
 * --requestheader-* flags, as kubeadm and k3s set them up): the aggregator authenticates to the
 * servers it proxies to with a client certificate signed by the front-proxy CA, and names the
 * user in X-Remote-* headers; a server believes those headers only from certificates its
 * --requestheader-client-ca-file signed.
 *
 * Made on first start under the data dir (pki.ts' loadOrCreate, atomic and race-free):
 *   <data-dir>/pki/front-proxy-ca/tls.{crt,key}       the front-proxy CA
 *   <data-dir>/pki/front-proxy-client/tls.{crt,key}   CN=front-proxy-client, clientAuth
 * By default a server trusts its own front-proxy CA with allowed name front-proxy-client, as
 * kubeadm configures kube-apiserver; a second server is pointed at the first's CA with
 * --requestheader-client-ca-file.
 *
 * Without a data dir (insecure dev mode: plain HTTP, so no client certificates and no
 * request-header authentication) the generated CA and client certificate are kept in memory and
 * made on first read, i.e. when the aggregator first sees an APIService with a service (and
 * builds that backend's TLS agent): a start that proxies nothing neither loads node-forge nor
 * generates keys.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { claimCredentialDir } from '../authentication/credential-dir.js';
import type { RequestHeaderOptions } from '../authentication/requestheader.js';
import { newCA, newSignedCertificate, type CertificateAndKey } from './certs.js';
import { loadOrCreate, PKI_DIR } from './pki.js';

export const FRONT_PROXY_CLIENT = 'front-proxy-client';

export interface FrontProxyOptions {
  /** --proxy-client-cert-file / --proxy-client-key-file: the aggregator's client credential. */
  proxyClientCertFile?: string;
  proxyClientKeyFile?: string;
  /** --requestheader-client-ca-file: who may send X-Remote-* headers; default the generated front-proxy CA. */
  requestheaderClientCAFile?: string;
  /** --requestheader-allowed-names; with the generated CA, default [front-proxy-client]; with a file, empty (any). */
  requestheaderAllowedNames?: string[];
  requestheaderUsernameHeaders?: string[];
  requestheaderUidHeaders?: string[];
  requestheaderGroupHeaders?: string[];
  requestheaderExtraHeadersPrefix?: string[];
}

export interface FrontProxyCredentials {
  /** The aggregator's proxy client certificate and key. */
  client: CertificateAndKey;
  /** The front-proxy CA (generated), whose certificate other servers are given as their request-header CA. */
  ca?: CertificateAndKey;
  /** The request-header authenticator's options for this server. */
  requestHeader: RequestHeaderOptions;
}

function read(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${flag} ${path}: ${(err as Error).message}`);
  }
}

/** A certificate and key made by fn the first time either is read, then kept. */
function onFirstRead(fn: () => CertificateAndKey): CertificateAndKey {
  let made: CertificateAndKey | undefined;
  const get = () => (made ??= fn());
  return {
    get cert() {
      return get().cert;
    },
    get key() {
      return get().key;
    },
  };
}

/**
 * Loads or makes the front-proxy credentials. dataDir undefined keeps generated ones in memory,
 * made on first read (insecure dev mode writes nothing to disk and proxies nothing at start);
 * files named by the options are read now either way, so a bad flag fails the start.
 */
export function ensureFrontProxy(dataDir: string | undefined, opts: FrontProxyOptions = {}): FrontProxyCredentials {
  if ((opts.proxyClientCertFile === undefined) !== (opts.proxyClientKeyFile === undefined)) {
    throw new Error('--proxy-client-cert-file and --proxy-client-key-file must be given together');
  }
  const pkiDir = dataDir === undefined ? undefined : join(dataDir, PKI_DIR);
  if (pkiDir) claimCredentialDir(pkiDir);
  const make = (name: string, fn: () => CertificateAndKey) => (pkiDir ? loadOrCreate(pkiDir, name, fn) : onFirstRead(fn));
  const ca = make('front-proxy-ca', () => newCA('kgen-front-proxy-ca'));
  const client =
    opts.proxyClientCertFile && opts.proxyClientKeyFile
      ? { cert: read(opts.proxyClientCertFile, '--proxy-client-cert-file'), key: read(opts.proxyClientKeyFile, '--proxy-client-key-file') }
      : make('front-proxy-client', () => newSignedCertificate(ca, { commonName: FRONT_PROXY_CLIENT, usage: 'client' }));
  const clientCAFile = opts.requestheaderClientCAFile ? read(opts.requestheaderClientCAFile, '--requestheader-client-ca-file') : undefined;
  const allowedNames = opts.requestheaderAllowedNames ?? (opts.requestheaderClientCAFile ? [] : [FRONT_PROXY_CLIENT]);
  return {
    client,
    ca,
    requestHeader: {
      // Read when the request-header authenticator is built (HTTPS only): the generated CA stays unmade until then.
      get clientCA() {
        return clientCAFile ?? ca.cert;
      },
      allowedNames,
      usernameHeaders: opts.requestheaderUsernameHeaders,
      uidHeaders: opts.requestheaderUidHeaders,
      groupHeaders: opts.requestheaderGroupHeaders,
      extraHeaderPrefixes: opts.requestheaderExtraHeadersPrefix,
    },
  };
}
