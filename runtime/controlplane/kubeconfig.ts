/**
 * Writing the kubeconfig kubectl uses to reach this server: cluster `kgen` (with the CA that
 * signed the serving certificate), user `admin` (the admin client certificate), context `kgen`
 * (current). In insecure dev mode it names the plain-HTTP server and no credentials.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const KUBECONFIG_FILE = 'kubeconfig';

export interface KubeconfigOptions {
  server: string;
  /** PEM of the CA that signed the serving certificate (base64-encoded into the file). */
  certificateAuthority?: string;
  insecureSkipTLSVerify?: boolean;
  /** PEM client certificate and key for user `admin`. */
  clientCertificate?: string;
  clientKey?: string;
  token?: string;
}

const b64 = (pem: string) => Buffer.from(pem, 'utf8').toString('base64');

const PLAIN = /^[A-Za-z0-9][A-Za-z0-9_./:+=-]*$/;
const scalar = (v: unknown) => (typeof v === 'string' && PLAIN.test(v) && !/^(true|false|null|yes|no|on|off|~|[-+.\d].*)$/i.test(v) && !v.includes(': ') ? v : JSON.stringify(v));

/**
 * The kubeconfig as block-style YAML. It is only maps, lists of maps and scalars, so a few lines
 * do it; the yaml package (~70 modules) stays unloaded at start-up. Strings that could read as
 * another type are double-quoted (JSON strings are valid YAML).
 */
export function kubeconfigYAML(value: Record<string, unknown>, indent = ''): string {
  let out = '';
  for (const [key, v] of Object.entries(value)) {
    if (Array.isArray(v)) {
      out += v.length === 0 ? `${indent}${key}: []\n` : `${indent}${key}:\n`;
      for (const item of v as Record<string, unknown>[]) out += `${indent}  - ${kubeconfigYAML(item, `${indent}    `).trimStart()}`;
    } else if (v !== null && typeof v === 'object') {
      out += Object.keys(v).length === 0 ? `${indent}${key}: {}\n` : `${indent}${key}:\n${kubeconfigYAML(v as Record<string, unknown>, `${indent}  `)}`;
    } else {
      out += `${indent}${key}: ${scalar(v)}\n`;
    }
  }
  return out;
}

export function buildKubeconfig(opts: KubeconfigOptions): Record<string, unknown> {
  const cluster: Record<string, unknown> = { server: opts.server };
  if (opts.certificateAuthority) cluster['certificate-authority-data'] = b64(opts.certificateAuthority);
  if (opts.insecureSkipTLSVerify) cluster['insecure-skip-tls-verify'] = true;
  const user: Record<string, unknown> = {};
  if (opts.clientCertificate) user['client-certificate-data'] = b64(opts.clientCertificate);
  if (opts.clientKey) user['client-key-data'] = b64(opts.clientKey);
  if (opts.token) user.token = opts.token;
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'kgen', cluster }],
    users: [{ name: 'admin', user }],
    contexts: [{ name: 'kgen', context: { cluster: 'kgen', user: 'admin' } }],
    'current-context': 'kgen',
    preferences: {},
  };
}

/**
 * Writes `<dataDir>/kubeconfig` (mode 0600) and returns its path. The file is replaced
 * atomically (written aside, then renamed), so a reader, or another replica sharing the data
 * dir, never sees half of it.
 */
export function writeKubeconfig(dataDir: string, opts: KubeconfigOptions): string {
  const path = join(dataDir, KUBECONFIG_FILE);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(tmp, kubeconfigYAML(buildKubeconfig(opts)), { mode: 0o600 });
    renameSync(tmp, path);
  } finally {
    rmSync(tmp, { force: true });
  }
  return path;
}
