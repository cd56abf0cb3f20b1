/**
 * Bounds for the steps of a graceful shutdown. kube-apiserver gives requests in flight its
 * ShutdownTimeout and then exits whatever is left; a kgen server is also closed in process (tests,
 * embedders), so each later step (controllers, aggregator, compactor, storage) gets a bound of
 * its own: a step that does not finish in time is logged by name and left behind, and close()
 * goes on, instead of waiting for ever on one stuck piece.
 */

/** Waits for promise, but not past deadline (a Date.now() value); rejects when it does; leaves no timer behind. */
export async function untilOr(promise: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  let finished = false;
  try {
    await Promise.race([
      promise.then(() => (finished = true)),
      new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now())))),
    ]);
  } finally {
    // Also when promise rejects: a pending timer would hold the process open until the deadline.
    clearTimeout(timer);
  }
  return finished;
}

/** How long one shutdown step may take before close() goes on without it. */
export const STOP_STEP_TIMEOUT_MS = 15_000;

/**
 * Runs one shutdown step with a bound. A step that fails in time fails close(), as before; one
 * still running at the bound is logged (`shutdown: <name> did not finish within N s`) and its
 * later outcome only logged, never an unhandled rejection.
 */
export async function stopStep(name: string, step: () => unknown, log: (line: string) => void, timeoutMs = STOP_STEP_TIMEOUT_MS): Promise<void> {
  const running = Promise.resolve().then(step);
  const done = await untilOr(running, Date.now() + timeoutMs);
  if (done) return;
  log(`shutdown: ${name} did not finish within ${timeoutMs / 1000} s; going on without it`);
  running.catch((err: unknown) => log(`shutdown: ${name} failed after its bound: ${(err as Error)?.message ?? String(err)}`));
}
