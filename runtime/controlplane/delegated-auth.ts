/**
 * An aggregated API server's authentication and authorization (k8s.io/apiserver's
 * DelegatingAuthenticationOptions and DelegatingAuthorizationOptions): the server keeps no users
 * or policy of its own and asks the cluster's API server — the "delegating" server that proxies
 * to it through an APIService — about every request.
 *
 * - The delegating server is reached through --authentication-kubeconfig and
 *   --authorization-kubeconfig, or, when absent, in-cluster (the pod's service account), whose
 *   identity needs kube's system:auth-delegator ClusterRole.
 * - Front-proxy requests: a client certificate signed by the request-header CA (with an allowed
 *   name) and the user in X-Remote-* headers. Client certificates of the cluster's client CA name
 *   users as x509 does. Bearer tokens: a TokenReview to the delegating server, cached.
 * - The CAs and header names come from the --client-ca-file and --requestheader-* flags, or, for
 *   what the flags leave out, from the delegating server's
 *   kube-system/extension-apiserver-authentication ConfigMap (kube's lookupMissingConfigInCluster;
 *   --authentication-skip-lookup turns the read off). A missing ConfigMap is not an error (as
 *   kube); a forbidden one is, with kube's hint.
 * - Authorization: the always-allowed paths, system:masters, then a SubjectAccessReview to the
 *   delegating server, cached (../authorization/delegating.ts).
 */
import { readFileSync } from 'node:fs';
import type { Authorizer } from '../api/auth.js';
import { anonymousAuthenticator, DEFAULT_ANONYMOUS_PATHS } from '../authentication/anonymous.js';
import { failOnError, unionAuthenticator, type RequestAuthenticator } from '../authentication/authenticator.js';
import { requestHeaderAuthenticator, type RequestHeaderOptions } from '../authentication/requestheader.js';
import { tokenWebhookAuthenticator } from '../authentication/webhook-token.js';
import { x509Authenticator } from '../authentication/x509.js';
import { delegatingAuthorizer } from '../authorization/delegating.js';
import { endpointAt, inClusterEndpoint, loadWebhookEndpoint, requestJSON, type InClusterOptions, type WebhookEndpoint } from '../webhook/kubeconfig-endpoint.js';

export const AUTHENTICATION_CONFIGMAP_PATH = '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication';
const TOKEN_REVIEW_PATH = '/apis/authentication.k8s.io/v1/tokenreviews';
const SUBJECT_ACCESS_REVIEW_PATH = '/apis/authorization.k8s.io/v1/subjectaccessreviews';

export interface DelegatedAuthOptions {
  /** --authentication-kubeconfig: the server TokenReviews go to (and the ConfigMap is read from); default in-cluster. */
  authenticationKubeconfig?: string;
  /** --authorization-kubeconfig: the server SubjectAccessReviews go to; default in-cluster. */
  authorizationKubeconfig?: string;
  /** Where in-cluster credentials are read (tests point it at a directory of their own). */
  inCluster?: InClusterOptions;
  /** --authentication-skip-lookup: do not read the ConfigMap. */
  skipLookup?: boolean;
  /** --authentication-token-webhook-cache-ttl; default 10 s (kube's delegating default). */
  tokenCacheTTLMs?: number;
  /** --authorization-webhook-cache-authorized-ttl / -unauthorized-ttl; default 10 s each. */
  authorizedTTLMs?: number;
  unauthorizedTTLMs?: number;
  /** --authorization-always-allow-paths; default /healthz, /readyz, /livez. */
  alwaysAllowPaths?: readonly string[];
  /** --client-ca-file: the cluster's client CA (PEM file); default the ConfigMap's client-ca-file. */
  clientCAFile?: string;
  /** --requestheader-* as given on the command line; what is unset comes from the ConfigMap. */
  requestHeader?: {
    clientCAFile?: string;
    allowedNames?: string[];
    usernameHeaders?: string[];
    uidHeaders?: string[];
    groupHeaders?: string[];
    extraHeadersPrefix?: string[];
  };
  /** Deadline of each call to the delegating server; default 10 s. */
  timeoutMs?: number;
  log?: (line: string) => void;
}

/** What the ConfigMap holds (kube's keys; the lists are JSON arrays of strings). */
export interface AuthenticationConfigMapData {
  'client-ca-file'?: string;
  'requestheader-client-ca-file'?: string;
  'requestheader-username-headers'?: string;
  'requestheader-uid-headers'?: string;
  'requestheader-group-headers'?: string;
  'requestheader-extra-headers-prefix'?: string;
  'requestheader-allowed-names'?: string;
}

export interface DelegatedAuth {
  authenticator: RequestAuthenticator;
  authorizer: Authorizer;
  /** The CAs the TLS layer asks client certificates of: the client CA and the request-header CA. */
  clientCAs?: string;
  /** What was used, for logs and tests. */
  clientCA?: string;
  requestHeader?: RequestHeaderOptions;
  authenticationServer: string;
  authorizationServer: string;
}

function endpointFor(flag: string, file: string | undefined, inCluster: InClusterOptions | undefined): WebhookEndpoint {
  return file ? loadWebhookEndpoint(flag, file) : inClusterEndpoint(flag, inCluster);
}

function readFile(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${flag} ${path}: ${(err as Error).message}`);
  }
}

function jsonList(value: string | undefined, key: string): string[] | undefined {
  if (value === undefined || value === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (err) {
    throw new Error(`extension-apiserver-authentication: ${key}: ${(err as Error).message}`);
  }
  if (!Array.isArray(parsed) || parsed.some((v) => typeof v !== 'string')) throw new Error(`extension-apiserver-authentication: ${key}: expected a JSON array of strings`);
  return parsed as string[];
}

/**
 * Reads kube-system/extension-apiserver-authentication from the delegating server: its data, or
 * undefined when it does not exist (a front server without the ConfigMap kind answers 404 too).
 */
export async function readAuthenticationConfigMap(endpoint: WebhookEndpoint, timeoutMs = 10_000): Promise<AuthenticationConfigMapData | undefined> {
  const answer = await requestJSON(endpointAt(endpoint, AUTHENTICATION_CONFIGMAP_PATH), 'GET', undefined, timeoutMs);
  if (answer.status === 404) return undefined;
  if (answer.status === 403) {
    throw new Error(
      "unable to get configmap/extension-apiserver-authentication in kube-system. Usually fixed by 'kubectl create rolebinding -n kube-system ROLEBINDING_NAME --role=extension-apiserver-authentication-reader --serviceaccount=YOUR_NS:YOUR_SA'",
    );
  }
  if (answer.status !== 200) throw new Error(`unable to get configmap/extension-apiserver-authentication in kube-system: the server responded with the status code ${answer.status}`);
  const data = (answer.body as { data?: Record<string, unknown> } | undefined)?.data ?? {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(data)) if (typeof v === 'string') out[k] = v;
  return out as AuthenticationConfigMapData;
}

/** Builds the delegated authenticator and authorizer; reads the ConfigMap unless skipped or not needed. */
export async function prepareDelegatedAuth(opts: DelegatedAuthOptions): Promise<DelegatedAuth> {
  const log = opts.log ?? (() => undefined);
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const authn = endpointFor('--authentication-kubeconfig', opts.authenticationKubeconfig, opts.inCluster);
  const authz = endpointFor('--authorization-kubeconfig', opts.authorizationKubeconfig, opts.inCluster);
  const flags = opts.requestHeader ?? {};
  let clientCA = opts.clientCAFile ? readFile(opts.clientCAFile, '--client-ca-file') : undefined;
  let headerCA = flags.clientCAFile ? readFile(flags.clientCAFile, '--requestheader-client-ca-file') : undefined;
  let fromConfigMap: AuthenticationConfigMapData | undefined;
  // kube looks up only when a CA is missing and the lookup is not skipped.
  if (!opts.skipLookup && (!clientCA || !headerCA)) {
    fromConfigMap = await readAuthenticationConfigMap(authn, timeoutMs);
    if (!fromConfigMap) log(`delegated authentication: ${authn.url.origin} has no configmap kube-system/extension-apiserver-authentication; using the flags alone`);
    clientCA ??= fromConfigMap?.['client-ca-file'] || undefined;
    if (!headerCA && fromConfigMap?.['requestheader-client-ca-file']) headerCA = fromConfigMap['requestheader-client-ca-file'];
  }
  const cm = fromConfigMap ?? {};
  const requestHeader: RequestHeaderOptions | undefined = headerCA
    ? {
        clientCA: headerCA,
        allowedNames: flags.allowedNames ?? jsonList(cm['requestheader-allowed-names'], 'requestheader-allowed-names') ?? [],
        usernameHeaders: flags.usernameHeaders ?? jsonList(cm['requestheader-username-headers'], 'requestheader-username-headers'),
        uidHeaders: flags.uidHeaders ?? jsonList(cm['requestheader-uid-headers'], 'requestheader-uid-headers'),
        groupHeaders: flags.groupHeaders ?? jsonList(cm['requestheader-group-headers'], 'requestheader-group-headers'),
        extraHeaderPrefixes: flags.extraHeadersPrefix ?? jsonList(cm['requestheader-extra-headers-prefix'], 'requestheader-extra-headers-prefix'),
      }
    : undefined;
  if (!requestHeader) log('delegated authentication: no request-header CA (--requestheader-client-ca-file or the ConfigMap): front-proxy requests will not be authenticated');
  const authenticators: RequestAuthenticator[] = [];
  if (requestHeader) authenticators.push(requestHeaderAuthenticator(requestHeader));
  if (clientCA) authenticators.push(x509Authenticator(clientCA));
  authenticators.push(tokenWebhookAuthenticator({ endpoint: endpointAt(authn, TOKEN_REVIEW_PATH), cacheTTLMs: opts.tokenCacheTTLMs ?? 10_000, timeoutMs }));
  const authenticator = failOnError(unionAuthenticator(authenticators), anonymousAuthenticator(DEFAULT_ANONYMOUS_PATHS));
  const authorizer = delegatingAuthorizer({
    alwaysAllowPaths: opts.alwaysAllowPaths,
    webhook: { endpoint: endpointAt(authz, SUBJECT_ACCESS_REVIEW_PATH), authorizedTTLMs: opts.authorizedTTLMs, unauthorizedTTLMs: opts.unauthorizedTTLMs, timeoutMs },
  });
  const cas = [clientCA, headerCA].filter((c): c is string => Boolean(c)).map((c) => c.trimEnd());
  return {
    authenticator,
    authorizer,
    clientCAs: cas.length ? `${cas.join('\n')}\n` : undefined,
    clientCA,
    requestHeader,
    authenticationServer: authn.url.origin,
    authorizationServer: authz.url.origin,
  };
}
