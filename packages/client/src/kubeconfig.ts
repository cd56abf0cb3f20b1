/**
 * Reading kubeconfig files into a RestConfig, as client-go's clientcmd:
 * - Files: an explicit path, else every file listed in $KUBECONFIG merged as kubectl merges them
 *   (for a cluster, user or context name, and for current-context, the first file that sets it
 *   wins; missing files are skipped), else ~/.kube/config.
 * - Selection: the current or a named context, its cluster, user and namespace ('default' when it
 *   names none).
 * - Cluster: server, certificate-authority(-data), insecure-skip-tls-verify, tls-server-name,
 *   proxy-url.
 * - User: token, tokenFile (read again when it changes), client-certificate(-data) and
 *   client-key(-data), exec credential plugins (exec.ts), and as / as-uid / as-groups /
 *   as-user-extra for impersonation.
 * File paths are relative to the kubeconfig that names them; *-data fields are base64 PEM.
 * Auth providers and basic auth are not supported and say so.
 */
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { ImpersonationConfig, RestConfig } from './config.js';
import type { ExecConfig } from './exec.js';

interface Named<T> {
  name?: string;
  [key: string]: T | string | undefined;
}

interface KubeconfigFile {
  'current-context'?: string;
  clusters?: Named<ClusterEntry>[];
  users?: Named<UserEntry>[];
  contexts?: Named<ContextEntry>[];
}

interface ClusterEntry {
  server?: string;
  'certificate-authority'?: string;
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
  'tls-server-name'?: string;
  'proxy-url'?: string;
}

interface ExecEntry {
  command?: string;
  args?: string[];
  env?: { name: string; value: string }[] | null;
  apiVersion?: string;
  interactiveMode?: string;
  installHint?: string;
  provideClusterInfo?: boolean;
}

interface UserEntry {
  token?: string;
  tokenFile?: string;
  'token-file'?: string;
  'client-certificate'?: string;
  'client-certificate-data'?: string;
  'client-key'?: string;
  'client-key-data'?: string;
  exec?: ExecEntry;
  'auth-provider'?: unknown;
  username?: string;
  as?: string;
  'as-uid'?: string;
  'as-groups'?: string[];
  'as-user-extra'?: Record<string, string[]>;
}

interface ContextEntry {
  cluster?: string;
  user?: string;
  namespace?: string;
}

/** An entry and the file it came from (its relative paths resolve against that file's directory). */
interface Found<T> {
  value: T;
  file: string;
}

export interface KubeconfigContext {
  config: RestConfig;
  /** The context's name, and its namespace ('default' when it names none, as kubectl). */
  context: string;
  namespace: string;
  /** The kubeconfig file read: with several $KUBECONFIG files, the first one. */
  path: string;
  /** Every file that was merged, in order. */
  paths: string[];
}

/** $KUBECONFIG's first entry, else ~/.kube/config. */
export function defaultKubeconfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return kubeconfigPaths(env)[0]!;
}

/** The files to merge: every $KUBECONFIG entry (in order, duplicates dropped), else ~/.kube/config. */
export function kubeconfigPaths(env: NodeJS.ProcessEnv = process.env): string[] {
  const listed = [...new Set((env.KUBECONFIG ?? '').split(delimiter).filter((p) => p.trim() !== ''))];
  return listed.length > 0 ? listed : [join(homedir(), '.kube', 'config')];
}

/** The RestConfig for a context (default: the current one) of a kubeconfig file, or of the merged $KUBECONFIG files. */
export function loadKubeconfig(path?: string, context?: string): RestConfig {
  return loadKubeconfigContext(path, context).config;
}

/** Like loadKubeconfig, also returning the context's name and namespace. */
export function loadKubeconfigContext(path?: string, context?: string, env: NodeJS.ProcessEnv = process.env): KubeconfigContext {
  const explicit = path !== undefined && path !== '';
  const files = (explicit ? [path] : kubeconfigPaths(env)).map((p) => resolve(p));
  const loaded: { file: string; kubeconfig: KubeconfigFile }[] = [];
  for (const file of files) {
    // As kubectl: a missing file named by $KUBECONFIG is skipped; an explicit one must exist.
    if (!explicit && files.length > 1 && !exists(file)) continue;
    loaded.push({ file, kubeconfig: readKubeconfig(file) });
  }
  const where = loaded.length === 1 ? `kubeconfig ${loaded[0]!.file}` : `kubeconfig files ${files.join(delimiter)}`;
  if (loaded.length === 0) throw new Error(`cannot read kubeconfig: none of ${files.join(delimiter)} exists`);
  const contextName = context || loaded.find((l) => l.kubeconfig['current-context'])?.kubeconfig['current-context'];
  if (!contextName) throw new Error(`${where} has no current-context; name a context`);
  const ctx = findEntry<ContextEntry>(loaded, 'contexts', 'context', contextName, where).value;
  if (!ctx.cluster) throw new Error(`context "${contextName}" in ${where} names no cluster`);
  const cluster = findEntry<ClusterEntry>(loaded, 'clusters', 'cluster', ctx.cluster, where, `context "${contextName}"`);
  const user = ctx.user ? findEntry<UserEntry>(loaded, 'users', 'user', ctx.user, where, `context "${contextName}"`) : { value: {}, file: files[0]! };
  const config: RestConfig = {
    ...clusterConfig(cluster.value, ctx.cluster, dirname(cluster.file), where),
    ...userConfig(user.value, ctx.user ?? '', dirname(user.file), where, cluster.value),
  };
  return { config, context: contextName, namespace: ctx.namespace || 'default', path: loaded[0]!.file, paths: loaded.map((l) => l.file) };
}

function exists(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function readKubeconfig(file: string): KubeconfigFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read kubeconfig ${file}: ${(err as Error).message}`);
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (err) {
    throw new Error(`kubeconfig ${file} is not valid YAML: ${(err as Error).message}`);
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new Error(`kubeconfig ${file} is not a mapping`);
  return value as KubeconfigFile;
}

/** The `<field>` of the first entry named `name` in the files' `list`, with an error naming what referred to it. */
function findEntry<T>(
  loaded: { file: string; kubeconfig: KubeconfigFile }[],
  list: 'clusters' | 'users' | 'contexts',
  field: string,
  name: string,
  where: string,
  referrer?: string,
): Found<T> {
  for (const { file, kubeconfig } of loaded) {
    const entry = ((kubeconfig[list] ?? []) as Named<unknown>[]).find((e) => e?.name === name);
    if (entry) return { value: (entry[field] ?? {}) as T, file };
  }
  const by = referrer ? ` (referenced by ${referrer})` : '';
  throw new Error(`${field} "${name}"${by} not found in ${where}`);
}

function clusterConfig(cluster: ClusterEntry, name: string, base: string, where: string): RestConfig {
  if (!cluster.server) throw new Error(`cluster "${name}" in ${where} has no server`);
  const config: RestConfig = { server: cluster.server };
  const ca = pem(cluster['certificate-authority-data'], cluster['certificate-authority'], base, `cluster "${name}" certificate-authority`);
  if (ca) config.ca = ca;
  if (cluster['insecure-skip-tls-verify']) config.insecureSkipTLSVerify = true;
  if (cluster['tls-server-name']) config.tlsServerName = cluster['tls-server-name'];
  if (cluster['proxy-url']) config.proxyUrl = cluster['proxy-url'];
  return config;
}

function userConfig(user: UserEntry, name: string, base: string, where: string, cluster: ClusterEntry): Partial<RestConfig> {
  const config: Partial<RestConfig> = {};
  const tokenFile = user.tokenFile ?? user['token-file'];
  if (user.token) config.token = user.token;
  else if (tokenFile) {
    config.tokenFile = resolve(base, tokenFile);
    readAt(base, tokenFile, `user "${name}" tokenFile`);
  }
  const cert = pem(user['client-certificate-data'], user['client-certificate'], base, `user "${name}" client-certificate`);
  const key = pem(user['client-key-data'], user['client-key'], base, `user "${name}" client-key`);
  if (cert) config.cert = cert;
  if (key) config.key = key;
  if (Boolean(cert) !== Boolean(key)) {
    throw new Error(`user "${name}" in ${where} has a client ${cert ? 'certificate without a key' : 'key without a certificate'}`);
  }
  if (user.exec) config.exec = execConfig(user.exec, name, base, where, cluster);
  const impersonate = impersonation(user);
  if (impersonate) config.impersonate = impersonate;
  if (!config.token && !config.tokenFile && !cert && !config.exec) {
    const unsupported = user['auth-provider'] ? 'auth providers' : user.username ? 'basic auth' : '';
    if (unsupported) throw new Error(`user "${name}" in ${where} uses ${unsupported}, which kgen's client does not support; use an exec credential plugin`);
  }
  return config;
}

function execConfig(exec: ExecEntry, name: string, base: string, where: string, cluster: ClusterEntry): ExecConfig {
  if (!exec.command) throw new Error(`user "${name}" in ${where}: exec has no command`);
  if (!exec.apiVersion) throw new Error(`user "${name}" in ${where}: exec has no apiVersion`);
  // A command with a path separator is relative to the kubeconfig, as client-go; a bare name is looked up on PATH.
  const command = /[\\/]/.test(exec.command) ? resolve(base, exec.command) : exec.command;
  const out: ExecConfig = { command, apiVersion: exec.apiVersion };
  if (exec.args) out.args = exec.args.map(String);
  if (exec.env) out.env = exec.env.map((e) => ({ name: String(e.name), value: String(e.value ?? '') }));
  if (exec.interactiveMode) out.interactiveMode = exec.interactiveMode;
  if (exec.installHint) out.installHint = exec.installHint;
  if (exec.provideClusterInfo) {
    out.provideClusterInfo = true;
    const info: NonNullable<ExecConfig['cluster']> = { server: cluster.server ?? '' };
    const ca = pem(cluster['certificate-authority-data'], cluster['certificate-authority'], base, `cluster certificate-authority`);
    if (ca) info['certificate-authority-data'] = ca.toString('base64');
    if (cluster['insecure-skip-tls-verify']) info['insecure-skip-tls-verify'] = true;
    if (cluster['tls-server-name']) info['tls-server-name'] = cluster['tls-server-name'];
    if (cluster['proxy-url']) info['proxy-url'] = cluster['proxy-url'];
    out.cluster = info;
  }
  return out;
}

function impersonation(user: UserEntry): ImpersonationConfig | undefined {
  const out: ImpersonationConfig = {};
  if (user.as) out.user = user.as;
  if (user['as-uid']) out.uid = user['as-uid'];
  if (user['as-groups']?.length) out.groups = user['as-groups'].map(String);
  if (user['as-user-extra'] && Object.keys(user['as-user-extra']).length > 0) {
    out.extra = Object.fromEntries(Object.entries(user['as-user-extra']).map(([k, v]) => [k, (Array.isArray(v) ? v : [v]).map(String)]));
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Inline base64 data wins over a file, as clientcmd. */
function pem(data: string | undefined, path: string | undefined, base: string, what: string): Buffer | undefined {
  if (data) return Buffer.from(data, 'base64');
  if (path) return readAt(base, path, what);
  return undefined;
}

function readAt(base: string, path: string, what: string): Buffer {
  const full = resolve(base, path);
  try {
    return readFileSync(full);
  } catch (err) {
    throw new Error(`cannot read ${what} ${full}: ${(err as Error).message}`);
  }
}
