/**
 * kgen's API client: RestClient (HTTP, retries, rate limiting), ResourceClient (typed verbs for
 * one resource), the resilient watch (Reflector, watchWithResume), informers with listers and
 * their shared factory, kubeconfig loading, and the StatusError helpers to tell failures apart.
 */
export * from './config.js';
export { loadKubeconfig, loadKubeconfigContext, defaultKubeconfigPath, type KubeconfigContext } from './kubeconfig.js';
export { TokenBucketRateLimiter, type RateLimiter, type Clock } from './rate-limiter.js';
export { RestClient, type RequestOptions, type Query, type QueryValue, type RestClientDeps } from './rest.js';
export { ResourceClient } from './resource.js';
export { TimeoutError } from './transport.js';
export * from './types.js';
export { decodeWatchStream, decodeWatchEvent } from './watch.js';
export { Backoff, DEFAULT_BACKOFF, type BackoffOptions } from './backoff.js';
export { listAll, DEFAULT_PAGE_SIZE, type ListAllOptions, type ListSnapshot } from './pager.js';
export {
  Reflector,
  watchWithResume,
  metaNamespaceKey,
  isTransientError,
  isTooLargeResourceVersion,
  type ReflectorEvent,
  type ResumableWatchOptions,
} from './reflector.js';
export { Indexer, NAMESPACE_INDEX, namespaceIndexFunc, type IndexFunc } from './indexer.js';
export { Lister, NamespaceLister, type Selector } from './lister.js';
export { SharedIndexInformer, type HandlerRegistration, type InformerOptions, type ResourceEventHandler } from './informer.js';
export { SharedInformerFactory, type InformerFactoryOptions, type InformersFor, type ResourceInformer } from './informer-factory.js';
export type { APIObject, KubeList, KubeObject, ObjectMeta, ListMeta, Status, StatusCause, StatusDetails, WatchEvent } from '../api/meta.js';
export {
  StatusError,
  isStatus,
  isNotFound,
  isAlreadyExists,
  isConflict,
  isInvalid,
  isBadRequest,
  isForbidden,
  isUnauthorized,
  isGone,
  isTooManyRequests,
  isMethodNotSupported,
  type StatusReason,
} from '../api/status.js';
export {
  withSubresources,
  readSubresource,
  connectSubresource,
  type ChannelConnection,
  type ConnectOptions,
  type SubresourceMethods,
  type SubresourceStreamOptions,
} from './subresources.js';
