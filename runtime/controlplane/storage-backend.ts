/**
 * What the server does around its storage backend besides serving it: the readiness check that
 * names it, periodic compaction, and whether this server may write the kubeconfig in a data dir
 * that other replicas may share.
 *
 * - The check is `etcd` for etcd (as kube-apiserver names it in /readyz, /livez and /healthz) and
 *   `storage` for the embedded backends. It calls the backend's healthCheck(), which fails fast
 *   (etcd: within its health deadline) when the backend cannot serve a read.
 * - Compaction (`--compaction-interval`, default 5m as kube's `--etcd-compaction-interval`) runs on
 *   the backend itself, never on a watch-cache wrapper: on etcd the compactor coordinates with the
 *   other replicas through kube's `compact_rev_key`, so only one of them compacts per interval.
 * - Several replicas on one etcd may share a data dir; only the credentials (made once, never
 *   overwritten) and the kubeconfig live there. See kubeconfigWritePolicy.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startCompactor, DEFAULT_COMPACTION_INTERVAL_MS, type Compactor } from '../storage/compactor.js';
import type { Storage } from '../storage/interface.js';
import type { HealthCheck } from '../server/health.js';
import { KUBECONFIG_FILE } from './kubeconfig.js';

export { DEFAULT_COMPACTION_INTERVAL_MS };

/** True for a backend several server processes may share (etcd): its data is not this process's. */
export function isSharedStorage(storage: Storage): boolean {
  // Duck-typed (etcd's compaction turn) so the server does not load the etcd client unless used.
  return typeof (storage as { compactTurn?: unknown }).compactTurn === 'function';
}

/** The readiness/liveness check of the backend: `etcd` or `storage`. */
export function storageHealthCheck(storage: Storage): HealthCheck {
  return { name: isSharedStorage(storage) ? 'etcd' : 'storage', check: () => storage.healthCheck() };
}

export interface StorageCompactionOptions {
  /** Interval (and retention window) in ms; 0 disables; default 5 minutes. */
  intervalMs?: number;
  log?: (line: string) => void;
}

/**
 * Starts compacting the backend, or returns undefined when disabled. Failures (etcd down) are
 * logged and the next interval tries again. The caller stops it on shutdown.
 */
export function startStorageCompaction(backend: Storage, opts: StorageCompactionOptions = {}): Compactor | undefined {
  const intervalMs = opts.intervalMs ?? DEFAULT_COMPACTION_INTERVAL_MS;
  if (!(intervalMs > 0)) return undefined;
  const log = opts.log ?? (() => undefined);
  return startCompactor(backend, {
    intervalMs,
    onError: (err) => log(`storage compaction failed (retrying in ${intervalMs} ms): ${(err as Error).message}`),
    onCompact: (revision) => log(`storage compacted to revision ${revision}`),
  });
}

export interface KubeconfigWritePolicy {
  /** Write `<dataDir>/kubeconfig` now. */
  write: boolean;
  /** The server URL the kubeconfig names. */
  server: string;
  /** Why it was not written, for the log. */
  reason?: string;
}

/**
 * Whether this server writes `<dataDir>/kubeconfig`, and for which URL.
 *
 * - `kubeconfigServer` given (`--kubeconfig-server`, e.g. the load balancer's URL): always written,
 *   naming that URL, so every replica writes the same file.
 * - Memory or SQLite storage: one process owns the data dir; written on every start with this
 *   server's own URL (as before: a restart on another port updates it).
 * - etcd storage: replicas may share the data dir, so an existing kubeconfig is left as it is (it
 *   names the replica that wrote it first, which may still be serving); written only when absent.
 */
export function kubeconfigWritePolicy(dataDir: string, storage: Storage, ownUrl: string, kubeconfigServer?: string): KubeconfigWritePolicy {
  if (kubeconfigServer) return { write: true, server: kubeconfigServer };
  if (!isSharedStorage(storage)) return { write: true, server: ownUrl };
  if (!existsSync(join(dataDir, KUBECONFIG_FILE))) return { write: true, server: ownUrl };
  return {
    write: false,
    server: ownUrl,
    reason: 'kept the existing kubeconfig (replicas on etcd may share the data dir); --kubeconfig-server sets the URL it names',
  };
}
