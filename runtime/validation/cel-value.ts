/**
 * JSON values as a rule sees them, driven by the structural schema as kube's UnstructuredToVal
 * does: integers are CEL ints (bigint), numbers doubles, date-time strings timestamps, object
 * properties under their escaped names, maps keep their keys; at a resource root only apiVersion,
 * kind and metadata.name/generateName of the metadata are visible. Also the declared type of a
 * compiled schema node (kube's SchemaDeclType), for the static field check.
 */
import { celFieldNames, DYN, escapeName, withTypeMeta, type DeclType } from './cel-decl.js';
import { isPlainObject, type SchemaNode } from './node.js';

const STRING: DeclType = { kind: 'scalar', name: 'string' };

export function declTypeOfNode(node: SchemaNode, resourceRoot = false): DeclType {
  const decl = bareDeclType(node);
  return resourceRoot || node.embedded ? withTypeMeta(decl) : decl;
}

function bareDeclType(node: SchemaNode): DeclType {
  if (node.intOrString || node.types === undefined || node.types.length !== 1) {
    return node.properties ? objectDecl(node) : DYN;
  }
  switch (node.types[0]) {
    case 'integer':
      return { kind: 'scalar', name: 'int' };
    case 'number':
      return { kind: 'scalar', name: 'double' };
    case 'boolean':
      return { kind: 'scalar', name: 'bool' };
    case 'string':
      return node.format === 'date-time' ? { kind: 'scalar', name: 'timestamp' } : STRING;
    case 'array': {
      const items = node.items;
      return { kind: 'list', items: () => (items ? declTypeOfNode(items) : DYN) };
    }
    case 'object':
      if (node.properties) return objectDecl(node);
      if (typeof node.additional === 'object') {
        const values = node.additional;
        return { kind: 'map', values: () => declTypeOfNode(values) };
      }
      return node.additional === true ? { kind: 'map', values: () => DYN } : node.preserveUnknown ? DYN : { kind: 'object', fields: new Map() };
    default:
      return DYN;
  }
}

function objectDecl(node: SchemaNode): DeclType {
  const fields = new Map<string, () => DeclType>();
  for (const [name, child] of node.properties ?? []) {
    for (const celName of celFieldNames(name)) fields.set(celName, () => declTypeOfNode(child));
  }
  return { kind: 'object', fields };
}

/**
 * The CEL values of one object's lists and objects, by the JSON value and the node they were
 * converted under: a validation converts a value for its own rules and again inside its parent's,
 * and the conversion depends on nothing else (rules do not change what they read).
 */
export type CelValueCache = Map<object, { node: SchemaNode | undefined; typeMeta: boolean; cel: unknown }>;

/** The CEL value of `value` under `node`; null and absent values stay as they are. */
export function toCelValue(node: SchemaNode | undefined, value: unknown, resourceRoot = false, cache?: CelValueCache): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value === 'number') return toCelNumber(node, value);
  if (typeof value === 'string') {
    if (node?.format === 'date-time' && !node.intOrString) {
      const date = new Date(value);
      return Number.isNaN(date.getTime()) ? value : date;
    }
    return value;
  }
  if (typeof value !== 'object') return value;
  const typeMeta = resourceRoot || node?.embedded === true;
  const cached = cache?.get(value);
  if (cached && cached.node === node && cached.typeMeta === typeMeta) return cached.cel;
  let cel: unknown;
  if (Array.isArray(value)) cel = value.map((v) => toCelValue(node?.items, v, false, cache));
  else if (isPlainObject(value)) cel = toCelObject(node, value, typeMeta, cache);
  else return value;
  cache?.set(value, { node, typeMeta, cel });
  return cel;
}

/** int for integer schemas (and integral values of untyped ones), double for number schemas. */
function toCelNumber(node: SchemaNode | undefined, value: number): bigint | number {
  const declared = node?.types?.length === 1 ? node.types[0] : undefined;
  if (declared === 'number') return value;
  return Number.isSafeInteger(value) ? BigInt(value) : value;
}

/** celFieldNames of each property of a node (schema names: computed once per schema). */
const fieldNames = new WeakMap<ReadonlyMap<string, SchemaNode>, Map<string, string[]>>();

function namesOf(props: ReadonlyMap<string, SchemaNode>, key: string): string[] {
  let names = fieldNames.get(props);
  if (!names) fieldNames.set(props, (names = new Map()));
  let found = names.get(key);
  if (!found) names.set(key, (found = celFieldNames(key)));
  return found;
}

function toCelObject(node: SchemaNode | undefined, value: Record<string, unknown>, typeMeta: boolean, cache?: CelValueCache): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const props = node?.properties;
  const additional = node && typeof node.additional === 'object' ? node.additional : undefined;
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    if (typeMeta && key === 'metadata' && isPlainObject(v)) {
      out.metadata = visibleMetadata(v);
      continue;
    }
    const child = props?.get(key);
    if (child) {
      const names = namesOf(props!, key);
      if (names.length > 0) {
        const converted = toCelValue(child, v, false, cache);
        for (const celName of names) out[celName] = converted;
      }
    } else if (props === undefined || node?.preserveUnknown) {
      // A map (additionalProperties) keeps its keys; unknown fields of a preserve-unknown object are dyn.
      out[props === undefined ? key : (escapeName(key) ?? key)] = toCelValue(additional, v, false, cache);
    }
  }
  return out;
}

function visibleMetadata(meta: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof meta.name === 'string') out.name = meta.name;
  if (typeof meta.generateName === 'string') out.generateName = meta.generateName;
  return out;
}
