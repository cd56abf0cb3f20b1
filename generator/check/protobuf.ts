/**
 * @kgen:protobuf field numbers (kube's generated.proto): each is `N` or `N.M` (field M of the
 * Go-embedded struct held in field N), unique within its message (a kind's metadata is 1), and a
 * type numbers all its fields or none. KG120 (malformed), KG121 (duplicate), KG122 (partial).
 * After the number come the field's wire words, facts of the Go type the wire alone cannot tell:
 * - `pointer`: a Go pointer to a scalar or an IntOrString (`*int32`, `*bool`, `*string`, ...).
 *   gogo writes it only when it is set, a non-pointer scalar always, and generated.proto says
 *   `optional` for both: a decoded zero of a pointer was set and is kept (`--replicas=0`), any
 *   other zero is Go's omitempty zero and left out.
 * - `microtime`: a date-time string that is a metav1.MicroTime (the same message as Time): kept at
 *   microsecond precision where a Time keeps seconds.
 * A word that is unknown, repeated or does not fit the field's type is KG120.
 * The emitter reads the same numbers and words through protobufNumber.
 */
import type { DiagnosticBag } from '../diagnostics.js';
import type { ApiVersion, ObjectSchema, Schema } from '../model.js';

/** The largest field number protobuf allows; 19000-19999 are reserved by protobuf itself. */
const MAX_FIELD = 2 ** 29 - 1;

/** A field's number: `N`, or `[N, M]` for field M of the embedded message in field N. */
export type ProtobufNumber = number | readonly [number, number];

/** What @kgen:protobuf says of a field: its number and its wire words. */
export interface ProtobufTag {
  number: ProtobufNumber;
  pointer?: true;
  microTime?: true;
}

const WORDS = ['pointer', 'microtime'] as const;

/** Reads a @kgen:protobuf value (`N`, `N.M`, then words), or says what is wrong with it. */
export function protobufNumber(text: string): ProtobufTag | { problem: string } {
  const [first = '', ...words] = text.split(' ').filter((w) => w !== '');
  const m = /^(\d+)(?:\.(\d+))?$/.exec(first);
  if (!m) return { problem: 'not a field number (N or N.M)' };
  const parts = [Number(m[1]), ...(m[2] !== undefined ? [Number(m[2])] : [])];
  for (const n of parts) {
    if (n < 1 || n > MAX_FIELD) return { problem: `${n} is not between 1 and ${MAX_FIELD}` };
    if (n >= 19000 && n <= 19999) return { problem: `${n} is reserved by protobuf (19000-19999)` };
  }
  const tag: ProtobufTag = { number: parts.length === 1 ? parts[0]! : [parts[0]!, parts[1]!] };
  const seen = new Set<string>();
  for (const word of words) {
    if (!(WORDS as readonly string[]).includes(word)) return { problem: `unknown word "${word}" after the number (known: ${WORDS.join(', ')})` };
    if (seen.has(word)) return { problem: `"${word}" is given twice` };
    seen.add(word);
    if (word === 'pointer') tag.pointer = true;
    else tag.microTime = true;
  }
  return tag;
}

/** Why a word does not fit the field's schema, or undefined when it does. */
function misfit(tag: ProtobufTag, schema: Schema, version: ApiVersion): string | undefined {
  if (tag.microTime && !(schema.type === 'time' || (schema.type === 'string' && schema.format === 'date-time'))) {
    return '"microtime" fits a date-time string (a metav1.MicroTime) only';
  }
  if (tag.pointer && !isScalar(schema, version)) {
    return '"pointer" fits a scalar or an IntOrString field only (a Go *int32, *bool, *string, ...), not a list, map or message';
  }
  return undefined;
}

function isScalar(schema: Schema, version: ApiVersion): boolean {
  switch (schema.type) {
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
    case 'intOrString':
      return true;
    case 'ref': {
      // A named string enum or scalar alias is a scalar; a named struct is a message.
      const target = version.types.find((t) => t.name === schema.name);
      return !!target && target.schema !== schema && isScalar(target.schema, version);
    }
    default:
      return false;
  }
}

export function checkProtobuf(version: ApiVersion, diags: DiagnosticBag): void {
  for (const kind of version.kinds) checkMessage(kind.name, kind.schema, true, version, diags);
  for (const type of version.types) {
    if (type.schema.type === 'object' && !type.home) checkMessage(type.name, type.schema, false, version, diags);
  }
}

function checkMessage(type: string, schema: ObjectSchema, isKind: boolean, version: ApiVersion, diags: DiagnosticBag): void {
  if (!schema.properties.some((p) => p.schema.protobuf)) return;
  // Numbers taken, as 'N' (a field of the message) or 'N.M' (of the embedded message in N).
  const taken = new Map<string, string>(isKind ? [['1', 'metadata']] : []);
  const take = (key: string, field: string, loc: ObjectSchema['loc']) => {
    const other = taken.get(key);
    if (other !== undefined && other !== field) diags.add('KG121', loc, { number: key, type, field, other });
    else taken.set(key, field);
  };
  const embedded: { holder: string; field: string; loc: ObjectSchema['loc'] }[] = [];
  for (const p of schema.properties) {
    const tag = p.schema.protobuf;
    if (!tag) {
      diags.add('KG122', p.loc, { type, field: p.name });
      continue;
    }
    const read = protobufNumber(tag.text);
    const problem = 'problem' in read ? read.problem : misfit(read, p.schema, version);
    if (problem !== undefined) diags.add('KG120', tag.loc, { text: tag.text, field: p.name, problem });
    if ('problem' in read) continue;
    if (typeof read.number === 'number') take(String(read.number), p.name, tag.loc);
    else {
      take(read.number.join('.'), p.name, tag.loc);
      embedded.push({ holder: String(read.number[0]), field: p.name, loc: tag.loc });
    }
  }
  // The number holding an embedded message is no plain field's.
  for (const e of embedded) {
    const other = taken.get(e.holder);
    if (other !== undefined) diags.add('KG121', e.loc, { number: e.holder, type, field: e.field, other });
  }
}

