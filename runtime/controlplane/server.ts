/**
 * startServer: loads the generated code and documents, installs every group/version, makes sure
 * the system namespaces exist, and serves kube's API over HTTP with fastify.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AuthorizationAttributes, Authorizer } from '../api/auth.js';
import { newSelfSubjectReviewCreater, newTokenReviewCreater, type JWTAuthenticatorConfig, type TokenWebhookOptions } from '../authentication/index.js';
import type { RequestAuthenticator } from '../authentication/authenticator.js';
import type { AuthorizationMode } from '../authorization/union.js';
import type { WebhookAuthorizerOptions } from '../authorization/webhook.js';
import { loadAdmissionModules, newAdmissionChain } from '../admission/setup.js';
import type { AdmissionPlugin } from '../api/admission.js';
import { startRBAC, type RunningRBAC } from '../authorization/index.js';
import { startControllers, type RunningControllers } from '../controllers/index.js';
import { ensureSystemNamespaces } from '../registry/namespaces.js';
import { DEFAULT_SERVICE_CLUSTER_IP_RANGE, kubernetesServiceIP } from '../registry/clusterip.js';
import { KubernetesEndpointsReconciler } from '../registry/kubernetes-service.js';
import { openStorage } from '../storage/factory.js';
import { encryptingStorage, loadEncryptionConfig } from '../storage/encryption/index.js';
import type { Cachers, SharedCacherOptions } from '../storage/cacher/index.js';
import type { Storage } from '../storage/interface.js';
import type { EtcdTLS } from '../storage/etcd/tls.js';
import type { Compactor } from '../storage/compactor.js';
import { APIAggregator } from '../aggregator/aggregator.js';
import { createExtensionsServer, type ExtensionsServer } from '../apiextensions/index.js';
import type { FrontProxyCredentials, FrontProxyOptions } from './front-proxy.js';
import { apiServiceValidation } from '../aggregator/validation.js';
import { storeServiceResolver } from '../aggregator/resolver.js';
import { CompiledAPIServer } from './compiled.js';
import type { HealthCheck } from '../server/health.js';
import { HTTPServer } from '../server/http.js';
import { APIInstaller } from '../server/installer.js';
import { APIEnablement, parseRuntimeConfig } from '../server/api-enablement.js';
import type { AdmissionPluginName } from '../admission/plugins.js';
import { setFeatureGates } from '../api/features.js';
import { loadGenerated } from './load-generated.js';
import { claimDataDir } from './data-dir.js';
import { writeKubeconfig } from './kubeconfig.js';
import type { ServingCredentials } from './pki.js';
import { createServerChain } from './server-chain.js';
import { controlPlaneStorageProviders } from './storage-providers.js';
import { newServiceAccountTokens, type ServiceAccountTokens } from './serviceaccounts.js';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER } from '../authentication/index.js';
import { prepareServing, type TLSFileOptions } from './serving.js';
import { modesAuthorizer as buildModesAuthorizer, optionalAuthenticators } from './optional-auth.js';
import type { DelegatedAuthOptions } from './delegated-auth.js';
import { isKubeGroup } from '../api/kube-groups.js';
import { authenticationConfigMapData, publishAuthenticationConfigMap } from './authentication-configmap.js';
import { setStorageInventory, instrumentStorage } from '../metrics/storage.js';
import { resourcePrefix } from '../storage/keys.js';
import { sqlitePath } from '../storage/factory.js';
import { setWatchKindResolver } from '../server/filters/metrics.js';
import { metricsRegistry, Profiling, serveMetrics } from '../server/metrics.js';
import { docsServer } from './docs.js';
import { stopStep, untilOr } from './shutdown.js';
import type { NonResourceHandler } from '../server/handler.js';
import { kubeconfigWritePolicy, startStorageCompaction, storageHealthCheck } from './storage-backend.js';

export interface ServerOptions {
  /** The directory `kgen generate` wrote (holds index.ts, openapi/, discovery/). */
  generatedDir: string;
  /** A storage URL (`memory:`, `sqlite:`, `sqlite:<path>`, `etcd://host:port[,…]`) or an open Storage. Default `sqlite:`. */
  storage?: string | Storage;
  /** etcd: the root of every key (kube's --storage-prefix). Default `/registry`. */
  storagePrefix?: string;
  /** etcd: CA and client certificate for https members (kube's --etcd-cafile/certfile/keyfile). */
  etcdTLS?: EtcdTLS;
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
  /** kube's --service-account-issuer (default https://kubernetes.default.svc.cluster.local) and --api-audiences (default the issuer). */
  serviceAccountIssuer?: string;
  apiAudiences?: string[];
  /** kube's --encryption-provider-config: an EncryptionConfiguration file; the resources it names are encrypted at rest. */
  encryptionProviderConfig?: string;
  /** kube's --event-ttl in ms: Events go this long after their last write. Default 1 h; 0 keeps them. */
  eventTTLMs?: number;
  /** Watch cache options (event capacity, bookmark interval, …); false disables the caches. */
  watchCache?: SharedCacherOptions | false;
  /** IPv4 CIDR Services' cluster IPs are allocated from (kube's --service-cluster-ip-range). Default 10.0.0.0/24. */
  serviceClusterIPRange?: string;
  /** Port range NodePort and LoadBalancer Services' node ports come from (kube's --service-node-port-range). Default 30000-32767. */
  serviceNodePortRange?: string;
  /** The default/kubernetes Endpoints lease: TTL and renew interval (kube: 15 s and 10 s). */
  endpointLease?: { leaseTTLMs?: number; intervalMs?: number };
  /** In-process admission plugins, run in order after kgen's built-in ones. */
  admissionPlugins?: AdmissionPlugin[];
  /** Admission modules to import before serving (`kgen serve --admission`): typed hooks and plugins. */
  admissionModules?: string[];
  /**
   * Subresource handler modules to import before serving (`kgen serve --handlers`): they attach
   * typed handlers to the generated registrations' custom subresources (`widgets.subresource('logs', …)`).
   */
  handlerModules?: string[];
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
  /** kube's --authentication-token-webhook-config-file (with its cache TTL and version). */
  tokenWebhook?: TokenWebhookOptions;
  /** kube's --enable/--disable-admission-plugins, resolved (default: every kgen plugin). */
  admissionPluginNames?: ReadonlySet<AdmissionPluginName>;
  /** kube's --feature-gates (`Name=bool`, see runtime/api/features.ts); applied at start, for the process. */
  featureGates?: string[];
  /** kube's --runtime-config: group/versions turned on or off (see api-enablement.ts). */
  runtimeConfig?: string[];
  /** JWT (OIDC) issuers: kube's --authentication-config jwt list, or the one the --oidc-* flags describe. */
  jwt?: JWTAuthenticatorConfig[];
  /**
   * kube's --authorization-mode (RBAC, Webhook, AlwaysAllow, AlwaysDeny, in order, behind
   * system:masters) and --authorization-webhook-config-file. Default: RBAC. Ignored when
   * `authorizer` is given.
   */
  authorization?: { modes: AuthorizationMode[]; webhook?: WebhookAuthorizerOptions };
  /** --audit-log-path and --audit-policy-file. */
  audit?: { logPath?: string; policyFile?: string };
  /** --max-requests-inflight (default 400) and --max-mutating-requests-inflight (default 200); 0 disables. */
  maxRequestsInflight?: number;
  maxMutatingRequestsInflight?: number;
  /** --request-timeout for non-long-running requests; default 60 s. */
  requestTimeoutMs?: number;
  /** How long a client may take to send a request's headers (kube's ReadHeaderTimeout); default 32 s. */
  readHeaderTimeoutMs?: number;
  /** Memory all request bodies being read or held may take at once; default 64 MiB, 0 no limit. */
  maxRequestBodyMemoryBytes?: number;
  /** --shutdown-delay-duration: how long /readyz fails before the listener closes; default 0. */
  shutdownDelayMs?: number;
  /**
   * How long requests in flight get to finish once the listener has closed, before their
   * connections are cut (kube-apiserver's ShutdownTimeout); default 60 s.
   */
  shutdownTimeoutMs?: number;
  /** --cors-allowed-origins: regular expressions; none disables CORS. */
  corsAllowedOrigins?: string[];
  /** --proxy-client-cert-file/--proxy-client-key-file and --requestheader-*; default generated under dataDir/pki. */
  frontProxy?: FrontProxyOptions;
  /**
   * Aggregated mode (kube's delegating authentication and authorization, ./delegated-auth.ts):
   * only the generated non-Kubernetes groups are served, every request is authenticated and
   * authorised by the cluster's API server, and no kubeconfig is written. Token files, webhooks,
   * authorization modes and the authorizer option do not apply.
   */
  delegatedAuth?: DelegatedAuthOptions;
  /** The aggregator's availability checks: interval (default 30 s, as kube) and discovery-check deadline (default 5 s). */
  aggregator?: { availabilityIntervalMs?: number; discoveryTimeoutMs?: number };
  /** kube's --profiling: serve CPU and heap profiles under /debug/pprof (authorised as non-resource URLs). Default false. */
  profiling?: boolean;
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
  /** ServiceAccount token signing and authentication. */
  serviceAccountTokens: ServiceAccountTokens;
  /**
   * Graceful shutdown, as kube's on SIGTERM: /readyz fails (check `shutdown`), after
   * shutdownDelayMs the listener closes, in-flight requests drain, watches end, storage closes.
   */
  close(): Promise<void>;
}

/** TokenReview (the server's own token authenticators) and SelfSubjectReview, when installed. */
function registerAuthenticationReviews(installer: APIInstaller, tokens: RequestAuthenticator | undefined, apiAudiences: string[]): void {
  const tokenReviews = installer.lookup(AUTHENTICATION_GROUP, 'v1', 'tokenreviews');
  // Insecure dev mode authenticates no tokens: every review answers unauthenticated.
  // apiAudiences (kube's --api-audiences, default the issuer) bound what audience-agnostic tokens are valid for.
  if (tokenReviews) tokenReviews.creater = newTokenReviewCreater({ tokens: tokens ?? { authenticate: () => undefined }, apiAudiences });
  // v1beta1 is what kubectl 1.27's `auth whoami` asks for.
  for (const version of ['v1', 'v1beta1']) {
    const selfReviews = installer.lookup(AUTHENTICATION_GROUP, version, 'selfsubjectreviews');
    if (selfReviews) selfReviews.creater = newSelfSubjectReviewCreater();
  }
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

/** The address to listen on: an IPv6 address without the brackets of its URL form (`[::1]`). */
function listenAddress(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function urlOf(scheme: string, host: string, port: number): string {
  const bare = listenAddress(host);
  const h = bare.includes(':') ? `[${bare}]` : bare;
  return `${scheme}://${h === '0.0.0.0' ? '127.0.0.1' : h === '[::]' ? '[::1]' : h}:${port}`;
}

const AUTHENTICATION_GROUP = 'authentication.k8s.io';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** kube-apiserver's default ShutdownTimeout. */
const DEFAULT_SHUTDOWN_TIMEOUT_MS = 60_000;

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const generatedDir = resolve(opts.generatedDir);
  const dataDir = resolve(opts.dataDir ?? '.kgen');
  const log = opts.log ?? (() => undefined);
  const host = opts.host ?? '127.0.0.1';
  const serviceAccountIssuer = opts.serviceAccountIssuer ?? DEFAULT_SERVICE_ACCOUNT_ISSUER;
  // Before anything is read from it: the data dir and its pki/ must be this user's (data-dir.ts).
  claimDataDir(dataDir, { credentials: !opts.insecureDevMode, explicit: opts.dataDir !== undefined });
  const serviceAccountTokens = newServiceAccountTokens({
    dataDir: opts.insecureDevMode ? undefined : dataDir,
    issuer: serviceAccountIssuer,
    audiences: opts.apiAudiences,
  });
  const delegated = opts.delegatedAuth ? await (await import('./delegated-auth.js')).prepareDelegatedAuth({ log, ...opts.delegatedAuth }) : undefined;
  if (delegated) log(`aggregated mode: authentication delegated to ${delegated.authenticationServer}, authorization to ${delegated.authorizationServer}`);
  // The token webhook is asked about the server's audiences (kube's --api-audiences), as kube's WithAudiences.
  const tokenWebhook = opts.tokenWebhook && { audiences: serviceAccountTokens.audiences, ...opts.tokenWebhook };
  const optional = delegated ? {} : await optionalAuthenticators({ jwt: opts.jwt, tokenWebhook, serviceAccountIssuers: [serviceAccountIssuer] });
  const serving = prepareServing({ ...opts, ...optional, host, dataDir, log, delegated, serviceAccountAuthenticator: serviceAccountTokens.authenticator });
  const ownsStorage = typeof opts.storage !== 'object';
  const encryption = opts.encryptionProviderConfig ? loadEncryptionConfig(opts.encryptionProviderConfig) : undefined;
  // Every call to storage is timed for etcd_request_duration_seconds, whatever the backend.
  const backend = instrumentStorage(
    typeof opts.storage === 'object' ? opts.storage : await openStorage(opts.storage ?? 'sqlite:', { dataDir, storagePrefix: opts.storagePrefix, etcdTLS: opts.etcdTLS }),
  );
  const storage = encryption ? encryptingStorage(backend, encryption) : backend;
  const profiling = opts.profiling ? new Profiling() : undefined;
  let shuttingDown = false;
  let installer: APIInstaller | undefined;
  let rbac: RunningRBAC | undefined;
  let aggregator: APIAggregator | undefined;
  let extensions: ExtensionsServer | undefined;
  const admission = newAdmissionChain(opts.admissionPlugins);
  try {
    if (opts.featureGates) setFeatureGates(opts.featureGates);
    const enablement = opts.runtimeConfig?.length ? new APIEnablement(parseRuntimeConfig(opts.runtimeConfig)) : undefined;
    const plugins = opts.admissionPluginNames;
    installer = new APIInstaller({
      generatedDir,
      storage,
      watchCache: opts.watchCache,
      admission,
      enablement,
      namespaceLifecycle: plugins?.has('NamespaceLifecycle') ?? true,
      storageProviders: controlPlaneStorageProviders({ serviceClusterIPRange: opts.serviceClusterIPRange, serviceNodePortRange: opts.serviceNodePortRange }),
      // An aggregated server installs only its own groups, and has no namespaces of its own.
      ...(delegated ? { serveGroup: (group: string) => !isKubeGroup(group), namespaceLifecycle: false } : {}),
    });
    (await loadGenerated(generatedDir)).installAll(installer);
    installer.checkEnablement();
    serviceAccountTokens.install(installer);
    await loadAdmissionModules(opts.admissionModules ?? [], admission);
    for (const path of opts.handlerModules ?? []) await import(pathToFileURL(resolve(path)).href);
    const services = installer.lookup('', 'v1', 'services')?.store;
    const endpoints = installer.lookup('', 'v1', 'endpoints')?.store;
    const resolveService = services && endpoints ? storeServiceResolver(services, endpoints) : undefined;
    await admission.startWebhooks(
      installer,
      { mutating: plugins?.has('MutatingAdmissionWebhook') ?? true, validating: plugins?.has('ValidatingAdmissionWebhook') ?? true },
      resolveService,
    );
    registerAuthenticationReviews(installer, serving.tokenAuthenticator, serviceAccountTokens.audiences);
    const namespaces = installer.namespaceStore();
    if (namespaces) await ensureSystemNamespaces(namespaces);
    // RBAC (bootstrap policy, authorizer, escalation admission, access reviews) unless the caller brings an authorizer.
    // The access reviews answer with the same authorizer the requests meet (built just below).
    let modesAuthorizer: Authorizer | undefined;
    const reviewAuthorizer = opts.authorizer ?? (opts.authorization ? { authorize: (a: AuthorizationAttributes) => modesAuthorizer!.authorize(a) } : undefined);
    rbac = await startRBAC(installer, { log, reviewAuthorizer, aggregationController: opts.controllers !== false });
    if (rbac) admission.addPlugin(rbac.admission);
    admission.addPlugin(apiServiceValidation());
    if (!opts.authorizer && opts.authorization) modesAuthorizer = await buildModesAuthorizer(opts.authorization, rbac?.authorizer);
    const authorizer = delegated?.authorizer ?? opts.authorizer ?? modesAuthorizer ?? rbac?.authorizer;
    // The trust an aggregated server needs of this one, where the ConfigMap kind is served.
    const configMaps = delegated ? undefined : installer.lookup('', 'v1', 'configmaps');
    if (configMaps && serving.credentials) {
      await publishAuthenticationConfigMap(configMaps.store, authenticationConfigMapData(serving.credentials.clientCA, serving.frontProxy.requestHeader), log);
    }
    extensions = await createExtensionsServer({ installer, storage, admission, watchCache: opts.watchCache, log, resolveService });
    aggregator = new APIAggregator({ apis: installer, proxyClient: serving.frontProxy.client, log, ...opts.aggregator });
    await aggregator.start();
    const installed = installer;
    setWatchKindResolver((group, version, resource) => installed.lookup(group, version, resource)?.definition.kind);
    setStorageInventory({
      storage,
      databaseFile: typeof opts.storage === 'string' || opts.storage === undefined ? sqlitePath(opts.storage ?? 'sqlite:', dataDir) : undefined,
      *resources() {
        const seen = new Set<string>();
        for (const gv of installed.groupVersions()) {
          for (const definition of gv.resources) {
            const prefix = resourcePrefix(definition.group, definition.plural);
            if (definition.virtual || seen.has(prefix)) continue;
            seen.add(prefix);
            yield { prefix, group: definition.group, resource: definition.plural };
          }
        }
      },
    });
    const nonResource: [string, NonResourceHandler][] = [['metrics', (_req, segments) => (segments.length === 1 && segments[0] === 'metrics' ? serveMetrics() : undefined)]];
    if (profiling) nonResource.push(['profiling', (req, segments) => profiling.serve(segments, req.query)]);
    const docs = docsServer(generatedDir);
    nonResource.push(['docs', (req, segments) => docs(req.info.path, segments)]);
    const { handler } = createServerChain({
      nonResource,
      aggregator,
      compiled: new CompiledAPIServer(installer, generatedDir),
      extensions,
      issuerDiscovery: serviceAccountTokens.issuerDiscovery,
      health: healthChecks(storage, () => shuttingDown),
    });
    const http = new HTTPServer(serving.chain((ctx) => handler.handle(ctx.request, ctx), authorizer), {
      tls: serving.tls,
      requestTimeoutMs: opts.requestTimeoutMs,
      readHeaderTimeoutMs: opts.readHeaderTimeoutMs,
      maxRequestBodyMemoryBytes: opts.maxRequestBodyMemoryBytes,
    });
    await http.app.listen({ host: listenAddress(host), port: opts.port ?? 8080 });
    const address = http.app.server.address();
    const port = typeof address === 'object' && address ? address.port : (opts.port ?? 8080);
    const url = urlOf(serving.scheme, opts.advertiseAddress ?? host, port);
    const kubeconfig = kubeconfigWritePolicy(dataDir, storage, url, opts.kubeconfigServer);
    if (opts.dataDir !== undefined && kubeconfig.reason) log(kubeconfig.reason);
    // An aggregated server has no users of its own to write a kubeconfig for.
    const kubeconfigPath =
      opts.dataDir === undefined || delegated ? undefined : kubeconfig.write ? writeKubeconfig(dataDir, { ...serving.kubeconfig, server: kubeconfig.server }) : join(dataDir, 'kubeconfig');
    let kubernetesEndpoints: KubernetesEndpointsReconciler | undefined;
    if (services && endpoints && !delegated) {
      const clusterIP = kubernetesServiceIP(opts.serviceClusterIPRange ?? DEFAULT_SERVICE_CLUSTER_IP_RANGE);
      kubernetesEndpoints = new KubernetesEndpointsReconciler(services, endpoints, { storage, clusterIP, ip: opts.advertiseAddress ?? host, port, log, ...opts.endpointLease });
      await kubernetesEndpoints.start();
    }
    log(`kgen API server listening on ${url}`);
    // prom-client's registry and default collectors, off the path to ready (kube's own families
    // count from the start without it); a failure to load shows at the first scrape.
    setImmediate(() => metricsRegistry().catch(() => undefined));
    const controllers = opts.controllers === false ? undefined : startControllers({ apis: installer, dynamic: extensions, log, eventTTLMs: opts.eventTTLMs });
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
      serviceAccountTokens,
      close() {
        closing ??= (async () => {
          shuttingDown = true;
          // As kube's RemoveEndpoints at shutdown: clients stop being sent here first.
          await kubernetesEndpoints?.stop();
          if (opts.shutdownDelayMs) await sleep(opts.shutdownDelayMs);
          http.stopListening();
          // kube-apiserver's ShutdownTimeout: requests in flight get this long to finish.
          const deadline = Date.now() + (opts.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS);
          await untilOr(serving.waitGroup.wait(), deadline);
          await http.drain(deadline);
          // Each later step is bounded (shutdown.ts): one stuck piece is logged, not waited on for ever.
          await stopStep('the controllers', () => controllers?.stop(), log);
          await stopStep('the aggregator', () => aggregator?.stop(), log);
          await stopStep('storage compaction', () => compactor?.stop(), log);
          await stopStep('the HTTP server', () => http.app.close(), log);
          await stopStep('serving', () => serving.close(), log);
          admission.stop();
          profiling?.stop();
          setStorageInventory(undefined);
          await stopStep('RBAC', () => rbac?.stop(), log);
          await stopStep('the apiextensions server', () => extensions?.close(), log);
          await stopStep('the API installer', () => installer?.close(), log);
          if (ownsStorage) await stopStep('storage', () => storage.close(), log);
        })();
        return closing;
      },
    };
  } catch (err) {
    await aggregator?.stop();
    await extensions?.close();
    await serving.close();
    admission.stop();
    profiling?.stop();
    await rbac?.stop();
    await installer?.close();
    if (ownsStorage) await storage.close();
    throw err;
  }
}
