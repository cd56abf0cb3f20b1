/**
 * The browser's platform.ts: fetch, and only credentials a page can hold (a token; or the
 * browser's own cookies and client certificates). Token files and exec plugins need a process.
 */
import type { RestConfig } from './config.js';
import type { CredentialSource } from './credentials.js';
import { FetchTransport } from './transport-fetch.js';
import type { Transport } from './transport.js';

export function defaultTransport(_config: RestConfig): Transport {
  return new FetchTransport();
}

export function credentialSource(config: RestConfig): CredentialSource {
  if (config.exec) throw new Error('exec credential plugins cannot run in a browser; give the client a token');
  if (config.tokenFile) throw new Error('token files cannot be read in a browser; give the client a token');
  const creds = config.token ? { token: config.token } : {};
  return { get: () => creds, unauthorized: () => false };
}
