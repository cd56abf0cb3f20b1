/**
 * The `kgen` package entry: the well-known types API definitions import, and the shared API
 * types. Runtime layers have their own entry points: kgen/client, kgen/server, kgen/storage.
 */
export type * from './types/index.js';
export * from './api/status.js';
export { apiVersionOf } from './api/resource.js';
export { streamBody, type ChannelSession, type StreamBody, type SubresourceContext, type SubresourceHandler } from './api/subresources.js';
export * from './api/channels.js';
