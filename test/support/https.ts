/**
 * fetch() for a kgen server over HTTPS with the data dir's credentials: trusts the kgen CA and
 * presents a client certificate (default: the admin's, CN=kgen-admin O=system:masters) or a
 * bearer token. Node's global fetch cannot take a CA or a client certificate, so this is
 * node:https behind fetch's signature, returning a standard Response (bodies stream, for watches).
 * Connections are kept alive.
 */
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';
import { Readable } from 'node:stream';

export interface ClientCredentials {
  /** PEM of the CA that signed the serving certificate. */
  ca: string;
  /** PEM client certificate and key; omit for a token or anonymous request. */
  cert?: string;
  key?: string;
  token?: string;
}

/** The admin credentials a server wrote under `<dataDir>/pki`. */
export function adminCredentials(dataDir: string): ClientCredentials {
  const read = (...p: string[]) => readFileSync(join(dataDir, 'pki', ...p), 'utf8');
  return { ca: read('ca', 'tls.crt'), cert: read('admin', 'tls.crt'), key: read('admin', 'tls.key') };
}

export type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

function headersOf(init: RequestInit | undefined): Record<string, string> {
  return Object.fromEntries(new Headers(init?.headers ?? {}).entries());
}

async function bodyOf(init: RequestInit | undefined): Promise<Buffer | undefined> {
  if (init?.body === undefined || init.body === null) return undefined;
  return Buffer.from(await new Response(init.body as BodyInit).arrayBuffer());
}

/** A fetch that speaks HTTPS with `credentials`. */
export function tlsFetch(credentials: ClientCredentials): Fetch {
  const agent = new https.Agent({ keepAlive: true, ca: credentials.ca, cert: credentials.cert, key: credentials.key });
  return async (url, init) => {
    const headers = headersOf(init);
    if (credentials.token && !headers.authorization) headers.authorization = `Bearer ${credentials.token}`;
    const body = await bodyOf(init);
    if (body && !headers['content-type'] && typeof init?.body === 'string') headers['content-type'] = 'text/plain;charset=UTF-8';
    return new Promise<Response>((resolve, reject) => {
      const req = https.request(url, { method: init?.method ?? 'GET', headers, agent, signal: init?.signal ?? undefined }, (res) => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : [value ?? '']) responseHeaders.append(name, v);
        }
        const status = res.statusCode ?? 0;
        const empty = status === 204 || status === 304 || init?.method === 'HEAD';
        if (empty) res.resume();
        resolve(new Response(empty ? null : (Readable.toWeb(res) as ReadableStream), { status, headers: responseHeaders }));
      });
      req.on('error', reject);
      req.end(body);
    });
  };
}
