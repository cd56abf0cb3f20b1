/**
 * Configuration for a program running in a pod, as client-go's rest.InClusterConfig: the API
 * server from KUBERNETES_SERVICE_HOST/KUBERNETES_SERVICE_PORT, and the service account's token,
 * ca.crt and namespace from /var/run/secrets/kubernetes.io/serviceaccount. The token is a
 * tokenFile, read again whenever the kubelet rotates it (bound tokens expire within the hour).
 *
 * And the one call that picks a source in client-go's order (loadDefaultConfig): an explicit
 * kubeconfig path, then $KUBECONFIG, then ~/.kube/config, then the in-cluster configuration.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { RestConfig } from './config.js';
import { loadKubeconfigContext } from './kubeconfig.js';

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface InClusterOptions {
  /** Where the token, ca.crt and namespace files are; default SERVICE_ACCOUNT_DIR (tests point it elsewhere). */
  serviceAccountDir?: string;
  env?: NodeJS.ProcessEnv;
}

export interface LoadedConfig {
  config: RestConfig;
  /** The namespace to work in: the context's, or the pod's own. */
  namespace: string;
  /** Where the configuration came from: a kubeconfig file's path, or 'in-cluster'. */
  source: string;
}

/** Are we in a pod? (KUBERNETES_SERVICE_HOST and _PORT are set.) */
export function isInCluster(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.KUBERNETES_SERVICE_HOST && env.KUBERNETES_SERVICE_PORT);
}

/** The in-cluster RestConfig and namespace; throws, naming what is missing, outside a pod. */
export function loadInClusterConfig(options: InClusterOptions = {}): LoadedConfig {
  const env = options.env ?? process.env;
  const dir = options.serviceAccountDir ?? SERVICE_ACCOUNT_DIR;
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) throw new Error('unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined');
  const tokenFile = join(dir, 'token');
  if (!existsSync(tokenFile)) throw new Error(`unable to load in-cluster configuration: no service account token at ${tokenFile}`);
  const config: RestConfig = { server: `https://${host.includes(':') ? `[${host}]` : host}:${port}`, tokenFile };
  const caFile = join(dir, 'ca.crt');
  try {
    config.ca = readFileSync(caFile);
  } catch (err) {
    // As client-go: without the CA, the system roots verify the server.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`cannot read ${caFile}: ${(err as Error).message}`);
  }
  let namespace = 'default';
  try {
    namespace = readFileSync(join(dir, 'namespace'), 'utf8').trim() || 'default';
  } catch {
    // No namespace file: 'default', as client-go's inClusterClientConfig.Namespace.
  }
  return { config, namespace, source: 'in-cluster' };
}

export interface DefaultConfigOptions extends InClusterOptions {
  /** An explicit kubeconfig file: used when given, and must exist. */
  kubeconfig?: string;
  /** A context of the kubeconfig other than its current one. */
  context?: string;
}

/**
 * The configuration a program should use, in client-go's order: an explicit kubeconfig path,
 * $KUBECONFIG (its files merged), ~/.kube/config when it exists, then the in-cluster
 * configuration. Throws, saying what it tried, when none applies.
 */
export function loadDefaultConfig(options: DefaultConfigOptions = {}): LoadedConfig {
  const env = options.env ?? process.env;
  if (options.kubeconfig) return fromKubeconfig(options.kubeconfig, options.context);
  if (env.KUBECONFIG && env.KUBECONFIG.trim() !== '') return fromKubeconfig(undefined, options.context, env);
  const home = join(env.HOME || homedir(), '.kube', 'config');
  if (existsSync(home)) return fromKubeconfig(home, options.context);
  if (isInCluster(env)) return loadInClusterConfig(options);
  throw new Error(`no configuration found: no kubeconfig given, $KUBECONFIG is not set, ${home} does not exist, and KUBERNETES_SERVICE_HOST is not set (not in a pod)`);
}

function fromKubeconfig(path: string | undefined, context: string | undefined, env?: NodeJS.ProcessEnv): LoadedConfig {
  const loaded = loadKubeconfigContext(path, context, env);
  return { config: loaded.config, namespace: loaded.namespace, source: loaded.paths.join(delimiter) };
}
