/**
 * /metrics across the worker processes of `kgen serve --workers N` (node:cluster): whichever
 * worker a scrape reaches asks the primary, which collects every worker's registry with
 * prom-client's AggregatorRegistry and answers with the aggregate (counters and histograms
 * summed, per-family aggregators as declared in ./series.ts). So a scrape sees one server, as
 * clients do.
 *
 * Messages over the cluster's IPC channel: worker → primary `kgen:metrics-request` {id};
 * primary → worker `kgen:metrics-reply` {id, text, contentType} or {id, error}.
 */
import cluster from 'node:cluster';
// Types only: prom-client (~80 CommonJS files with @opentelemetry/api) is imported when a worker
// joins or the primary serves, never at a single server's start (cli/serve-runtime.ts re-exports
// this module, so a static import would load it before every server listens).
import type { Registry } from 'prom-client';

const REQUEST = 'kgen:metrics-request';
const REPLY = 'kgen:metrics-reply';
/** prom-client gives up on a worker after 5 s; the worker waits a little longer for the primary. */
const REPLY_TIMEOUT_MS = 8_000;

interface Reply {
  type: typeof REPLY;
  id: number;
  text?: string;
  contentType?: string;
  error?: string;
}

export interface MetricsText {
  text: string;
  contentType: string;
}

/**
 * In a worker: answers the primary's requests for this worker's metrics (from `registry`), and
 * returns the function /metrics calls for everyone's. Call it at start, before the first scrape:
 * a worker that does not answer makes the primary's collection time out.
 */
export async function joinClusterMetrics(registry: Registry): Promise<() => Promise<MetricsText>> {
  if (!cluster.isWorker) throw new Error('joinClusterMetrics: not a cluster worker');
  const { AggregatorRegistry } = await import('prom-client');
  // Constructing one adds prom-client's worker-side listener; setRegistries says what it reports.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  const pending = new Map<number, { resolve(m: MetricsText): void; reject(err: Error): void; timer: NodeJS.Timeout }>();
  let nextId = 0;
  process.on('message', (message: Reply) => {
    if (message?.type !== REPLY) return;
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    clearTimeout(waiting.timer);
    if (message.error !== undefined) waiting.reject(new Error(`metrics of the other workers: ${message.error}`));
    else waiting.resolve({ text: message.text ?? '', contentType: message.contentType ?? registry.contentType });
  });
  return () =>
    new Promise<MetricsText>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error('metrics of the other workers: no answer from the primary process'));
      }, REPLY_TIMEOUT_MS);
      pending.set(id, { resolve, reject, timer });
      process.send!({ type: REQUEST, id });
    });
}

/** In the primary: answers the workers' requests with every worker's metrics, aggregated (from when it resolves). */
export async function serveClusterMetrics(): Promise<void> {
  const { AggregatorRegistry } = await import('prom-client');
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== REQUEST) return;
    const reply = (r: Omit<Reply, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: REPLY, id: message.id, ...r });
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text, contentType: aggregator.contentType }),
      (err: Error) => reply({ error: err.message }),
    );
  });
}
