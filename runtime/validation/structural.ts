/**
 * The checks apiextensions runs after kube-openapi validation, over the structural schema:
 * embedded resources' TypeMeta and ObjectMeta (pkg/apiserver/schema/objectmeta/validation.go) and
 * the uniqueness of x-kubernetes-list-type set and map lists (pkg/apiserver/schema/listtype).
 * Paths here are field.Path strings: properties '.name', map entries '[key]', items '[i]'.
 * Only subtrees flagged needsStructuralPass are visited.
 */
import { duplicate, invalid, required } from './field.js';
import { canonicalJSON, isPlainObject, type SchemaNode } from './node.js';
import { isDNS1035Label } from './names.js';
import { validateObjectMeta } from './objectmeta.js';
import type { FieldError } from './types.js';

export interface StructuralErrors {
  embedded: FieldError[];
  listType: FieldError[];
}

export function validateStructural(node: SchemaNode, value: unknown, path: string, out: StructuralErrors): void {
  if (!node.needsStructuralPass) return;
  if (Array.isArray(value)) {
    if (node.listType === 'set') validateListSet(path, value, out.listType);
    else if (node.listType === 'map') validateListMap(node, path, value, out.listType);
    const items = node.items;
    if (items !== undefined && items.needsStructuralPass) {
      for (let i = 0; i < value.length; i++) validateStructural(items, value[i], `${path}[${i}]`, out);
    }
    return;
  }
  if (!isPlainObject(value)) return;
  if (node.embedded) validateEmbeddedResource(path, value, out.embedded);
  const props = node.properties;
  const additional = typeof node.additional === 'object' ? node.additional : undefined;
  for (const key of Object.keys(value)) {
    const child = props?.get(key);
    if (child !== undefined) {
      if (child.needsStructuralPass) validateStructural(child, value[key], path === '' ? key : `${path}.${key}`, out);
    } else if (additional !== undefined && additional.needsStructuralPass) {
      validateStructural(additional, value[key], `${path}[${key}]`, out);
    }
  }
}

/** One Duplicate error per value seen again, at the index of its first repetition. */
function validateListSet(path: string, items: unknown[], errs: FieldError[]): void {
  for (const i of firstRepeats(items.map(setKey))) errs.push(duplicate(`${path}[${i}]`, items[i]));
}

function setKey(value: unknown): string {
  if (value === undefined) return 'undefined';
  return typeof value === 'object' && value !== null ? `c:${canonicalJSON(value)}` : `s:${canonicalJSON(value)}`;
}

function firstRepeats(keys: string[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  keys.forEach((key, i) => {
    const times = seen.get(key) ?? 0;
    if (times === 1) out.push(i);
    seen.set(key, times + 1);
  });
  return out;
}

/**
 * Items must be objects (or null); their key fields must be unique. An absent key counts as its
 * own value; the duplicate is reported as the map of its key fields.
 */
function validateListMap(node: SchemaNode, path: string, items: unknown[], errs: FieldError[]): void {
  for (let i = 0; i < items.length; i++) {
    const x = items[i];
    if (x !== null && !isPlainObject(x)) {
      errs.push(invalid(`${path}[${i}]`, x, 'must be an object for an array of list-type map'));
      return;
    }
  }
  if (items.length <= 1) return;
  const keyFields = node.listMapKeys ?? [];
  const keys = items.map((x) => {
    const key: Record<string, unknown> = {};
    if (isPlainObject(x)) for (const f of keyFields) if (x[f] !== undefined) key[f] = x[f];
    return key;
  });
  const ids = keys.map((k) => canonicalJSON(k));
  for (const i of firstRepeats(ids)) errs.push(duplicate(`${path}[${i}]`, keys[i]));
}

/** apiVersion and kind are required strings; metadata is validated as ObjectMeta (name optional). */
function validateEmbeddedResource(path: string, x: Record<string, unknown>, errs: FieldError[]): void {
  const at = (k: string) => (path === '' ? k : `${path}.${k}`);
  if (!('apiVersion' in x)) errs.push(required(at('apiVersion')));
  if (!('kind' in x)) errs.push(required(at('kind')));
  for (const key of Object.keys(x)) {
    const v = x[key];
    if (key === 'apiVersion') validateEmbeddedAPIVersion(at(key), v, errs);
    else if (key === 'kind') validateEmbeddedKind(at(key), v, errs);
    else if (key === 'metadata' && isPlainObject(v)) {
      const meta = { ...v, name: typeof v.name === 'string' && v.name !== '' ? v.name : 'fakename' };
      const namespaced = typeof v.namespace === 'string' && v.namespace !== '';
      errs.push(...validateObjectMeta(meta, { namespaced, nameValidation: 'PathSegmentName' }, at('metadata')));
    }
  }
}

function validateEmbeddedAPIVersion(field: string, v: unknown, errs: FieldError[]): void {
  if (typeof v !== 'string') errs.push(invalid(field, v, 'must be a string'));
  else if (v === '') errs.push(required(field));
  else if (v.split('/').length > 2) errs.push(invalid(field, v, `unexpected GroupVersion string: ${v}`));
}

function validateEmbeddedKind(field: string, v: unknown, errs: FieldError[]): void {
  if (typeof v !== 'string') errs.push(invalid(field, v, 'must be a string'));
  else if (v === '') errs.push(required(field));
  else {
    const msgs = isDNS1035Label(v.toLowerCase());
    if (msgs.length > 0) errs.push(invalid(field, v, `may have mixed case, but should otherwise match: ${msgs.join(',')}`));
  }
}
