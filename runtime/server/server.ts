/**
 * startServer: loads the generated code and documents, installs every group/version, makes sure
 * the system namespaces exist, and serves kube's API over HTTP with fastify.
 */
import { join, resolve } from 'node:path';
import type { Authorizer } from '../api/auth.js';
import { loadAdmissionModules, newAdmissionChain } from '../admission/setup.js';
import type { AdmissionPlugin } from '../admission/types.js';
import { startRBAC, type RunningRBAC } from '../authorization/index.js';
import { startControllers, type RunningControllers } from '../controllers/index.js';
import { ensureSystemNamespaces } from '../registry/namespaces.js';
import { DEFAULT_SERVICE_CLUSTER_IP_RANGE, kubernetesServiceIP } from '../registry/clusterip.js';
import { ensureKubernetesService } from '../registry/kubernetes-service.js';
import { openStorage } from '../storage/factory.js';
import type { Cachers, SharedCacherOptions } from '../storage/cacher/index.js';
import type { Storage } from '../storage/interface.js';
import type { Compactor } from '../storage/compactor.js';
import { APIAggregator } from '../aggregator/aggregator.js';
import { createExtensionsServer, type ExtensionsServer } from '../apiextensions/index.js';
import type { FrontProxyCredentials, FrontProxyOptions } from '../aggregator/front-proxy.js';
import { apiServiceValidation } from '../aggregator/validation.js';
import { storeServiceResolver } from '../aggregator/resolver.js';
import { CompiledAPIServer } from './compiled.js';
import type { HealthCheck } from './health.js';
import { HTTPServer } from './http.js';
import { APIInstaller } from './installer.js';
import { loadGenerated } from './load-generated.js';
import { writeKubeconfig } from './kubeconfig.js';
import type { ServingCredentials } from './pki.js';
import { createServerChain } from './server-chain.js';
import { prepareServing, type TLSFileOptions } from './serving.js';
import { kubeconfigWritePolicy, startStorageCompaction, storageHealthCheck } from './storage-backend.js';

export interface ServerOptions {
  /** The directory `kgen generate` wrote (holds index.ts, openapi/, discovery/). */
  generatedDir: string;
  /** A storage URL (`memory:`, `sqlite:`, `sqlite:<path>`, `etcd://host:port[,…]`) or an open Storage. Default `sqlite:`. */
  storage?: string | Storage;
  /** etcd: the root of every key (kube's --storage-prefix). Default `/registry`. */
  storagePrefix?: string;
  /** Compaction interval (the retention window) in ms; 0 disables. Default 5 minutes, as kube. */
  compactionIntervalMs?: number;
  /** The server URL written into the kubeconfig (e.g. a load balancer's), instead of this server's. */
  kubeconfigServer?: string;
  /** Where `sqlite:` keeps its database and where the kubeconfig is written. Default `.kgen`. */
  dataDir?: string;
  host?: string;
  /** 0 picks a free port. Default 8080. */
  port?: number;
  log?: (line: string) => void;
  /** Run the garbage collector and the namespace controller in process. Default true. */
  controllers?: boolean;
  /** Watch cache options (event capacity, bookmark interval, …); false disables the caches. */
  watchCache?: SharedCacherOptions | false;
  /** IPv4 CIDR Services' cluster IPs are allocated from (kube's --service-cluster-ip-range). Default 10.0.0.0/24. */
  serviceClusterIPRange?: string;
  /** In-process admission plugins, run in order after kgen's built-in ones. */
  admissionPlugins?: AdmissionPlugin[];
  /** Admission modules to import before serving (`kgen serve --admission`): typed hooks and plugins. */
  admissionModules?: string[];
  /**
   * HTTPS with a CA, serving and admin credentials made under dataDir on first start (default
   * true), optionally with certificate files instead. Plain HTTP needs insecureDevMode.
   */
  tls?: boolean | TLSFileOptions;
  /** Plain HTTP on a loopback address; every request is kgen-dev in system:masters. */
  insecureDevMode?: boolean;
  /** An address clients reach this server at: a SAN of the serving certificate and the kubeconfig's host. */
  advertiseAddress?: string;
  /**
   * Who may do what. Default: RBAC; without the RBAC kinds installed, an authorizer that allows
   * only system:masters (and health/version for all). Never allow-all.
   */
  authorizer?: Authorizer;
  /** kube's --token-auth-file. */
  tokenAuthFile?: string;
  /** --audit-log-path and --audit-policy-file. */
  audit?: { logPath?: string; policyFile?: string };
  /** --max-requests-inflight (default 400) and --max-mutating-requests-inflight (default 200); 0 disables. */
  maxRequestsInflight?: number;
  maxMutatingRequestsInflight?: number;
  /** --request-timeout for non-long-running requests; default 60 s. */
  requestTimeoutMs?: number;
  /** --shutdown-delay-duration: how long /readyz fails before the listener closes; default 0. */
  shutdownDelayMs?: number;
  /** --cors-allowed-origins: regular expressions; none disables CORS. */
  corsAllowedOrigins?: string[];
  /** --proxy-client-cert-file/--proxy-client-key-file and --requestheader-*; default generated under dataDir/pki. */
  frontProxy?: FrontProxyOptions;
  /** The aggregator's availability checks: interval (default 30 s, as kube) and discovery-check deadline (default 5 s). */
  aggregator?: { availabilityIntervalMs?: number; discoveryTimeoutMs?: number };
}

export interface RunningServer {
  url: string;
  port: number;
  storage: Storage;
  /** The kubeconfig written for this server; set when dataDir was given. */
  kubeconfigPath?: string;
  /** The in-process controllers, unless disabled. */
  controllers?: RunningControllers;
  /** The per-resource watch caches, unless disabled. */
  cachers?: Cachers;
  /** The storage compactor, unless disabled (compactionIntervalMs 0). */
  compactor?: Compactor;
  /** The CA, serving and admin credentials (HTTPS only). */
  credentials?: ServingCredentials;
  /** The front-proxy credentials: other servers trust `frontProxy.ca.cert` as their --requestheader-client-ca-file. */
  frontProxy: FrontProxyCredentials;
  /** The aggregator in front of the chain (APIServices). */
  aggregator: APIAggregator;
  /**
   * Graceful shutdown, as kube's on SIGTERM: /readyz fails (check `shutdown`), after
   * shutdownDelayMs the listener closes, in-flight requests drain, watches end, storage closes.
   */
  close(): Promise<void>;
}

function healthChecks(storage: Storage, isShuttingDown: () => boolean) {
  const ping: HealthCheck = { name: 'ping', check: () => undefined };
  const log: HealthCheck = { name: 'log', check: () => undefined };
  const store: HealthCheck = storageHealthCheck(storage);
  const shutdown: HealthCheck = {
    name: 'shutdown',
    check: () => {
      if (isShuttingDown()) throw new Error('server is shutting down');
    },
  };
  return { healthz: [ping, log, store], livez: [ping, log, store], readyz: [ping, log, store, shutdown] };
}

function urlOf(scheme: string, host: string, port: number): string {
  const h = host.includes(':') ? `[${host}]` : host;
  return `${scheme}://${h === '0.0.0.0' ? '127.0.0.1' : h === '[::]' ? '[::1]' : h}:${port}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const generatedDir = resolve(opts.generatedDir);
  const dataDir = resolve(opts.dataDir ?? '.kgen');
  const log = opts.log ?? (() => undefined);
  const host = opts.host ?? '127.0.0.1';
  const serving = prepareServing({ ...opts, host, dataDir, log });
  const ownsStorage = typeof opts.storage !== 'object';
  const storage = typeof opts.storage === 'object' ? opts.storage : await openStorage(opts.storage ?? 'sqlite:', { dataDir, storagePrefix: opts.storagePrefix });
  let shuttingDown = false;
  let installer: APIInstaller | undefined;
  let rbac: RunningRBAC | undefined;
  let aggregator: APIAggregator | undefined;
  let extensions: ExtensionsServer | undefined;
  const admission = newAdmissionChain(opts.admissionPlugins);
  try {
    installer = new APIInstaller({ generatedDir, storage, watchCache: opts.watchCache, admission, serviceClusterIPRange: opts.serviceClusterIPRange });
    (await loadGenerated(generatedDir)).installAll(installer);
    await loadAdmissionModules(opts.admissionModules ?? [], admission);
    const services = installer.lookup('', 'v1', 'services')?.store;
    const endpoints = installer.lookup('', 'v1', 'endpoints')?.store;
    await admission.startWebhooks(installer, services && endpoints ? storeServiceResolver(services, endpoints) : undefined);
    const namespaces = installer.namespaceStore();
    if (namespaces) await ensureSystemNamespaces(namespaces);
    // RBAC (bootstrap policy, authorizer, escalation admission, access reviews) unless the caller brings an authorizer.
    rbac = await startRBAC(installer, { log, reviewAuthorizer: opts.authorizer });
    if (rbac) admission.addPlugin(rbac.admission);
    admission.addPlugin(apiServiceValidation());
    const authorizer = opts.authorizer ?? rbac?.authorizer;
    const resolveService = services && endpoints ? storeServiceResolver(services, endpoints) : undefined;
    extensions = await createExtensionsServer({ installer, storage, admission, watchCache: opts.watchCache, log, resolveService });
    aggregator = new APIAggregator({ apis: installer, proxyClient: serving.frontProxy.client, log, ...opts.aggregator });
    await aggregator.start();
    const { handler } = createServerChain({
      aggregator,
      compiled: new CompiledAPIServer(installer, generatedDir),
      extensions,
      health: healthChecks(storage, () => shuttingDown),
    });
    const http = new HTTPServer(serving.chain((ctx) => handler.handle(ctx.request, ctx), authorizer), serving.tls);
    await http.app.listen({ host, port: opts.port ?? 8080 });
    const address = http.app.server.address();
    const port = typeof address === 'object' && address ? address.port : (opts.port ?? 8080);
    const url = urlOf(serving.scheme, opts.advertiseAddress ?? host, port);
    const kubeconfig = kubeconfigWritePolicy(dataDir, storage, url, opts.kubeconfigServer);
    if (opts.dataDir !== undefined && kubeconfig.reason) log(kubeconfig.reason);
    const kubeconfigPath =
      opts.dataDir === undefined ? undefined : kubeconfig.write ? writeKubeconfig(dataDir, { ...serving.kubeconfig, server: kubeconfig.server }) : join(dataDir, 'kubeconfig');
    if (services && endpoints) {
      const clusterIP = kubernetesServiceIP(opts.serviceClusterIPRange ?? DEFAULT_SERVICE_CLUSTER_IP_RANGE);
      await ensureKubernetesService(services, endpoints, { clusterIP, ip: opts.advertiseAddress ?? host, port });
    }
    log(`kgen API server listening on ${url}`);
    const controllers = opts.controllers === false ? undefined : startControllers({ apis: installer, dynamic: extensions, log });
    const compactor = startStorageCompaction(storage, { intervalMs: opts.compactionIntervalMs, log });
    let closing: Promise<void> | undefined;
    return {
      url,
      port,
      storage,
      kubeconfigPath,
      controllers,
      cachers: installer.cachers,
      compactor,
      credentials: serving.credentials,
      frontProxy: serving.frontProxy,
      aggregator,
      close() {
        closing ??= (async () => {
          shuttingDown = true;
          if (opts.shutdownDelayMs) await sleep(opts.shutdownDelayMs);
          http.stopListening();
          await serving.waitGroup.wait();
          await http.drain();
          await controllers?.stop();
          await aggregator?.stop();
          await compactor?.stop();
          await http.app.close();
          await serving.close();
          admission.stop();
          await rbac?.stop();
          await extensions?.close();
          await installer?.close();
          if (ownsStorage) await storage.close();
        })();
        return closing;
      },
    };
  } catch (err) {
    await aggregator?.stop();
    await extensions?.close();
    await serving.close();
    admission.stop();
    await rbac?.stop();
    await installer?.close();
    if (ownsStorage) await storage.close();
    throw err;
  }
}
