/** kgen/server: the API server runtime (k8s.io/apiserver's server, installer and discovery). */
export { startServer, type ServerOptions, type RunningServer } from './server.js';
export { APIInstaller, type APIInstallerOptions } from './installer.js';
export { resolveRequestInfo, type RequestInfo } from './requestinfo.js';
export { buildKubeconfig, writeKubeconfig, KUBECONFIG_FILE, type KubeconfigOptions } from './kubeconfig.js';
export { versionInfo, type VersionInfo } from './version.js';
export { MAX_REQUEST_BODY_BYTES } from './http.js';
