/**
 * A kind's OpenAPI schema as a CRD's openAPIV3Schema: structural, as apiextensions.k8s.io/v1
 * requires ("Specifying a structural schema"): every $ref inlined (CRDs allow none), a kind's
 * field wrapper `allOf: [$ref]` merged into one node, the root `metadata` a bare object (only
 * name and generateName may be restricted there, and kgen restricts neither), and only the
 * keywords JSONSchemaProps knows. The apimachinery schemas keep their shape but lose the Go
 * zero-value defaults kube's published OpenAPI carries (`default: ""` beside an enum would be an
 * invalid default in a CRD), as controller-gen emits them.
 */
import type { OpenAPIV3 } from 'openapi-types';
import { INT_OR_STRING, META_SCHEMAS, QUANTITY } from '../../runtime/endpoints/openapi/meta-schemas.js';
import type { SchemaOrRef } from './openapi-schemas.js';

type Json = Record<string, unknown>;

/** apiextensions.k8s.io/v1 JSONSchemaProps' keywords, minus those CRDs forbid ($ref, definitions, uniqueItems…). */
const ALLOWED = new Set([
  'description', 'type', 'format', 'title', 'default', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
  'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'multipleOf', 'enum', 'maxProperties',
  'minProperties', 'required', 'items', 'allOf', 'oneOf', 'anyOf', 'not', 'properties', 'additionalProperties',
  'example', 'nullable', 'externalDocs',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys', 'x-kubernetes-list-type', 'x-kubernetes-map-type', 'x-kubernetes-validations',
]);

const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);

/**
 * IntOrString and Quantity inline without their type's description: a field of either carries
 * only its own, as controller-gen writes them (kube's `<IntOrString>` in explain is the published
 * OpenAPI's, never a CRD's).
 */
const INLINED_BARE: Record<string, Json> = Object.fromEntries(
  [INT_OR_STRING, QUANTITY].map((name) => {
    const { description: _drop, ...bare } = META_SCHEMAS[name] as Json;
    return [name, bare];
  }),
);
const REF_PREFIX = '#/components/schemas/';
/** Far deeper than any API; recursive types are refused by the checker (KG016) before emit. */
const MAX_DEPTH = 64;

export interface CrdSchemaOptions {
  /** Component schemas of the kind's version ($ref targets besides the apimachinery ones). */
  components: Record<string, SchemaOrRef>;
  /** Bound on description length: undefined keeps them, 0 drops them (controller-gen's maxDescLen). */
  maxDescriptionLength?: number;
}

/** The openAPIV3Schema of a CRD version, from the kind's (root) OpenAPI schema. */
export function crdSchema(kindSchema: OpenAPIV3.SchemaObject, options: CrdSchemaOptions): Json {
  // Every node is built with its keys sorted (as controller-gen writes CRDs: stable output), so
  // replacing `metadata` in place keeps the order. A plain root's `metadata` is replaced before
  // inlining, which spares inlining ObjectMeta only to drop it.
  const raw = kindSchema as Json;
  const rawProps = raw.properties as Record<string, Json> | undefined;
  const plainRoot = raw.$ref === undefined && raw.allOf === undefined && rawProps?.metadata !== undefined;
  const root = plainRoot ? { ...raw, properties: { ...rawProps, metadata: { type: 'object' } } } : raw;
  const out = new Inliner(options.components).node(root, false, 0);
  const props = out.properties as Record<string, Json> | undefined;
  if (props?.metadata) props.metadata = { type: 'object' };
  if (options.maxDescriptionLength !== undefined) boundDescriptions(out, options.maxDescriptionLength);
  return out;
}

class Inliner {
  constructor(private readonly components: Record<string, SchemaOrRef>) {}

  /** The structural form of one schema node; `meta` marks apimachinery schemas (defaults dropped). */
  node(raw: Json, meta: boolean, depth: number): Json {
    if (depth > MAX_DEPTH) return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    if (typeof raw.$ref === 'string') return this.node(...this.resolve(raw.$ref, meta), depth + 1);
    const allOf = Array.isArray(raw.allOf) ? (raw.allOf as Json[]) : undefined;
    if (allOf && allOf.length === 1 && typeof allOf[0]!.$ref === 'string') {
      const { allOf: _drop, ...own } = raw;
      return merge(this.node(allOf[0]!, meta, depth + 1), this.own(own, meta, depth));
    }
    return this.own(raw, meta, depth);
  }

  private resolve(ref: string, meta: boolean): [Json, boolean] {
    const name = ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : ref;
    const own = this.components[name];
    if (own) return [own as Json, meta];
    const apimachinery = INLINED_BARE[name] ?? META_SCHEMAS[name];
    if (apimachinery) return [apimachinery as Json, true];
    throw new Error(`CRD schema: unresolved $ref ${ref}`);
  }

  /**
   * The node's own keywords, children inlined. `uniqueItems` is forbidden in CRDs (quadratic);
   * a list of scalars keeps its meaning as x-kubernetes-list-type: set, as kube advises.
   */
  private own(raw: Json, meta: boolean, depth: number): Json {
    const out: Json = {};
    const asSet = raw.uniqueItems === true && raw['x-kubernetes-list-type'] === undefined && SCALARS.has((raw.items as Json | undefined)?.type as string);
    for (const key of sortedKeys(raw)) {
      if (!ALLOWED.has(key) || (meta && key === 'default')) continue;
      const value = raw[key];
      switch (key) {
        case 'properties': {
          const props: Json = {};
          for (const name of sortedKeys(value as Json)) props[name] = this.node((value as Record<string, Json>)[name]!, meta, depth + 1);
          out.properties = props;
          break;
        }
        case 'items':
          out.items = this.node(value as Json, meta, depth + 1);
          break;
        case 'additionalProperties':
          out.additionalProperties = typeof value === 'object' && value !== null ? this.node(value as Json, meta, depth + 1) : value;
          break;
        case 'allOf':
        case 'anyOf':
        case 'oneOf':
          out[key] = (value as Json[]).map((v) => this.node(v, meta, depth + 1));
          break;
        default:
          out[key] = sortedClone(value);
      }
    }
    if (asSet) {
      out['x-kubernetes-list-type'] = 'set';
      return sortShallow(out);
    }
    return out;
  }
}

/** A field's own keywords over its type's: the field's description and default win; rules add up. */
function merge(base: Json, own: Json): Json {
  const out: Json = { ...base, ...own };
  const rules = [base, own].flatMap((s) => (Array.isArray(s['x-kubernetes-validations']) ? (s['x-kubernetes-validations'] as unknown[]) : []));
  if (rules.length) out['x-kubernetes-validations'] = rules;
  return sortShallow(out);
}

/**
 * `Object.keys(o).sort()` (code-unit order): an insertion sort, as schema nodes have a few keys,
 * often already in order.
 */
function sortedKeys(o: Json): string[] {
  const keys = Object.keys(o);
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

/** `o` with its own keys sorted (values kept as they are). */
function sortShallow(o: Json): Json {
  const out: Json = {};
  for (const key of sortedKeys(o)) out[key] = o[key];
  return out;
}

/** A copy of JSON data with the keys of every object sorted. Arrays keep their order. */
function sortedClone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedClone);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const key of sortedKeys(value as Json)) out[key] = sortedClone((value as Json)[key]);
  return out;
}

/**
 * controller-gen's TruncateDescription: cut at the last whitespace before the bound and add
 * "..."; 0 removes every description. Only schema descriptions; `default` and `example` values
 * (which may hold a `description` key) are left alone.
 */
function boundDescriptions(node: Json, max: number): void {
  if (typeof node.description === 'string') {
    if (max === 0) delete node.description;
    else node.description = truncate(node.description, max);
  }
  const visit = (child: unknown) => {
    if (child && typeof child === 'object' && !Array.isArray(child)) boundDescriptions(child as Json, max);
  };
  for (const child of Object.values((node.properties as Json | undefined) ?? {})) visit(child);
  visit(node.items);
  visit(node.additionalProperties);
  for (const key of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(node[key])) (node[key] as unknown[]).forEach(visit);
  visit(node.not);
}

export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = Math.max(cut.lastIndexOf(' '), cut.lastIndexOf('\n'), cut.lastIndexOf('\t'));
  return (space > 0 ? cut.slice(0, space) : cut) + '...';
}
