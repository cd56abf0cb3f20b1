/**
 * Calling a webhook (webhookutil.ClientManager + rest client): POST the AdmissionReview as JSON
 * over HTTPS, trusting only the configuration's caBundle (the system roots when it is empty),
 * giving up after timeoutSeconds. Failures are Errors whose message is what kube reports after
 * `failed calling webhook "<name>": `.
 */
import { request as httpsRequest } from 'node:https';
import type { WebhookClientConfig } from './types.js';

/** The most of a webhook's answer read (kube's default request body limit). */
const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;

export interface WebhookCall {
  clientConfig: WebhookClientConfig;
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

/** The URL called: the configured one with `?timeout=<n>s`, as kube's rest client adds it. */
function callURL(config: WebhookClientConfig, timeoutSeconds: number): URL {
  if (!config.url) throw new Error('webhook has no url (clientConfig.service is not supported by kgen)');
  const url = new URL(config.url);
  if (url.protocol !== 'https:') throw new Error(`webhook url scheme must be https, got ${JSON.stringify(url.protocol.replace(/:$/, ''))}`);
  url.searchParams.set('timeout', `${timeoutSeconds}s`);
  return url;
}

/** Set on the error of a request sent on a kept-alive socket the server had already closed. */
class StaleSocket extends Error {}

/** POSTs the review and resolves with the decoded JSON answer; rejects with kube's reasons. */
export async function callWebhook(call: WebhookCall): Promise<unknown> {
  const url = callURL(call.clientConfig, call.timeoutSeconds);
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

function post(url: URL, payload: Buffer, call: WebhookCall, deadline: AbortSignal, signal: AbortSignal): Promise<unknown> {
  const describe = (why: string) => `failed to call webhook: Post "${url.href}": ${why}`;
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      {
        method: 'POST',
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
            resolve(JSON.parse(text));
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
      const why = deadline.aborted ? 'context deadline exceeded' : call.signal?.aborted ? 'context canceled' : goWording(err, url);
      reject(new Error(describe(why)));
    });
    req.end(payload);
  });
}

/** Node's network errors in the words Go's client uses in kube's messages, where they map. */
function goWording(err: Error & { code?: string }, url: URL): string {
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
      return `tls: failed to verify certificate: x509: certificate is not valid for ${url.hostname}`;
    default:
      return err.message;
  }
}
