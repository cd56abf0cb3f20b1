/**
 * What Go's JSON decoder (sigs.k8s.io/json, kube's fork of encoding/json) answers when metadata
 * does not decode into a metav1.ObjectMeta: a field of the wrong JSON type. Typed kinds decode the
 * whole body, so the field is named from the root (`ObjectMeta.metadata.resourceVersion`);
 * apiextensions-apiserver decodes a custom resource's metadata alone (GetObjectMetaWithOptions,
 * after a marshal that sorts the keys), so it is named from there (`ObjectMeta.resourceVersion`).
 * A type error is remembered and decoding goes on (the first one is reported); a time that is not
 * a string fails metav1.Time's own UnmarshalJSON, which ends decoding at once with
 * encoding/json's context-free error. Unknown fields are not errors here (strict decoding is
 * fieldvalidation's), nor are nulls (Go's zero value).
 */

export type GoType = 'string' | 'int64' | 'map[string]string' | '[]string' | '[]v1.OwnerReference' | '[]v1.ManagedFieldsEntry' | 'time';

/**
 * ObjectMeta's JSON fields by their Go type. Looked up with the body's keys, which are data
 * ("__proto__", "constructor", "toString"): the table has no prototype, so only its own fields
 * answer, whatever Object.prototype holds.
 */
const OBJECT_META_FIELDS: Readonly<Record<string, GoType | undefined>> = Object.assign(Object.create(null) as Record<string, GoType>, {
  name: 'string',
  generateName: 'string',
  namespace: 'string',
  selfLink: 'string',
  uid: 'string',
  resourceVersion: 'string',
  generation: 'int64',
  deletionGracePeriodSeconds: 'int64',
  creationTimestamp: 'time',
  deletionTimestamp: 'time',
  labels: 'map[string]string',
  annotations: 'map[string]string',
  finalizers: '[]string',
  ownerReferences: '[]v1.OwnerReference',
  managedFields: '[]v1.ManagedFieldsEntry',
} satisfies Record<string, GoType>);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** encoding/json's name for a JSON value's kind in `cannot unmarshal <kind>`. */
export function goJSONKind(v: unknown): string {
  return typeof v === 'number' ? 'number' : typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'array' : 'object';
}

/** The kind of v where it is not a JSON string (or null), else undefined. */
const notString = (v: unknown) => (v === null || typeof v === 'string' ? undefined : goJSONKind(v));

/**
 * The error of one field's value against its Go type, as `[kind, Go type]` for a type error
 * (`number 1.5` for a number that is no int64), or undefined when it decodes.
 */
function typeError(v: unknown, type: Exclude<GoType, 'time'>): [string, string] | undefined {
  switch (type) {
    case 'string': {
      const kind = notString(v);
      return kind === undefined ? undefined : [kind, 'string'];
    }
    case 'int64':
      if (typeof v === 'number') return Number.isSafeInteger(v) ? undefined : [`number ${v}`, 'int64'];
      return [goJSONKind(v), 'int64'];
    case 'map[string]string': {
      if (!isObject(v)) return [goJSONKind(v), type];
      for (const x of Object.values(v)) {
        const kind = notString(x);
        if (kind) return [kind, 'string'];
      }
      return undefined;
    }
    case '[]string': {
      if (!Array.isArray(v)) return [goJSONKind(v), type];
      for (const x of v) {
        const kind = notString(x);
        if (kind) return [kind, 'string'];
      }
      return undefined;
    }
    case '[]v1.OwnerReference':
    case '[]v1.ManagedFieldsEntry': {
      if (!Array.isArray(v)) return [goJSONKind(v), type];
      const bad = v.find((x) => x !== null && !isObject(x));
      return bad === undefined ? undefined : [goJSONKind(bad), type.slice(2)];
    }
  }
}

/**
 * The decoder's error for `meta`, or undefined when it decodes into an ObjectMeta. `path` is
 * the field path Go names (`metadata.` for a typed kind's body, `` for metadata decoded alone);
 * `sorted` visits the keys in Go's map-marshal order.
 */
export function objectMetaDecodeError(meta: unknown, path: string, sorted = false): string | undefined {
  return objectMetaDecode(meta, path, sorted)?.error;
}

/**
 * objectMetaDecodeError with how Go's decoder goes on: `fatal` errors (a metav1.Time's
 * UnmarshalJSON) end decoding at once; the others are remembered while decoding goes on, and the
 * first one remembered in the whole body is the one reported (go-decode.ts walks the rest).
 */
export function objectMetaDecode(meta: unknown, path: string, sorted = false): { error: string; fatal: boolean } | undefined {
  if (meta === null || meta === undefined) return undefined;
  // A typed body's metadata that is no object is refused before (serializer's asObjectOfKind).
  if (!isObject(meta)) return { error: `json: cannot unmarshal ${goJSONKind(meta)} into Go value of type v1.ObjectMeta`, fatal: false };
  let first: string | undefined;
  const keys = sorted ? Object.keys(meta).sort() : Object.keys(meta);
  for (const k of keys) {
    const type = OBJECT_META_FIELDS[k];
    const v = meta[k];
    if (type === undefined || v === null) continue;
    if (type === 'time') {
      const kind = notString(v);
      // metav1.Time's UnmarshalJSON fails with encoding/json's error, which sigs.k8s.io/json's
      // decoder (the same type: an alias) names from the field.
      if (kind) return { error: `json: cannot unmarshal ${kind} into Go struct field ObjectMeta.${path}${k} of type string`, fatal: true };
      continue;
    }
    if (first !== undefined) continue;
    const err = typeError(v, type);
    if (err) first = `json: cannot unmarshal ${err[0]} into Go struct field ObjectMeta.${path}${k} of type ${err[1]}`;
  }
  return first === undefined ? undefined : { error: first, fatal: false };
}

/** The Go type of an ObjectMeta JSON field (undefined for an unknown field). */
export function objectMetaFieldType(key: string): GoType | undefined {
  return Object.hasOwn(OBJECT_META_FIELDS, key) ? OBJECT_META_FIELDS[key] : undefined;
}
