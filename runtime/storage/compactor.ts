/**
 * Periodic compaction with a retention window, as kube-apiserver's compactor
 * (k8s.io/apiserver/pkg/storage/etcd3/compact.go, `--etcd-compaction-interval`, default 5m):
 * every interval, compact to the revision observed one interval earlier. History of at least one
 * interval therefore stays watchable; a watch or continue token older than that gets 410 Expired.
 *
 * On etcd, several API servers may run a compactor against the same cluster: each turn is a
 * compare-and-swap on the version of kube's `compact_rev_key` (EtcdStorage.compactTurn), so only one
 * server compacts per interval and the others resynchronise. Memory and SQLite storages belong to
 * one server and simply compact.
 *
 * Pass the backend itself, not a wrapper (such as a watch cache), so the etcd coordination is used.
 */
import type { Storage } from './interface.js';

export const DEFAULT_COMPACTION_INTERVAL_MS = 5 * 60 * 1000;

export interface CompactorOptions {
  /** Interval between turns (and so the retention window); default 5 minutes. 0 disables. */
  intervalMs?: number;
  /** Called when a turn fails (etcd down…); the next turn tries again. Default: ignore. */
  onError?: (err: unknown) => void;
  /** Called after this compactor compacted to `revision`. */
  onCompact?: (revision: number) => void;
}

export interface Compactor {
  /**
   * Stops the timer (which keeps the process alive until then) and waits for a running turn to
   * finish; safe to call more than once.
   */
  stop(): Promise<void>;
  /** Runs one turn now (for tests); resolves when it is done. */
  runOnce(): Promise<void>;
}

/** A storage that coordinates compaction between servers (EtcdStorage). */
interface CoordinatedCompaction {
  compactTurn(version: number, revision: number): Promise<{ version: number; revision: number; compacted: boolean }>;
}

function isCoordinated(storage: Storage): storage is Storage & CoordinatedCompaction {
  return typeof (storage as Partial<CoordinatedCompaction>).compactTurn === 'function';
}

/**
 * Starts compacting `storage` every `intervalMs`. The first turn only records the current
 * revision (kube does not compact on bootstrap); each later turn compacts to the revision recorded
 * by the turn before. Returns a handle whose stop() the server calls on shutdown.
 */
export function startCompactor(storage: Storage, opts: CompactorOptions = {}): Compactor {
  const intervalMs = opts.intervalMs ?? DEFAULT_COMPACTION_INTERVAL_MS;
  let version = 0;
  let revision = 0;
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const turn = async (): Promise<void> => {
    if (isCoordinated(storage)) {
      const next = await storage.compactTurn(version, revision);
      if (next.compacted) opts.onCompact?.(revision);
      version = next.version;
      revision = next.revision;
      return;
    }
    const target = revision;
    const current = Number(await storage.currentRevision());
    if (target > 0) {
      await storage.compact(String(target));
      opts.onCompact?.(target);
    }
    revision = current;
  };

  const runOnce = (): Promise<void> => {
    running ??= turn()
      .catch((err: unknown) => opts.onError?.(err))
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  const schedule = (): void => {
    if (stopped || intervalMs <= 0) return;
    timer = setTimeout(() => {
      void runOnce().then(schedule);
    }, intervalMs);
  };
  schedule();

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
