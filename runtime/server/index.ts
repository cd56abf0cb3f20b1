/** kgen/server: the API server runtime (k8s.io/apiserver's server, installer and discovery). */
export { startServer, type ServerOptions, type RunningServer } from './server.js';
export { APIInstaller, type APIInstallerOptions } from './installer.js';
export { resolveRequestInfo, type RequestInfo } from './requestinfo.js';
export { buildKubeconfig, writeKubeconfig, KUBECONFIG_FILE, type KubeconfigOptions } from './kubeconfig.js';
export { versionInfo, type VersionInfo } from './version.js';
export { MAX_REQUEST_BODY_BYTES } from './http.js';
export { buildHandlerChain, handlerChainFilters, type ChainConfig, type NamedFilter, type RequestServer } from './filters/chain.js';
export type { Filter, ChainHandler, RequestContext } from './filters/types.js';
export { privilegedGroupAuthorizer } from './authorizer.js';
export { ensureCredentials, servingHosts, type ServingCredentials } from './pki.js';
export { isLoopbackHost, type TLSFileOptions } from './serving.js';
