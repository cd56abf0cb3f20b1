/**
 * The in-flight wait group (kube's SafeWaitGroup and WithWaitGroup): every non-long-running
 * request is counted while it runs, so graceful shutdown can wait for them to drain. Once
 * shutdown has started waiting, new requests are refused with 503 and `Retry-After: 1` (a
 * client will likely reach another replica).
 */
import { statusError } from '../../api/status.js';
import { errorResponse } from '../../endpoints/responsewriters.js';
import { isLongRunning } from './context.js';
import { afterResult, type ChainResult, type Filter } from './types.js';

export class SafeWaitGroup {
  private count = 0;
  private closed = false;
  private waiters: (() => void)[] = [];

  /** Counts one more request; false once wait() has been called. */
  add(): boolean {
    if (this.closed) return false;
    this.count++;
    return true;
  }

  done(): void {
    if (this.count === 0) throw new Error('SafeWaitGroup: negative counter');
    this.count--;
    if (this.count === 0 && this.waiters.length > 0) for (const resolve of this.waiters.splice(0)) resolve();
  }

  get size(): number {
    return this.count;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Refuses new additions and resolves once the counter reaches zero. */
  wait(): Promise<void> {
    this.closed = true;
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

export function withWaitGroup(wg: SafeWaitGroup): Filter {
  const done = () => wg.done();
  return (next) => (ctx) => {
    if (isLongRunning(ctx.info)) return next(ctx);
    if (!wg.add()) return errorResponse(statusError('ServiceUnavailable', 'apiserver is shutting down', { retryAfterSeconds: 1 }));
    let result: ChainResult;
    try {
      result = next(ctx);
    } catch (err) {
      wg.done();
      throw err;
    }
    return afterResult(result, done);
  };
}
