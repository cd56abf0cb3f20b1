/**
 * The browser build's stand-ins for the modules that need a process (files, child processes,
 * environment): kubeconfig.ts, in-cluster.ts, exec.ts and credentials.ts. They keep the names
 * the package exports, so code generated for Node (Clientset.fromKubeconfig…) bundles for a
 * browser too, and throw, saying why, when called. See build.js for the aliasing.
 */
import type { RestConfig } from './config.js';
import type { Credentials, CredentialSource } from './credentials.js';
import type { ExecConfig, ExecCredential } from './exec.js';
import type { DefaultConfigOptions, InClusterOptions, LoadedConfig } from './in-cluster.js';
import type { KubeconfigContext } from './kubeconfig.js';

function unavailable(what: string): never {
  throw new Error(`${what} is not available in a browser: construct the client with a RestConfig ({ server, token })`);
}

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
export const EXEC_API_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'] as const;

export const defaultKubeconfigPath = (): string => unavailable('a kubeconfig');
export const kubeconfigPaths = (): string[] => unavailable('a kubeconfig');
export const loadKubeconfig = (_path?: string, _context?: string): RestConfig => unavailable('loading a kubeconfig');
export const loadKubeconfigContext = (_path?: string, _context?: string): KubeconfigContext => unavailable('loading a kubeconfig');
export const isInCluster = (): boolean => false;
export const loadInClusterConfig = (_options?: InClusterOptions): LoadedConfig => unavailable('the in-cluster configuration');
export const loadDefaultConfig = (_options?: DefaultConfigOptions): LoadedConfig => unavailable('finding a kubeconfig');
export const runExecPlugin = (_config: ExecConfig): Promise<ExecCredential> => Promise.reject(new Error('exec credential plugins cannot run in a browser'));
export const parseExecCredential = (): ExecCredential => unavailable('an exec credential plugin');
export { credentialSource } from './platform.browser.js';

export class TokenFileSource implements CredentialSource {
  constructor() {
    unavailable('a token file');
  }
  get(): Credentials {
    return {};
  }
  unauthorized(): boolean {
    return false;
  }
}

export class ExecSource extends TokenFileSource {}
