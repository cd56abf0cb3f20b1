/**
 * The generic API server (k8s.io/apiserver's server, installer, filters and discovery), without
 * kgen's control-plane wiring. `kgen/server` is runtime/controlplane/index.ts, which re-exports
 * this module and adds startServer and the PKI/kubeconfig helpers; generated code, bundled at
 * start-up (runtime/controlplane/load-generated.ts), is given this module for `kgen/server`.
 */
export { APIInstaller, type APIInstallerOptions } from './installer.js';
export { resolveRequestInfo, type RequestInfo } from './requestinfo.js';
export { versionInfo, type VersionInfo } from './version.js';
export { MAX_REQUEST_BODY_BYTES } from './http.js';
export { buildHandlerChain, handlerChainFilters, type ChainConfig, type NamedFilter, type RequestServer } from './filters/chain.js';
export type { Filter, ChainHandler, RequestContext } from './filters/types.js';
export { privilegedGroupAuthorizer } from './authorizer.js';
