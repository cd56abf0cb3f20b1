/**
 * kgen/server: the API server runtime. The generic server (runtime/server, k8s.io/apiserver's
 * part) plus kgen's control plane (startServer and what it wires: PKI, kubeconfig, serving).
 */
export * from '../server/index.js';
export { startServer, type ServerOptions, type RunningServer } from './server.js';
export { buildKubeconfig, writeKubeconfig, KUBECONFIG_FILE, type KubeconfigOptions } from './kubeconfig.js';
export { ensureCredentials, servingHosts, type ServingCredentials } from './pki.js';
export { isLoopbackHost, type TLSFileOptions } from './serving.js';
