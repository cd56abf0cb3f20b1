/**
 * fast-check arbitraries for the values a structural OpenAPI v3 schema (a CRD version's
 * openAPIV3Schema) accepts: enums, formats (date-time, date, byte, uuid, int32/int64), numeric and
 * length bounds, patterns, nullable, int-or-string, list types (set items unique, map items unique
 * by their keys) and maps. Used to prove conversions (`kgen test-conversion`) and to compare
 * validators on the same random objects.
 *
 * fast-check is passed in rather than imported: it is a development dependency of a project, and
 * only the commands and tests that generate values load it.
 */
import type * as FastCheck from 'fast-check';

type Fc = typeof FastCheck;
type Arb = FastCheck.Arbitrary<unknown>;
type Json = Record<string, unknown>;

export interface ArbitraryOptions {
  /** Upper bound on generated list and map sizes (schema bounds still apply). Default 3. */
  maxItems?: number;
  /** Upper bound on generated string lengths without a pattern. Default 12. */
  maxLength?: number;
  /** Only schema-valid values (default). false also draws values that break bounds, patterns and enums, for comparing validators. */
  validOnly?: boolean;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const MAX_DEPTH = 12;

export function schemaArbitrary(fc: Fc, schema: Json, options: ArbitraryOptions = {}, depth = 0): Arb {
  const arb = baseArbitrary(fc, schema, { maxItems: 3, maxLength: 12, validOnly: true, ...options }, depth);
  return schema.nullable === true ? fc.option(arb, { nil: null, freq: 5 }) : arb;
}

function baseArbitrary(fc: Fc, s: Json, o: Required<ArbitraryOptions>, depth: number): Arb {
  if (depth > MAX_DEPTH) return fc.constant(s.type === 'array' ? [] : s.type === 'object' ? {} : s.type === 'string' ? '' : 0);
  const valid = (arb: Arb, invalid: Arb) => (o.validOnly ? arb : fc.oneof({ arbitrary: arb, weight: 4 }, { arbitrary: invalid, weight: 1 }));
  if (Array.isArray(s.enum) && s.enum.length > 0) return valid(fc.constantFrom(...s.enum), fc.constant('not-in-enum'));
  if (s['x-kubernetes-int-or-string'] === true) {
    const str = typeof s.pattern === 'string' ? fc.stringMatching(new RegExp(s.pattern)) : fc.string({ maxLength: o.maxLength });
    return fc.oneof(fc.integer({ min: 0, max: 65535 }), str);
  }
  switch (s.type) {
    case 'string':
      return stringArbitrary(fc, s, o, valid);
    case 'integer': {
      const min = bound(s.minimum, s.exclusiveMinimum, 1, s.format === 'int32' ? -(2 ** 31) : -1e9);
      const max = bound(s.maximum, s.exclusiveMaximum, -1, s.format === 'int32' ? 2 ** 31 - 1 : 1e9);
      return valid(fc.integer({ min, max }), fc.constantFrom(min - 1, max + 1));
    }
    case 'number': {
      const min = typeof s.minimum === 'number' ? s.minimum : -1e6;
      const max = typeof s.maximum === 'number' ? s.maximum : 1e6;
      // -0 does not survive JSON; exclusive bounds are met by staying off the edges.
      const arb = fc.double({ min, max, noNaN: true, noDefaultInfinity: true, minExcluded: s.exclusiveMinimum === true, maxExcluded: s.exclusiveMaximum === true }).map((x) => (Object.is(x, -0) ? 0 : x));
      return valid(arb, fc.constantFrom(min - 1, max + 1));
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return arrayArbitrary(fc, s, o, depth, valid);
    case 'object':
      return objectArbitrary(fc, s, o, depth);
    default:
      // Untyped (x-kubernetes-preserve-unknown-fields): a small JSON object.
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.boolean()), { maxKeys: 2 });
  }
}

/** minimum/maximum, moved by one when exclusive (OpenAPI v3.0 booleans, as CRDs use them). */
function bound(value: unknown, exclusive: unknown, step: number, fallback: number): number {
  if (typeof value !== 'number') return fallback;
  return exclusive === true ? value + step : value;
}

function stringArbitrary(fc: Fc, s: Json, o: Required<ArbitraryOptions>, valid: (a: Arb, b: Arb) => Arb): Arb {
  const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
  const maxLength = typeof s.maxLength === 'number' ? s.maxLength : Math.max(minLength, o.maxLength);
  const fits = (v: string) => [...v].length >= minLength && [...v].length <= maxLength;
  let arb: FastCheck.Arbitrary<string>;
  switch (s.format) {
    case 'date-time':
      // RFC 3339 as kube writes metav1.Time: whole seconds, UTC.
      arb = fc.integer({ min: 0, max: 4102444800 }).map((t) => new Date(t * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'));
      break;
    case 'date':
      arb = fc.integer({ min: 0, max: 4102444800 }).map((t) => new Date(t * 1000).toISOString().slice(0, 10));
      break;
    case 'byte':
      arb = fc.uint8Array({ maxLength: 12 }).map((b) => Buffer.from(b).toString('base64'));
      break;
    case 'uuid':
      arb = fc.uuid();
      break;
    default:
      arb =
        typeof s.pattern === 'string'
          ? fc.stringMatching(new RegExp(s.pattern)).filter(fits)
          : fc.string({ minLength, maxLength: Math.min(maxLength, Math.max(minLength, o.maxLength)) });
  }
  return valid(arb, fc.constantFrom('x'.repeat(maxLength + 1), 'Not A Match!'));
}

function arrayArbitrary(fc: Fc, s: Json, o: Required<ArbitraryOptions>, depth: number, valid: (a: Arb, b: Arb) => Arb): Arb {
  const items = isObject(s.items) ? s.items : {};
  const item = schemaArbitrary(fc, items, o, depth + 1);
  const minLength = typeof s.minItems === 'number' ? s.minItems : 0;
  const maxLength = Math.max(minLength, Math.min(typeof s.maxItems === 'number' ? s.maxItems : o.maxItems, o.maxItems));
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'set') return fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) });
  if (listType === 'map' && Array.isArray(s['x-kubernetes-list-map-keys'])) {
    const keys = s['x-kubernetes-list-map-keys'] as string[];
    return fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(keys.map((k) => (v as Json)?.[k])) });
  }
  return valid(fc.array(item, { minLength, maxLength }), fc.array(item, { minLength: maxLength + 1, maxLength: maxLength + 1 }));
}

function objectArbitrary(fc: Fc, s: Json, o: Required<ArbitraryOptions>, depth: number): Arb {
  if (isObject(s.additionalProperties)) {
    const value = schemaArbitrary(fc, s.additionalProperties, o, depth + 1);
    const maxKeys = Math.min(typeof s.maxProperties === 'number' ? s.maxProperties : o.maxItems, o.maxItems);
    return fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9-]{0,7}$/), value, { maxKeys, minKeys: typeof s.minProperties === 'number' ? s.minProperties : 0 });
  }
  const properties = isObject(s.properties) ? s.properties : {};
  const names = Object.keys(properties).filter((k) => isObject(properties[k]));
  if (names.length === 0) return fc.constant({});
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const record: Record<string, Arb> = {};
  for (const name of names) record[name] = schemaArbitrary(fc, properties[name] as Json, o, depth + 1);
  return fc.record(record, { requiredKeys: names.filter((n) => required.has(n)) });
}
