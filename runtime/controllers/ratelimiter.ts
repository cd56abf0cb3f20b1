/**
 * The controllers' retry delays: client-go's work queue rate limiters (runtime/api/ratelimiter.ts,
 * shared with the client's controller toolkit) with kube's figures. A key is never dropped: it
 * waits longer each time it fails, up to a cap, until the controller forgets it (after a success).
 *
 * - the garbage collector's and the ClusterRole aggregation controller's queues:
 *   DefaultControllerRateLimiter, exponential 5 ms … 1000 s, max'd with a 10 qps, burst 100 bucket;
 * - the namespace controller's nsControllerRateLimiter (pkg/controller/namespace/
 *   namespace_controller.go): the same but capped at 60 s, "so that we retry namespace deletion at
 *   least every minute, never longer".
 */
import { defaultControllerRateLimiter, type WorkQueueRateLimiter } from '../api/ratelimiter.js';

export { BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter } from '../api/ratelimiter.js';
export type RateLimiter<K> = WorkQueueRateLimiter<K>;

export interface ControllerRateLimits {
  /** First retry delay; doubles per failure. kube: 5 ms. */
  baseDelayMs?: number;
  /** Longest retry delay. kube: 1000 s (the namespace controller: 60 s). */
  maxDelayMs?: number;
  /** The overall bucket's refill, keys per second. kube: 10. */
  qps?: number;
  /** The overall bucket's size. kube: 100. */
  burst?: number;
  /** Milliseconds of a monotonic clock; tests pass a fake one. */
  now?: () => number;
}

/** workqueue.DefaultControllerRateLimiter, with kube's figures unless given others. */
export function controllerRateLimiter<K>(limits: ControllerRateLimits = {}): RateLimiter<K> {
  return defaultControllerRateLimiter<K>(limits.now ? { now: limits.now } : undefined, limits);
}

/** The namespace controller's longest retry delay (nsControllerRateLimiter). */
export const NAMESPACE_MAX_DELAY_MS = 60_000;
