/**
 * Helpers for driving `kgen serve` with @kubernetes/client-node 1.4.0, as a user of that
 * library would: the kubeconfig the server wrote, its error type, and waiting on callbacks.
 */
import * as k8s from '@kubernetes/client-node';

/**
 * KubeConfig.loadFromFile(<dataDir>/kubeconfig), as a user does: kgen serves HTTPS and the
 * kubeconfig carries its CA and the admin client certificate, so nothing needs adjusting.
 */
export function loadKubeConfig(path: string): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(path);
  return kc;
}

export interface StatusBody {
  kind: string;
  status: string;
  reason: string;
  code: number;
  message: string;
  details?: { name?: string; kind?: string; causes?: { reason: string; field?: string; message: string }[] };
}

/** Runs fn, expecting client-node's ApiException; returns its code and the Status it carried. */
export async function apiError(fn: () => Promise<unknown>): Promise<{ code: number; status: StatusBody }> {
  try {
    await fn();
  } catch (err) {
    if (!(err instanceof k8s.ApiException)) throw err;
    const body = typeof err.body === 'string' ? JSON.parse(err.body) : err.body;
    return { code: err.code, status: body as StatusBody };
  }
  throw new Error('expected the call to fail with an ApiException');
}

/** Polls until check() holds; fails with describe() after timeoutMs. */
export async function until(check: () => boolean | Promise<boolean>, describe: () => string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms: ${describe()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
