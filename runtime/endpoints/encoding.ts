/**
 * The JSON fast path of responses (kube's cachingObject serialization): a response body that IS a
 * watch-cache object, or a list whose items all are (or are watch-cache entries no one decoded),
 * is written from the objects' cached encodings instead of being serialized again. Anything else (Tables, PartialObjectMetadata,
 * converted or field-selected objects, copies) is a different object and takes the normal path;
 * so does YAML and protobuf.
 *
 * Every function here produces exactly the bytes JSON.stringify would.
 */
import { encodedObject, isCachedObject } from '../storage/cacher/cached-object.js';
import type { CacheEntry } from '../storage/cacher/cache-entry.js';
import { undecodedEntries } from '../storage/cacher/lazy-items.js';

const COMMA = 0x2c;

/** The UTF-8 JSON of body from cached encodings, or undefined when body must be serialized. */
export function encodedJSON(body: unknown): Buffer | undefined {
  const own = encodedObject(body);
  if (own) return own;
  return encodedList(body);
}

/**
 * A list object whose items are cache objects, or still undecoded watch-cache entries
 * (storage/cacher/lazy-items.ts): its envelope around the items' stored encodings.
 */
function encodedList(body: unknown): Buffer | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const entries = undecodedEntries(body);
  if (entries) return entries.length === 0 ? undefined : encodedEntries(body, entries);
  const items = (body as { items?: unknown }).items;
  if (!Array.isArray(items) || items.length === 0) return undefined;
  const encodings: Buffer[] = new Array(items.length);
  let length = 0;
  for (let i = 0; i < items.length; i++) {
    const bytes = encodedObject(items[i]);
    if (!bytes) return undefined;
    encodings[i] = bytes;
    length += bytes.length;
  }
  const { head, tail } = envelopeOf(body);
  const headLength = Buffer.byteLength(head);
  const out = acquireBuffer(headLength + length + (encodings.length - 1) + Buffer.byteLength(tail));
  out.write(head, 0);
  let offset = headLength;
  for (let i = 0; i < encodings.length; i++) {
    if (i > 0) out[offset++] = COMMA;
    out.set(encodings[i]!, offset);
    offset += encodings[i]!.length;
  }
  out.write(tail, offset);
  return out;
}

/**
 * The list body from its undecoded entries' bytes. An entry whose object is decoded anyway (one
 * of the recently read or written objects the cache keeps, see cache-entry.ts) is copied from
 * its object's Buffer (made once, then kept with the object; ~1.7 × faster to copy than a
 * string) and counts as read, as a decoding read would have counted it; the others from their
 * stored latin1 string. Both are the same bytes, so the length is known from the strings.
 */
function encodedEntries(body: object, entries: readonly CacheEntry[]): Buffer {
  let length = entries.length - 1;
  for (let i = 0; i < entries.length; i++) length += entries[i]!.encoded.length;
  const { head, tail } = envelopeOf(body);
  const headLength = Buffer.byteLength(head);
  const out = acquireBuffer(headLength + length + Buffer.byteLength(tail));
  const writer = out as unknown as Latin1Writable;
  out.write(head, 0);
  let offset = headLength;
  for (let i = 0; i < entries.length; i++) {
    if (i > 0) out[offset++] = COMMA;
    const entry = entries[i]!;
    const bytes = entry.decoded !== undefined ? encodedObject(entry.object()) : undefined;
    // (The same bytes by cache-entry.ts's contract; the length check keeps the body exact anyway.)
    if (bytes && bytes.length === entry.encoded.length) {
      out.set(bytes, offset);
      offset += bytes.length;
    } else offset += writer.latin1Write(entry.encoded, offset, entry.encoded.length);
  }
  out.write(tail, offset);
  return out;
}

/**
 * Buffer's own latin1 writer (what buf.write(s, offset, 'latin1') ends in), called directly:
 * buf.write's argument handling, shared with every other caller in the server, showed as much
 * self time as the copy itself in the LIST profile.
 */
interface Latin1Writable {
  latin1Write(s: string, offset: number, length: number): number;
}

/**
 * body's JSON around its `items` array, in JSON.stringify's order: `head` up to and including
 * `"items":[`, `tail` from the closing `]`. The other fields are stringified; `items` itself is
 * never read.
 */
function envelopeOf(body: object): { head: string; tail: string } {
  let head = '';
  let tail = ']';
  let afterItems = false;
  for (const key of Object.keys(body)) {
    const separator = head === '' ? '{' : ',';
    if (key === 'items') {
      head += `${separator}"items":[`;
      afterItems = true;
      continue;
    }
    const json = JSON.stringify((body as Record<string, unknown>)[key]) as string | undefined;
    if (json === undefined) continue;
    if (afterItems) tail += `,${JSON.stringify(key)}:${json}`;
    else head += `${separator}${JSON.stringify(key)}:${json}`;
  }
  return { head, tail: `${tail}}` };
}

// ---- reusable output buffers ----
// A large list body is a fresh multi-hundred-KB allocation per request; outside V8's heap, such
// allocations drive full garbage collections. The server hands a written body back with
// releaseBuffer() once the socket is done with it, and the next large body reuses it.

const POOL_MIN_BYTES = 64 * 1024;
const POOL_MAX_BYTES = 8 * 1024 * 1024;
const POOL_MAX_BUFFERS = 16;
/** Free buffers (whole backing stores), any size class. */
const free: Buffer[] = [];
/** Backing stores lent out by acquireBuffer and not yet released. */
const lent = new WeakSet<ArrayBufferLike>();

/** A buffer of exactly `size` bytes (contents undefined), reused from the pool when large. */
function acquireBuffer(size: number): Buffer {
  if (size < POOL_MIN_BYTES || size > POOL_MAX_BYTES) return Buffer.allocUnsafe(size);
  let best = -1;
  for (let i = 0; i < free.length; i++) {
    if (free[i].length >= size && (best < 0 || free[i].length < free[best].length)) best = i;
  }
  const whole = best >= 0 ? free.splice(best, 1)[0] : Buffer.allocUnsafeSlow(2 ** Math.ceil(Math.log2(size)));
  lent.add(whole.buffer);
  return whole.subarray(0, size);
}

/**
 * Whether body came from the pool: the server then returns it with releaseBuffer() once nothing
 * reads it any more (the socket wrote it). Releasing other bodies, or twice, is harmless.
 */
export function isPooledBuffer(body: Buffer): boolean {
  return body.length >= POOL_MIN_BYTES && lent.has(body.buffer);
}

/** See isPooledBuffer. */
export function releaseBuffer(body: Buffer): void {
  if (body.length < POOL_MIN_BYTES || !lent.has(body.buffer)) return;
  lent.delete(body.buffer);
  if (free.length < POOL_MAX_BUFFERS) free.push(Buffer.from(body.buffer));
}
