/**
 * apiextensions-apiserver pkg/apiserver/schema/objectmeta Coerce and Validate as ValidateDefaults
 * uses them on a default value: in an embedded resource (or the resource a default inside metadata
 * ends up in), apiVersion and kind must be strings and metadata must decode as an ObjectMeta
 * (Coerce: the first problem, as a field error), then TypeMeta and ObjectMeta are validated
 * (Validate). Unknown metadata fields are not errors: decoding into ObjectMeta drops them.
 */
import { field, type FieldError } from '../validation/index.js';
import { isPlainObject, type SchemaNode } from '../validation/node.js';
import { validateStructural, type StructuralErrors } from '../validation/structural.js';

/** ObjectMeta's JSON fields by their Go type, as encoding/json checks them when decoding. */
const OBJECT_META_FIELDS: Record<string, 'string' | 'int64' | 'map[string]string' | '[]string' | 'array' | 'time'> = {
  name: 'string', generateName: 'string', namespace: 'string', selfLink: 'string', uid: 'string', resourceVersion: 'string',
  generation: 'int64', deletionGracePeriodSeconds: 'int64', creationTimestamp: 'time', deletionTimestamp: 'time',
  labels: 'map[string]string', annotations: 'map[string]string', finalizers: '[]string', ownerReferences: 'array', managedFields: 'array',
};

const goKind = (v: unknown) => (typeof v === 'number' ? 'number' : typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'array' : 'object');

/** encoding/json's error for metadata that does not decode into an ObjectMeta, or undefined. */
function objectMetaDecodeError(meta: unknown): string | undefined {
  if (meta === null) return undefined;
  if (!isPlainObject(meta)) return `json: cannot unmarshal ${goKind(meta)} into Go value of type v1.ObjectMeta`;
  for (const [k, v] of Object.entries(meta)) {
    const type = OBJECT_META_FIELDS[k];
    if (type === undefined || v === null) continue;
    const wrong = (what: string) => `json: cannot unmarshal ${goKind(what === '' ? v : what)} into Go struct field ObjectMeta.${k} of type ${type === 'time' ? 'v1.Time' : type}`;
    if ((type === 'string' || type === 'time') && typeof v !== 'string') return wrong('');
    if (type === 'int64' && !Number.isInteger(v)) return wrong('');
    if (type === 'map[string]string') {
      if (!isPlainObject(v)) return wrong('');
      const bad = Object.values(v).find((x) => x !== null && typeof x !== 'string');
      if (bad !== undefined) return `json: cannot unmarshal ${goKind(bad)} into Go struct field ObjectMeta.${k} of type string`;
    }
    if (type === '[]string') {
      if (!Array.isArray(v)) return wrong('');
      const bad = v.find((x) => x !== null && typeof x !== 'string');
      if (bad !== undefined) return `json: cannot unmarshal ${goKind(bad)} into Go struct field ObjectMeta.${k} of type string`;
    }
    if (type === 'array' && !Array.isArray(v)) return wrong('');
  }
  return undefined;
}

const child = (path: string, k: string) => (path === '' ? k : `${path}.${k}`);

/** Coerce (dropInvalidFields false): the first TypeMeta/ObjectMeta problem under `node`, or undefined. */
export function coerceMeta(value: unknown, node: SchemaNode | undefined, path: string, embeddedRoot: boolean): FieldError | undefined {
  if (node === undefined) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const err = coerceMeta(value[i], node.items, `${path}[${i}]`, false);
      if (err) return err;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return undefined;
  const embedded = embeddedRoot || node.embedded;
  for (const [k, v] of Object.entries(value)) {
    if (embedded && (k === 'apiVersion' || k === 'kind') && typeof v !== 'string') return field.invalid(child(path, k), v, 'must be a string');
    if (embedded && k === 'metadata') {
      const err = objectMetaDecodeError(v);
      if (err) return field.invalid(child(path, 'metadata'), v, err);
    }
    const prop = node.properties?.get(k);
    const err = prop !== undefined ? coerceMeta(v, prop, child(path, k), false) : typeof node.additional === 'object' ? coerceMeta(v, node.additional, `${path}[${k}]`, false) : undefined;
    if (err) return err;
  }
  return undefined;
}

/** Validate: TypeMeta and ObjectMeta of every embedded resource under `node` (the node itself counts as one when `embeddedRoot`). */
export function validateMeta(value: unknown, node: SchemaNode, path: string, embeddedRoot: boolean): FieldError[] {
  const out: StructuralErrors = { embedded: [], listType: [] };
  const n = embeddedRoot && !node.embedded ? { ...node, embedded: true, needsStructuralPass: true } : node;
  validateStructural(n, value, '', out);
  return out.embedded.map((e) => ({ ...e, field: e.field ? (e.field.startsWith('[') ? `${path}${e.field}` : `${path}.${e.field}`) : path }));
}
