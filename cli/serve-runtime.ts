/**
 * Everything `kgen serve` takes from the runtime, behind one module that cli/serve*.ts import
 * lazily, and only they. In a checkout the serve bundle (bin/kgen.js) makes this module and all it
 * reaches one CommonJS chunk, which the V8 code cache (bin/loader/code-cache.js) spares parsing and
 * compiling on every later start (Node 20 keeps no code cache for ES modules). Reaching the runtime
 * through this one module keeps each runtime module single (the entry bundle holds none of it).
 */
export { enabledAdmissionPlugins } from '../runtime/admission/plugins.js';
export { setFeatureGates } from '../runtime/api/features.js';
export { parseAuthorizationModes } from '../runtime/authorization/union.js';
export { startServer } from '../runtime/controlplane/server.js';
export { APIEnablement, parseRuntimeConfig } from '../runtime/server/api-enablement.js';
export { loadEtcdTLS } from '../runtime/storage/etcd/tls.js';
export { joinClusterMetrics } from '../runtime/metrics/cluster.js';
export { metricsRegistry, setMetricsSource } from '../runtime/server/metrics.js';
export { etcdServersStorageURL } from '../runtime/storage/factory.js';

/** Webhook kubeconfig files (authorization and token webhooks): loaded only when read. */
export const webhookEndpoints = () => import('../runtime/webhook/kubeconfig-endpoint.js');
/** The JWT (OIDC) authenticators' configuration: loaded only when read. */
export const jwtAuthentication = () => import('../runtime/authentication/jwt-config.js');
