/**
 * @kgen:protobuf field numbers (kube's generated.proto): each is `N` or `N.M` (field M of the
 * Go-embedded struct held in field N), unique within its message (a kind's metadata is 1), and a
 * type numbers all its fields or none. KG120 (malformed), KG121 (duplicate), KG122 (partial).
 * The emitter reads the same numbers through protobufNumber.
 */
import type { DiagnosticBag } from '../diagnostics.js';
import type { ApiVersion, ObjectSchema } from '../model.js';

/** The largest field number protobuf allows; 19000-19999 are reserved by protobuf itself. */
const MAX_FIELD = 2 ** 29 - 1;

/** A field's number: `N`, or `[N, M]` for field M of the embedded message in field N. */
export type ProtobufNumber = number | readonly [number, number];

/** Reads a @kgen:protobuf value, or says what is wrong with it. */
export function protobufNumber(text: string): { number: ProtobufNumber } | { problem: string } {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return { problem: 'not a field number (N or N.M)' };
  const parts = [Number(m[1]), ...(m[2] !== undefined ? [Number(m[2])] : [])];
  for (const n of parts) {
    if (n < 1 || n > MAX_FIELD) return { problem: `${n} is not between 1 and ${MAX_FIELD}` };
    if (n >= 19000 && n <= 19999) return { problem: `${n} is reserved by protobuf (19000-19999)` };
  }
  return { number: parts.length === 1 ? parts[0]! : [parts[0]!, parts[1]!] };
}

export function checkProtobuf(version: ApiVersion, diags: DiagnosticBag): void {
  for (const kind of version.kinds) checkMessage(kind.name, kind.schema, true, diags);
  for (const type of version.types) {
    if (type.schema.type === 'object' && !type.home) checkMessage(type.name, type.schema, false, diags);
  }
}

function checkMessage(type: string, schema: ObjectSchema, isKind: boolean, diags: DiagnosticBag): void {
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
    if ('problem' in read) diags.add('KG120', tag.loc, { text: tag.text, field: p.name, problem: read.problem });
    else if (typeof read.number === 'number') take(String(read.number), p.name, tag.loc);
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

