/**
 * `kgen serve --workers N`: N replica processes of the server behind one listening socket
 * (node:cluster; the primary holds the socket and hands each new connection to a worker in turn).
 *
 * - Only on etcd storage: workers share nothing but etcd, exactly as replicas do (each has its own
 *   watch cache following etcd, so every read and watch is consistent across them). SQLite has a
 *   single writer: one process.
 * - The first worker starts alone and makes the data dir's PKI, service-account key and
 *   kubeconfig; the others start once it is ready and use them (as a second replica on the same
 *   data dir does). The primary prints `kgen API server: <url>` once all N are ready.
 * - A worker that exits is replaced (after a second when it had not lived for five, so a worker
 *   that cannot start does not spin). A worker that fails before the server was first ready
 *   stops everything: the error is in its output.
 * - /metrics, whichever worker answers it, is every worker's metrics aggregated by the primary
 *   (runtime/metrics/cluster.ts).
 * - SIGINT/SIGTERM: the primary asks every worker to shut down gracefully and exits when they
 *   are gone (a second signal kills them). A worker whose primary dies exits (node:cluster).
 */
import cluster, { type Worker } from 'node:cluster';

const STOP = 'kgen:stop';
const READY = 'kgen:ready';
const REPLACE_BACKOFF_MS = 1_000;
const SHORT_LIFE_MS = 5_000;
const STOP_TIMEOUT_MS = 30_000;

export interface ReadyMessage {
  type: typeof READY;
  url: string;
  kubeconfigPath?: string;
}

/** The storage --workers N may run on: etcd only. Throws the error the CLI prints otherwise. */
export function checkWorkersStorage(workers: number, storage: string): void {
  if (workers <= 1) return;
  if (storage.startsWith('etcd://')) return;
  const kind = storage.startsWith('memory:') ? 'memory storage is private to one process' : 'SQLite has a single writer, so it is served by one process';
  throw new Error(`--workers ${workers} needs etcd storage (--storage etcd://… or --etcd-servers): ${kind}; run without --workers, or with --workers 1`);
}

/** In a worker: tells the primary the server is listening. */
export function announceWorkerReady(url: string, kubeconfigPath: string | undefined): void {
  process.send!({ type: READY, url, kubeconfigPath } satisfies ReadyMessage);
}

/** In a worker: calls `stop` when the primary asks this worker to shut down. */
export function onWorkerStop(stop: () => void): void {
  process.on('message', (message: { type?: string }) => {
    if (message?.type === STOP) stop();
  });
}

/** The primary: forks `count` workers running this same command line, and keeps them running. */
export async function runPrimary(count: number): Promise<void> {
  const { serveClusterMetrics } = await import('../runtime/metrics/cluster.js');
  await serveClusterMetrics();
  const startedAt = new Map<number, number>();
  const ready = new Set<number>();
  let announced = false;
  let stopping = false;

  const fork = (): Worker => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
    return worker;
  };
  const live = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);

  const stopAll = (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    const workers = live();
    if (workers.length === 0) process.exit(exitCode);
    for (const w of workers) if (w.isConnected()) w.send({ type: STOP });
    setTimeout(() => {
      for (const w of live()) w.process.kill('SIGKILL');
    }, STOP_TIMEOUT_MS).unref();
    cluster.on('exit', () => {
      if (live().length === 0) process.exit(exitCode);
    });
  };

  cluster.on('message', (worker, message: ReadyMessage) => {
    if (message?.type !== READY) return;
    ready.add(worker.id);
    if (announced) {
      console.error(`kgen serve: worker ${worker.process.pid} ready`);
      return;
    }
    if (ready.size === 1) for (let i = 1; i < count; i++) fork();
    if (ready.size === count) {
      announced = true;
      // One write: whoever waits for the first line reads the pids with it.
      console.log(`workers: ${count} (pids ${live().map((w) => w.process.pid).join(' ')})\nkgen API server: ${message.url}`);
      if (message.kubeconfigPath) {
        console.log(`kubeconfig: ${message.kubeconfigPath}`);
        console.log(`try: KUBECONFIG=${message.kubeconfigPath} kubectl api-resources`);
      }
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    ready.delete(worker.id);
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (stopping) return;
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    if (!announced) {
      console.error(`kgen serve: worker ${worker.process.pid} stopped (${how}) before the server was ready`);
      stopAll(1);
      return;
    }
    console.error(`kgen serve: worker ${worker.process.pid} stopped (${how}); starting another`);
    setTimeout(() => {
      if (!stopping) fork();
    }, lived < SHORT_LIFE_MS ? REPLACE_BACKOFF_MS : 0);
  });

  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (++signals > 1) {
      for (const w of live()) w.process.kill('SIGKILL');
      process.exit(1);
    }
    console.error(`received ${signal}, shutting down ${live().length} workers`);
    stopAll(0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  fork();
}
