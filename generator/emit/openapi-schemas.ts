/**
 * Model schemas → OpenAPI v3 (structural) schemas, as kube-apiserver publishes them for CRDs:
 * named types under components.schemas, `allOf: [$ref]` where a reference carries its own
 * description or default, `x-kubernetes-*` extensions for lists and maps, and IntOrString and
 * Quantity as references to their apimachinery components (as kube-apiserver publishes Go types).
 */
import type { OpenAPIV3 } from 'openapi-types';
import type { ApiVersion, DiscriminatedUnion, Kind, NamedType, RefSchema, Schema, SchemaAnnotations, ValidationRule } from '../model.js';
import { assertNever } from '../model.js';
import { kindSchema as runtimeKindSchema, listSchema } from '../../runtime/endpoints/openapi/kind-schemas.js';
import { INT_OR_STRING, META, QUANTITY, ref } from '../../runtime/endpoints/openapi/meta-schemas.js';
import { resourceDefinition } from '../definitions.js';
import { apiVersionOf, homePrefix, schemaPrefix } from '../names.js';

export type SchemaOrRef = OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject;
type Ext = OpenAPIV3.SchemaObject & Record<`x-${string}`, unknown>;

/** Which meta schema a well-known input type maps to. */
const WELL_KNOWN_SCHEMA: Record<string, string> = {
  ObjectMeta: `${META}.ObjectMeta`,
  Condition: `${META}.Condition`,
  LabelSelector: `${META}.LabelSelector`,
  ObjectReference: 'io.k8s.api.core.v1.ObjectReference',
};


export interface SchemaContext {
  prefix: string;
  maxDescription: number;
}

export function contextFor(version: ApiVersion, maxDescription = 0): SchemaContext {
  return { prefix: schemaPrefix(version.group, version.name), maxDescription };
}

export const kindSchemaName = (ctx: SchemaContext, kind: string) => `${ctx.prefix}.${kind}`;

/**
 * A named type's component name: after its home, as Kubernetes names a type after its package.
 * A type imported from another version, group or a shared folder keeps that home's prefix.
 */
export const typeSchemaName = (ctx: SchemaContext, type: NamedType | RefSchema) => `${type.home ? homePrefix(type.home) : ctx.prefix}.${type.name}`;

function describe(ctx: SchemaContext, text: string | undefined): string | undefined {
  if (text === undefined || ctx.maxDescription <= 0 || text.length <= ctx.maxDescription) return text;
  return text.slice(0, Math.max(0, ctx.maxDescription - 3)).trimEnd() + '...';
}

/** The bare schema for a node, without its annotations. */
function shape(ctx: SchemaContext, s: Schema): SchemaOrRef {
  switch (s.type) {
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      return s.enum ? ({ type: s.type, enum: [...s.enum] } as OpenAPIV3.SchemaObject) : { type: s.type };
    case 'array': {
      const out: Ext = { type: 'array', items: toSchema(ctx, s.items) };
      return out;
    }
    case 'map':
      return { type: 'object', additionalProperties: toSchema(ctx, s.values) };
    case 'object':
      return objectSchema(ctx, s.properties);
    case 'ref':
      return ref(typeSchemaName(ctx, s));
    case 'wellKnown':
      return ref(WELL_KNOWN_SCHEMA[s.name]!);
    // References, as kube publishes them, so that kubectl explain prints `<IntOrString>`; a CRD
    // inlines them (crd-schema.ts).
    case 'intOrString':
      return ref(INT_OR_STRING);
    case 'quantity':
      return ref(QUANTITY);
    case 'time':
      return { type: 'string', format: 'date-time' };
    case 'duration':
      return { type: 'string' };
    case 'unknown':
      return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } as Ext;
    default:
      return assertNever(s, 'schema');
  }
}

function objectSchema(ctx: SchemaContext, properties: { name: string; optional: boolean; schema: Schema }[]): OpenAPIV3.SchemaObject {
  const out: OpenAPIV3.SchemaObject = { type: 'object' };
  const required = properties.filter((p) => !p.optional).map((p) => p.name);
  if (required.length) out.required = required;
  if (properties.length) {
    out.properties = Object.fromEntries([...properties].sort((a, b) => a.name.localeCompare(b.name)).map((p) => [p.name, toSchema(ctx, p.schema)]));
  }
  return out;
}

/** The annotation keys that map one-to-one onto OpenAPI keywords. */
const DIRECT: (keyof SchemaAnnotations & keyof OpenAPIV3.SchemaObject)[] = [
  'nullable', 'default', 'example', 'deprecated', 'format', 'minimum', 'maximum', 'multipleOf',
  'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties',
];

/** What a discriminated union's description adds: its members and the tag of each. */
export function unionSummary(union: DiscriminatedUnion): string {
  const members = union.members.map((m) => {
    const tags = m.tags.map((t) => JSON.stringify(t)).join(' or ');
    return m.schema.type === 'ref' ? `${tags} (${m.schema.name})` : tags;
  });
  return `One of, chosen by ${union.discriminator}: ${members.join(', ')}.`;
}

function annotations(ctx: SchemaContext, s: Schema): Ext {
  const out: Ext = {};
  const own = s.type === 'object' && s.union ? [s.description, unionSummary(s.union)].filter(Boolean).join('\n\n') : s.description;
  const description = describe(ctx, own);
  if (description) out.description = description;
  if (s.type === 'integer' && s.format) out.format = s.format;
  for (const key of DIRECT) if (s[key] !== undefined) (out as Record<string, unknown>)[key] = s[key];
  if (s.exclusiveMinimum !== undefined) Object.assign(out, { minimum: s.exclusiveMinimum, exclusiveMinimum: true });
  if (s.exclusiveMaximum !== undefined) Object.assign(out, { maximum: s.exclusiveMaximum, exclusiveMaximum: true });
  if (s.listType) out['x-kubernetes-list-type'] = s.listType;
  if (s.listMapKeys) out['x-kubernetes-list-map-keys'] = s.listMapKeys;
  Object.assign(out, patchStrategy(s));
  if (s.preserveUnknownFields && s.type !== 'unknown') out['x-kubernetes-preserve-unknown-fields'] = true;
  if (s.validations?.length) out['x-kubernetes-validations'] = validationRules(s.validations);
  return out;
}

/**
 * Strategic merge patch metadata of a list (Go's `patchStrategy:"merge" patchMergeKey:"…"` tags):
 * a `map` list merges by its first key, as kube's Service ports (keys port and protocol) merge by
 * port; strategic merge has a single merge key. Other lists are replaced whole. CRD schemas never
 * carry these (crd-schema.ts keeps only JSONSchemaProps' keywords).
 */
function patchStrategy(s: Schema): Ext {
  if (s.listType !== 'map' || !s.listMapKeys?.length) return {};
  return { 'x-kubernetes-patch-merge-key': s.listMapKeys[0]!, 'x-kubernetes-patch-strategy': 'merge' };
}

/** x-kubernetes-validations entries, keys in kube's JSON order. */
export function validationRules(rules: ValidationRule[]): Record<string, string>[] {
  return rules.map((r) => {
    const out: Record<string, string> = { rule: r.rule };
    if (r.message !== undefined) out.message = r.message;
    if (r.messageExpression !== undefined) out.messageExpression = r.messageExpression;
    if (r.reason !== undefined) out.reason = r.reason;
    if (r.fieldPath !== undefined) out.fieldPath = r.fieldPath;
    return out;
  });
}

/** A model schema with its annotations; references gain an allOf wrapper when annotated. */
export function toSchema(ctx: SchemaContext, s: Schema): SchemaOrRef {
  const base = shape(ctx, s);
  const extra = annotations(ctx, s);
  if (Object.keys(extra).length === 0) return base;
  if ('$ref' in base) return { allOf: [base], ...extra };
  return sortKeys({ ...base, ...extra });
}

/** Keys in a stable, readable order: description first, then alphabetical. */
/** Sorted key orders by key set: schemas reuse a few key sets, and localeCompare is slow. */
const keyOrders = new Map<string, string[]>();

function sortKeys<T extends object>(o: T): T {
  const keys = Object.keys(o);
  const signature = JSON.stringify(keys);
  let order = keyOrders.get(signature);
  if (!order) {
    order = keys.sort((a, b) => (a === 'description' ? -1 : b === 'description' ? 1 : a.localeCompare(b)));
    keyOrders.set(signature, order);
  }
  const out: Record<string, unknown> = {};
  for (const key of order) out[key] = (o as Record<string, unknown>)[key];
  return out as T;
}

/** The kind's schema (the runtime's builder, as for CRDs): apiVersion, kind, metadata, then its own fields. */
export function kindSchema(ctx: SchemaContext, kind: Kind): OpenAPIV3.SchemaObject {
  const own: Record<string, unknown> = { ...objectSchema(ctx, kind.schema.properties) };
  const description = describe(ctx, kind.description);
  if (description) own.description = description;
  if (kind.schema.validations?.length) own['x-kubernetes-validations'] = validationRules(kind.schema.validations);
  return sortKeys(runtimeKindSchema(resourceDefinition(kind), own) as OpenAPIV3.SchemaObject);
}

/**
 * Built component schemas by version object and context: a version's schemas feed its OpenAPI
 * documents and the CRD of each of its kinds, so they are built once. Every reader treats them
 * as immutable (as the model objects are after checking, which `--watch` relies on too).
 */
const built = new WeakMap<ApiVersion, Map<string, Record<string, SchemaOrRef>>>();

/** Named types, kinds and lists of one version, by component name (shared: do not modify). */
export function versionSchemas(ctx: SchemaContext, version: ApiVersion): Record<string, SchemaOrRef> {
  const key = `${ctx.prefix}\0${ctx.maxDescription}`;
  let byContext = built.get(version);
  if (!byContext) built.set(version, (byContext = new Map()));
  let out = byContext.get(key);
  if (!out) byContext.set(key, (out = buildVersionSchemas(ctx, version)));
  return out;
}

function buildVersionSchemas(ctx: SchemaContext, version: ApiVersion): Record<string, SchemaOrRef> {
  const out: Record<string, SchemaOrRef> = {};
  for (const type of version.types) {
    const schema = toSchema(ctx, type.schema);
    const union = type.schema.type === 'object' ? type.schema.union : undefined;
    const description = describe(ctx, union ? [type.description, unionSummary(union)].filter(Boolean).join('\n\n') : type.description);
    out[typeSchemaName(ctx, type)] = description && !('$ref' in schema) ? sortKeys({ ...schema, description }) : schema;
  }
  for (const kind of version.kinds) {
    out[kindSchemaName(ctx, kind.name)] = kindSchema(ctx, kind);
    // A virtual kind is never listed: kube publishes no list schema for it.
    if (!kind.virtual) out[kindSchemaName(ctx, `${kind.name}List`)] = listSchema(resourceDefinition(kind)) as OpenAPIV3.SchemaObject;
  }
  return out;
}

export { apiVersionOf };
