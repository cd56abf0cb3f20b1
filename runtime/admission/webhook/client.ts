/**
 * Calling a webhook (webhookutil.ClientManager + rest client): POST the AdmissionReview as JSON
 * over HTTPS, trusting only the configuration's caBundle (the system roots when it is empty),
 * giving up after timeoutSeconds. Failures are Errors whose message is what kube reports after
 * `failed calling webhook "<name>": `.
 *
 * A `clientConfig.service` is called as kube does with aggregator routing: the URL is
 * `https://<name>.<namespace>.svc:<port><path>` (port 443 by default), the connection goes to an
 * address of the Service's Endpoints (resolveService), and the serving certificate must be valid
 * for `<name>.<namespace>.svc`.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { inexactIntegerMessage, inexactIntegerOf } from '../../api/json-integers.js';
import { checkServerIdentity } from '../../api/server-identity.js';
import { redirectTarget } from '../../webhook/redirect.js';
import type { WebhookClientConfig } from './types.js';

/** The most of a webhook's answer read (kube's default request body limit). */
const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;

/** An address (`https://<ip>:<port>`) serving a Service's port, or a rejection saying why not. */
export type ServiceResolver = (ref: { namespace: string; name: string; port: number }) => Promise<URL>;

export interface WebhookCall {
  clientConfig: WebhookClientConfig;
  /** Resolves clientConfig.service; without it, service references cannot be called. */
  resolveService?: ServiceResolver;
  timeoutSeconds: number;
  body: unknown;
  /** The API request's own signal: a gone client stops the call. */
  signal?: AbortSignal;
}

/** The PEM bundle of a configuration (caBundle is base64 of PEM bytes). */
function caOf(config: WebhookClientConfig): string | undefined {
  if (!config.caBundle) return undefined;
  return Buffer.from(config.caBundle, 'base64').toString('utf8');
}

/** Where a call goes: the URL kube names in messages, the address connected to, and the name the certificate must carry. */
interface Target {
  url: URL;
  connect: URL;
  servername?: string;
  /** The URL as kube prints it (a service URL keeps its :443). */
  shown: string;
}

/** The URL called, with `?timeout=<n>s` as kube's rest client adds it; a service resolved to an address. */
async function callTarget(call: WebhookCall): Promise<Target> {
  const config = call.clientConfig;
  const service = config.service;
  if (!config.url && service) {
    const port = service.port ?? 443;
    const host = `${service.name}.${service.namespace}.svc`;
    const url = new URL(`https://${host}:${port}${service.path ?? ''}`);
    url.searchParams.set('timeout', `${call.timeoutSeconds}s`);
    const shown = `https://${host}:${port}${url.pathname === '/' && !service.path ? '' : url.pathname}${url.search}`;
    if (!call.resolveService) throw new Error(`failed to call webhook: Post "${shown}": service resolution is not available`);
    let address: URL;
    try {
      address = await call.resolveService({ namespace: service.namespace, name: service.name, port });
    } catch (err) {
      throw new Error(`failed to call webhook: Post "${shown}": ${(err as Error).message}`);
    }
    const connect = new URL(url.href);
    connect.hostname = address.hostname;
    connect.port = address.port;
    return { url, connect, servername: host, shown };
  }
  if (!config.url) throw new Error('webhook has neither url nor service');
  const url = new URL(config.url);
  if (url.protocol !== 'https:') throw new Error(`webhook url scheme must be https, got ${JSON.stringify(url.protocol.replace(/:$/, ''))}`);
  url.searchParams.set('timeout', `${call.timeoutSeconds}s`);
  return { url, connect: url, shown: url.href };
}

/** Set on the error of a request sent on a kept-alive socket the server had already closed. */
class StaleSocket extends Error {}

/** One answer: its status, Location, and body (read whole, up to MAX_RESPONSE_BYTES). */
interface Answer {
  status: number;
  location?: string;
  text: string;
}

/**
 * POSTs the review and resolves with the decoded JSON answer; rejects with kube's reasons.
 * Redirects are followed as Go's http.Client follows them under client-go's rest client (see
 * webhook/redirect.ts): up to 10, with the same CA and TLS server name, under the one deadline.
 */
export async function callWebhook(call: WebhookCall): Promise<unknown> {
  let target = await callTarget(call);
  const first = target;
  const payload = Buffer.from(JSON.stringify(call.body));
  const deadline = AbortSignal.timeout(call.timeoutSeconds * 1000);
  const signal = call.signal ? AbortSignal.any([deadline, call.signal]) : deadline;
  let method = 'POST';
  let body: Buffer | undefined = payload;
  for (let followed = 0; ; followed++) {
    const answer = await sendOnce(target, method, body, call, deadline, signal);
    let hop;
    try {
      hop = redirectTarget(answer.status, answer.location, method, target.url, followed);
    } catch (err) {
      throw new Error(`failed to call webhook: Post "${target.shown}": ${(err as Error).message}`);
    }
    if (!hop) return decodeAnswer(answer, first);
    method = hop.method;
    body = hop.withBody ? body : undefined;
    target = await redirectedTarget(hop.url, first, call);
  }
}

/**
 * Where a redirect goes. As kube's service dialer does, a request to the service's own host and
 * port connects to an address of its Endpoints (resolved again); any other host is dialled as it
 * is. The TLS server name set for a service (cfg.TLSClientConfig.ServerName) holds for every hop.
 */
async function redirectedTarget(url: URL, first: Target, call: WebhookCall): Promise<Target> {
  const shown = url.href;
  if (!first.servername || url.host !== first.url.host) return { url, connect: url, servername: first.servername, shown };
  const service = call.clientConfig.service!;
  let address: URL;
  try {
    address = await call.resolveService!({ namespace: service.namespace, name: service.name, port: service.port ?? 443 });
  } catch (err) {
    throw new Error(`failed to call webhook: Post "${shown}": ${(err as Error).message}`);
  }
  const connect = new URL(url.href);
  connect.hostname = address.hostname;
  connect.port = address.port;
  return { url, connect, servername: first.servername, shown };
}

/** A final answer: a 2xx's JSON, or kube's reason for any other status or a body that is not JSON. */
function decodeAnswer(answer: Answer, target: Target): unknown {
  const code = answer.status;
  if (code < 200 || code > 299) {
    throw new Error(`failed to call webhook: Post "${target.shown}": the server responded with the status code ${code} but did not return more information`);
  }
  try {
    const value: unknown = JSON.parse(answer.text);
    // A converted object's integer beyond 2^53 is refused, not stored as another number.
    const inexact = inexactIntegerOf(answer.text);
    if (inexact !== undefined) throw new Error(inexactIntegerMessage(inexact));
    return value;
  } catch (err) {
    throw new Error(`received invalid webhook response: ${(err as Error).message}`);
  }
}

/** Sends one request, retrying once on a pooled connection the webhook closed meanwhile (as Go's transport does). */
async function sendOnce(target: Target, method: string, body: Buffer | undefined, call: WebhookCall, deadline: AbortSignal, signal: AbortSignal): Promise<Answer> {
  try {
    return await send(target, method, body, call, deadline, signal);
  } catch (err) {
    if (!(err instanceof StaleSocket)) throw err;
    return send(target, method, body, call, deadline, signal);
  }
}

function send(target: Target, method: string, body: Buffer | undefined, call: WebhookCall, deadline: AbortSignal, signal: AbortSignal): Promise<Answer> {
  const { connect } = target;
  const describe = (why: string) => `failed to call webhook: Post "${target.shown}": ${why}`;
  const headers: Record<string, string | number> = { 'content-type': 'application/json', accept: 'application/json' };
  if (body) headers['content-length'] = body.length;
  const request = connect.protocol === 'http:' ? httpRequest : httpsRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      connect,
      {
        method,
        ...(target.servername ? { servername: target.servername } : {}),
        ca: caOf(call.clientConfig),
        checkServerIdentity,
        signal,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) {
            req.destroy(new Error(`response body larger than ${MAX_RESPONSE_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', (err) => reject(new Error(describe(err.message))));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', (err: Error & { code?: string }) => {
      if (req.reusedSocket && err.code === 'ECONNRESET' && !signal.aborted) {
        reject(new StaleSocket(err.message));
        return;
      }
      const why = deadline.aborted ? 'context deadline exceeded' : call.signal?.aborted ? 'context canceled' : goWording(err, connect, target.servername);
      reject(new Error(describe(why)));
    });
    req.end(body);
  });
}

/** Node's network errors in the words Go's client uses in kube's messages, where they map. */
function goWording(err: Error & { code?: string }, url: URL, servername?: string): string {
  const port = url.port || '443';
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${url.hostname}:${port}: connect: connection refused`;
    case 'ENOTFOUND':
      return `dial tcp: lookup ${url.hostname}: no such host`;
    case 'ECONNRESET':
      return 'read: connection reset by peer';
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      // api/server-identity.ts words its refusals as Go does already.
      if (err.message.startsWith('x509: ')) return `tls: failed to verify certificate: ${err.message}`;
      return `tls: failed to verify certificate: x509: certificate is not valid for ${servername ?? url.hostname}`;
    default:
      return err.message;
  }
}
