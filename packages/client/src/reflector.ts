/**
 * Reflector: list, then watch, resuming and relisting as client-go's tools/cache Reflector with a
 * DeltaFIFO behind it. It yields one consistent stream of changes:
 *
 * - Start: without a resourceVersion (or with '0') it lists the collection in pages and yields an
 *   ADDED per object, then a SYNCED marker; with a resourceVersion it watches from there at once.
 * - It keeps the last resourceVersion seen, from every event including BOOKMARKs (it always asks
 *   for `allowWatchBookmarks=true`), and re-watches from it when the server ends a watch
 *   (timeoutSeconds) or the connection drops, with capped, jittered exponential backoff between
 *   failed attempts.
 * - On 410 Gone/Expired (the resourceVersion was compacted) or a too-large resourceVersion it
 *   relists, after the same backoff, and yields the difference from what it had delivered: ADDED for new objects, MODIFIED
 *   for changed ones (by resourceVersion), DELETED (with the last state it delivered, as
 *   client-go's DeletedFinalStateUnknown) for objects that went away; then SYNCED, and watches from
 *   the list's resourceVersion.
 * - No change is delivered twice: watch events at or below the last resourceVersion are dropped
 *   (resourceVersions are compared as numbers when both are decimal, as kube's are; otherwise an
 *   event repeating the version already delivered for that object is dropped).
 *
 * Started from a caller's resourceVersion, the reflector only knows objects it has seen events
 * for, so a relist cannot report deletions of objects that never changed since; objects it never
 * saw whose version is at or below the last one are taken as already known to the caller.
 */
import type { APIObject, WatchEvent } from '../../../runtime/api/meta.js';
import { StatusError, isGone } from '../../../runtime/api/status.js';
import { Backoff, type BackoffOptions } from './backoff.js';
import type { ListerWatcher } from './listwatch.js';
import { listAll } from './pager.js';
import { abortableSleep } from './rate-limiter.js';
import { isConnectionError } from './retry.js';
import { TimeoutError } from './transport.js';

/** client-go's minWatchTimeout: each watch asks the server to end it after 5–10 minutes. */
const MIN_WATCH_TIMEOUT_SECONDS = 300;
/** A watch that lasted this long without events still counts as healthy (backoff resets). */
const HEALTHY_WATCH_MS = 1_000;

export interface ResumableWatchOptions {
  /** Where to start: undefined, '' or '0' lists first; otherwise changes after this version. */
  resourceVersion?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** With a listing start, yield ADDED for the listed objects (default true); false yields only later changes. */
  initialEvents?: boolean;
  /** Also yield BOOKMARK events (default false); they always advance the resume point. */
  bookmarks?: boolean;
  /** Items per list page (default 500; 0: unpaged). */
  pageSize?: number;
  /** Backoff between failed attempts; default 800 ms doubling to 30 s with jitter 1.0, as the reflector. */
  backoff?: BackoffOptions;
  /** timeoutSeconds of each watch request; default random in [300, 600), as client-go. */
  watchTimeoutSeconds?: number;
  /** Which errors are retried after a backoff; default: transient ones (see isTransientError). Others are thrown. */
  shouldRetry?: (err: unknown) => boolean;
  /** Told of every error that is retried or leads to a relist, as the reflector's WatchErrorHandler. */
  onError?: (err: unknown) => void;
  /** Ends the stream quietly. */
  signal?: AbortSignal;
  /** Injectable for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** What a reflector yields: watch events, and SYNCED after each (re)list has been delivered. */
export type ReflectorEvent<T> =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'; object: T }
  | { type: 'SYNCED'; resourceVersion: string; initial: boolean };

/** `<namespace>/<name>`, or `<name>` without a namespace: client-go's MetaNamespaceKeyFunc. */
export function metaNamespaceKey(obj: APIObject): string {
  const { namespace, name } = obj.metadata ?? {};
  if (!name) throw new Error('object has no metadata.name');
  return namespace ? `${namespace}/${name}` : name;
}

/** Errors worth another attempt: connection failures, timeouts, 429 and 5xx (as the reflector retries). */
export function isTransientError(err: unknown): boolean {
  if (isConnectionError(err) || err instanceof TimeoutError) return true;
  return err instanceof StatusError && (err.code === 429 || err.code >= 500);
}

/** kube's NewTooLargeResourceVersionError: the server has not reached the requested version. */
export function isTooLargeResourceVersion(err: unknown): boolean {
  if (!(err instanceof StatusError)) return false;
  const causes = err.status.details?.causes ?? [];
  return causes.some((c) => c.reason === 'ResourceVersionTooLarge') || /too large resource version/i.test(err.message);
}

export class Reflector<T extends APIObject> {
  /** What the consumer has been told, by key. */
  private known = new Map<string, T>();
  /** Whether known holds every object (a list has been delivered). */
  private complete = false;
  private lastRV: string;
  private readonly backoff: Backoff;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(
    readonly client: ListerWatcher<T>,
    private readonly opts: ResumableWatchOptions = {},
  ) {
    this.lastRV = opts.resourceVersion && opts.resourceVersion !== '0' ? opts.resourceVersion : '';
    this.backoff = new Backoff(opts.backoff);
    this.sleep = opts.sleep ?? abortableSleep;
  }

  /** The resourceVersion the next watch resumes from ('' before the first list). */
  get resourceVersion(): string {
    return this.lastRV;
  }

  /** Runs until opts.signal aborts or an error shouldRetry refuses; iterate once. */
  async *run(): AsyncGenerator<ReflectorEvent<T>, void, undefined> {
    const { signal } = this.opts;
    let needList = this.lastRV === '';
    let initial = true;
    while (!signal?.aborted) {
      try {
        if (needList) {
          yield* this.relist(initial);
          needList = false;
          initial = false;
        }
        if (yield* this.watchOnce()) this.backoff.reset();
        else if (!(await this.pause())) return;
      } catch (err) {
        if (signal?.aborted) return;
        const relist = isGone(err) || isTooLargeResourceVersion(err);
        if (!relist && !(this.opts.shouldRetry ?? isTransientError)(err)) throw err;
        this.opts.onError?.(err);
        if (relist) needList = true;
        // Every relist or retry waits the backoff first, a compacted version's too: client-go's
        // reflector runs its delay between ListAndWatch calls, and a watch ended by 410 returns
        // from one. A server that answers 410 in a loop is then asked ever more slowly (the
        // backoff resets only after a healthy watch).
        if (!(await this.pause())) return;
      }
    }
  }

  /** One watch from lastRV; returns whether it was healthy (delivered something or lasted). */
  private async *watchOnce(): AsyncGenerator<ReflectorEvent<T>, boolean, undefined> {
    const { labelSelector, fieldSelector, signal } = this.opts;
    const started = Date.now();
    let progressed = false;
    const timeoutSeconds = this.opts.watchTimeoutSeconds ?? Math.floor(MIN_WATCH_TIMEOUT_SECONDS * (1 + Math.random()));
    const events = this.client.watch({ resourceVersion: this.lastRV, allowWatchBookmarks: true, labelSelector, fieldSelector, timeoutSeconds, signal });
    for await (const event of events) {
      const rv = event.object?.metadata?.resourceVersion;
      if (!rv) throw new Error(`watch ${event.type} event without metadata.resourceVersion`);
      if (event.type === 'BOOKMARK') {
        if (isNewer(rv, this.lastRV)) this.lastRV = rv;
        progressed = true;
        yield { type: 'BOOKMARK', object: event.object };
        continue;
      }
      if (event.type === 'ERROR' || this.isRepeat(event, rv)) continue;
      this.record(event);
      this.lastRV = rv;
      progressed = true;
      yield { type: event.type, object: event.object };
    }
    return progressed || Date.now() - started >= HEALTHY_WATCH_MS;
  }

  /** Lists everything and yields the difference from what was delivered, then SYNCED. */
  private async *relist(initial: boolean): AsyncGenerator<ReflectorEvent<T>, void, undefined> {
    const { labelSelector, fieldSelector, pageSize, signal } = this.opts;
    const snapshot = await listAll(this.client, { labelSelector, fieldSelector, pageSize, signal });
    const next = new Map<string, T>();
    const changes: Array<{ type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T }> = [];
    for (const item of snapshot.items) {
      const key = metaNamespaceKey(item);
      next.set(key, item);
      const prev = this.known.get(key);
      if (prev) {
        if (prev.metadata?.resourceVersion !== item.metadata?.resourceVersion) changes.push({ type: 'MODIFIED', object: item });
      } else if (this.complete || !this.presumedKnown(item)) {
        changes.push({ type: 'ADDED', object: item });
      }
    }
    // Relist differences in the order they happened, as far as versions tell; the initial list keeps list order.
    if (!initial) sortByResourceVersion(changes);
    for (const [key, object] of this.known) if (!next.has(key)) changes.push({ type: 'DELETED', object });
    this.known = next;
    this.complete = true;
    this.lastRV = snapshot.resourceVersion;
    if (!initial || this.opts.initialEvents !== false) yield* changes;
    yield { type: 'SYNCED', resourceVersion: snapshot.resourceVersion, initial };
  }

  /** A partial reflector takes objects at or below its resume point as ones the caller has. */
  private presumedKnown(item: T): boolean {
    const rv = parseRV(item.metadata?.resourceVersion);
    const last = parseRV(this.lastRV);
    return rv !== undefined && last !== undefined && rv <= last;
  }

  private isRepeat(event: WatchEvent<T>, rv: string): boolean {
    const cur = parseRV(rv);
    const last = parseRV(this.lastRV);
    if (cur !== undefined && last !== undefined) return cur <= last;
    // Opaque versions: only the version already delivered for this object is a repeat.
    return event.type !== 'DELETED' && this.known.get(metaNamespaceKey(event.object))?.metadata?.resourceVersion === rv;
  }

  private record(event: WatchEvent<T>): void {
    const key = metaNamespaceKey(event.object);
    if (event.type === 'DELETED') this.known.delete(key);
    else this.known.set(key, event.object);
  }

  /** Sleeps the next backoff delay; false when aborted meanwhile. */
  private async pause(): Promise<boolean> {
    try {
      await this.sleep(this.backoff.next(), this.opts.signal);
      return true;
    } catch (err) {
      if (this.opts.signal?.aborted) return false;
      throw err;
    }
  }
}

/**
 * The typed, resilient watch: ADDED/MODIFIED/DELETED (and BOOKMARK when asked) events, resumed
 * across disconnects and relisted on 410, each change exactly once. Ends when opts.signal aborts
 * or the consumer stops; throws errors opts.shouldRetry refuses (by default: not transient).
 */
export async function* watchWithResume<T extends APIObject>(
  client: ListerWatcher<T>,
  opts: ResumableWatchOptions = {},
): AsyncGenerator<WatchEvent<T>, void, undefined> {
  for await (const event of new Reflector(client, opts).run()) {
    if (event.type === 'SYNCED' || (event.type === 'BOOKMARK' && !opts.bookmarks)) continue;
    yield event;
  }
}

function parseRV(rv: string | undefined): bigint | undefined {
  return rv && /^\d+$/.test(rv) ? BigInt(rv) : undefined;
}

/** Whether rv is past last; opaque versions always count as newer. */
function isNewer(rv: string, last: string): boolean {
  const a = parseRV(rv);
  const b = parseRV(last);
  return a === undefined || b === undefined || a > b;
}

function sortByResourceVersion<T extends APIObject>(changes: Array<{ object: T }>): void {
  const versions = changes.map((c) => parseRV(c.object.metadata?.resourceVersion));
  if (versions.some((v) => v === undefined)) return;
  changes.sort((a, b) => {
    const x = parseRV(a.object.metadata?.resourceVersion)!;
    const y = parseRV(b.object.metadata?.resourceVersion)!;
    return x < y ? -1 : x > y ? 1 : 0;
  });
}
