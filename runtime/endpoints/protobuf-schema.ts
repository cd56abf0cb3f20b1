/**
 * Protobuf message tables derived from a kind's compiled schema (its OpenAPI v3 component
 * schemas, which the generator emits from the model) and its field numbers (the
 * ResourceDefinition's `protobuf`, from @kgen:protobuf on the fields of the one definition, and
 * the meta/v1 numbers of protobuf-fields.ts): the wire type of each field comes from its schema
 * (string, integer format, boolean, array, map, `$ref`), the number from kube's generated.proto.
 * A type or field without a number makes the whole kind unencodable (undefined): it is then
 * served as JSON only, never encoded with guessed numbers.
 *
 * Well-known types map onto their apimachinery messages: ObjectMeta (the hand-written table),
 * Time and date-time strings (metav1.Time), IntOrString, Quantity, FieldsV1, and schemaless JSON
 * (x-kubernetes-preserve-unknown-fields: a raw JSON message).
 */
import { f, OBJECT_META, type FieldDesc, type MessageDesc } from './protobuf.js';
import { META_FIELD_NUMBERS } from './protobuf-fields.js';
import { isInlineQuantity } from './openapi/quantity.js';
import type { ProtobufFieldNumber } from '../api/resource.js';

/**
 * A kind's numbers by schema name and JSON field name: N, or [N, M] (field M of the embedded
 * message in N), or either with the field's wire words ({ number, pointer?, microTime? }).
 */
export type FieldNumbers = Readonly<Record<string, Readonly<Record<string, ProtobufFieldNumber>>>>;

type Schema = Record<string, unknown>;
const REF = '#/components/schemas/';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/** Types with a fixed representation, whatever their schema says. */
const WELL_KNOWN: Record<string, FieldDesc['kind']> = {
  [`${META}.ObjectMeta`]: OBJECT_META,
  [`${META}.Time`]: 'time',
  [`${META}.MicroTime`]: 'microTime',
  [`${META}.FieldsV1`]: 'fieldsV1',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 'intOrString',
  'io.k8s.apimachinery.pkg.api.resource.Quantity': 'quantity',
};

class Unencodable extends Error {}

/** The message table of the schema named schemaName, or undefined when some type has no numbers. */
export function protobufMessageFor(schemas: Record<string, unknown>, schemaName: string, numbers: FieldNumbers | undefined): MessageDesc | undefined {
  if (!numbers) return undefined;
  const built = new Map<string, MessageDesc>();
  try {
    return messageOf(schemas, schemaName, { ...META_FIELD_NUMBERS, ...numbers }, built);
  } catch (err) {
    if (err instanceof Unencodable) return undefined;
    throw err;
  }
}

function messageOf(schemas: Record<string, unknown>, name: string, all: FieldNumbers, built: Map<string, MessageDesc>): MessageDesc {
  const known = built.get(name);
  if (known) return known;
  const numbers = all[name];
  const schema = schemas[name] as Schema | undefined;
  if (!numbers || !schema) throw new Unencodable(name);
  // Registered before its fields, so recursive types refer to the same table.
  const desc: Record<number, FieldDesc> = {};
  built.set(name, desc);
  fillFields(schemas, desc, schema, numbers, all, built, name);
  return desc;
}

/**
 * The fields of schema into desc: each property by its number, or, numbered [N, M], as field M
 * of the message in field N that holds a Go-embedded struct's fields (`json:",inline"`).
 */
function fillFields(
  schemas: Record<string, unknown>,
  desc: Record<number, FieldDesc>,
  schema: Schema,
  numbers: Readonly<Record<string, ProtobufFieldNumber>>,
  all: FieldNumbers,
  built: Map<string, MessageDesc>,
  name: string,
): void {
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const embedded = new Map<number, Record<number, FieldDesc>>();
  for (const [prop, propSchema] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    const entry = numbers[prop];
    // A kind's TypeMeta is the envelope's, not the message's (RoleRef.kind is a field).
    if ((prop === 'apiVersion' || prop === 'kind') && entry === undefined) continue;
    if (entry === undefined) throw new Unencodable(`${name}.${prop}`);
    const words = typeof entry === 'object' && !Array.isArray(entry) ? (entry as Exclude<ProtobufFieldNumber, number | readonly [number, number]>) : undefined;
    const number = words ? words.number : (entry as number | readonly [number, number]);
    // Required fields and Go pointers (`pointer`: gogo writes them only when set) keep a decoded
    // zero; other zeros are omitempty's.
    let field = fieldOf(schemas, prop, propSchema, required.has(prop) || !!words?.pointer, all, built);
    // A date-time string is a metav1.Time unless its definition says `microtime` (metav1.MicroTime).
    if (field.kind === 'time' && words?.microTime) field = { ...field, kind: 'microTime' };
    if (typeof number === 'number') desc[number] = field;
    else {
      let inner = embedded.get(number[0]);
      if (!inner) {
        inner = {};
        embedded.set(number[0], inner);
        desc[number[0]] = f('', inner, { inline: true });
      }
      inner[number[1]] = field;
    }
  }
}

function fieldOf(schemas: Record<string, unknown>, name: string, schema: Schema, keepZero: boolean, all: FieldNumbers, built: Map<string, MessageDesc>): FieldDesc {
  const s = unwrap(schema);
  if (s.type === 'array') {
    const items = unwrap((s.items ?? {}) as Schema);
    if (items.type === 'array') throw new Unencodable(`${name}: lists of lists`);
    return f(name, kindOf(schemas, items, all, built), { repeated: true });
  }
  return f(name, kindOf(schemas, s, all, built), keepZero ? { keepZero: true } : {});
}

/** A `$ref` wrapped in allOf (how properties with a description refer to a type) as the `$ref` itself. */
function unwrap(s: Schema): Schema {
  const allOf = s.allOf as Schema[] | undefined;
  return !s.$ref && Array.isArray(allOf) && allOf.length === 1 && allOf[0]!.$ref ? allOf[0]! : s;
}

function kindOf(schemas: Record<string, unknown>, s: Schema, all: FieldNumbers, built: Map<string, MessageDesc>): FieldDesc['kind'] {
  if (typeof s.$ref === 'string') {
    const name = s.$ref.startsWith(REF) ? s.$ref.slice(REF.length) : s.$ref;
    return WELL_KNOWN[name] ?? refKind(schemas, name, all, built);
  }
  if (isInlineQuantity(s)) return 'quantity';
  if (s['x-kubernetes-int-or-string'] === true) return 'intOrString';
  switch (s.type) {
    case 'string':
      return s.format === 'byte' ? 'bytes' : s.format === 'date-time' ? 'time' : 'string';
    case 'integer':
      return s.format === 'int32' ? 'int32' : 'int64';
    case 'boolean':
      return 'bool';
    case 'number':
      return 'double';
    case 'object': {
      const additional = s.additionalProperties;
      if (typeof additional === 'object' && additional !== null && !s.properties) {
        const value = unwrap(additional as Schema);
        if (value.type === 'string' && value.format === undefined) return 'stringMap';
        // map<string, ExtraValue{items 1}>: user extras (SubjectAccessReview, TokenReview).
        if (value.type === 'array' && isObjectSchema(value.items) && unwrap(value.items as Schema).type === 'string') return 'extraMap';
        if (value.type === 'array') throw new Unencodable('maps of lists');
        return { map: kindOf(schemas, value, all, built) };
      }
      if (s['x-kubernetes-preserve-unknown-fields'] === true && !s.properties) return 'json';
      throw new Unencodable('an inline object');
    }
    default:
      if (s.type === undefined && s['x-kubernetes-preserve-unknown-fields'] === true) return 'json';
      throw new Unencodable(`type ${String(s.type)}`);
  }
}

/** A named type: a string enum or a scalar alias stays scalar; an object type is a message. */
function refKind(schemas: Record<string, unknown>, name: string, all: FieldNumbers, built: Map<string, MessageDesc>): FieldDesc['kind'] {
  const target = schemas[name] as Schema | undefined;
  if (!target) throw new Unencodable(name);
  if (target.type === 'object' && target.properties) return messageOf(schemas, name, all, built);
  return kindOf(schemas, target, all, built);
}

function isObjectSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
