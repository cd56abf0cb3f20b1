/**
 * What differs between Node and browsers, chosen at build time: this module under Node, and
 * platform.browser.ts in @kgen/client's browser build (package.json `exports` condition `browser`).
 */
import type { RestConfig } from './config.js';
import { NodeTransport } from './transport-node.js';
import type { Transport } from './transport.js';

export { credentialSource } from './credentials.js';

/** node:http(s): TLS settings, client certificates and proxies from the config. */
export function defaultTransport(config: RestConfig): Transport {
  return new NodeTransport(config);
}
