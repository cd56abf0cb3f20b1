/**
 * Encodes responses as Kubernetes protobuf (application/vnd.kubernetes.protobuf), the inverse of
 * protobuf.ts: `k8s\0`, then runtime.Unknown {typeMeta 1 {apiVersion 1, kind 2}, raw 2,
 * contentEncoding 3, contentType 4} whose raw is the object's message, by the same tables. Lists
 * are `<Kind>List` {metadata 1 (ListMeta), items 2}, and Status has its meta/v1 table.
 *
 * Contract: encodableKind() says whether a kind can be encoded; encodeKubernetesProtobuf() is
 * only called for such kinds (or a Status) and never throws for objects of them: values of the
 * wrong JSON type for their field are left out, as Go's decoder would have refused them earlier.
 */
import { descriptorFor, f, INT_OR_STRING, QUANTITY, type FieldDesc, type MessageDesc } from './protobuf.js';
import { registeredMessage } from './protobuf-registry.js';
import { ProtobufWriter } from './protobuf-writer.js';

const MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);
const utf8 = new TextEncoder();

const LIST_META: MessageDesc = { 1: f('selfLink', 'string'), 2: f('resourceVersion', 'string'), 3: f('continue', 'string'), 4: f('remainingItemCount', 'int64') };
const STATUS_CAUSE: MessageDesc = { 1: f('reason', 'string'), 2: f('message', 'string'), 3: f('field', 'string') };
/** meta/v1 Status: errors and the Status some deletes answer with. */
const STATUS: MessageDesc = {
  1: f('metadata', LIST_META),
  2: f('status', 'string'),
  3: f('message', 'string'),
  4: f('reason', 'string'),
  5: f('details', { 1: f('name', 'string'), 2: f('group', 'string'), 3: f('kind', 'string'), 4: f('causes', STATUS_CAUSE, { repeated: true }), 5: f('retryAfterSeconds', 'int32'), 6: f('uid', 'string') }),
  6: f('code', 'int32'),
};
const EXTRA_VALUE: MessageDesc = { 1: f('items', 'string', { repeated: true }) };

/**
 * The table of apiVersion/kind, lists and Status included; undefined when it has none: the
 * installed kinds' derived tables (protobuf-registry.ts), else the few written in protobuf.ts.
 */
function kindMessage(apiVersion: string, kind: string): MessageDesc | undefined {
  return registeredMessage(apiVersion, kind) ?? descriptorFor(apiVersion, kind);
}

function messageFor(apiVersion: string, kind: string): MessageDesc | undefined {
  if (kind === 'Status') return STATUS;
  const own = kindMessage(apiVersion, kind);
  if (own || !kind.endsWith('List')) return own;
  const item = kindMessage(apiVersion, kind.slice(0, -'List'.length));
  return item && { 1: f('metadata', LIST_META), 2: f('items', item, { repeated: true }) };
}

/** Whether objects (and lists) of apiVersion/kind can be answered in protobuf. */
export function encodableKind(apiVersion: string, kind: string): boolean {
  return messageFor(apiVersion, kind) !== undefined && messageFor(apiVersion, `${kind}List`) !== undefined;
}

// ---- messages ----------------------------------------------------------------------------------

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function encodeMessage(obj: Record<string, unknown>, desc: MessageDesc): Uint8Array {
  const w = new ProtobufWriter();
  const numbers = Object.keys(desc)
    .map(Number)
    .sort((a, b) => a - b);
  for (const n of numbers) {
    const fd = desc[n]!;
    const value = fd.inline ? obj : obj[fd.name];
    if (value === undefined || value === null) continue;
    if (fd.repeated) {
      if (Array.isArray(value)) for (const item of value) writeValue(w, n, fd.kind, item);
      continue;
    }
    writeValue(w, n, fd.kind, value);
  }
  return w.finish();
}

function writeValue(w: ProtobufWriter, n: number, kind: FieldDesc['kind'], value: unknown): void {
  switch (kind) {
    case 'string':
      if (typeof value === 'string') w.bytes(n, utf8.encode(value));
      return;
    case 'bytes':
      if (typeof value === 'string') w.bytes(n, Buffer.from(value, 'base64'));
      return;
    case 'int64':
    case 'int32':
      if (typeof value === 'number' && Number.isInteger(value)) {
        w.tag(n, 0);
        w.varint(BigInt(value));
      }
      return;
    case 'bool':
      if (typeof value === 'boolean') {
        w.tag(n, 0);
        w.varint(value ? 1n : 0n);
      }
      return;
    case 'double':
      if (typeof value === 'number') {
        const b = new Uint8Array(8);
        new DataView(b.buffer).setFloat64(0, value, true);
        w.tag(n, 1);
        w.raw(b);
      }
      return;
    case 'time':
    case 'microTime':
      if (typeof value === 'string') w.bytes(n, encodeTime(value));
      return;
    case 'intOrString':
      w.bytes(n, encodeMessage(typeof value === 'string' ? { type: 1, strVal: value } : { type: 0, intVal: value }, INT_OR_STRING));
      return;
    case 'quantity':
      w.bytes(n, encodeMessage({ string: String(value) }, QUANTITY));
      return;
    case 'json':
    case 'fieldsV1':
      w.bytes(n, encodeMessage({ raw: Buffer.from(JSON.stringify(value)).toString('base64') }, { 1: f('raw', 'bytes') }));
      return;
    case 'stringMap':
      writeMap(w, n, 'string', value);
      return;
    case 'bytesMap':
      writeMap(w, n, 'bytes', value);
      return;
    case 'extraMap':
      if (isObject(value)) {
        for (const [k, items] of Object.entries(value)) w.bytes(n, encodeMessage({ key: k, value: { items } }, { 1: f('key', 'string'), 2: f('value', EXTRA_VALUE) }));
      }
      return;
    default:
      if ('map' in kind) writeMap(w, n, kind.map, value);
      else if (isObject(value)) w.bytes(n, encodeMessage(value, kind));
  }
}

/** map<string, V>: one entry message {key 1, value 2} per key. */
function writeMap(w: ProtobufWriter, n: number, valueKind: FieldDesc['kind'], value: unknown): void {
  if (!isObject(value)) return;
  const entry: MessageDesc = { 1: f('key', 'string'), 2: f('value', valueKind) };
  for (const [k, v] of Object.entries(value)) w.bytes(n, encodeMessage({ key: k, value: v }, entry));
}

/** metav1.Time {seconds 1, nanos 2}. */
function encodeTime(value: string): Uint8Array {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return new Uint8Array(0);
  const seconds = Math.floor(ms / 1000);
  const fraction = /\.(\d+)/.exec(value)?.[1];
  const nanos = fraction ? Number(fraction.padEnd(9, '0').slice(0, 9)) : 0;
  return encodeMessage({ seconds, nanos }, { 1: f('seconds', 'int64'), 2: f('nanos', 'int32') });
}

/**
 * `k8s\0` + runtime.Unknown of obj, which must be of an encodable kind (or a Status). Returns
 * undefined when its kind has no table.
 */
export function encodeKubernetesProtobuf(obj: Record<string, unknown>): Buffer | undefined {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const desc = messageFor(apiVersion, kind);
  if (!desc) return undefined;
  const typeMeta = encodeMessage({ apiVersion, kind }, { 1: f('apiVersion', 'string'), 2: f('kind', 'string') });
  const w = new ProtobufWriter();
  w.raw(MAGIC);
  w.bytes(1, typeMeta);
  w.bytes(2, encodeMessage(obj, desc));
  return Buffer.from(w.finish());
}
