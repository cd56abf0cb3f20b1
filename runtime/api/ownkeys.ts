/**
 * Keys of request data read and written as data. JSON.parse (and kgen's YAML and protobuf
 * decoders) keep every key as an own property, as Go keeps every map key; plain `obj[key]` does
 * not: reading an absent "toString", "constructor" or "hasOwnProperty" finds Object.prototype's
 * function, and writing "__proto__" sets the object's prototype (or, with a string, does
 * nothing). kube accepts such keys where any key goes (ConfigMap and Secret data, free-form maps
 * of custom resources, user extras), so code that copies, merges or indexes request objects key
 * by key goes through these two.
 */

/** obj's own value for key; undefined when obj does not hold key itself. */
export function ownValue(obj: object, key: string): unknown {
  return Object.hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

/** Sets key on obj as an own, enumerable data property ("__proto__" included). */
export function setOwnValue(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}
