/**
 * @kgen/client, the run-time half of kgen's generated clients: RestClient (HTTP, retries, rate limiting), ResourceClient (typed verbs for
 * one resource), the resilient watch (Reflector, watchWithResume), informers with listers and
 * their shared factory, kubeconfig loading, and the StatusError helpers to tell failures apart.
 */
export * from './config.js';
export { loadKubeconfig, loadKubeconfigContext, defaultKubeconfigPath, kubeconfigPaths, type KubeconfigContext } from './kubeconfig.js';
export {
  loadInClusterConfig,
  loadDefaultConfig,
  isInCluster,
  SERVICE_ACCOUNT_DIR,
  type InClusterOptions,
  type DefaultConfigOptions,
  type LoadedConfig,
} from './in-cluster.js';
export { runExecPlugin, parseExecCredential, EXEC_API_VERSIONS, type ExecConfig, type ExecEnvVar, type ExecCredential } from './exec.js';
export { credentialSource, TokenFileSource, ExecSource, type CredentialSource, type Credentials } from './credentials.js';
export { TokenBucketRateLimiter, type RateLimiter, type Clock } from './rate-limiter.js';
export { RestClient, impersonationHeaders, type RequestOptions, type Query, type QueryValue, type RestClientDeps } from './rest.js';
export { ResourceClient } from './resource.js';
export { TimeoutError, type Transport, type Exchange, type ExchangeInit, type ResponseStream, type ResponseHeaders } from './transport.js';
export { FetchTransport, type FetchTransportOptions } from './transport-fetch.js';
export * from './types.js';
export { decodeWatchStream, decodeWatchEvent } from './watch.js';
export { Backoff, DEFAULT_BACKOFF, type BackoffOptions } from './backoff.js';
export { listAll, DEFAULT_PAGE_SIZE, type ListAllOptions, type ListSnapshot } from './pager.js';
export type { ListerWatcher } from './listwatch.js';
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
export type { APIObject, TypeMeta } from '../../../runtime/api/meta.js';
// The well-known types generated models import (ObjectMeta, Condition, Quantity, int32, …).
export type * from '../../../runtime/types/index.js';
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
} from '../../../runtime/api/status.js';
// The controller toolkit; its Condition (lastTransitionTime optional, filled in by setCondition)
// is ConditionInput here, beside the API's Condition type.
export {
  realClock,
  FakeClock,
  sleep,
  settle,
  ItemExponentialFailureRateLimiter,
  BucketRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
  WorkQueue,
  LeaderElector,
  microTime,
  DEFAULT_LEASE_DURATION_MS,
  DEFAULT_RENEW_DEADLINE_MS,
  DEFAULT_RETRY_PERIOD_MS,
  EventRecorder,
  Controller,
  ownerKeys,
  findCondition,
  isConditionTrue,
  setCondition,
  removeCondition,
  ownerReference,
  getControllerOf,
  isControlledBy,
  setControllerReference,
} from './toolkit/index.js';
export type {
  ToolkitClock,
  TimerHandle,
  WorkQueueRateLimiter,
  WorkQueueMetrics,
  WorkQueueOptions,
  QueueItem,
  Lease,
  LeaseLock,
  LeaseClient,
  LeaderCallbacks,
  LeaderElectionConfig,
  Acquisition,
  CoreEvent,
  EventRecorderOptions,
  EventType,
  EventClient,
  ControllerOptions,
  ReconcileResult,
  Reconciler,
  WatchSource,
  InformerLike,
  Condition as ConditionInput,
} from './toolkit/index.js';
export {
  withSubresources,
  readSubresource,
  connectSubresource,
  type ChannelConnection,
  type ConnectOptions,
  type SubresourceMethods,
  type SubresourceStreamOptions,
} from './subresources.js';
