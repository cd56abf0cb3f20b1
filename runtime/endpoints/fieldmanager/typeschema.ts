/**
 * The structure of a kind as server-side apply sees it (structured-merge-diff's schema.Schema,
 * built from the OpenAPI v3 component schemas the validator also compiles): maps with named
 * fields and/or free-form elements, lists with their `x-kubernetes-list-type` (atomic, set, map
 * with `x-kubernetes-list-map-keys`), scalars, and untyped values (preserve-unknown-fields),
 * which merge like SMD's deduced type: maps field by field, lists atomically.
 *
 * Each node also carries what strategic merge patch and deprecation warnings need: the
 * `x-kubernetes-patch-strategy` / `x-kubernetes-patch-merge-key` of lists and the `deprecated`
 * flag of fields.
 */

export type ListType = 'atomic' | 'set' | 'map';

export interface ScalarNode {
  kind: 'scalar';
}

/** A value with no schema: maps merge per key, lists are atomic (SMD's deduced type). */
export interface UntypedNode {
  kind: 'untyped';
}

export interface Field {
  type: TypeNode;
  deprecated: boolean;
}

export interface MapNode {
  kind: 'map';
  /** Declared properties. */
  fields: Map<string, Field>;
  /** additionalProperties (or untyped for preserve-unknown-fields); undefined when keys are closed. */
  elements?: TypeNode;
  /** `x-kubernetes-map-type: atomic`: replaced whole. */
  atomic: boolean;
}

export interface ListNode {
  kind: 'list';
  elements: TypeNode;
  listType: ListType;
  /** `x-kubernetes-list-map-keys` of `map` lists, sorted by name (SMD's order in a `k:` element). */
  keys: string[];
  /**
   * The items' schema defaults of key fields that have one (a ContainerPort's `protocol: TCP`):
   * SMD names an item that omits such a key with the default (getAssociativeKeyDefault).
   */
  keyDefaults?: ReadonlyMap<string, unknown>;
  /** Strategic merge patch metadata (built-in kinds only carry it). */
  patchStrategy: string[];
  patchMergeKey?: string;
}

export type TypeNode = ScalarNode | UntypedNode | MapNode | ListNode;

export const SCALAR: ScalarNode = { kind: 'scalar' };
export const UNTYPED: UntypedNode = { kind: 'untyped' };

type Raw = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';
export const OBJECT_META_SCHEMA = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** Keywords that shape a value's structure; a `{allOf: [{$ref}]}` wrapper without them is its target. */
const STRUCTURAL = [
  'type',
  'properties',
  'additionalProperties',
  'items',
  'anyOf',
  'oneOf',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
  'x-kubernetes-patch-strategy',
  'x-kubernetes-patch-merge-key',
];

function isRaw(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class Builder {
  private readonly named = new Map<string, TypeNode>();

  constructor(private readonly schemas: Record<string, unknown>) {}

  named_(name: string): TypeNode {
    const cached = this.named.get(name);
    if (cached) return cached;
    const raw = this.schemas[name];
    if (!isRaw(raw)) return UNTYPED;
    // A placeholder first, filled in place, so recursive references terminate.
    const node = { kind: 'untyped' } as TypeNode;
    this.named.set(name, node);
    Object.assign(node, this.build(this.flatten(raw, 0)));
    return node;
  }

  private target(ref: unknown): { name: string; raw: Raw } | undefined {
    if (typeof ref !== 'string' || !ref.startsWith(REF_PREFIX)) return undefined;
    const name = decodeURIComponent(ref.slice(REF_PREFIX.length));
    const raw = this.schemas[name];
    return isRaw(raw) ? { name, raw } : undefined;
  }

  /** The schema with its `$ref` and `allOf` parts merged in (its own keywords win). */
  private flatten(raw: Raw, depth: number): Raw {
    const merged: Raw = {};
    if (depth < 8) {
      const ref = this.target(raw.$ref);
      if (ref) Object.assign(merged, this.flatten(ref.raw, depth + 1));
      if (Array.isArray(raw.allOf)) {
        for (const part of raw.allOf) {
          if (!isRaw(part)) continue;
          const partRef = this.target(part.$ref);
          Object.assign(merged, this.flatten(partRef ? partRef.raw : part, depth + 1));
        }
      }
    }
    Object.assign(merged, raw);
    delete merged.$ref;
    delete merged.allOf;
    return merged;
  }

  /** The one named schema a `{$ref}` or `{allOf: [{$ref}], description…}` wrapper stands for. */
  private wrappedName(raw: Raw): string | undefined {
    if (STRUCTURAL.some((k) => raw[k] !== undefined)) return undefined;
    const refs = [raw.$ref, ...(Array.isArray(raw.allOf) ? raw.allOf.map((p) => (isRaw(p) ? p.$ref : undefined)) : [])].filter((r) => r !== undefined);
    const parts = (raw.$ref !== undefined ? 1 : 0) + (Array.isArray(raw.allOf) ? raw.allOf.length : 0);
    if (refs.length !== 1 || parts !== 1) return undefined;
    return this.target(refs[0])?.name;
  }

  /** A node for an inline schema (a property, items or additionalProperties). */
  node(raw: unknown): TypeNode {
    if (!isRaw(raw)) return UNTYPED;
    const name = this.wrappedName(raw);
    if (name !== undefined) return this.named_(name);
    return this.build(this.flatten(raw, 0));
  }

  private build(raw: Raw): TypeNode {
    if (raw['x-kubernetes-int-or-string'] === true) return SCALAR;
    const type = raw.type;
    if (type === 'array' || (type === undefined && raw.items !== undefined)) return this.list(raw);
    if (type === 'object' || (type === undefined && (raw.properties !== undefined || raw.additionalProperties !== undefined))) {
      return this.map(raw);
    }
    if (type === undefined) return raw.anyOf !== undefined || raw.oneOf !== undefined ? SCALAR : UNTYPED;
    return SCALAR;
  }

  private map(raw: Raw): MapNode {
    const fields = new Map<string, Field>();
    const node: MapNode = { kind: 'map', fields, atomic: raw['x-kubernetes-map-type'] === 'atomic' };
    if (isRaw(raw.properties)) {
      for (const [name, prop] of Object.entries(raw.properties)) {
        fields.set(name, { type: this.node(prop), deprecated: isRaw(prop) && prop.deprecated === true });
      }
    }
    if (isRaw(raw.additionalProperties)) node.elements = this.node(raw.additionalProperties);
    else if (raw.additionalProperties === true || raw['x-kubernetes-preserve-unknown-fields'] === true) node.elements = UNTYPED;
    else if (!isRaw(raw.properties) && raw.additionalProperties === undefined) node.elements = UNTYPED;
    return node;
  }

  private list(raw: Raw): ListNode {
    const declared = raw['x-kubernetes-list-type'];
    const keys = Array.isArray(raw['x-kubernetes-list-map-keys']) ? (raw['x-kubernetes-list-map-keys'] as unknown[]).filter((k): k is string => typeof k === 'string') : [];
    const listType: ListType = declared === 'set' || (declared === 'map' && keys.length > 0) ? declared : 'atomic';
    const strategy = typeof raw['x-kubernetes-patch-strategy'] === 'string' ? (raw['x-kubernetes-patch-strategy'] as string).split(',') : [];
    const node: ListNode = { kind: 'list', elements: this.node(raw.items), listType, keys: listType === 'map' ? [...keys].sort() : [], patchStrategy: strategy };
    if (typeof raw['x-kubernetes-patch-merge-key'] === 'string') node.patchMergeKey = raw['x-kubernetes-patch-merge-key'] as string;
    if (listType === 'map' && isRaw(raw.items)) {
      const props = this.flatten(raw.items, 0).properties;
      const defaults = new Map<string, unknown>();
      for (const key of keys) {
        const prop = isRaw(props) ? props[key] : undefined;
        if (isRaw(prop) && prop.default !== undefined) defaults.set(key, prop.default);
      }
      if (defaults.size > 0) node.keyDefaults = defaults;
    }
    return node;
  }
}

/**
 * The structure of `schemas[rootName]` as a resource: apiVersion and kind are scalars and
 * metadata is ObjectMeta (from the same document), whatever the schema says of them.
 */
export function buildTypeSchema(schemas: Record<string, unknown>, rootName: string): TypeNode {
  const builder = new Builder(schemas);
  const root = builder.named_(rootName);
  if (root.kind !== 'map') return root;
  const fields = new Map(root.fields);
  fields.set('apiVersion', { type: SCALAR, deprecated: false });
  fields.set('kind', { type: SCALAR, deprecated: false });
  const meta = schemas[OBJECT_META_SCHEMA] !== undefined ? builder.named_(OBJECT_META_SCHEMA) : UNTYPED;
  fields.set('metadata', { type: meta, deprecated: false });
  return { ...root, fields };
}

/** The type of a map's entry `key`: its declared field, else its elements; undefined when not allowed. */
export function fieldType(node: TypeNode, key: string): TypeNode | undefined {
  if (node.kind === 'untyped') return UNTYPED;
  if (node.kind !== 'map') return undefined;
  return node.fields.get(key)?.type ?? node.elements;
}

/** An untyped resource structure, for scopes installed without schemas. */
export const UNTYPED_RESOURCE: TypeNode = UNTYPED;
