/**
 * client-go credential plugins (k8s.io/client-go/plugin/pkg/client/auth/exec): the kubeconfig's
 * `user.exec` names a command that prints an ExecCredential (client.authentication.k8s.io/v1 or
 * v1beta1) whose status holds a bearer token or a client certificate and key, and optionally an
 * expirationTimestamp. As client-go:
 * - the command gets `args`, the process environment plus `env`, and KUBERNETES_EXEC_INFO: an
 *   ExecCredential whose spec says whether it may interact (and the cluster, with
 *   provideClusterInfo);
 * - interactiveMode (required in v1; IfAvailable by default in v1beta1): Never, IfAvailable, or
 *   Always (fails when standard input is not a terminal); interactive plugins share our stdin;
 * - the credential is kept until its expirationTimestamp and fetched again after a 401;
 * - a missing command or a failing one is an error that quotes the plugin's installHint or stderr;
 *   output that is not JSON is refused in Go's words, never quoted (it may be the token).
 */
import { spawn } from 'node:child_process';
import { goJSONSyntaxError } from '../../../runtime/api/json-syntax.js';

export const EXEC_API_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'] as const;

export interface ExecEnvVar {
  name: string;
  value: string;
}

/** kubeconfig's `users[].user.exec`, camelCased as client-go's api.ExecConfig. */
export interface ExecConfig {
  command: string;
  args?: string[];
  env?: ExecEnvVar[];
  apiVersion: string;
  /** Never, IfAvailable or Always. */
  interactiveMode?: string;
  installHint?: string;
  provideClusterInfo?: boolean;
  /** Set by the kubeconfig loader for provideClusterInfo: the cluster as the plugin sees it. */
  cluster?: { server: string; 'certificate-authority-data'?: string; 'insecure-skip-tls-verify'?: boolean; 'tls-server-name'?: string; 'proxy-url'?: string };
  /** Where a relative command is resolved (the kubeconfig's directory); the process's cwd otherwise. */
  cwd?: string;
}

/** What a plugin returned: a token or a PEM certificate and key, and when it expires. */
export interface ExecCredential {
  token?: string;
  cert?: string;
  key?: string;
  /** Milliseconds since the epoch; undefined when it does not expire. */
  expiresAt?: number;
}

/** Runs the plugin once and validates its answer. */
export function runExecPlugin(config: ExecConfig, env: NodeJS.ProcessEnv = process.env): Promise<ExecCredential> {
  if (!(EXEC_API_VERSIONS as readonly string[]).includes(config.apiVersion)) {
    return Promise.reject(new Error(`exec plugin: invalid apiVersion "${config.apiVersion}"; expected one of ${EXEC_API_VERSIONS.join(', ')}`));
  }
  const mode = config.interactiveMode ?? (config.apiVersion.endsWith('/v1') ? '' : 'IfAvailable');
  if (mode === '') return Promise.reject(new Error(`exec plugin ${config.command}: interactiveMode must be specified for ${config.apiVersion}`));
  if (!['Never', 'IfAvailable', 'Always'].includes(mode)) {
    return Promise.reject(new Error(`exec plugin: invalid interactiveMode "${mode}": must be Never, IfAvailable or Always`));
  }
  const terminal = Boolean(process.stdin.isTTY);
  if (mode === 'Always' && !terminal) {
    return Promise.reject(new Error(`exec plugin ${config.command}: interactiveMode is Always but standard input is not a terminal`));
  }
  const interactive = mode !== 'Never' && terminal;
  const info: Record<string, unknown> = { kind: 'ExecCredential', apiVersion: config.apiVersion, spec: { interactive, ...(config.provideClusterInfo && config.cluster ? { cluster: clusterInfo(config.cluster) } : {}) } };
  const childEnv: NodeJS.ProcessEnv = { ...env, KUBERNETES_EXEC_INFO: JSON.stringify(info) };
  for (const e of config.env ?? []) childEnv[e.name] = e.value;

  return new Promise((resolve, reject) => {
    const child = spawn(config.command, config.args ?? [], {
      env: childEnv,
      cwd: config.cwd,
      stdio: [interactive ? 'inherit' : 'ignore', 'pipe', interactive ? 'inherit' : 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'EACCES') reject(new Error(notFoundMessage(config, err)));
      else reject(new Error(`exec plugin ${config.command}: ${err.message}`));
    });
    child.once('close', (code, signal) => {
      if (code !== 0) {
        const why = signal ? `was killed by ${signal}` : `failed with exit code ${code}`;
        const tail = stderr.trim() ? `: ${stderr.trim().split('\n').slice(-5).join('\n')}` : '';
        return reject(new Error(`exec plugin: executable ${config.command} ${why}${tail}${config.installHint ? `\n\n${config.installHint}` : ''}`));
      }
      try {
        resolve(parseExecCredential(stdout, config));
      } catch (err) {
        reject(err);
      }
    });
  });
}

function clusterInfo(cluster: NonNullable<ExecConfig['cluster']>): Record<string, unknown> {
  const out: Record<string, unknown> = { server: cluster.server };
  if (cluster['certificate-authority-data']) out['certificate-authority-data'] = cluster['certificate-authority-data'];
  if (cluster['insecure-skip-tls-verify']) out['insecure-skip-tls-verify'] = true;
  if (cluster['tls-server-name']) out['tls-server-name'] = cluster['tls-server-name'];
  if (cluster['proxy-url']) out['proxy-url'] = cluster['proxy-url'];
  return out;
}

/** client-go's wording, so that users find the same help. */
function notFoundMessage(config: ExecConfig, err: Error): string {
  return [
    `exec: executable ${config.command} not found (${err.message})`,
    '',
    'It looks like you are trying to use a client-go credential plugin that is not installed.',
    '',
    'To learn more about this feature, consult the documentation available at:',
    '      https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins',
    ...(config.installHint ? ['', config.installHint] : []),
  ].join('\n');
}

/** Checks the plugin's output as client-go does: the same apiVersion, kind ExecCredential, and a token or a certificate and key. */
export function parseExecCredential(output: string, config: ExecConfig): ExecCredential {
  let cred: { apiVersion?: unknown; kind?: unknown; status?: Record<string, unknown> };
  try {
    cred = JSON.parse(output);
  } catch {
    // client-go's words (its decoder's error), which name one character: the output may be the
    // very credential (a plugin printing a bare token), so it is never quoted.
    const syntax = goJSONSyntaxError(output) ?? 'invalid JSON';
    throw new Error(`exec plugin ${config.command}: decoding stdout: couldn't get version/kind; json parse error: ${syntax}`);
  }
  if (cred?.kind !== 'ExecCredential') throw new Error(`exec plugin ${config.command}: output kind is ${JSON.stringify(cred?.kind)}, want "ExecCredential"`);
  if (cred.apiVersion !== config.apiVersion) {
    throw new Error(`exec plugin ${config.command} is configured to use API version ${config.apiVersion}, plugin returned version ${String(cred.apiVersion)}`);
  }
  const status = cred.status;
  if (!status || typeof status !== 'object') throw new Error(`exec plugin ${config.command} didn't return a status field`);
  const token = typeof status.token === 'string' ? status.token : '';
  const cert = typeof status.clientCertificateData === 'string' ? status.clientCertificateData : '';
  const key = typeof status.clientKeyData === 'string' ? status.clientKeyData : '';
  if (!token && !cert && !key) throw new Error(`exec plugin ${config.command} didn't return a token or cert/key pair`);
  if (Boolean(cert) !== Boolean(key)) throw new Error(`exec plugin ${config.command} returned only one of clientCertificateData and clientKeyData`);
  const out: ExecCredential = {};
  if (token) out.token = token;
  if (cert) {
    out.cert = cert;
    out.key = key;
  }
  if (typeof status.expirationTimestamp === 'string') {
    const at = Date.parse(status.expirationTimestamp);
    if (Number.isNaN(at)) throw new Error(`exec plugin ${config.command}: invalid expirationTimestamp ${JSON.stringify(status.expirationTimestamp)}`);
    out.expiresAt = at;
  }
  return out;
}
