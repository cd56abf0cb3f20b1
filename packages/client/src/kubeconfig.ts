/**
 * Reading a kubeconfig into a RestConfig, as client-go's clientcmd for the common cases: one file
 * (the first $KUBECONFIG entry, else ~/.kube/config), the current or a named context, its cluster
 * (server, CA, insecure-skip-tls-verify) and user (token, token file, client certificate and key).
 * File paths are relative to the kubeconfig's directory; *-data fields are base64 PEM.
 * Exec plugins, auth providers and basic auth are not supported and say so.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { RestConfig } from './config.js';

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
}

interface UserEntry {
  token?: string;
  tokenFile?: string;
  'token-file'?: string;
  'client-certificate'?: string;
  'client-certificate-data'?: string;
  'client-key'?: string;
  'client-key-data'?: string;
  exec?: unknown;
  'auth-provider'?: unknown;
  username?: string;
}

interface ContextEntry {
  cluster?: string;
  user?: string;
  namespace?: string;
}

export interface KubeconfigContext {
  config: RestConfig;
  /** The context's name, and its namespace ('default' when it names none, as kubectl). */
  context: string;
  namespace: string;
  /** The kubeconfig file read. */
  path: string;
}

/** $KUBECONFIG's first entry, else ~/.kube/config. */
export function defaultKubeconfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const first = (env.KUBECONFIG ?? '').split(delimiter).find((p) => p.trim() !== '');
  return first ?? join(homedir(), '.kube', 'config');
}

/** The RestConfig for a context (default: the current one) of a kubeconfig file. */
export function loadKubeconfig(path?: string, context?: string): RestConfig {
  return loadKubeconfigContext(path, context).config;
}

/** Like loadKubeconfig, also returning the context's name and namespace. */
export function loadKubeconfigContext(path: string = defaultKubeconfigPath(), context?: string): KubeconfigContext {
  const file = resolve(path);
  const kubeconfig = readKubeconfig(file);
  const contextName = context ?? kubeconfig['current-context'];
  if (!contextName) throw new Error(`kubeconfig ${file} has no current-context; name a context`);
  const ctx = findEntry<ContextEntry>(kubeconfig.contexts, 'context', contextName, file);
  if (!ctx.cluster) throw new Error(`context "${contextName}" in kubeconfig ${file} names no cluster`);
  const cluster = findEntry<ClusterEntry>(kubeconfig.clusters, 'cluster', ctx.cluster, file, `context "${contextName}"`);
  const user = ctx.user ? findEntry<UserEntry>(kubeconfig.users, 'user', ctx.user, file, `context "${contextName}"`) : {};
  const base = dirname(file);
  const config: RestConfig = { ...clusterConfig(cluster, ctx.cluster, base, file), ...userConfig(user, ctx.user ?? '', base, file) };
  return { config, context: contextName, namespace: ctx.namespace || 'default', path: file };
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

/** The `<field>` of the list entry named `name`, with an error naming what referred to it. */
function findEntry<T>(list: Named<T>[] | undefined, field: string, name: string, file: string, referrer?: string): T {
  const entry = (list ?? []).find((e) => e?.name === name);
  const by = referrer ? ` (referenced by ${referrer})` : '';
  if (!entry) throw new Error(`${field} "${name}"${by} not found in kubeconfig ${file}`);
  return (entry[field] ?? {}) as T;
}

function clusterConfig(cluster: ClusterEntry, name: string, base: string, file: string): RestConfig {
  if (!cluster.server) throw new Error(`cluster "${name}" in kubeconfig ${file} has no server`);
  const config: RestConfig = { server: cluster.server };
  const ca = pem(cluster['certificate-authority-data'], cluster['certificate-authority'], base, `cluster "${name}" certificate-authority`);
  if (ca) config.ca = ca;
  if (cluster['insecure-skip-tls-verify']) config.insecureSkipTLSVerify = true;
  return config;
}

function userConfig(user: UserEntry, name: string, base: string, file: string): Partial<RestConfig> {
  const config: Partial<RestConfig> = {};
  const tokenFile = user.tokenFile ?? user['token-file'];
  if (user.token) config.token = user.token;
  else if (tokenFile) config.token = readAt(base, tokenFile, `user "${name}" tokenFile`).toString('utf8').trim();
  const cert = pem(user['client-certificate-data'], user['client-certificate'], base, `user "${name}" client-certificate`);
  const key = pem(user['client-key-data'], user['client-key'], base, `user "${name}" client-key`);
  if (cert) config.cert = cert;
  if (key) config.key = key;
  if (Boolean(cert) !== Boolean(key)) {
    throw new Error(`user "${name}" in kubeconfig ${file} has a client ${cert ? 'certificate without a key' : 'key without a certificate'}`);
  }
  if (!config.token && !cert) {
    const unsupported = user.exec ? 'exec credential plugins' : user['auth-provider'] ? 'auth providers' : user.username ? 'basic auth' : '';
    if (unsupported) throw new Error(`user "${name}" in kubeconfig ${file} uses ${unsupported}, which kgen's client does not support`);
  }
  return config;
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
