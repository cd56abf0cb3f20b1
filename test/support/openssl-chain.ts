/**
 * Certificates made by the openssl CLI (on the machine; a test that needs it fails without it),
 * signed by any CA, kgen's generated ECDSA CAs included: intermediates between a CA and a
 * client certificate, for TLS tests of chain verification.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PEMPair {
  cert: string;
  key: string;
}

export interface OpenSSLCertSpec {
  commonName: string;
  organizations?: string[];
  /** basicConstraints CA:TRUE (with keyCertSign), else CA:FALSE. */
  ca: boolean;
  /** false: no basicConstraints extension at all. */
  basicConstraints?: boolean;
  /** extendedKeyUsage values (clientAuth, serverAuth); none when undefined. */
  extKeyUsage?: string[];
  /** keyUsage line instead of the default (CA: keyCertSign, cRLSign, digitalSignature; else digitalSignature); '' for none. */
  keyUsage?: string;
  /** basicConstraints pathlen (CA only). */
  pathLen?: number;
  /** Further openssl extension lines (`nameConstraints=...`, `1.2.3.4=critical,ASN1:NULL`). */
  extensions?: string[];
}

/** A P-256 certificate signed by issuer (self-signed without one), valid for a day. */
export function opensslCert(spec: OpenSSLCertSpec, issuer?: PEMPair): PEMPair {
  const dir = mkdtempSync(join(tmpdir(), 'kgen-openssl-'));
  try {
    const file = (name: string) => join(dir, name);
    if (issuer) {
      writeFileSync(file('issuer.crt'), issuer.cert);
      writeFileSync(file('issuer.key'), issuer.key);
    }
    const subject = [...(spec.organizations ?? []).map((o) => `/O=${o}`), `/CN=${spec.commonName}`].join('');
    const ext = [
      ...(spec.basicConstraints === false ? [] : [spec.ca ? `basicConstraints=critical,CA:TRUE${spec.pathLen === undefined ? '' : `,pathlen:${spec.pathLen}`}` : 'basicConstraints=critical,CA:FALSE']),
      ...(spec.keyUsage === '' ? [] : [`keyUsage=${spec.keyUsage ?? (spec.ca ? 'critical,keyCertSign,cRLSign,digitalSignature' : 'critical,digitalSignature')}`]),
      'subjectKeyIdentifier=hash',
      ...(issuer ? ['authorityKeyIdentifier=keyid'] : []),
      ...(spec.extKeyUsage ? [`extendedKeyUsage=${spec.extKeyUsage.join(',')}`] : []),
      ...(spec.extensions ?? []),
    ];
    writeFileSync(file('ext.cnf'), `${ext.join('\n')}\n`);
    const run = (...args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    // The key (P-256, PKCS#8 unencrypted, as `genpkey` writes it) and its request in one process:
    // each openssl process costs ~40 ms of CPU to start (its configuration and providers).
    run('req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', file('tls.key'), '-subj', subject, '-out', file('tls.csr'));
    const signer = issuer ? ['-CA', file('issuer.crt'), '-CAkey', file('issuer.key'), '-CAcreateserial'] : ['-key', file('tls.key')];
    run('x509', '-req', '-in', file('tls.csr'), ...signer, '-days', '1', '-sha256', '-extfile', file('ext.cnf'), '-out', file('tls.crt'));
    return { cert: readFileSync(file('tls.crt'), 'utf8'), key: readFileSync(file('tls.key'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
