/**
 * An event recorder, as client-go's tools/record (EventBroadcaster + EventRecorder +
 * EventCorrelator) writing core/v1 Events:
 *
 * - event(object, type, reason, message) never blocks and never throws: the event goes into a
 *   bounded buffer (1000, as client-go's; the oldest is dropped past it) that one writer drains.
 * - Repeats (same object, type, reason, message and source) within the cache are one Event whose
 *   count and lastTimestamp grow (a merge patch), not new objects.
 * - Similar events (same object, type, reason; different messages): from the 10th within 10
 *   minutes, one aggregate Event "(combined from similar events): <message>" counts them.
 * - A spam filter: a token bucket per source and object (burst 25, one token per 5 minutes).
 * - Failed writes are retried a few times, then dropped (events are best effort).
 */
import type { APIObject } from '../../../../runtime/api/meta.js';
import { isNotFound } from '../../../../runtime/api/status.js';
import { realClock, sleep, type ToolkitClock } from './clock.js';

export type EventType = 'Normal' | 'Warning';

export interface CoreEvent extends APIObject {
  involvedObject: { apiVersion?: string; kind?: string; namespace?: string; name?: string; uid?: string; resourceVersion?: string };
  reason?: string;
  message?: string;
  type?: string;
  source?: { component?: string; host?: string };
  count?: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  reportingComponent?: string;
  reportingInstance?: string;
}

/** What the recorder needs of a typed client (`clientset.coreV1.events()` has it). */
export interface EventClient {
  inNamespace(namespace: string): { create(obj: CoreEvent): Promise<APIObject>; mergePatch(name: string, partial: unknown): Promise<APIObject> };
}

export interface EventRecorderOptions {
  /** `events` client across namespaces (`clientset.coreV1.events()`): events go to the object's namespace. */
  client: EventClient;
  /** source.component / reportingComponent, e.g. `widget-controller`. */
  component: string;
  /** source.host / reportingInstance. */
  instance?: string;
  clock?: ToolkitClock;
  /** Spam filter per source and object: burst and refill period (default 25 and 5 minutes). */
  burst?: number;
  refillPeriodMs?: number;
  /** Buffered events before the oldest is dropped; default 1000. */
  bufferSize?: number;
  onError?(err: unknown): void;
}

const MAX_LRU = 4096;
const AGGREGATE_MAX_EVENTS = 10;
const AGGREGATE_INTERVAL_MS = 10 * 60 * 1000;
const WRITE_ATTEMPTS = 5;
const RETRY_MS = 1000;

const seconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

interface Cached {
  name: string;
  namespace: string;
  count: number;
  firstTimestamp: string;
}

export class EventRecorder {
  private readonly clock: ToolkitClock;
  private readonly buffer: CoreEvent[] = [];
  private readonly cache = new Map<string, Cached>();
  private readonly similar = new Map<string, { messages: Set<string>; since: number }>();
  private readonly buckets = new Map<string, { tokens: number; last: number }>();
  private writing?: Promise<void>;
  private stopped = false;
  /** Events dropped (buffer full, spam filter, failed writes). */
  dropped = 0;

  constructor(private readonly opts: EventRecorderOptions) {
    this.clock = opts.clock ?? realClock;
  }

  /** Records an event about object; returns at once. */
  event(object: APIObject, type: EventType, reason: string, message: string): void {
    if (this.stopped) return;
    const meta = object.metadata ?? {};
    const now = seconds(this.clock.now());
    const event: CoreEvent = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { namespace: meta.namespace || 'default' },
      involvedObject: { apiVersion: object.apiVersion, kind: object.kind, namespace: meta.namespace, name: meta.name, uid: meta.uid, resourceVersion: meta.resourceVersion },
      reason,
      message,
      type,
      source: { component: this.opts.component, ...(this.opts.instance ? { host: this.opts.instance } : {}) },
      count: 1,
      firstTimestamp: now,
      lastTimestamp: now,
      reportingComponent: this.opts.component,
      reportingInstance: this.opts.instance ?? '',
    };
    if (this.buffer.length >= (this.opts.bufferSize ?? 1000)) {
      this.buffer.shift();
      this.dropped++;
    }
    this.buffer.push(event);
    // Written after the caller returns: recording never does the caller's work.
    this.writing ??= Promise.resolve()
      .then(() => this.drain())
      .finally(() => (this.writing = undefined));
  }

  eventf(object: APIObject, type: EventType, reason: string, format: string, ...args: unknown[]): void {
    let i = 0;
    this.event(object, type, reason, format.replace(/%[sdv]/g, () => String(args[i++])));
  }

  /** Resolves once every buffered event has been written (or dropped). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** Stops accepting events and waits for the buffer to drain. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.flush();
  }

  private async drain(): Promise<void> {
    for (let event = this.buffer.shift(); event; event = this.buffer.shift()) {
      try {
        await this.correlateAndWrite(event);
      } catch (err) {
        this.dropped++;
        this.opts.onError?.(err);
      }
    }
  }

  /** The spam filter: one token per event, per source and object. */
  private allowed(event: CoreEvent): boolean {
    const o = event.involvedObject;
    const key = [this.opts.component, this.opts.instance, o.kind, o.namespace, o.name, o.uid, o.apiVersion].join('\u0000');
    const burst = this.opts.burst ?? 25;
    const period = this.opts.refillPeriodMs ?? 5 * 60 * 1000;
    const now = this.clock.now();
    const bucket = this.buckets.get(key) ?? { tokens: burst, last: now };
    bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.last) / period);
    bucket.last = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Past 10 different messages for one object, type and reason in 10 minutes, events share one aggregate message. */
  private aggregate(event: CoreEvent): { event: CoreEvent; aggregated: boolean } {
    const o = event.involvedObject;
    const key = [o.kind, o.namespace, o.name, o.uid, event.type, event.reason].join('\u0000');
    const now = this.clock.now();
    let entry = this.similar.get(key);
    if (!entry || now - entry.since > AGGREGATE_INTERVAL_MS) {
      entry = { messages: new Set(), since: now };
      this.similar.set(key, entry);
    }
    entry.messages.add(event.message ?? '');
    if (entry.messages.size < AGGREGATE_MAX_EVENTS) return { event, aggregated: false };
    return { event: { ...event, message: `(combined from similar events): ${event.message}` }, aggregated: true };
  }

  private async correlateAndWrite(raw: CoreEvent): Promise<void> {
    if (!this.allowed(raw)) {
      this.dropped++;
      return;
    }
    const { event, aggregated } = this.aggregate(raw);
    const o = event.involvedObject;
    // The aggregate Event is one object whatever its latest message (client-go's aggregateKey).
    const key = [o.kind, o.namespace, o.name, o.uid, o.apiVersion, event.type, event.reason, aggregated ? '(combined)' : event.message, this.opts.component].join('\u0000');
    const cached = this.cache.get(key);
    const namespace = event.metadata?.namespace ?? 'default';
    for (let attempt = 1; ; attempt++) {
      try {
        if (cached) {
          await this.opts.client.inNamespace(namespace).mergePatch(cached.name, { count: cached.count + 1, lastTimestamp: event.lastTimestamp, ...(aggregated ? { message: event.message } : {}) });
          cached.count++;
        } else {
          const name = `${o.name ?? 'object'}.${(BigInt(this.clock.now()) * 1_000_000n + BigInt(this.cache.size % 1_000_000)).toString(16)}`;
          const created = await this.opts.client.inNamespace(namespace).create({ ...event, metadata: { name, namespace } });
          this.remember(key, { name: created.metadata?.name ?? name, namespace, count: 1, firstTimestamp: event.firstTimestamp! });
        }
        return;
      } catch (err) {
        // The aggregated Event went (TTL or deletion): start a new one.
        if (cached && isNotFound(err)) {
          this.cache.delete(key);
          return this.correlateAndWrite(raw);
        }
        if (attempt >= WRITE_ATTEMPTS || this.stopped) throw err;
        await sleep(this.clock, RETRY_MS);
      }
    }
  }

  private remember(key: string, value: Cached): void {
    if (this.cache.size >= MAX_LRU) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, value);
  }
}
