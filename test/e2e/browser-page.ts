/**
 * The page the browser test bundles with esbuild (platform browser): the generated client over
 * @kgen/client's fetch transport, with a bearer token, against kgen serve on another origin. It
 * watches Widgets, creates and patches one, lists them, checks that a bad token is Unauthorized,
 * and posts what it saw to /result on its own origin.
 */
import { FetchTransport, RestClient, isUnauthorized } from '@kgen/client';
import { Clientset } from '../../generated/client/index.js';

const params = new URLSearchParams(location.search);
const server = params.get('server')!;
const token = params.get('token')!;
const result: Record<string, unknown> = {};

async function main(): Promise<void> {
  const clientset = new Clientset({ server, token, qps: 0 });
  result.transport = (clientset.rest as unknown as { transport: unknown }).transport instanceof FetchTransport ? 'fetch' : 'other';
  const widgets = clientset.widgetsExampleComV1.widgets('default');
  const stop = new AbortController();
  const events: string[] = [];
  const watching = (async () => {
    for await (const event of widgets.watch({ signal: stop.signal })) {
      events.push(`${event.type} ${event.object.metadata.name} ${event.object.spec.replicas ?? ''}`.trim());
      if (events.length === 2) break;
    }
  })();
  await widgets.create({ apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'from-browser' }, spec: { replicas: 1, color: 'blue' } });
  await widgets.mergePatch('from-browser', { spec: { replicas: 3 } });
  result.list = (await widgets.list()).items.map((w) => w.metadata.name);
  await watching;
  stop.abort();
  result.events = events;
  const stranger = new Clientset(new RestClient({ server, token: 'not-a-token', qps: 0, maxRetries: 0 }));
  try {
    await stranger.widgetsExampleComV1.widgets('default').list();
    result.badToken = 'accepted';
  } catch (err) {
    result.badToken = isUnauthorized(err) ? 'Unauthorized' : String(err);
  }
}

main()
  .catch((err: Error) => (result.error = String(err?.stack ?? err)))
  .finally(() => fetch('/result', { method: 'POST', body: JSON.stringify(result) }));
