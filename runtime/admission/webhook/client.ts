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
import { request as httpsRequest } from 'node:https';
import { inexactIntegerMessage, inexactIntegerOf } from '../../api/json-integers.js';
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

/** POSTs the review and resolves with the decoded JSON answer; rejects with kube's reasons. */
export async function callWebhook(call: WebhookCall): Promise<unknown> {
  const url = await callTarget(call);
  const payload = Buffer.from(JSON.stringify(call.body));
  const deadline = AbortSignal.timeout(call.timeoutSeconds * 1000);
  const signal = call.signal ? AbortSignal.any([deadline, call.signal]) : deadline;
  try {
    return await post(url, payload, call, deadline, signal);
  } catch (err) {
    // A pooled connection the webhook closed meanwhile: retry once on a fresh one (as Go's transport does).
    if (!(err instanceof StaleSocket)) throw err;
    return post(url, payload, call, deadline, signal);
  }
}

function post(target: Target, payload: Buffer, call: WebhookCall, deadline: AbortSignal, signal: AbortSignal): Promise<unknown> {
  const { connect } = target;
  const describe = (why: string) => `failed to call webhook: Post "${target.shown}": ${why}`;
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      connect,
      {
        method: 'POST',
        ...(target.servername ? { servername: target.servername } : {}),
        ca: caOf(call.clientConfig),
        signal,
        headers: { 'content-type': 'application/json', accept: 'application/json', 'content-length': payload.length },
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
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const code = res.statusCode ?? 0;
          if (code < 200 || code > 299) {
            reject(new Error(describe(`the server responded with the status code ${code} but did not return more information`)));
            return;
          }
          try {
            const value: unknown = JSON.parse(text);
            // A converted object's integer beyond 2^53 is refused, not stored as another number.
            const inexact = inexactIntegerOf(text);
            if (inexact !== undefined) throw new Error(inexactIntegerMessage(inexact));
            resolve(value);
          } catch (err) {
            reject(new Error(`received invalid webhook response: ${(err as Error).message}`));
          }
        });
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
    req.end(payload);
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
      return `tls: failed to verify certificate: x509: certificate is not valid for ${servername ?? url.hostname}`;
    default:
      return err.message;
  }
}
