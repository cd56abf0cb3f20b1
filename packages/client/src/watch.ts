/**
 * Decoding a watch stream: newline-delimited JSON WatchEvents (`?watch=true`), as client-go's
 * watch.StreamWatcher over a JSON framer. Kept apart from ResourceClient so a reflector or
 * informer can reuse it with its own resume and relist logic.
 */
import type { KubeObject, Status, WatchEvent } from '../../../runtime/api/meta.js';
import { goJSONSyntaxError } from '../../../runtime/api/json-syntax.js';
import { StatusError, isStatus, newStatus } from '../../../runtime/api/status.js';
import { noteRoundedReads } from './rounded-reads.js';

const EVENT_TYPES = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/**
 * The longest event line: client-go's streaming decoder (apimachinery serializer/streaming) grows
 * its buffer to 16 MiB and then refuses the frame (ErrObjectTooLarge), so a server that never
 * ends a line cannot make the client hold more.
 */
export const MAX_WATCH_EVENT_BYTES = 16 * 1024 * 1024;

/** client-go's StreamWatcher prefix for an event it cannot decode. */
const DECODE_ERROR = 'unable to decode an event from the watch stream';

/**
 * Yields each event of the stream in order. Events may be split across chunks anywhere, even
 * inside a multi-byte character. An ERROR event is thrown as StatusError carrying its Status, so a
 * compacted resourceVersion (410 Expired) surfaces as isGone(err). Ends when the stream ends.
 * A line longer than MAX_WATCH_EVENT_BYTES is an error; a line's pieces are joined once, when it
 * ends, so a long line costs linear time.
 */
export async function* decodeWatchStream<T = KubeObject>(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<WatchEvent<T>> {
  const decoder = new TextDecoder('utf8');
  // The line not yet ended: its pieces and their size in UTF-8 bytes.
  let pieces: string[] = [];
  let pendingBytes = 0;
  for await (const chunk of chunks) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    let newline: number;
    while ((newline = text.indexOf('\n', start)) >= 0) {
      pieces.push(text.slice(start, newline));
      const line = pieces.length === 1 ? pieces[0]! : pieces.join('');
      pieces = [];
      pendingBytes = 0;
      start = newline + 1;
      if (line.trim()) yield decodeWatchEvent<T>(line);
    }
    if (start === text.length) continue;
    const rest = start === 0 ? text : text.slice(start);
    pieces.push(rest);
    pendingBytes += start === 0 && typeof chunk !== 'string' ? chunk.byteLength : utf8Length(rest);
    if (pendingBytes > MAX_WATCH_EVENT_BYTES) throw new Error(`${DECODE_ERROR}: object to decode was longer than maximum allowed size`);
  }
  const last = pieces.join('') + decoder.decode();
  if (last.trim()) yield decodeWatchEvent<T>(last);
}

/** The UTF-8 size of a string (a surrogate pair counts 4). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xe000 ? 2 : 3;
  }
  return bytes;
}

/**
 * One event from one line of the stream; throws for an ERROR event or a malformed line. The
 * errors are client-go's and quote none of the line: a line may hold a Secret's data, and errors
 * end up in logs.
 */
export function decodeWatchEvent<T = KubeObject>(line: string): WatchEvent<T> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error(`${DECODE_ERROR}: ${goJSONSyntaxError(line) ?? 'invalid JSON'}`);
  }
  const event = value as { type?: unknown; object?: unknown };
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    throw new Error(`${DECODE_ERROR}: json: cannot unmarshal ${Array.isArray(event) ? 'array' : event === null ? 'null' : typeof event === 'boolean' ? 'bool' : typeof event} into Go value of type v1.WatchEvent`);
  }
  if (typeof event.type !== 'string' || !EVENT_TYPES.has(event.type)) {
    throw new Error(`${DECODE_ERROR}: got invalid watch event type: ${typeof event.type === 'string' ? event.type.slice(0, 64) : ''}`);
  }
  if (event.type === 'ERROR') throw new StatusError(errorStatus(event.object));
  noteRoundedReads(line, event);
  return event as WatchEvent<T>;
}

function errorStatus(object: unknown): Status {
  if (isStatus(object)) return object;
  return newStatus('InternalError', `watch stream: ERROR event without a Status: ${JSON.stringify(object)}`);
}
