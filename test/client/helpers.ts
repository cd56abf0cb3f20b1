/**
 * Shared pieces of the client tests that run against a real kgen server (test/server/testserver):
 * a typed Widget client, a RestClient that records what it sends, a background consumer of an
 * event stream, and polling.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { ResourceClient, RestClient, type APIObject, type KubeObject, type RequestOptions, type ResponseStream, type RestConfig, type WatchEvent } from '@kgen/client';

export interface Widget extends KubeObject {
  spec: { replicas?: number; color?: string };
}

export const WIDGETS = { group: 'widgets.example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true };

/** A RestClient that records every request and stream it sends (retried attempts count once). */
export class RecordingRest extends RestClient {
  readonly sent: RequestOptions[] = [];

  constructor(config: RestConfig) {
    super({ qps: 0, ...config });
  }

  override request<T>(opts: RequestOptions): Promise<T> {
    this.sent.push(opts);
    return super.request<T>(opts);
  }

  override stream(opts: RequestOptions): Promise<ResponseStream> {
    this.sent.push(opts);
    return super.stream(opts);
  }

  watches(): RequestOptions[] {
    return this.sent.filter((r) => r.query?.watch === true);
  }

  lists(): RequestOptions[] {
    return this.sent.filter((r) => r.method === 'GET' && r.query?.watch === undefined && r.query?.limit !== undefined);
  }
}

export function widgetClient(rest: RestClient, namespace?: string): ResourceClient<Widget> {
  return new ResourceClient<Widget>(rest, WIDGETS, namespace);
}

export const newWidget = (name: string, replicas = 1, labels?: Record<string, string>): Widget => ({
  metadata: { name, ...(labels ? { labels } : {}) },
  spec: { replicas },
});

/** Consumes an event stream in the background. */
export function consume<T extends APIObject>(stream: AsyncIterable<WatchEvent<T>>) {
  const events: WatchEvent<T>[] = [];
  let error: unknown;
  const done = (async () => {
    try {
      for await (const e of stream) events.push(e);
    } catch (err) {
      error = err;
    }
  })();
  return { events, done, error: () => error };
}

/** `TYPE name replicas` for comparing event sequences. */
export const describeEvent = (e: WatchEvent<Widget>) => `${e.type} ${e.object.metadata.name} ${e.object.spec?.replicas ?? '-'}`;

export async function until(cond: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}

/** resourceVersions as numbers, asserting they strictly increase. */
export function assertIncreasing(events: WatchEvent<APIObject>[]): void {
  let last = -1;
  for (const e of events) {
    const rv = Number(e.object.metadata?.resourceVersion);
    if (!(rv > last)) throw new Error(`resourceVersion ${rv} of ${e.type} ${e.object.metadata?.name} does not follow ${last}`);
    last = rv;
  }
}
