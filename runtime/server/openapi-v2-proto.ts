/**
 * `/openapi/v2` as protobuf: a Swagger 2.0 document (its JSON form) encoded as gnostic's
 * `openapi.v2.Document` (github.com/google/gnostic-models/openapiv2/OpenAPIv2.proto), the body
 * kube-apiserver sends for `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`
 * (kube-openapi's handler: the Swagger JSON read by gnostic's `NewDocument`, then proto.Marshal).
 *
 * The mapping is gnostic's: keys starting with `x-` become `vendor_extension` NamedAny entries whose
 * `Any.yaml` holds the value as YAML; `type` is a TypeItem, `items` an ItemsItem, and
 * `additionalProperties` a oneof of Schema and bool; a parameter is a ParametersItem holding either
 * a `$ref` (JsonReference) or a Parameter, which is a BodyParameter for `in: body` and otherwise a
 * NonBodyParameter of the sub-schema named by `in`; a response is a `$ref` or a Response. Maps keep
 * the document's key order, as gnostic keeps the YAML node order. proto3 rules: zero scalars are not
 * written, except the members of a oneof (`additionalProperties: false` is written).
 *
 * Contract: a pure function of the document; it never throws on the shapes kgen serves, and
 * ignores keys gnostic would reject rather than failing the whole document.
 */
import { yaml } from '../api/yaml.js';
import { ProtobufWriter } from '../endpoints/protobuf-writer.js';

/** What clients ask for in Accept; `@` is not a MIME token character, so no client can parse it back. */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
/** What kube-openapi answers with (its subTypeProtobuf), which Go's mime.ParseMediaType accepts. */
export const OPENAPI_V2_PROTOBUF_RESPONSE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

type Json = Record<string, unknown>;

// ---- wire writer -------------------------------------------------------------------------------

const utf8 = new TextEncoder();

/** One message under construction: its fields' bytes in order. */
class Message extends ProtobufWriter {
  string(field: number, value: unknown): this {
    if (typeof value === 'string' && value !== '') this.bytes(field, utf8.encode(value));
    return this;
  }

  strings(field: number, value: unknown): this {
    for (const s of asArray(value)) if (typeof s === 'string') this.bytes(field, utf8.encode(s));
    return this;
  }

  /** A bool; `always` for oneof members, which proto3 writes even when false. */
  bool(field: number, value: unknown, always = false): this {
    if (typeof value === 'boolean' && (value || always)) {
      this.tag(field, 0);
      this.raw(Uint8Array.of(value ? 1 : 0));
    }
    return this;
  }

  int64(field: number, value: unknown): this {
    if (typeof value === 'number' && Number.isInteger(value) && value !== 0) {
      this.tag(field, 0);
      this.varint(value);
    }
    return this;
  }

  double(field: number, value: unknown): this {
    if (typeof value === 'number' && value !== 0) {
      this.tag(field, 1);
      const b = new Uint8Array(8);
      new DataView(b.buffer).setFloat64(0, value, true);
      this.raw(b);
    }
    return this;
  }

  message(field: number, value: Message | undefined): this {
    if (value) this.bytes(field, value.finish());
    return this;
  }

  messages(field: number, values: Iterable<Message>): this {
    for (const v of values) this.message(field, v);
    return this;
  }
}

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const entries = (v: unknown): [string, unknown][] => (isObject(v) ? Object.entries(v) : []);

// ---- shared messages ---------------------------------------------------------------------------

/** Any {value 1, yaml 2}: the value as YAML (gnostic's compiler.Marshal of the node). */
function any(value: unknown): Message | undefined {
  if (value === undefined) return undefined;
  return new Message().string(2, yaml().stringify(value, { lineWidth: 0 }));
}

/** NamedAny {name 1, value 2} for every `x-` key, in order. */
function vendorExtensions(obj: Json): Message[] {
  return Object.entries(obj)
    .filter(([k]) => k.startsWith('x-'))
    .map(([k, v]) => new Message().string(1, k).message(2, any(v)));
}

/** ExternalDocs {description 1, url 2, vendor_extension 3}. */
function externalDocs(v: unknown): Message | undefined {
  if (!isObject(v)) return undefined;
  return new Message().string(1, v.description).string(2, v.url).messages(3, vendorExtensions(v));
}

/** JsonReference {_ref 1, description 2}. */
const jsonReference = (v: Json): Message => new Message().string(1, v.$ref).string(2, v.description);

// ---- schemas -----------------------------------------------------------------------------------

/** Schema, field numbers 1..31 of OpenAPIv2.proto. */
function schema(s: unknown): Message {
  const m = new Message();
  if (!isObject(s)) return m;
  m.string(1, s.$ref).string(2, s.format).string(3, s.title).string(4, s.description).message(5, any(s.default));
  m.double(6, s.multipleOf).double(7, s.maximum).bool(8, s.exclusiveMaximum).double(9, s.minimum).bool(10, s.exclusiveMinimum);
  m.int64(11, s.maxLength).int64(12, s.minLength).string(13, s.pattern).int64(14, s.maxItems).int64(15, s.minItems).bool(16, s.uniqueItems);
  m.int64(17, s.maxProperties).int64(18, s.minProperties).strings(19, s.required);
  m.messages(20, asArray(s.enum).map((e) => any(e)!));
  if (typeof s.additionalProperties === 'boolean') m.message(21, new Message().bool(2, s.additionalProperties, true));
  else if (isObject(s.additionalProperties)) m.message(21, new Message().message(1, schema(s.additionalProperties)));
  if (s.type !== undefined) m.message(22, new Message().strings(1, s.type));
  if (s.items !== undefined) m.message(23, new Message().messages(1, asArray(s.items).map(schema)));
  m.messages(24, asArray(s.allOf).map(schema));
  if (isObject(s.properties)) m.message(25, new Message().messages(1, entries(s.properties).map(([k, v]) => named(k, schema(v)))));
  m.string(26, s.discriminator).bool(27, s.readOnly);
  if (isObject(s.xml)) m.message(28, xml(s.xml));
  m.message(29, externalDocs(s.externalDocs)).message(30, any(s.example)).messages(31, vendorExtensions(s));
  return m;
}

/** Xml {name 1, namespace 2, prefix 3, attribute 4, wrapped 5, vendor_extension 6}. */
const xml = (x: Json): Message =>
  new Message().string(1, x.name).string(2, x.namespace).string(3, x.prefix).bool(4, x.attribute).bool(5, x.wrapped).messages(6, vendorExtensions(x));

/** The Named* messages: {name 1, value 2}. */
const named = (name: string, value: Message): Message => new Message().string(1, name).message(2, value);

// ---- parameters --------------------------------------------------------------------------------

/**
 * The validation keywords shared by the non-body parameter sub-schemas, PrimitivesItems and
 * Header, in their proto order from `type` to `multiple_of`; `first` is the field number of
 * `type`. Returns the number of the field after `multiple_of`.
 */
function primitiveFields(m: Message, p: Json, first: number): number {
  let n = first;
  m.string(n++, p.type).string(n++, p.format);
  m.message(n++, isObject(p.items) ? primitivesItems(p.items) : undefined);
  m.string(n++, p.collectionFormat).message(n++, any(p.default));
  m.double(n++, p.maximum).bool(n++, p.exclusiveMaximum).double(n++, p.minimum).bool(n++, p.exclusiveMinimum);
  m.int64(n++, p.maxLength).int64(n++, p.minLength).string(n++, p.pattern).int64(n++, p.maxItems).int64(n++, p.minItems).bool(n++, p.uniqueItems);
  m.messages(n++, asArray(p.enum).map((e) => any(e)!));
  m.double(n++, p.multipleOf);
  return n;
}

/** PrimitivesItems: type 1 … multiple_of 17, vendor_extension 18. */
function primitivesItems(p: Json): Message {
  const m = new Message();
  return m.messages(primitiveFields(m, p, 1), vendorExtensions(p));
}

/** Header: type 1 … multiple_of 17, description 18, vendor_extension 19. */
function header(h: Json): Message {
  const m = new Message();
  const next = primitiveFields(m, h, 1);
  return m.string(next, h.description).messages(next + 1, vendorExtensions(h));
}

/**
 * NonBodyParameter's oneof: header 1, formData 2, query 3, path 4. The query and formData
 * sub-schemas carry allow_empty_value as field 5, so their `type` is 6; header and path start at 5.
 */
const NON_BODY: Record<string, { oneof: number; typeField: number }> = {
  header: { oneof: 1, typeField: 5 },
  formData: { oneof: 2, typeField: 6 },
  query: { oneof: 3, typeField: 6 },
  path: { oneof: 4, typeField: 5 },
};

/** Parameter: BodyParameter (1) for `in: body`, else NonBodyParameter (2); undefined for an unknown `in`. */
function parameter(p: Json): Message | undefined {
  if (p.in === 'body') {
    const body = new Message().string(1, p.description).string(2, p.name).string(3, p.in).bool(4, p.required);
    return new Message().message(1, body.message(5, schema(p.schema)).messages(6, vendorExtensions(p)));
  }
  const kind = typeof p.in === 'string' ? NON_BODY[p.in] : undefined;
  if (!kind) return undefined;
  const sub = new Message().bool(1, p.required).string(2, p.in).string(3, p.description).string(4, p.name);
  if (kind.typeField === 6) sub.bool(5, p.allowEmptyValue);
  sub.messages(primitiveFields(sub, p, kind.typeField), vendorExtensions(p));
  return new Message().message(2, new Message().message(kind.oneof, sub));
}

/** ParametersItem: Parameter (1) or JsonReference (2). */
function parametersItem(p: unknown): Message | undefined {
  if (!isObject(p)) return undefined;
  if (typeof p.$ref === 'string') return new Message().message(2, jsonReference(p));
  const param = parameter(p);
  return param && new Message().message(1, param);
}

const parametersItems = (v: unknown): Message[] => asArray(v).flatMap((p) => parametersItem(p) ?? []);

// ---- operations and paths ----------------------------------------------------------------------

/** Response {description 1, schema 2 (SchemaItem), headers 3, examples 4, vendor_extension 5}. */
function response(r: Json): Message {
  const m = new Message().string(1, r.description);
  if (isObject(r.schema)) {
    const item = r.schema.type === 'file' ? new Message().message(2, fileSchema(r.schema)) : new Message().message(1, schema(r.schema));
    m.message(2, item);
  }
  if (isObject(r.headers)) m.message(3, new Message().messages(1, entries(r.headers).map(([k, h]) => named(k, header(h as Json)))));
  if (isObject(r.examples)) m.message(4, new Message().messages(1, entries(r.examples).map(([k, v]) => named(k, any(v)!))));
  return m.messages(5, vendorExtensions(r));
}

/** FileSchema {format 1, title 2, description 3, default 4, required 5, type 6, read_only 7, external_docs 8, example 9, vendor 10}. */
const fileSchema = (s: Json): Message =>
  new Message()
    .string(1, s.format)
    .string(2, s.title)
    .string(3, s.description)
    .message(4, any(s.default))
    .strings(5, s.required)
    .string(6, s.type)
    .bool(7, s.readOnly)
    .message(8, externalDocs(s.externalDocs))
    .message(9, any(s.example))
    .messages(10, vendorExtensions(s));

/** ResponseValue: Response (1) or JsonReference (2). */
const responseValue = (r: Json): Message => (typeof r.$ref === 'string' ? new Message().message(2, jsonReference(r)) : new Message().message(1, response(r)));

/** Responses {response_code 1 (NamedResponseValue), vendor_extension 2}. */
function responses(v: unknown): Message | undefined {
  if (!isObject(v)) return undefined;
  const codes = entries(v).filter(([k, r]) => !k.startsWith('x-') && isObject(r));
  return new Message().messages(1, codes.map(([k, r]) => named(k, responseValue(r as Json)))).messages(2, vendorExtensions(v));
}

/** SecurityRequirement {additional_properties 1: NamedStringArray {name 1, value 2: StringArray {value 1}}}. */
const securityRequirements = (v: unknown): Message[] =>
  asArray(v)
    .filter(isObject)
    .map((req) => new Message().messages(1, entries(req).map(([k, scopes]) => named(k, new Message().strings(1, scopes)))));

/** Operation, fields 1..13. */
function operation(op: unknown): Message | undefined {
  if (!isObject(op)) return undefined;
  return new Message()
    .strings(1, op.tags)
    .string(2, op.summary)
    .string(3, op.description)
    .message(4, externalDocs(op.externalDocs))
    .string(5, op.operationId)
    .strings(6, op.produces)
    .strings(7, op.consumes)
    .messages(8, parametersItems(op.parameters))
    .message(9, responses(op.responses))
    .strings(10, op.schemes)
    .bool(11, op.deprecated)
    .messages(12, securityRequirements(op.security))
    .messages(13, vendorExtensions(op));
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

/** PathItem {_ref 1, get 2 … patch 8, parameters 9, vendor_extension 10}. */
function pathItem(item: Json): Message {
  const m = new Message().string(1, item.$ref);
  METHODS.forEach((method, i) => m.message(2 + i, operation(item[method])));
  return m.messages(9, parametersItems(item.parameters)).messages(10, vendorExtensions(item));
}

/** Paths {vendor_extension 1, path 2 (NamedPathItem)}. */
function paths(v: unknown): Message | undefined {
  if (!isObject(v)) return undefined;
  const items = entries(v).filter(([k, item]) => k.startsWith('/') && isObject(item));
  return new Message().messages(1, vendorExtensions(v)).messages(2, items.map(([k, item]) => named(k, pathItem(item as Json))));
}

// ---- the document ------------------------------------------------------------------------------

/** SecurityDefinitionsItem oneof: basic 1 {type, description, vendor}, apiKey 2 {type, name, in, description, vendor}. */
function securityDefinition(d: Json): Message | undefined {
  if (d.type === 'basic') return new Message().message(1, new Message().string(1, d.type).string(2, d.description).messages(3, vendorExtensions(d)));
  if (d.type === 'apiKey') {
    return new Message().message(2, new Message().string(1, d.type).string(2, d.name).string(3, d.in).string(4, d.description).messages(5, vendorExtensions(d)));
  }
  return undefined;
}

/** Info {title 1, version 2, description 3, terms_of_service 4, contact 5, license 6, vendor_extension 7}. */
function info(v: unknown): Message | undefined {
  if (!isObject(v)) return undefined;
  const contact = isObject(v.contact) ? new Message().string(1, v.contact.name).string(2, v.contact.url).string(3, v.contact.email).messages(4, vendorExtensions(v.contact)) : undefined;
  const license = isObject(v.license) ? new Message().string(1, v.license.name).string(2, v.license.url).messages(3, vendorExtensions(v.license)) : undefined;
  return new Message().string(1, v.title).string(2, v.version).string(3, v.description).string(4, v.termsOfService).message(5, contact).message(6, license).messages(7, vendorExtensions(v));
}

/** Document, fields 1..16: the whole `/openapi/v2` body. */
export function encodeOpenAPIV2(doc: Json): Uint8Array {
  const m = new Message().string(1, doc.swagger).message(2, info(doc.info)).string(3, doc.host).string(4, doc.basePath);
  m.strings(5, doc.schemes).strings(6, doc.consumes).strings(7, doc.produces).message(8, paths(doc.paths));
  if (isObject(doc.definitions)) m.message(9, new Message().messages(1, entries(doc.definitions).map(([k, s]) => named(k, schema(s)))));
  if (isObject(doc.parameters)) {
    m.message(10, new Message().messages(1, entries(doc.parameters).flatMap(([k, p]) => (isObject(p) && parameter(p) ? [named(k, parameter(p)!)] : []))));
  }
  if (isObject(doc.responses)) m.message(11, new Message().messages(1, entries(doc.responses).map(([k, r]) => named(k, response(r as Json)))));
  m.messages(12, securityRequirements(doc.security));
  if (isObject(doc.securityDefinitions)) {
    m.message(13, new Message().messages(1, entries(doc.securityDefinitions).flatMap(([k, d]) => (isObject(d) && securityDefinition(d) ? [named(k, securityDefinition(d)!)] : []))));
  }
  const tags = asArray(doc.tags).filter(isObject).map((t) => new Message().string(1, t.name).string(2, t.description).message(3, externalDocs(t.externalDocs)).messages(4, vendorExtensions(t)));
  return m.messages(14, tags).message(15, externalDocs(doc.externalDocs)).messages(16, vendorExtensions(doc)).finish();
}
