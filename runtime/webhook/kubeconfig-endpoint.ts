/**
 * The endpoint of an authentication or authorization webhook, read from the kubeconfig-format
 * file kube's --authentication-token-webhook-config-file and --authorization-webhook-config-file
 * name (k8s.io/apiserver/pkg/util/webhook): the current context's cluster (or the only one)
 * gives the URL and the CA; its user gives a client certificate or a bearer token.
 *
 * The same endpoint serves kube's delegating options (--authentication-kubeconfig,
 * --authorization-kubeconfig, or the in-cluster service account): endpointAt() turns the
 * cluster's server into its review URLs, requestJSON() also reads objects (the
 * extension-apiserver-authentication ConfigMap).
 *
 * post() sends one JSON review and resolves with the decoded answer. It trusts only the file's
 * CA (the system's roots when none), follows redirects as Go's client does (redirect.ts), reads
 * at most 3 MiB and fails by its deadline; a failure is an Error whose message kube's webhook
 * clients would print.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { checkServerIdentity } from '../api/server-identity.js';
import { yaml } from '../api/yaml.js';
import { redirectTarget } from './redirect.js';

const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;

export interface WebhookEndpoint {
  /** The file it came from, for messages. */
  file: string;
  url: URL;
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  token?: string;
  insecureSkipTLSVerify: boolean;
}

type Named<T> = { name?: string } & T;
interface KubeconfigFile {
  clusters?: Named<{ cluster?: Record<string, unknown> }>[];
  users?: Named<{ user?: Record<string, unknown> }>[];
  contexts?: Named<{ context?: { cluster?: string; user?: string } }>[];
  'current-context'?: string;
}

/** Reads a webhook's kubeconfig file; throws an Error naming `flag` and the file on any problem. */
export function loadWebhookEndpoint(flag: string, file: string): WebhookEndpoint {
  const fail = (why: string): never => {
    throw new Error(`${flag} ${file}: ${why}`);
  };
  let doc: KubeconfigFile;
  try {
    doc = (yaml().parse(readFileSync(file, 'utf8')) ?? {}) as KubeconfigFile;
  } catch (err) {
    return fail((err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message);
  }
  const context = doc.contexts?.find((c) => c.name === doc['current-context'])?.context;
  const cluster = (context?.cluster ? doc.clusters?.find((c) => c.name === context.cluster) : doc.clusters?.[0])?.cluster;
  if (!cluster || typeof cluster.server !== 'string') return fail('no cluster with a server URL');
  const user = (context?.user ? doc.users?.find((u) => u.name === context.user) : doc.users?.[0])?.user ?? {};
  const base = dirname(resolve(file));
  const bytes = (dataKey: string, fileKey: string): Buffer | undefined => {
    const data = cluster[dataKey] ?? user[dataKey];
    if (typeof data === 'string') return Buffer.from(data, 'base64');
    const path = cluster[fileKey] ?? user[fileKey];
    if (typeof path !== 'string') return undefined;
    try {
      return readFileSync(isAbsolute(path) ? path : resolve(base, path));
    } catch (err) {
      return fail(`${fileKey} ${path}: ${(err as Error).message}`);
    }
  };
  let url: URL;
  try {
    url = new URL(cluster.server);
  } catch {
    return fail(`server ${JSON.stringify(cluster.server)} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') fail(`server ${url.href}: scheme must be https`);
  const endpoint: WebhookEndpoint = {
    file,
    url,
    ca: bytes('certificate-authority-data', 'certificate-authority'),
    cert: bytes('client-certificate-data', 'client-certificate'),
    key: bytes('client-key-data', 'client-key'),
    token: typeof user.token === 'string' ? user.token : undefined,
    insecureSkipTLSVerify: cluster['insecure-skip-tls-verify'] === true,
  };
  if (Boolean(endpoint.cert) !== Boolean(endpoint.key)) fail('client-certificate and client-key must be given together');
  return endpoint;
}

/** POSTs `body` as JSON and resolves with the decoded answer (see the file comment). */
export async function postReview(endpoint: WebhookEndpoint, body: unknown, timeoutMs: number): Promise<unknown> {
  const describe = (why: string) => `Post "${endpoint.url.href}": ${why}`;
  const answer = await requestJSON(endpoint, 'POST', body, timeoutMs);
  if (answer.status < 200 || answer.status > 299) throw new Error(describe(`the server responded with the status code ${answer.status}`));
  if (answer.parseError) throw new Error(describe(`invalid JSON in the answer: ${answer.parseError}`));
  return answer.body;
}

export interface JSONAnswer {
  status: number;
  /** The decoded body; undefined when it was empty or not JSON (then parseError says why). */
  body: unknown;
  parseError?: string;
}

/**
 * Sends one request (JSON body when given) with the endpoint's credentials and resolves with the
 * status and decoded body, whatever the status; rejects only when no answer came (connection,
 * TLS, deadline, size, too many redirects), with a message naming the method and URL as Go's
 * client does. Redirects are followed as client-go's http.Client follows them (redirect.ts): the
 * same CA, client certificate and bearer token on every hop, under the one deadline.
 */
export async function requestJSON(endpoint: WebhookEndpoint, method: string, body: unknown, timeoutMs: number): Promise<JSONAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  const op = `${method[0]}${method.slice(1).toLowerCase()}`;
  let payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  let url = endpoint.url;
  let current = method;
  for (let followed = 0; ; followed++) {
    const describe = (why: string) => `${op} "${url.href}": ${why}`;
    const answer = await sendOnce(endpoint, url, current, payload, signal, describe);
    let hop;
    try {
      hop = redirectTarget(answer.status, answer.location, current, url, followed);
    } catch (err) {
      throw new Error(describe((err as Error).message));
    }
    if (!hop) return answer;
    url = hop.url;
    current = hop.method;
    if (!hop.withBody) payload = undefined;
  }
}

function sendOnce(endpoint: WebhookEndpoint, url: URL, method: string, payload: Buffer | undefined, signal: AbortSignal, describe: (why: string) => string): Promise<JSONAnswer & { location?: string }> {
  const headers: Record<string, string | number> = { accept: 'application/json' };
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = payload.length;
  }
  if (endpoint.token) headers.authorization = `Bearer ${endpoint.token}`;
  const options: RequestOptions = {
    method,
    headers,
    signal,
    ca: endpoint.ca,
    cert: endpoint.cert,
    key: endpoint.key,
    rejectUnauthorized: !endpoint.insecureSkipTLSVerify,
    checkServerIdentity,
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolvePromise, reject) => {
    const req = send(url, options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) req.destroy(new Error(`response body larger than ${MAX_RESPONSE_BYTES} bytes`));
        else chunks.push(chunk);
      });
      res.on('error', (err) => reject(new Error(describe(err.message))));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        const location = res.headers.location;
        const text = Buffer.concat(chunks).toString('utf8');
        if (text === '') return resolvePromise({ status, location, body: undefined, parseError: 'empty body' });
        try {
          resolvePromise({ status, location, body: JSON.parse(text) });
        } catch (err) {
          resolvePromise({ status, location, body: undefined, parseError: (err as Error).message });
        }
      });
    });
    req.on('error', (err) => reject(new Error(describe(err.name === 'AbortError' || err.name === 'TimeoutError' ? 'context deadline exceeded' : err.message))));
    req.end(payload);
  });
}

/** The same server and credentials, at another path of it (a kubeconfig names a server, not an API). */
export function endpointAt(endpoint: WebhookEndpoint, path: string): WebhookEndpoint {
  const url = new URL(endpoint.url.href);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  url.search = '';
  return { ...endpoint, url };
}

/** Where a pod finds its service account's credentials (client-go's rest.InClusterConfig). */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface InClusterOptions {
  /** Default process.env: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT. */
  env?: NodeJS.ProcessEnv;
  /** Default SERVICE_ACCOUNT_DIR: holds `token` and `ca.crt`. */
  serviceAccountDir?: string;
}

/**
 * client-go's rest.InClusterConfig: the API server at KUBERNETES_SERVICE_HOST:PORT, trusted by
 * the service account's ca.crt, authenticated by its token. Throws client-go's message when not
 * in a cluster. `what` names the caller in the endpoint's `file`, for messages.
 */
export function inClusterEndpoint(what: string, opts: InClusterOptions = {}): WebhookEndpoint {
  const env = opts.env ?? process.env;
  const dir = opts.serviceAccountDir ?? SERVICE_ACCOUNT_DIR;
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) throw new Error(`${what}: unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined`);
  let token: string;
  try {
    token = readFileSync(join(dir, 'token'), 'utf8').trim();
  } catch (err) {
    throw new Error(`${what}: unable to load in-cluster configuration: ${(err as Error).message}`);
  }
  let ca: Buffer | undefined;
  try {
    ca = readFileSync(join(dir, 'ca.crt'));
  } catch {
    // client-go logs and goes on with the system's roots.
    ca = undefined;
  }
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return { file: `${what} (in-cluster)`, url: new URL(`https://${hostPart}:${port}`), ca, token, insecureSkipTLSVerify: false };
}
