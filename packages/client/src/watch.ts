/**
 * Decoding a watch stream: newline-delimited JSON WatchEvents (`?watch=true`), as client-go's
 * watch.StreamWatcher over a JSON framer. Kept apart from ResourceClient so a reflector or
 * informer can reuse it with its own resume and relist logic.
 */
import type { KubeObject, Status, WatchEvent } from '../../../runtime/api/meta.js';
import { StatusError, isStatus, newStatus } from '../../../runtime/api/status.js';
import { noteRoundedReads } from './rounded-reads.js';

const EVENT_TYPES = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/**
 * Yields each event of the stream in order. Events may be split across chunks anywhere, even
 * inside a multi-byte character. An ERROR event is thrown as StatusError carrying its Status, so a
 * compacted resourceVersion (410 Expired) surfaces as isGone(err). Ends when the stream ends.
 */
export async function* decodeWatchStream<T = KubeObject>(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<WatchEvent<T>> {
  const decoder = new TextDecoder('utf8');
  let pending = '';
  for await (const chunk of chunks) {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.trim()) yield decodeWatchEvent<T>(line);
    }
  }
  pending += decoder.decode();
  if (pending.trim()) yield decodeWatchEvent<T>(pending);
}

/** One event from one line of the stream; throws for an ERROR event or a malformed line. */
export function decodeWatchEvent<T = KubeObject>(line: string): WatchEvent<T> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error(`watch stream: invalid event JSON: ${line.slice(0, 200)}`);
  }
  const event = value as { type?: unknown; object?: unknown };
  if (typeof event !== 'object' || event === null || typeof event.type !== 'string' || !EVENT_TYPES.has(event.type)) {
    throw new Error(`watch stream: not a watch event: ${line.slice(0, 200)}`);
  }
  if (event.type === 'ERROR') throw new StatusError(errorStatus(event.object));
  noteRoundedReads(line, event);
  return event as WatchEvent<T>;
}

function errorStatus(object: unknown): Status {
  if (isStatus(object)) return object;
  return newStatus('InternalError', `watch stream: ERROR event without a Status: ${JSON.stringify(object)}`);
}
