/**
 * Decodes Kubernetes protobuf request bodies (Content-Type application/vnd.kubernetes.protobuf),
 * which kubectl v1.32 sends for built-in kinds such as `create namespace` and `auth can-i`.
 *
 * Wire format (k8s.io/apimachinery/pkg/runtime/serializer/protobuf): the magic prefix `k8s\0`, then
 * a runtime.Unknown message {typeMeta 1 {apiVersion 1, kind 2}, raw 2, contentEncoding 3,
 * contentType 4}; `raw` is the object's own message. Objects decode through small field tables
 * (the generated.proto field numbers) into their JSON form, with Go's omitempty for zero scalars.
 *
 * The kinds: every built-in kind, whose message tables protobuf-schema.ts derives from its
 * compiled schema (the one definition in generator/builtin/) and the field numbers of
 * protobuf-fields.ts, registered in protobuf-registry.ts when the server installs the kind. Only
 * what no compiled kind describes is written here: the envelope, metav1 (ObjectMeta,
 * DeleteOptions) and the TokenRequest subresource's body (KINDS).
 *
 * Contract: returns the JSON-form object with apiVersion and kind from typeMeta, or throws a
 * StatusError — BadRequest for a malformed body, UnsupportedMediaType (415) naming the kind for a
 * kind it has no table for. It never throws anything else.
 */
import { StatusError, newBadRequest, statusError } from '../api/status.js';
import { numberOutOfRangeError } from './json-numbers.js';
import { inexactIntegerMessage, inexactIntegerOf, isInexactInt64, type InexactInteger } from '../api/json-integers.js';
import { registeredMessage } from './protobuf-registry.js';
import type { FieldDesc, MessageDesc } from './protobuf-desc.js';

export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';

const MAGIC = [0x6b, 0x38, 0x73, 0x00]; // "k8s\0"

/** A malformed body; turned into a BadRequest at the entry point. */
class WireError extends Error {}

/**
 * An integer a double cannot hold (api/json-integers.ts), refused rather than rounded. Found with the
 * path inside the innermost message (or raw JSON); each enclosing message puts its field in front
 * as the error passes through it, so the message names the field's full path (`spec.x[1].y`).
 */
class InexactIntegerError extends WireError {
  constructor(
    readonly found: InexactInteger,
    readonly language: string,
  ) {
    super(inexactIntegerMessage(found, language));
  }

  /** The same integer seen from one level up: `place` (a field name or a list index) in front. */
  under(place: string | number): InexactIntegerError {
    const below = this.found.path;
    const path = typeof place === 'number' ? `[${place}]${below === '' || below.startsWith('[') ? below : `.${below}`}` : below === '' || below.startsWith('[') ? `${place}${below}` : `${place}.${below}`;
    return new InexactIntegerError({ literal: this.found.literal, path }, this.language);
  }
}

// ---- wire reader -------------------------------------------------------------------------------

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_BYTES = 2;
const WIRE_START_GROUP = 3;
const WIRE_END_GROUP = 4;
const WIRE_FIXED32 = 5;

class Reader {
  pos: number;

  constructor(
    private readonly buf: Uint8Array,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }

  done(): boolean {
    return this.pos >= this.end;
  }

  varint(): bigint {
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (shift >= 70n) throw new WireError('proto: integer overflow');
      if (this.pos >= this.end) throw new WireError('unexpected EOF');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return BigInt.asUintN(64, result);
    }
  }

  /** A length-delimited field's extent; the reader moves past it. */
  lengthDelimited(): { start: number; end: number } {
    const length = this.varint();
    if (length > BigInt(this.end - this.pos)) throw new WireError('unexpected EOF');
    const start = this.pos;
    this.pos += Number(length);
    return { start, end: this.pos };
  }

  sub(extent: { start: number; end: number }): Reader {
    return new Reader(this.buf, extent.start, extent.end);
  }

  bytes(extent: { start: number; end: number }): Uint8Array {
    return this.buf.subarray(extent.start, extent.end);
  }

  /** A fixed64 double, little-endian. */
  double(): number {
    if (this.end - this.pos < 8) throw new WireError('unexpected EOF');
    const value = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).getFloat64(0, true);
    this.pos += 8;
    return value;
  }

  advance(n: number): void {
    if (n > this.end - this.pos) throw new WireError('unexpected EOF');
    this.pos += n;
  }

  tag(): { field: number; wire: number } {
    const tag = this.varint();
    const field = tag >> 3n;
    const wire = Number(tag & 7n);
    if (field <= 0n || field > 0x1fffffffn) throw new WireError(`proto: illegal tag ${field} (wire type ${wire})`);
    return { field: Number(field), wire };
  }

  /** Skips one field's value (skipGenerated), groups included. */
  skip(wire: number): void {
    let depth = 0;
    for (;;) {
      switch (wire) {
        case WIRE_VARINT:
          this.varint();
          break;
        case WIRE_FIXED64:
          this.advance(8);
          break;
        case WIRE_BYTES:
          this.lengthDelimited();
          break;
        case WIRE_START_GROUP:
          depth++;
          break;
        case WIRE_END_GROUP:
          if (depth === 0) throw new WireError('proto: unexpected end group');
          depth--;
          break;
        case WIRE_FIXED32:
          this.advance(4);
          break;
        default:
          throw new WireError(`proto: illegal wireType ${wire}`);
      }
      if (depth === 0) return;
      wire = this.tag().wire;
    }
  }
}

const utf8 = new TextDecoder('utf-8');

// ---- message tables ----------------------------------------------------------------------------

export type { FieldDesc, MapDesc, MessageDesc, Scalar, Special } from './protobuf-desc.js';

export const f = (name: string, kind: FieldDesc['kind'], extra: Partial<FieldDesc> = {}): FieldDesc => ({ name, kind, ...extra });

const OWNER_REFERENCE: MessageDesc = {
  5: f('apiVersion', 'string', { keepZero: true }),
  1: f('kind', 'string', { keepZero: true }),
  3: f('name', 'string', { keepZero: true }),
  4: f('uid', 'string', { keepZero: true }),
  // *bool: false on the wire was set (keepZero, as `@kgen:protobuf N pointer` gives a built-in field).
  6: f('controller', 'bool', { keepZero: true }),
  7: f('blockOwnerDeletion', 'bool', { keepZero: true }),
};

const MANAGED_FIELDS_ENTRY: MessageDesc = {
  1: f('manager', 'string'),
  2: f('operation', 'string'),
  3: f('apiVersion', 'string'),
  4: f('time', 'time'),
  6: f('fieldsType', 'string'),
  7: f('fieldsV1', 'fieldsV1'),
  8: f('subresource', 'string'),
};

/** k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto ObjectMeta. */
export const OBJECT_META: MessageDesc = {
  1: f('name', 'string'),
  2: f('generateName', 'string'),
  3: f('namespace', 'string'),
  4: f('selfLink', 'string'),
  5: f('uid', 'string'),
  6: f('resourceVersion', 'string'),
  7: f('generation', 'int64'),
  8: f('creationTimestamp', 'time'),
  9: f('deletionTimestamp', 'time'),
  10: f('deletionGracePeriodSeconds', 'int64'),
  11: f('labels', 'stringMap'),
  12: f('annotations', 'stringMap'),
  13: f('ownerReferences', OWNER_REFERENCE, { repeated: true }),
  14: f('finalizers', 'string', { repeated: true }),
  17: f('managedFields', MANAGED_FIELDS_ENTRY, { repeated: true }),
};

/** meta/v1 DeleteOptions; its scalars but dryRun are Go pointers, so a zero on the wire was set (gracePeriodSeconds 0: now). */
const DELETE_OPTIONS: MessageDesc = {
  1: f('gracePeriodSeconds', 'int64', { keepZero: true }),
  2: f('preconditions', { 1: f('uid', 'string', { keepZero: true }), 2: f('resourceVersion', 'string', { keepZero: true }) }),
  3: f('orphanDependents', 'bool', { keepZero: true }),
  4: f('propagationPolicy', 'string', { keepZero: true }),
  5: f('dryRun', 'string', { repeated: true }),
  6: f('ignoreStoreReadErrorWithClusterBreakingPotential', 'bool', { keepZero: true }),
};

/** k8s.io/api/authentication/v1 TokenRequest (kubectl create token). */
const TOKEN_REQUEST: MessageDesc = {
  1: f('metadata', OBJECT_META),
  2: f('spec', {
    1: f('audiences', 'string', { repeated: true }),
    3: f('boundObjectRef', { 1: f('kind', 'string'), 2: f('apiVersion', 'string'), 3: f('name', 'string'), 4: f('uid', 'string') }),
    4: f('expirationSeconds', 'int64', { keepZero: true }), // *int64
  }),
};

/**
 * The bodies that are no kind kgen compiles, by "group/Kind": TokenRequest is the
 * serviceaccounts/token subresource's body. DeleteOptions is accepted under any group, as kube
 * registers it widely (see descriptorFor).
 */
const KINDS: ReadonlyMap<string, MessageDesc> = new Map([['authentication.k8s.io/TokenRequest', TOKEN_REQUEST]]);

// ---- decoding ----------------------------------------------------------------------------------

const MIN_TIME_SECONDS = -62135596800n; // 0001-01-01T00:00:00Z
const MAX_TIME_SECONDS = 253402300799n; // 9999-12-31T23:59:59Z

/**
 * One message into `out` (a new object, or the one an earlier occurrence of the same field
 * made: see below).
 */
function decodeMessage(r: Reader, desc: MessageDesc, out: Record<string, unknown> = {}): Record<string, unknown> {
  let fd: FieldDesc | undefined;
  try {
    while (!r.done()) {
      const { field, wire } = r.tag();
      fd = desc[field];
      if (fd === undefined) {
        r.skip(wire);
        continue;
      }
      // A singular embedded message that occurs again is merged into the first (proto semantics;
      // gogo's Unmarshal decodes into the same struct): its scalars replace, its repeated fields
      // append, its maps gain entries, and what it does not set stays.
      const earlier = out[fd.name];
      if (isMessageDesc(fd.kind) && !fd.repeated && !fd.inline && wire === WIRE_BYTES && isRecord(earlier)) {
        decodeMessage(r.sub(r.lengthDelimited()), fd.kind, earlier);
        continue;
      }
      const value = decodeField(r, fd, wire);
      if (value === undefined) continue;
      if (fd.inline) Object.assign(out, value);
      else if (fd.repeated) ((out[fd.name] ??= []) as unknown[]).push(value);
      else if (isMapKind(fd.kind)) setEntry((out[fd.name] ??= {}) as object, value as MapEntry);
      else out[fd.name] = value;
    }
  } catch (err) {
    // The field being decoded (an inline one's fields are this message's own) goes in front of the path.
    if (!(err instanceof InexactIntegerError) || fd === undefined || fd.inline) throw err;
    const held = fd.repeated ? err.under(((out[fd.name] as unknown[] | undefined) ?? []).length) : err;
    throw held.under(fd.name);
  }
  return omitEmpty(out, desc);
}

function isMessageDesc(kind: FieldDesc['kind']): kind is MessageDesc {
  return typeof kind === 'object' && !('map' in kind);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function expectWire(fd: FieldDesc, wire: number, expected: number): void {
  if (wire !== expected) throw new WireError(`proto: wrong wireType = ${wire} for field ${fd.name}`);
}

function decodeField(r: Reader, fd: FieldDesc, wire: number): unknown {
  switch (fd.kind) {
    case 'int64':
      expectWire(fd, wire, WIRE_VARINT);
      return int64Value(BigInt.asIntN(64, r.varint()));
    case 'int32':
      expectWire(fd, wire, WIRE_VARINT);
      return Number(BigInt.asIntN(32, r.varint()));
    case 'bool':
      expectWire(fd, wire, WIRE_VARINT);
      return r.varint() !== 0n;
    case 'double':
      expectWire(fd, wire, WIRE_FIXED64);
      return r.double();
  }
  expectWire(fd, wire, WIRE_BYTES);
  const extent = r.lengthDelimited();
  switch (fd.kind) {
    case 'string':
      return utf8.decode(r.bytes(extent));
    case 'bytes':
      return Buffer.from(r.bytes(extent)).toString('base64');
    case 'time':
      return decodeTime(r.sub(extent));
    case 'microTime':
      return decodeTime(r.sub(extent), true);
    case 'stringMap':
      return decodeMapEntry(r.sub(extent), (v) => utf8.decode(v.bytes));
    case 'bytesMap':
      return decodeMapEntry(r.sub(extent), (v) => Buffer.from(v.bytes).toString('base64'));
    case 'extraMap':
      return decodeMapEntry(r.sub(extent), (v) => (decodeMessage(v.reader, EXTRA_VALUE).items as string[] | undefined) ?? []);
    case 'fieldsV1':
      return decodeFieldsV1(r.sub(extent));
    case 'intOrString': {
      const v = decodeMessage(r.sub(extent), INT_OR_STRING);
      return v.type === 1 ? (v.strVal ?? '') : (v.intVal ?? 0);
    }
    case 'quantity':
      return decodeMessage(r.sub(extent), QUANTITY).string ?? '';
    case 'json':
      return decodeRawJSON(r.sub(extent));
    default:
      if ('map' in fd.kind) {
        const valueKind = fd.kind.map;
        return decodeMapEntry(r.sub(extent), (v) => decodeContent(valueKind, v.reader, v.bytes));
      }
      return decodeMessage(r.sub(extent), fd.kind);
  }
}

/** A length-delimited value's content (a map entry's value), by its kind. */
function decodeContent(kind: FieldDesc['kind'], r: Reader, bytes: Uint8Array): unknown {
  switch (kind) {
    case 'string':
      return utf8.decode(bytes);
    case 'bytes':
      return Buffer.from(bytes).toString('base64');
    case 'time':
      return decodeTime(r);
    case 'microTime':
      return decodeTime(r, true);
    case 'quantity':
      return decodeMessage(r, QUANTITY).string ?? '';
    case 'json':
      return decodeRawJSON(r);
    case 'intOrString': {
      const v = decodeMessage(r, INT_OR_STRING);
      return v.type === 1 ? (v.strVal ?? '') : (v.intVal ?? 0);
    }
    case 'int64':
    case 'int32':
    case 'bool':
    case 'double':
    case 'stringMap':
    case 'extraMap':
    case 'bytesMap':
    case 'fieldsV1':
      throw new WireError(`proto: map values of kind ${kind} are not supported`);
    default:
      if ('map' in kind) throw new WireError('proto: maps of maps are not supported');
      return decodeMessage(r, kind);
  }
}

/** intstr.IntOrString {type 1 (0 int, 1 string), intVal 2, strVal 3}. */
export const INT_OR_STRING: MessageDesc = { 1: f('type', 'int64'), 2: f('intVal', 'int32'), 3: f('strVal', 'string') };
/** resource.Quantity {string 1}. */
export const QUANTITY: MessageDesc = { 1: f('string', 'string') };

/** apiextensions JSON / runtime.RawExtension {raw 1}: JSON bytes, inline in the JSON form. */
function decodeRawJSON(r: Reader, invalid = 'invalid JSON in a raw field'): unknown {
  let raw: Uint8Array = new Uint8Array(0);
  while (!r.done()) {
    const { field, wire } = r.tag();
    if (field === 1 && wire === WIRE_BYTES) raw = r.bytes(r.lengthDelimited());
    else r.skip(wire);
  }
  if (raw.length === 0) return undefined;
  const text = utf8.decode(raw);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new WireError(invalid);
  }
  checkRawNumbers(text, value);
  return value;
}

/** The JSON body's number checks (json-numbers.ts, api/json-integers.ts) for JSON bytes inside protobuf. */
function checkRawNumbers(text: string, value: unknown): void {
  const message = numberOutOfRangeError(text, value);
  if (message !== undefined) throw new WireError(message);
  const inexact = inexactIntegerOf(text);
  if (inexact !== undefined) throw new InexactIntegerError(inexact, 'json');
}

/** An int64 field's value as a number; one whose double is another number is refused, not rounded. */
function int64Value(n: bigint): number {
  if (isInexactInt64(n)) throw new InexactIntegerError({ literal: String(n), path: '' }, 'proto');
  return Number(n);
}

const EXTRA_VALUE: MessageDesc = { 1: f('items', 'string', { repeated: true }) };
const MAP_ENTRY: MessageDesc = { 1: f('key', 'string'), 2: f('value', 'bytes') };

type MapEntry = [key: string, value: unknown];

/** Sets a map entry as an own property, so a key such as "__proto__" is data, not a prototype. */
/** Fields whose entries (map<string, V>, one entry per occurrence) collect into one object. */
function isMapKind(kind: FieldDesc['kind']): boolean {
  return kind === 'stringMap' || kind === 'extraMap' || kind === 'bytesMap' || (typeof kind === 'object' && 'map' in kind);
}

function setEntry(target: object, [key, value]: MapEntry): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A map<string, V> entry {key 1, value 2}; the value is decoded by `value` from its raw bytes. */
function decodeMapEntry(r: Reader, value: (v: { bytes: Uint8Array; reader: Reader }) => unknown): MapEntry {
  let key = '';
  let raw: { start: number; end: number } | undefined;
  while (!r.done()) {
    const { field, wire } = r.tag();
    if (field === 1 || field === 2) {
      expectWire(MAP_ENTRY[field]!, wire, WIRE_BYTES);
      const extent = r.lengthDelimited();
      if (field === 1) key = utf8.decode(r.bytes(extent));
      else raw = extent;
    } else r.skip(wire);
  }
  const bytes = raw ? r.bytes(raw) : new Uint8Array(0);
  const reader = raw ? r.sub(raw) : new Reader(bytes, 0, 0);
  try {
    return [key, value({ bytes, reader })];
  } catch (err) {
    throw err instanceof InexactIntegerError ? err.under(key) : err;
  }
}

/**
 * metav1.Time {seconds 1, nanos 2}: RFC 3339 in UTC at second precision (its JSON drops the nanos
 * Go clients send), or, for a metav1.MicroTime, with six fraction digits (RFC3339Micro, nanos
 * truncated); empty = unset.
 */
function decodeTime(r: Reader, micro = false): string | undefined {
  if (r.done()) return undefined;
  let seconds = 0n;
  let nanos = 0;
  while (!r.done()) {
    const { field, wire } = r.tag();
    if (field === 1 && wire === WIRE_VARINT) seconds = BigInt.asIntN(64, r.varint());
    else if (field === 2 && wire === WIRE_VARINT) nanos = Number(BigInt.asIntN(32, r.varint()));
    else r.skip(wire);
  }
  if (seconds < MIN_TIME_SECONDS || seconds > MAX_TIME_SECONDS) {
    throw new WireError(`Time.MarshalJSON: year outside of range [0,9999]`);
  }
  const iso = new Date(Number(seconds) * 1000).toISOString();
  if (!micro) return `${iso.slice(0, 19)}Z`;
  const micros = Math.floor(Math.min(Math.max(nanos, 0), 999_999_999) / 1000);
  return `${iso.slice(0, 19)}.${String(micros).padStart(6, '0')}Z`;
}

/** metav1.FieldsV1 {Raw 1}: JSON bytes, which appear in JSON as the object itself. */
function decodeFieldsV1(r: Reader): unknown {
  return decodeRawJSON(r, 'metav1.FieldsV1: invalid JSON in Raw');
}

/** Go's omitempty: zero strings, numbers and booleans are not written unless the field keeps them. */
function omitEmpty(out: Record<string, unknown>, desc: MessageDesc): Record<string, unknown> {
  for (const fd of Object.values(desc)) {
    const v = out[fd.name];
    if (fd.keepZero || fd.repeated || v === undefined) continue;
    if (v === '' || v === 0 || v === false) delete out[fd.name];
  }
  return out;
}

// ---- envelope ----------------------------------------------------------------------------------

const TYPE_META: MessageDesc = { 1: f('apiVersion', 'string'), 2: f('kind', 'string') };
const UNKNOWN: MessageDesc = {
  1: f('typeMeta', TYPE_META),
  2: f('raw', 'bytes'),
  3: f('contentEncoding', 'string'),
  4: f('contentType', 'string'),
};

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** The message table of apiVersion/kind: registered by the installer, else hand-written (undefined: none). */
export function descriptorFor(apiVersion: string, kind: string): MessageDesc | undefined {
  if (kind === 'DeleteOptions') return DELETE_OPTIONS;
  return registeredMessage(apiVersion, kind) ?? KINDS.get(`${groupOf(apiVersion)}/${kind}`);
}

function unsupportedKind(apiVersion: string, kind: string): StatusError {
  const group = groupOf(apiVersion);
  const gk = group ? `${kind}.${group}` : kind;
  return statusError(
    'UnsupportedMediaType',
    `the body of the request was in an unknown format (${PROTOBUF_CONTENT_TYPE}): protobuf is not supported for kind ${gk} (apiVersion ${JSON.stringify(apiVersion)}) - accepted media types include: application/json, application/yaml`,
    { group, kind },
  );
}

function decodeEnvelope(body: Uint8Array): Record<string, unknown> {
  if (body.length < MAGIC.length || MAGIC.some((b, i) => body[i] !== b)) {
    throw new WireError(`provided data does not appear to be a protobuf message, expected prefix [${MAGIC.join(' ')}]`);
  }
  const unknown = decodeEnvelopeFields(new Reader(body, MAGIC.length, body.length));
  const { apiVersion, kind } = unknown;
  if (unknown.contentEncoding !== '') {
    throw statusError('UnsupportedMediaType', `unsupported protobuf content encoding ${JSON.stringify(unknown.contentEncoding)}`);
  }
  if (kind === '') throw new WireError("Object 'Kind' is missing in the protobuf body's typeMeta");
  const desc = descriptorFor(apiVersion, kind);
  if (desc === undefined) throw unsupportedKind(apiVersion, kind);
  const obj = decodeMessage(unknown.raw, desc);
  return { apiVersion, kind, ...obj };
}

function decodeEnvelopeFields(r: Reader): { apiVersion: string; kind: string; raw: Reader; contentEncoding: string } {
  let typeMeta: Record<string, unknown> = {};
  let raw = new Reader(new Uint8Array(0), 0, 0);
  let contentEncoding = '';
  while (!r.done()) {
    const { field, wire } = r.tag();
    const fd = UNKNOWN[field];
    if (fd === undefined) {
      r.skip(wire);
      continue;
    }
    expectWire(fd, wire, WIRE_BYTES);
    const extent = r.lengthDelimited();
    if (field === 1) typeMeta = decodeMessage(r.sub(extent), TYPE_META);
    else if (field === 2) raw = r.sub(extent);
    else if (field === 3) contentEncoding = utf8.decode(r.bytes(extent));
  }
  const apiVersion = typeof typeMeta.apiVersion === 'string' ? typeMeta.apiVersion : '';
  const kind = typeof typeMeta.kind === 'string' ? typeMeta.kind : '';
  return { apiVersion, kind, raw, contentEncoding };
}

/**
 * Decodes a `k8s\0`-prefixed runtime.Unknown body into the object's JSON form, apiVersion and kind
 * set from its typeMeta. Throws only StatusError (see the file comment).
 */
export function decodeKubernetesProtobuf(body: Uint8Array): Record<string, unknown> {
  try {
    return decodeEnvelope(body);
  } catch (err) {
    if (err instanceof StatusError) throw err;
    const detail = err instanceof WireError ? err.message : 'malformed protobuf body';
    throw newBadRequest(detail);
  }
}
