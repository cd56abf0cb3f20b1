/**
 * How the server serves, decided once at start-up (kube's SecureServingInfo plus the
 * authentication, audit and limits options): HTTPS with the data dir's credentials and the
 * full filter chain by default, or plain HTTP in `--insecure-dev-mode`, where every request is
 * `kgen-dev` in `system:masters`, only a loopback address may be listened on and only requests
 * naming a loopback Host are served (DNS rebinding).
 */
import type { Authorizer } from '../api/auth.js';
import { insecureDevAuthenticator, newAuthenticator } from '../authentication/index.js';
import type { RequestAuthenticator } from '../authentication/authenticator.js';
import { ensureFrontProxy, type FrontProxyCredentials, type FrontProxyOptions } from './front-proxy.js';
import { privilegedGroupAuthorizer } from '../server/authorizer.js';
import { openAudit } from '../server/filters/audit.js';
import { buildHandlerChain, type RequestServer } from '../server/filters/chain.js';
import { corsAllowedOriginsProblems } from '../server/filters/cors.js';
import type { ChainHandler } from '../server/filters/types.js';
import { SafeWaitGroup } from '../server/filters/waitgroup.js';
import type { ServingTLS } from '../server/http.js';
import type { KubeconfigOptions } from './kubeconfig.js';
import { ensureCredentials, servingHosts, type ServingCredentials } from './pki.js';

export interface TLSFileOptions {
  /** --tls-cert-file and --tls-private-key-file: serve these instead of a generated certificate. */
  certFile?: string;
  keyFile?: string;
  /** --client-ca-file: verify client certificates against this bundle instead of the generated CA. */
  clientCAFile?: string;
}

export interface ServingOptions {
  /** HTTPS with credentials from the data dir (default), optionally with certificate files. */
  tls?: boolean | TLSFileOptions;
  /** Plain HTTP, no authentication: every request is kgen-dev in system:masters. Loopback only. */
  insecureDevMode?: boolean;
  host: string;
  /** An address clients use to reach this server; added to the serving certificate's SANs. */
  advertiseAddress?: string;
  dataDir: string;
  /** --token-auth-file (kube's static token CSV). */
  tokenAuthFile?: string;
  /** The TokenReview webhook's authenticator (--authentication-token-webhook-config-file), built by optional-auth.ts. */
  tokenWebhookAuthenticator?: RequestAuthenticator;
  /** The JWT issuers' authenticator (--authentication-config, --oidc-*), built by optional-auth.ts. */
  jwtAuthenticator?: RequestAuthenticator;
  /** The service account token authenticator (see runtime/controlplane/serviceaccounts.ts). */
  serviceAccountAuthenticator?: RequestAuthenticator;
  /** --audit-log-path and --audit-policy-file. */
  audit?: { logPath?: string; policyFile?: string };
  maxRequestsInflight?: number;
  maxMutatingRequestsInflight?: number;
  requestTimeoutMs?: number;
  corsAllowedOrigins?: readonly string[];
  /** The front-proxy (aggregator) credentials and --requestheader-* options. */
  frontProxy?: FrontProxyOptions;
  /**
   * Aggregated mode: authentication delegated to the cluster's API server (./delegated-auth.ts)
   * replaces the server's own; client certificates are asked for against its CAs.
   */
  delegated?: { authenticator: RequestAuthenticator; clientCAs?: string };
  log: (line: string) => void;
}

export interface Serving {
  scheme: 'https' | 'http';
  /** Undefined in insecure dev mode. */
  tls?: ServingTLS;
  credentials?: ServingCredentials;
  /** The aggregator's proxy client credential and this server's request-header options. */
  frontProxy: FrontProxyCredentials;
  /** Non-long-running requests in flight; graceful shutdown waits on it. */
  waitGroup: SafeWaitGroup;
  /** The handler chain in front of handler, authorizing with authorizer. */
  chain(handler: ChainHandler, authorizer?: Authorizer): RequestServer;
  /** The bearer-token authenticators (static tokens, token webhook), for TokenReview; none in insecure dev mode. */
  tokenAuthenticator?: RequestAuthenticator;
  /** The kubeconfig fields besides the server URL: CA and admin credentials. */
  kubeconfig: Omit<KubeconfigOptions, 'server'>;
  /** Closes the audit log. */
  close(): Promise<void>;
}

export const INSECURE_DEV_MODE_WARNING =
  'WARNING: --insecure-dev-mode: serving plain HTTP with no authentication or authorization; every request acts as user "kgen-dev" in group "system:masters". Use it only for local development.';

/** 127.0.0.0/8, ::1 and localhost. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '0:0:0:0:0:0:0:1';
}

function tlsFiles(tls: ServingOptions['tls']): TLSFileOptions {
  return typeof tls === 'object' ? tls : {};
}

/**
 * Validates the options and prepares serving: makes the data dir's credentials (HTTPS), opens
 * the audit log and the token file. Throws, before anything listens, on a bad combination.
 */
export function prepareServing(opts: ServingOptions): Serving {
  const insecure = opts.insecureDevMode === true;
  if (insecure && opts.tls !== undefined && opts.tls !== false) throw new Error('--insecure-dev-mode serves plain HTTP and cannot be combined with TLS options');
  if (!insecure && opts.tls === false) throw new Error('serving without TLS requires insecureDevMode: true (--insecure-dev-mode)');
  if (insecure && opts.delegated) throw new Error('--insecure-dev-mode cannot serve as an aggregated server: delegated authentication needs TLS');
  // kube's ServerRunOptions.Validate: unpinned CORS patterns stop the start (CVE-2022-1996).
  const cors = corsAllowedOriginsProblems(opts.corsAllowedOrigins ?? []);
  if (cors.length > 0) throw new Error(cors.length === 1 ? cors[0] : `[${cors.join(', ')}]`);
  if (insecure && !isLoopbackHost(opts.host)) {
    throw new Error(`--insecure-dev-mode is only allowed on a loopback address (127.0.0.1, ::1 or localhost), not ${JSON.stringify(opts.host)}: it serves plain HTTP without authentication`);
  }
  let authenticator: RequestAuthenticator;
  let tokenAuthenticator: RequestAuthenticator | undefined;
  let credentials: ServingCredentials | undefined;
  // Insecure dev mode writes nothing to the data dir: its front-proxy credentials live in memory.
  const frontProxy = ensureFrontProxy(insecure ? undefined : opts.dataDir, opts.frontProxy);
  if (insecure) {
    opts.log(INSECURE_DEV_MODE_WARNING);
    authenticator = insecureDevAuthenticator();
  } else {
    credentials = ensureCredentials({ dataDir: opts.dataDir, hosts: servingHosts(opts.host, opts.advertiseAddress), ...tlsFiles(opts.tls) });
    if (opts.delegated) {
      authenticator = opts.delegated.authenticator;
    } else {
      const server = newAuthenticator({
        tokenAuthFile: opts.tokenAuthFile,
        tokenWebhook: opts.tokenWebhookAuthenticator,
        jwt: opts.jwtAuthenticator,
        serviceAccounts: opts.serviceAccountAuthenticator,
        warn: opts.log,
        requestHeader: { ...frontProxy.requestHeader, x509ClientCA: credentials.clientCA },
      });
      authenticator = server;
      tokenAuthenticator = server.tokens;
    }
  }
  const audit = openAudit({ logPath: opts.audit?.logPath, policyFile: opts.audit?.policyFile, warn: opts.log, knownCredentials: authenticator.knownCredentials?.() });
  const waitGroup = new SafeWaitGroup();
  const kubeconfig: Omit<KubeconfigOptions, 'server'> = credentials
    ? { certificateAuthority: credentials.servingCA, clientCertificate: credentials.admin.cert, clientKey: credentials.admin.key }
    : {};
  // The TLS layer asks for certificates of either CA; each authenticator checks its own.
  const clientCAs = opts.delegated ? (opts.delegated.clientCAs ?? credentials?.clientCA) : credentials && `${credentials.clientCA.trimEnd()}\n${frontProxy.requestHeader.clientCA}`;
  return {
    scheme: insecure ? 'http' : 'https',
    tls: credentials && { cert: credentials.servingCert, key: credentials.servingKey, clientCA: clientCAs! },
    credentials,
    frontProxy,
    waitGroup,
    kubeconfig,
    tokenAuthenticator,
    chain: (handler, authorizer) =>
      buildHandlerChain(handler, {
        authenticator,
        authorizer: authorizer ?? privilegedGroupAuthorizer(),
        waitGroup,
        requestTimeoutMs: opts.requestTimeoutMs,
        maxRequestsInflight: opts.maxRequestsInflight,
        maxMutatingRequestsInflight: opts.maxMutatingRequestsInflight,
        corsAllowedOrigins: opts.corsAllowedOrigins,
        audit: audit.filter,
        failedAuthentication: audit.failedAuthentication,
        log: opts.log,
        loopbackHostsOnly: insecure,
      }),
    close: () => audit.close(),
  };
}
