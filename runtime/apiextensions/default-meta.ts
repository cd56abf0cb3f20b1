/**
 * apiextensions-apiserver pkg/apiserver/schema/objectmeta Coerce and Validate as ValidateDefaults
 * uses them on a default value: in an embedded resource (or the resource a default inside metadata
 * ends up in), apiVersion and kind must be strings and metadata must decode as an ObjectMeta
 * (Coerce: the first problem, as a field error), then TypeMeta and ObjectMeta are validated
 * (Validate). Unknown metadata fields are not errors: decoding into ObjectMeta drops them.
 */
import { objectMetaDecodeError } from '../api/objectmeta-decode.js';
import { field, type FieldError } from '../validation/index.js';
import { isPlainObject, type SchemaNode } from '../validation/node.js';
import { validateStructural, type StructuralErrors } from '../validation/structural.js';

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
      const err = objectMetaDecodeError(v, '', true);
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
