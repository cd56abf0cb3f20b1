/**
 * The answer to a request whose connection was switched (101): a stream with no chunks that ends
 * when the connection does, so the server holds the request as long-running until then (metrics,
 * audit), and close() ends the connection (server shutdown). Used by CONNECT subresources'
 * channel sessions (channels.ts) and by upgrades proxied to aggregated APIs.
 */
import type { StreamResponse } from './handler.js';

export function upgradedResponse(ended: Promise<void>, close: () => void): StreamResponse {
  return {
    kind: 'stream',
    code: 101,
    contentType: '',
    headers: {},
    chunks: {
      async *[Symbol.asyncIterator]() {
        await ended;
      },
    },
    close,
  };
}
