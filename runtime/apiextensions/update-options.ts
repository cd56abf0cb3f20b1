/**
 * ValidateCustomResourceDefinitionUpdate's options (apiextensions validation.go): an update keeps a
 * rule off when the old CRD already broke it, so that a CRD stored under older rules can still be
 * changed ("don't tighten validation on existing persisted data"). Each predicate reads the old
 * CRD's schemas as kube's SchemaHas walks them.
 */
import { isDeepStrictEqual } from 'node:util';
import type { FieldError } from '../validation/index.js';
import { isConditionTrue } from './conditions.js';
import { hasValidConversionReviewVersionOrEmpty, validateCABundle } from './conversion-validation.js';
import { mapListKeysMapSetRules, V1_OPTIONS, validateOpenAPISchema } from './schema-rules.js';
import { isObject, validateStructural } from './structural-rules.js';
import { SchemaFactsCache } from './schema-facts.js';
import type { CustomResourceDefinition } from './types.js';

type Props = Record<string, unknown>;

const OPENAPI_V3_TYPES = new Set(['array', 'boolean', 'integer', 'number', 'object', 'string', 'null']);
export const MAX_SELECTABLE_FIELDS = 8;

/** kube's validationOptions for the CRD-level checks (the schema ones are SchemaValidationOptions). */
export interface CRDValidationOptions {
  requireRecognizedConversionReviewVersion: boolean;
  requireImmutableNames: boolean;
  requireOpenAPISchema: boolean;
  requireValidPropertyType: boolean;
  requireStructuralSchema: boolean;
  requirePrunedDefaults: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
  allowInvalidCABundle: boolean;
  /** Versions whose schema the update leaves as it was: no per-expression cost limit. */
  versionsWithUnchangedSchemas: Set<string>;
  /** Versions whose too many selectable fields the update leaves as they were. */
  allowTooManySelectableFields: Set<string>;
}

/** ValidateCustomResourceDefinition's options (create). */
export const CREATE_OPTIONS: CRDValidationOptions = {
  requireRecognizedConversionReviewVersion: true,
  requireImmutableNames: false,
  requireOpenAPISchema: true,
  requireValidPropertyType: true,
  requireStructuralSchema: true,
  requirePrunedDefaults: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
  // The CRD is not established yet.
  allowInvalidCABundle: true,
  versionsWithUnchangedSchemas: new Set(),
  allowTooManySelectableFields: new Set(),
};

/** SchemaHas: whether `pred` holds for the schema or any schema inside it. */
export function schemaHas(s: unknown, pred: (s: Props) => boolean): boolean {
  if (!isObject(s)) return false;
  if (pred(s)) return true;
  const subs: unknown[] = [];
  if (Array.isArray(s.items)) subs.push(...s.items);
  else subs.push(s.items);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(s[key])) subs.push(...(s[key] as unknown[]));
  subs.push(s.not, s.additionalProperties, s.additionalItems);
  for (const key of ['properties', 'patternProperties', 'definitions', 'dependencies'] as const) if (isObject(s[key])) subs.push(...Object.values(s[key] as Props));
  return subs.some((sub) => schemaHas(sub, pred));
}

/**
 * schemaHasDefaults: a default anywhere in the schema. `default: null` is none: JSON null leaves
 * kube's *JSON pointer nil.
 */
export const schemaHasDefaults = (s: unknown) => schemaHas(s, (n) => n.default !== undefined && n.default !== null);

const schemasOf = (crd: CustomResourceDefinition): unknown[] => (crd.spec?.versions ?? []).map((v) => v?.schema?.openAPIV3Schema).filter((s) => s !== undefined && s !== null);

/** HasSchemaWith over every version's schema. */
const hasSchemaWith = (crd: CustomResourceDefinition, pred: (s: unknown) => boolean) => schemasOf(crd).some(pred);

function schemaIsNonStructural(s: unknown, facts: SchemaFactsCache): boolean {
  if (!isObject(s)) return false;
  const f = facts.of(s);
  return f.conversionError() !== undefined || validateStructural(s, '', f.unusualBelow).length > 0;
}

const invalidTypes = (s: unknown) => schemaHas(s, (n) => typeof n.type === 'string' && n.type !== '' && !OPENAPI_V3_TYPES.has(n.type));

function nonAtomicSetType(s: unknown): boolean {
  return schemaHas(s, (n) => {
    if (n['x-kubernetes-list-type'] !== 'set' || !isObject(n.items)) return false;
    const is = n.items;
    if (is.type === 'array') return is['x-kubernetes-list-type'] !== undefined && is['x-kubernetes-list-type'] !== 'atomic';
    if (is.type === 'object') return is['x-kubernetes-map-type'] !== 'atomic';
    return false;
  });
}

const invalidMapListKeysMapSet = (s: unknown) => schemaHas(s, (n) => mapListKeysMapSetRules(n, '').length > 0);

/** schemaHasUnprunedDefaults: a structural schema whose defaults carry fields pruning would drop. */
function unprunedDefaults(s: unknown, cache: SchemaFactsCache): boolean {
  if (!isObject(s)) return false;
  const facts = cache.of(s);
  if (!facts.hasDefaults || schemaIsNonStructural(s, cache)) return false;
  const relaxed = { ...V1_OPTIONS, requirePrunedDefaults: false };
  const strict = validateOpenAPISchema(s, '', false, V1_OPTIONS, facts);
  return strict.length > validateOpenAPISchema(s, '', false, relaxed, facts).length && strict.some(isPruneError);
}

const isPruneError = (e: FieldError) => e.message.endsWith('must not have unknown fields');

/** allowInvalidCABundle: before the CRD is established, or when the old bundle was invalid too. */
function allowInvalidCABundle(old: CustomResourceDefinition): boolean {
  if (!isConditionTrue(old, 'Established')) return true;
  const caBundle = old.spec?.conversion?.webhook?.clientConfig?.caBundle;
  if (!caBundle) return false;
  return validateCABundle(caBundle, 'caBundle').length > 0;
}

/** The schema a version is served with (GetSchemaForVersion). */
const schemaOf = (crd: CustomResourceDefinition, name: string) => (crd.spec?.versions ?? []).find((v) => v?.name === name)?.schema;

/** ValidateCustomResourceDefinitionUpdate's options, from the old CRD. */
export function updateOptions(crd: CustomResourceDefinition, old: CustomResourceDefinition): CRDValidationOptions {
  // What several predicates ask of the old schemas, found once per schema (schema-facts.ts).
  const facts = new SchemaFactsCache();
  const oldVersions = old.spec?.versions ?? [];
  const unchanged = new Set<string>();
  const tooMany = new Set<string>();
  for (const v of crd.spec?.versions ?? []) {
    const before = oldVersions.find((o) => o?.name === v?.name);
    if (!before) continue;
    if (isDeepStrictEqual(schemaOf(crd, v.name) ?? null, schemaOf(old, v.name) ?? null)) unchanged.add(v.name);
    if ((before.selectableFields ?? []).length > MAX_SELECTABLE_FIELDS && isDeepStrictEqual(v.selectableFields, before.selectableFields)) tooMany.add(v.name);
  }
  const conversion = old.spec?.conversion;
  return {
    requireRecognizedConversionReviewVersion: !conversion || hasValidConversionReviewVersionOrEmpty(conversion.webhook?.conversionReviewVersions),
    requireImmutableNames: isConditionTrue(old, 'Established'),
    requireOpenAPISchema: oldVersions.every((v) => v?.schema?.openAPIV3Schema !== undefined && v?.schema?.openAPIV3Schema !== null),
    requireValidPropertyType: !hasSchemaWith(old, invalidTypes),
    requireStructuralSchema: !hasSchemaWith(old, (s) => schemaIsNonStructural(s, facts)),
    requirePrunedDefaults: !hasSchemaWith(old, (s) => unprunedDefaults(s, facts)),
    requireAtomicSetType: !hasSchemaWith(old, nonAtomicSetType),
    requireMapListKeysMapSetValidation: !hasSchemaWith(old, invalidMapListKeysMapSet),
    allowInvalidCABundle: allowInvalidCABundle(old),
    versionsWithUnchangedSchemas: unchanged,
    allowTooManySelectableFields: tooMany,
  };
}
