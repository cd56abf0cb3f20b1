/**
 * The @kgen:protobuf field numbers of a kind and of every type it uses, by OpenAPI schema name
 * and JSON field name, for its ResourceDefinition: the server derives the kind's protobuf
 * messages from these and the kind's schema (runtime/endpoints/protobuf-schema.ts). A kind's
 * metadata is field 1, as in every kube kind. Undefined when the kind numbers no field (user
 * kinds): it is then served as JSON only. The numbers and their wire words (`pointer`,
 * `microtime`) were checked by check/protobuf.ts.
 */
import type { ApiVersion, Kind, ObjectSchema, Schema } from '../model.js';
import { protobufNumber, type ProtobufNumber } from '../check/protobuf.js';
import { contextFor, kindSchemaName, typeSchemaName } from './openapi-schemas.js';

/**
 * A field's entry: its number alone, or, when @kgen:protobuf gives it wire words, the number with
 * them (`{ number: 1, pointer: true }`, `{ number: 3, microTime: true }`): ResourceDefinition's
 * `protobuf` value type (runtime/api/resource.ts).
 */
export type ProtobufEntry = ProtobufNumber | { number: ProtobufNumber; pointer?: true; microTime?: true };
export type ProtobufNumbers = Record<string, Record<string, ProtobufEntry>>;

export function protobufNumbers(kind: Kind, version: ApiVersion): ProtobufNumbers | undefined {
  if (!kind.schema.properties.some((p) => p.schema.protobuf)) return undefined;
  const ctx = contextFor(version);
  const out: ProtobufNumbers = {};
  const seen = new Set<string>();
  const visit = (s: Schema): void => {
    switch (s.type) {
      case 'array':
        return visit(s.items);
      case 'map':
        return visit(s.values);
      case 'object':
        for (const p of s.properties) visit(p.schema);
        return;
      case 'ref': {
        const name = typeSchemaName(ctx, s);
        if (seen.has(name)) return;
        seen.add(name);
        const type = version.types.find((t) => t.name === s.name && typeSchemaName(ctx, t) === name);
        if (!type) return;
        if (type.schema.type === 'object') add(name, type.schema);
        visit(type.schema);
        return;
      }
      default:
        return;
    }
  };
  const add = (name: string, schema: ObjectSchema, fields: Record<string, ProtobufEntry> = {}) => {
    for (const p of schema.properties) {
      const read = p.schema.protobuf && protobufNumber(p.schema.protobuf.text);
      if (read && 'number' in read) fields[p.name] = read.pointer || read.microTime ? read : read.number;
    }
    if (Object.keys(fields).length) out[name] = fields;
  };
  add(kindSchemaName(ctx, kind.name), kind.schema, { metadata: 1 });
  visit(kind.schema);
  return out;
}
