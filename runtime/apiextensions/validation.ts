/**
 * ValidateCustomResourceDefinition and ValidateCustomResourceDefinitionUpdate
 * (apiextensions-apiserver pkg/apis/apiextensions/validation), for the v1 shape: what the CRD
 * strategy adds to the schema validation every kind gets. Paths and messages are kube's.
 */
import { field, isDNS1035Label, isDNS1123Subdomain, type FieldError } from '../validation/index.js';
import { validateOpenAPISchema, type SchemaValidationOptions } from './schema-rules.js';
import { validateConversion } from './conversion-validation.js';
import { validFieldPath } from './field-path.js';
import { SchemaFactsCache } from './schema-facts.js';
import { CREATE_OPTIONS, MAX_SELECTABLE_FIELDS, updateOptions, type CRDValidationOptions } from './update-options.js';
import type { CRDNames, CRDVersion, CustomResourceDefinition } from './types.js';

const PRINTER_COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const PRINTER_COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

/**
 * `facts` holds what the passes ask of each version's schema (schema-facts.ts); a caller that asks
 * more of the same schemas (the generator's limits check) passes its own.
 */
export function validateCRD(crd: CustomResourceDefinition, opts: CRDValidationOptions = CREATE_OPTIONS, old?: CustomResourceDefinition, facts = new SchemaFactsCache()): FieldError[] {
  const errs: FieldError[] = [];
  const spec = crd.spec ?? ({} as CustomResourceDefinition['spec']);
  const required = `${spec.names?.plural ?? ''}.${spec.group ?? ''}`;
  const name = crd.metadata?.name;
  // The name rule is a create rule (an update's name is immutable).
  if (!old && typeof name === 'string' && name !== '' && name !== required) {
    errs.push(field.invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  }
  errs.push(...validateSpec(crd, opts, facts));
  errs.push(...validateNames(crd.status?.acceptedNames, 'status.acceptedNames'));
  errs.push(...validateStoredVersions(crd.status?.storedVersions ?? [], spec.versions ?? []));
  errs.push(...validatePreserveUnknownFields(crd, old));
  return errs;
}

/** validatePreserveUnknownFields: true is refused unless the old CRD had it (compatibility with existing data). */
function validatePreserveUnknownFields(crd: CustomResourceDefinition, old: CustomResourceDefinition | undefined): FieldError[] {
  if (old?.spec?.preserveUnknownFields === true) return [];
  if (crd.spec?.preserveUnknownFields === true) {
    return [field.invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')];
  }
  return [];
}

const API_APPROVED = 'api-approved.kubernetes.io';
const APPROVAL_PR = 'see https://github.com/kubernetes/enhancements/pull/1111';

/** IsProtectedCommunityGroup: the groups the Kubernetes project owns. */
export function isProtectedCommunityGroup(group: string): boolean {
  return group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
}

type ApprovalState = 'Invalid' | 'Approved' | 'Bypassed' | 'Missing';

/** GetAPIApprovalState: a URL (with scheme and host) approves; a value starting "unapproved" bypasses. */
function apiApprovalState(annotation: string | undefined): ApprovalState {
  if (!annotation) return 'Missing';
  if (annotation.startsWith('unapproved')) return 'Bypassed';
  try {
    const url = new URL(annotation);
    if (url.protocol.length > 1 && url.host !== '') return 'Approved';
  } catch {
    // not a URL
  }
  return 'Invalid';
}

/**
 * validateAPIApproval: a CRD in a protected group needs api-approved.kubernetes.io, unless an
 * update leaves the approval state as it was (a controller updating an old CRD's spec). Run by the
 * CRD strategy on create and update (not by the generator's manifest check: kgen's own manifests
 * are for the user's groups).
 */
export function validateAPIApproval(crd: CustomResourceDefinition, old?: CustomResourceDefinition): FieldError[] {
  if (!isProtectedCommunityGroup(crd.spec?.group ?? '')) return [];
  const annotation = crd.metadata?.annotations?.[API_APPROVED];
  const state = apiApprovalState(annotation);
  if (old && apiApprovalState(old.metadata?.annotations?.[API_APPROVED]) === state) return [];
  const path = `metadata.annotations[${API_APPROVED}]`;
  if (state === 'Missing') return [field.required(path, `protected groups must have approval annotation "${API_APPROVED}", ${APPROVAL_PR}`)];
  if (state === 'Invalid') return [field.invalid(path, annotation, `protected groups must have approval annotation "${API_APPROVED}" with either a URL or a reason starting with "unapproved", ${APPROVAL_PR}`)];
  return [];
}

export function validateCRDUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[] {
  // A missing spec is Go's zero value (the stored object always has one).
  crd = { ...crd, spec: crd.spec ?? ({} as CustomResourceDefinition['spec']) };
  old = { ...old, spec: old.spec ?? ({} as CustomResourceDefinition['spec']) };
  const opts = updateOptions(crd, old);
  const errs = validateCRD(crd, opts, old);
  // Once established, scope and kind decide how objects are stored: they cannot change.
  if (opts.requireImmutableNames) {
    if (crd.spec.scope !== old.spec.scope) errs.push(immutable('spec.scope', crd.spec.scope));
    if (crd.spec.names?.kind !== old.spec.names?.kind) errs.push(immutable('spec.names.kind', crd.spec.names?.kind));
  }
  // The resource's name is made of these; names are immutable.
  if (crd.spec.group !== old.spec.group) errs.push(immutable('spec.group', crd.spec.group));
  if (crd.spec.names?.plural !== old.spec.names?.plural) errs.push(immutable('spec.names.plural', crd.spec.names?.plural));
  return errs;
}

function immutable(path: string, value: unknown): FieldError {
  return field.invalid(path, value, 'field is immutable');
}

const hasSchema = (v: CRDVersion) => v?.schema?.openAPIV3Schema !== undefined && v?.schema?.openAPIV3Schema !== null;

/** validateCustomResourceDefinitionSpec, for the v1 shape (per-version schema, subresources, columns). */
function validateSpec(crd: CustomResourceDefinition, opts: CRDValidationOptions, facts: SchemaFactsCache): FieldError[] {
  // Types were checked by the schema (strategy.ts); a missing spec is Go's zero value.
  const spec = crd.spec ?? ({} as CustomResourceDefinition['spec']);
  const errs: FieldError[] = [];
  if (!spec.group) errs.push(field.required('spec.group'));
  else {
    const dns = isDNS1123Subdomain(spec.group);
    if (dns.length) errs.push(field.invalid('spec.group', spec.group, dns.join(',')));
    else if (spec.group.split('.').length < 2) errs.push(field.invalid('spec.group', spec.group, 'should be a domain with at least one dot'));
  }
  if (!spec.scope) errs.push(field.required('spec.scope'));
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') errs.push(field.notSupported('spec.scope', spec.scope, ['Cluster', 'Namespaced']));

  const preserveUnknown = spec.preserveUnknownFields === true;
  // Enabling pruning (preserveUnknownFields false, v1's only choice for new CRDs) requires structural schemas.
  let requireStructural = opts.requireStructuralSchema || !preserveUnknown;
  const versions = spec.versions ?? [];
  if (opts.requireOpenAPISchema) {
    versions.forEach((v, i) => {
      if (!hasSchema(v)) errs.push(field.required(`spec.versions[${i}].schema.openAPIV3Schema`));
    });
  } else if (!preserveUnknown) {
    versions.forEach((v, i) => {
      if (v?.served && !hasSchema(v)) errs.push(field.required(`spec.versions[${i}].schema.openAPIV3Schema`, 'because otherwise all fields are pruned'));
    });
  }
  const schemas = versions.filter(hasSchema).map((v) => v.schema!.openAPIV3Schema);
  if (schemas.some((s) => facts.of(s).hasDefaults)) {
    requireStructural = true;
    if (preserveUnknown) errs.push(field.invalid('spec.preserveUnknownFields', true, 'must be false in order to use defaults in the schema'));
  }
  if (schemas.some((s) => facts.of(s).hasKubernetesExtensions)) requireStructural = true;

  const seen = new Set<string>();
  let unique = true;
  let storageCount = 0;
  versions.forEach((v, i) => {
    const path = `spec.versions[${i}]`;
    if (v.storage) storageCount++;
    if (seen.has(v.name)) unique = false;
    seen.add(v.name);
    const dns = isDNS1035Label(v.name ?? '');
    if (dns.length) errs.push(field.invalid(`${path}.name`, v.name, dns.join(',')));
    errs.push(...validateVersion(v, path, { ...opts, requireStructuralSchema: requireStructural }, facts));
  });
  if (!unique) errs.push(field.invalid('spec.versions', versions, 'must contain unique version names'));
  if (storageCount !== 1) errs.push(field.invalid('spec.versions', versions, 'must have exactly one version marked as storage version'));

  const names = spec.names ?? ({} as CRDNames);
  if (!names.plural) errs.push(field.required('spec.names.plural'));
  if (!names.singular) errs.push(field.required('spec.names.singular'));
  if (!names.kind) errs.push(field.required('spec.names.kind'));
  if (!names.listKind) errs.push(field.required('spec.names.listKind'));
  errs.push(...validateNames(names, 'spec.names'));

  const conversion = spec.conversion;
  if (conversion && conversion.strategy !== 'None' && preserveUnknown) {
    errs.push(field.invalid('spec.conversion.strategy', conversion.strategy, 'must be None if spec.preserveUnknownFields is true'));
  }
  errs.push(...validateConversion(conversion as Parameters<typeof validateConversion>[0], 'spec.conversion', opts));
  return errs;
}

/** validateDeprecationWarning: the messages for a version's deprecationWarning. */
export function deprecationWarningErrors(deprecated: boolean, warning: string | undefined | null): string[] {
  if (!deprecated && warning !== undefined && warning !== null) return ['can only be set for deprecated versions'];
  if (warning === undefined || warning === null) return [];
  const errs: string[] = [];
  const bytes = Buffer.byteLength(warning, 'utf8');
  if (bytes > 256) errs.push('must be <= 256 characters long');
  if (bytes === 0) errs.push('must not be an empty string');
  // unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space; the index is a byte offset.
  let index = 0;
  for (const ch of warning) {
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch)) {
      errs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${index}`);
      break;
    }
    index += Buffer.byteLength(ch, 'utf8');
  }
  return errs;
}

function validateVersion(v: CRDVersion, path: string, opts: CRDValidationOptions, facts: SchemaFactsCache): FieldError[] {
  const errs: FieldError[] = [];
  for (const msg of deprecationWarningErrors(v.deprecated === true, v.deprecationWarning)) errs.push(field.invalid(`${path}.deprecationWarning`, v.deprecationWarning, msg));
  const statusEnabled = v.subresources?.status !== undefined && v.subresources?.status !== null;
  const schema = v.schema?.openAPIV3Schema;
  if (schema !== undefined && schema !== null) {
    const schemaOpts: SchemaValidationOptions = {
      requireStructuralSchema: opts.requireStructuralSchema,
      requireValidPropertyType: opts.requireValidPropertyType,
      requireAtomicSetType: opts.requireAtomicSetType,
      requireMapListKeysMapSetValidation: opts.requireMapListKeysMapSetValidation,
      allowDefaults: true,
      requirePrunedDefaults: opts.requirePrunedDefaults,
      suppressPerExpressionCost: opts.versionsWithUnchangedSchemas.has(v.name),
    };
    errs.push(...validateOpenAPISchema(schema, `${path}.schema.openAPIV3Schema`, statusEnabled, schemaOpts, facts.of(schema)));
  }
  const scale = v.subresources?.scale;
  if (scale) errs.push(...validateScale(scale, `${path}.subresources`));
  (v.additionalPrinterColumns ?? []).forEach((col, i) => errs.push(...validateColumn(col, `${path}.additionalPrinterColumns[${i}]`)));
  const selectable = v.selectableFields ?? [];
  if (selectable.length > 0) {
    if (schema === undefined || schema === null) errs.push(field.invalid(`${path}.selectableFields`, '', 'may only be set when `version.schema.openAPIV3Schema` is not included'));
    else {
      const conversion = facts.of(schema).conversionError();
      if (conversion) errs.push(field.invalid(`${path}.schema.openAPIV3Schema`, '', conversion));
      errs.push(...validateSelectableFields(selectable, conversion ? undefined : (schema as Record<string, unknown>), `${path}.selectableFields`, opts.allowTooManySelectableFields.has(v.name)));
    }
  }
  return errs;
}

/** ValidateCustomResourceSelectableFields. */
export function validateSelectableFields(fields: { jsonPath?: string }[], schema: Record<string, unknown> | undefined, path: string, allowTooMany = false): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const p = `${path}[${i}].jsonPath`;
    if (!f.jsonPath) {
      errs.push(field.required(p));
      return;
    }
    const found = validFieldPath(f.jsonPath, schema, false);
    if ('error' in found) {
      errs.push(field.invalid(p, f.jsonPath, `is an invalid path: ${found.error}`));
      return;
    }
    if (found.root === 'metadata') errs.push(field.invalid(p, f.jsonPath, 'must not point to fields in metadata'));
    const type = found.schema?.type;
    if (type !== 'string' && type !== 'boolean' && type !== 'integer') {
      errs.push(field.invalid(p, f.jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    if (unique.has(found.path)) errs.push(field.duplicate(p, f.jsonPath));
    else unique.add(found.path);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS && !allowTooMany) errs.push(field.tooMany(path, unique.size, MAX_SELECTABLE_FIELDS));
  return errs;
}

/** ValidateCustomResourceDefinitionSubresources for scale; `path` is the subresources'. */
function validateScale(scale: { specReplicasPath?: string; statusReplicasPath?: string; labelSelectorPath?: string }, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const check = (name: string, value: string, prefixes: string[], under: string) => {
    const p = `${path}.scale.${name}`;
    const simple = validateSimpleJSONPath(value, p);
    if (simple.length) errs.push(...simple);
    else if (!prefixes.some((pre) => value.startsWith(pre))) errs.push(field.invalid(p, value, `should be a json path under ${under}`));
  };
  if (!scale.specReplicasPath) errs.push(field.required(`${path}.scale.specReplicasPath`));
  else check('specReplicasPath', scale.specReplicasPath, ['.spec.'], '.spec');
  if (!scale.statusReplicasPath) errs.push(field.required(`${path}.scale.statusReplicasPath`));
  else check('statusReplicasPath', scale.statusReplicasPath, ['.status.'], '.status');
  if (scale.labelSelectorPath) check('labelSelectorPath', scale.labelSelectorPath, ['.spec.', '.status.'], 'either .spec or .status');
  return errs;
}

function validateColumn(col: { name?: string; type?: string; format?: string; jsonPath?: string }, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!col.name) errs.push(field.required(`${path}.name`));
  const types = `must be one of ${PRINTER_COLUMN_TYPES.join(',')}`;
  if (!col.type) errs.push(field.required(`${path}.type`, types));
  else if (!PRINTER_COLUMN_TYPES.includes(col.type)) errs.push(field.invalid(`${path}.type`, col.type, types));
  if (col.format && !PRINTER_COLUMN_FORMATS.includes(col.format)) {
    errs.push(field.invalid(`${path}.format`, col.format, `must be one of ${PRINTER_COLUMN_FORMATS.join(',')}`));
  }
  if (!col.jsonPath) errs.push(field.required(`${path}.JSONPath`));
  else errs.push(...validateSimpleJSONPath(col.jsonPath, `${path}.JSONPath`));
  return errs;
}

/** validateSimpleJSONPath. */
function validateSimpleJSONPath(path: string, fld: string): FieldError[] {
  if (path === '') return [field.invalid(fld, path, 'must not be empty')];
  if (!path.startsWith('.')) return [field.invalid(fld, path, 'must be a simple json path starting with .')];
  return [];
}

function validateNames(names: Partial<CRDNames> | undefined, path: string): FieldError[] {
  if (!names) return [];
  const errs: FieldError[] = [];
  const label = (value: string | undefined, p: string, mixedCase = false) => {
    if (!value) return;
    const problems = isDNS1035Label(mixedCase ? value.toLowerCase() : value);
    if (problems.length) errs.push(field.invalid(p, value, (mixedCase ? 'may have mixed case, but should otherwise match: ' : '') + problems.join(',')));
  };
  label(names.plural, `${path}.plural`);
  label(names.singular, `${path}.singular`);
  label(names.kind, `${path}.kind`, true);
  label(names.listKind, `${path}.listKind`, true);
  (names.shortNames ?? []).forEach((s, i) => label(s, `${path}.shortNames[${i}]`));
  if (names.kind && names.kind === names.listKind) errs.push(field.invalid(`${path}.listKind`, names.listKind, 'kind and listKind may not be the same'));
  (names.categories ?? []).forEach((c, i) => label(c, `${path}.categories[${i}]`));
  return errs;
}

/** ValidateCustomResourceDefinitionStoredVersions. */
export function validateStoredVersions(stored: string[], versions: CRDVersion[]): FieldError[] {
  const path = 'status.storedVersions';
  // apimachinery's field errors print a slice value as compact JSON.
  const invalidList = (detail: string): FieldError => ({ type: 'FieldValueInvalid', field: path, message: `Invalid value: ${JSON.stringify(stored)}: ${detail}` });
  if (stored.length === 0) return [invalidList('must have at least one stored version')];
  const errs: FieldError[] = [];
  const remaining = new Map(stored.map((v, i) => [v, i]));
  for (const v of versions) {
    const has = remaining.has(v.name);
    if (v.storage && !has) errs.push(invalidList(`must have the storage version ${v.name}`));
    remaining.delete(v.name);
  }
  for (const [v, i] of remaining) {
    errs.push(
      field.invalid(
        `${path}[${i}]`,
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  }
  return errs;
}
