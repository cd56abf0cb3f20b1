/**
 * kgen's controller toolkit (client-go's workqueue, leaderelection and record, controller-runtime's
 * controller and helpers) over kgen's client: build a controller from generated typed informers
 * without depending on the server. See README "Writing controllers".
 */
export { realClock, FakeClock, sleep, settle, type ToolkitClock, type TimerHandle } from './clock.js';
export {
  ItemExponentialFailureRateLimiter,
  BucketRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
  type WorkQueueRateLimiter,
} from './ratelimiter.js';
export { WorkQueue, type WorkQueueMetrics, type WorkQueueOptions, type QueueItem } from './workqueue.js';
export {
  LeaderElector,
  microTime,
  DEFAULT_LEASE_DURATION_MS,
  DEFAULT_RENEW_DEADLINE_MS,
  DEFAULT_RETRY_PERIOD_MS,
  type Lease,
  type LeaseLock,
  type LeaseClient,
  type LeaderCallbacks,
  type LeaderElectionConfig,
  type Acquisition,
} from './leaderelection.js';
export { EventRecorder, type CoreEvent, type EventRecorderOptions, type EventType, type EventClient } from './recorder.js';
export { Controller, ownerKeys, type ControllerOptions, type ReconcileResult, type Reconciler, type WatchSource, type InformerLike } from './controller.js';
export { findCondition, isConditionTrue, setCondition, removeCondition, type Condition } from './conditions.js';
export { ownerReference, getControllerOf, isControlledBy, setControllerReference, type OwnerReference } from './ownerrefs.js';
