/**
 * An upgrade request (Connection: Upgrade: WebSocket, SPDY) to an aggregated API, proxied as
 * kube-aggregator proxies it (handler_proxy.go with UpgradeAwareHandler.tryUpgrade): the request
 * has passed the filter chain (authentication, authorization) like any other, so a refused one
 * never reaches the backend; it goes to the backend with its Connection and Upgrade headers and
 * the user in the front-proxy headers (transport.SetAuthProxyHeaders; the client's Authorization
 * is not passed on). A backend that answers 101 gets the client's connection: its answer is
 * written to the client as it came, and bytes are copied both ways until either side closes.
 * Any other answer is the caller's to relay (tryUpgrade writes the backend's response and closes).
 */
import type { Duplex } from 'node:stream';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { StreamResponse } from '../endpoints/handler.js';
import { upgradedResponse } from '../endpoints/upgraded.js';

/** httpstream.IsUpgradeRequest: a Connection header naming the `upgrade` token. */
export function isUpgradeRequest(headers: IncomingHttpHeaders): boolean {
  const connection: string | string[] | undefined = headers.connection;
  if (connection === undefined) return false;
  return ([] as string[]).concat(connection).some((v) => v.split(',').some((token) => token.trim().toLowerCase() === 'upgrade'));
}

/**
 * The client's connection joined to the backend's, after the backend's 101: its status line and
 * headers as sent, the bytes either side sent early (`clientHead`, `backendHead`), then a copy
 * both ways. The answer is a 101 stream with no chunks that ends when either side closes, so the
 * server holds the request as in flight (metrics, audit) until then; close() cuts both (shutdown).
 */
export function joinUpgraded(client: Duplex, clientHead: Buffer, res: IncomingMessage, backend: Duplex, backendHead: Buffer): StreamResponse {
  const lines = [`HTTP/${res.httpVersion} 101 ${res.statusMessage || 'Switching Protocols'}`];
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
  const ended = new Promise<void>((resolve) => {
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      client.destroy();
      backend.destroy();
      resolve();
    };
    for (const side of [client, backend]) {
      side.once('close', end);
      side.on('error', end);
    }
  });
  client.write(Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'));
  if (backendHead.length > 0) client.write(backendHead);
  if (clientHead.length > 0) backend.write(clientHead);
  backend.pipe(client);
  client.pipe(backend);
  return upgradedResponse(ended, () => {
    client.destroy();
    backend.destroy();
  });
}
