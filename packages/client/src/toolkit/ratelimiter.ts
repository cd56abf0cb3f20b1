/**
 * Work queue rate limiters (client-go's util/workqueue default_rate_limiters.go): how long an
 * item waits before it is handed out again after a failure. The one copy lives in
 * runtime/api/ratelimiter.ts, shared with the server's own controllers; the toolkit's default
 * runs on its clock (a FakeClock in tests).
 */
import { defaultControllerRateLimiter as defaultLimiter, type WorkQueueRateLimiter } from '../../../../runtime/api/ratelimiter.js';
import { realClock, type ToolkitClock } from './clock.js';

export { ItemExponentialFailureRateLimiter, BucketRateLimiter, MaxOfRateLimiter, type WorkQueueRateLimiter } from '../../../../runtime/api/ratelimiter.js';

/** client-go's DefaultTypedControllerRateLimiter: per-item 5 ms..1000 s exponential, overall 10 qps burst 100. */
export function defaultControllerRateLimiter<T>(clock: ToolkitClock = realClock): WorkQueueRateLimiter<T> {
  return defaultLimiter<T>(clock);
}
