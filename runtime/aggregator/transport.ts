/**
 * The aggregator's connection to a backend server (kube-aggregator's proxy transport): HTTPS
 * only, the server certificate verified against the APIService's caBundle for the name
 * `<service>.<namespace>.svc` (unless insecureSkipTLSVerify), and the front-proxy client
 * certificate presented. The user travels in the X-Remote-* headers (transport.SetAuthProxyHeaders).
 */
import { Agent, request } from 'node:https';
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import type { UserInfo } from '../api/auth.js';
import type { CertificateAndKey } from '../api/certificates.js';
import { checkServerIdentity } from '../api/server-identity.js';

export interface BackendTLS {
  /** PEM CA bundle (the decoded spec.caBundle); undefined uses the system roots. */
  caBundle?: string;
  insecureSkipTLSVerify: boolean;
  /** The name the serving certificate must hold: `<service>.<namespace>.svc`. */
  serverName: string;
  client: CertificateAndKey;
}

export function newBackendAgent(tls: BackendTLS): Agent {
  return new Agent({
    keepAlive: true,
    ca: tls.caBundle,
    cert: tls.client.cert,
    key: tls.client.key,
    rejectUnauthorized: !tls.insecureSkipTLSVerify,
    servername: tls.serverName,
    checkServerIdentity,
    minVersion: 'TLSv1.2',
  });
}

export interface BackendRequest {
  method: string;
  /** The backend's base URL (scheme, host, port). */
  endpoint: URL;
  /** Path and query. */
  path: string;
  headers: OutgoingHttpHeaders;
  body?: Buffer;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Sends a request; resolves with the response once its headers arrive. */
export function sendToBackend(agent: Agent, tls: BackendTLS, req: BackendRequest): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => void openRequest(agent, tls, req, resolve, reject));
}

/** A backend's answer to an upgrade request: switched (101, its connection handed over) or not. */
export type UpgradeAnswer = { switched: true; res: IncomingMessage; socket: Duplex; head: Buffer } | { switched: false; res: IncomingMessage };

/**
 * Sends an upgrade request (its headers must carry Connection and Upgrade); resolves with the
 * backend's connection once it answers 101, or with its answer when it answers anything else.
 */
export function upgradeAtBackend(agent: Agent, tls: BackendTLS, req: BackendRequest): Promise<UpgradeAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = openRequest(agent, tls, req, (res) => resolve({ switched: false, res }), reject);
    outgoing.on('upgrade', (res: IncomingMessage, socket: Duplex, head: Buffer) => resolve({ switched: true, res, socket, head }));
  });
}

function openRequest(agent: Agent, tls: BackendTLS, req: BackendRequest, onResponse: (res: IncomingMessage) => void, reject: (err: Error) => void): ClientRequest {
  const outgoing = request(
    {
      agent,
      protocol: 'https:',
      hostname: req.endpoint.hostname.replace(/^\[|\]$/g, ''),
      port: req.endpoint.port || 443,
      method: req.method,
      path: req.path,
      headers: req.headers,
      servername: tls.serverName,
      checkServerIdentity,
      signal: req.signal,
      timeout: req.timeoutMs,
    },
    onResponse,
  );
  outgoing.on('timeout', () => outgoing.destroy(new Error(`timeout awaiting response headers after ${req.timeoutMs}ms`)));
  outgoing.on('error', reject);
  outgoing.end(req.body);
  return outgoing;
}

/**
 * Reads a whole response body; with `limits`, at most `maxBytes` of it and within `deadlineMs`
 * (the response is destroyed and the read rejects past either).
 */
export async function readBody(res: IncomingMessage, limits?: { maxBytes: number; deadlineMs: number }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  const timer = limits && setTimeout(() => res.destroy(new Error(`timeout reading the response body after ${limits.deadlineMs}ms`)), limits.deadlineMs);
  try {
    for await (const chunk of res) {
      size += (chunk as Buffer).length;
      if (limits && size > limits.maxBytes) {
        res.destroy();
        throw new Error(`response body larger than ${limits.maxBytes} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
  } finally {
    if (timer) clearTimeout(timer);
  }
  return Buffer.concat(chunks);
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'proxy-authorization', 'proxy-authenticate', 'host', 'content-length']);

/** Headers a proxy must not forward (RFC 7230 §6.1), plus the ones it recomputes. */
export function isHopByHop(name: string): boolean {
  return HOP_BY_HOP.has(name.toLowerCase());
}

/**
 * The headers sent to the backend: the client's, without hop-by-hop ones, credentials
 * (Authorization, Impersonate-*) or any X-Remote-* a client sent, and with the user's
 * X-Remote-User / X-Remote-Uid / X-Remote-Group / X-Remote-Extra-<key> (key URL-escaped).
 */
export function proxyHeaders(incoming: IncomingHttpHeaders, user: UserInfo): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    const lower = name.toLowerCase();
    if (value === undefined || isHopByHop(lower) || lower === 'authorization' || lower.startsWith('impersonate-') || lower.startsWith('x-remote-')) continue;
    out[lower] = value;
  }
  return { ...out, ...authProxyHeaders(user) };
}

export function authProxyHeaders(user: UserInfo): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = { 'x-remote-user': user.username };
  if (user.uid) out['x-remote-uid'] = user.uid;
  if (user.groups.length > 0) out['x-remote-group'] = [...user.groups];
  for (const [key, values] of Object.entries(user.extra ?? {})) {
    if (values.length > 0) out[`x-remote-extra-${encodeURIComponent(key)}`] = [...values];
  }
  return out;
}
