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
import { META_SCHEMAS } from './meta-schemas.js';
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
  const root = new Inliner(options.components).node(kindSchema as Json, false, 0);
  const props = root.properties as Record<string, Json> | undefined;
  if (props?.metadata) props.metadata = { type: 'object' };
  const out = sortDeep(root) as Json;
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
    const apimachinery = META_SCHEMAS[name];
    if (apimachinery) return [apimachinery as Json, true];
    throw new Error(`CRD schema: unresolved $ref ${ref}`);
  }

  /**
   * The node's own keywords, children inlined. `uniqueItems` is forbidden in CRDs (quadratic);
   * a list of scalars keeps its meaning as x-kubernetes-list-type: set, as kube advises.
   */
  private own(raw: Json, meta: boolean, depth: number): Json {
    const out: Json = {};
    if (raw.uniqueItems === true && raw['x-kubernetes-list-type'] === undefined && SCALARS.has((raw.items as Json | undefined)?.type as string)) {
      out['x-kubernetes-list-type'] = 'set';
    }
    for (const [key, value] of Object.entries(raw)) {
      if (!ALLOWED.has(key) || (meta && key === 'default')) continue;
      switch (key) {
        case 'properties':
          out.properties = Object.fromEntries(
            Object.entries(value as Record<string, Json>).map(([name, child]) => [name, this.node(child, meta, depth + 1)]),
          );
          break;
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
          out[key] = typeof value === 'object' && value !== null ? structuredClone(value) : value;
      }
    }
    return out;
  }
}

/** A field's own keywords over its type's: the field's description and default win; rules add up. */
function merge(base: Json, own: Json): Json {
  const out: Json = { ...base, ...own };
  const rules = [base, own].flatMap((s) => (Array.isArray(s['x-kubernetes-validations']) ? (s['x-kubernetes-validations'] as unknown[]) : []));
  if (rules.length) out['x-kubernetes-validations'] = rules;
  return out;
}

/** Keys sorted at every level, as controller-gen writes CRDs (stable output). Arrays keep their order. */
function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (!value || typeof value !== 'object') return value;
  const o = value as Json;
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, sortDeep(o[k])]));
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
