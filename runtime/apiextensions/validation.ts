/**
 * ValidateCustomResourceDefinition and ValidateCustomResourceDefinitionUpdate
 * (apiextensions-apiserver pkg/apis/apiextensions/validation), for the v1 shape: what the CRD
 * strategy adds to the schema validation every kind gets. Paths and messages are kube's.
 */
import { field, isDNS1035Label, isDNS1123Subdomain, type FieldError } from '../validation/index.js';
import { validateOpenAPISchema } from './schema-rules.js';
import { isConditionTrue } from './conditions.js';
import { validateWebhookConversion } from './conversion-validation.js';
import type { WebhookConversion } from './webhook-converter.js';
import type { CRDNames, CRDVersion, CustomResourceDefinition } from './types.js';

const PRINTER_COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const PRINTER_COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
const MAX_SELECTABLE_FIELDS = 8;

export function validateCRD(crd: CustomResourceDefinition): FieldError[] {
  const errs: FieldError[] = [];
  const spec = crd.spec ?? ({} as CustomResourceDefinition['spec']);
  const required = `${spec.names?.plural ?? ''}.${spec.group ?? ''}`;
  const name = crd.metadata?.name;
  if (typeof name === 'string' && name !== '' && name !== required) {
    errs.push(field.invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  }
  errs.push(...validateSpec(crd));
  errs.push(...validateNames(crd.status?.acceptedNames, 'status.acceptedNames'));
  errs.push(...validateStoredVersions(crd.status?.storedVersions ?? [], spec.versions ?? []));
  return errs;
}

export function validateCRDUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[] {
  const errs = validateCRD(crd);
  // A missing spec is Go's zero value (the stored object always has one).
  crd = { ...crd, spec: crd.spec ?? ({} as CustomResourceDefinition['spec']) };
  // Once established, scope and kind decide how objects are stored: they cannot change.
  if (isConditionTrue(old, 'Established')) {
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

function validateSpec(crd: CustomResourceDefinition): FieldError[] {
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

  const versions = spec.versions ?? [];
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
    if (!v.schema?.openAPIV3Schema) errs.push(field.required(`${path}.schema.openAPIV3Schema`, 'schemas are required'));
    errs.push(...validateVersion(v, path, spec.preserveUnknownFields === true));
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
  if (conversion) {
    if (!conversion.strategy) errs.push(field.required('spec.conversion.strategy'));
    else if (conversion.strategy !== 'None' && conversion.strategy !== 'Webhook') errs.push(field.notSupported('spec.conversion.strategy', conversion.strategy, ['None', 'Webhook']));
    if (conversion.strategy === 'Webhook' && !conversion.webhook) errs.push(field.required('spec.conversion.webhook', 'required when strategy is set to Webhook'));
    if (conversion.strategy === 'Webhook' && conversion.webhook) errs.push(...validateWebhookConversion(conversion.webhook as WebhookConversion, 'spec.conversion'));
    if (conversion.strategy === 'None' && conversion.webhook) errs.push(field.forbidden('spec.conversion.webhook', 'should not be set when strategy is not set to Webhook'));
    if (conversion.strategy === 'Webhook' && spec.preserveUnknownFields === true) {
      errs.push(field.invalid('spec.conversion.strategy', conversion.strategy, 'must be None if spec.preserveUnknownFields is true'));
    }
  }
  if (spec.preserveUnknownFields === true) {
    errs.push(field.invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'));
  }
  return errs;
}

function validateVersion(v: CRDVersion, path: string, _preserveUnknown: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (v.deprecationWarning !== undefined) {
    if (!v.deprecated) errs.push(field.invalid(`${path}.deprecationWarning`, v.deprecationWarning, 'can only be set for deprecated versions'));
    else if (v.deprecationWarning.length > 256) errs.push(field.invalid(`${path}.deprecationWarning`, v.deprecationWarning, 'must be <= 256 characters long'));
    else if (v.deprecationWarning.length === 0) errs.push(field.invalid(`${path}.deprecationWarning`, v.deprecationWarning, 'must not be an empty string'));
  }
  const statusEnabled = v.subresources?.status !== undefined && v.subresources?.status !== null;
  const schema = v.schema?.openAPIV3Schema;
  if (schema !== undefined) errs.push(...validateOpenAPISchema(schema, `${path}.schema.openAPIV3Schema`, statusEnabled));
  const scale = v.subresources?.scale;
  if (scale) errs.push(...validateScale(scale, `${path}.subresources.scale`));
  (v.additionalPrinterColumns ?? []).forEach((col, i) => errs.push(...validateColumn(col, `${path}.additionalPrinterColumns[${i}]`)));
  const selectable = v.selectableFields ?? [];
  const uniq = new Set<string>();
  selectable.forEach((f, i) => {
    const p = `${path}.selectableFields[${i}].jsonPath`;
    if (!f.jsonPath) errs.push(field.required(p));
    else if (f.jsonPath.startsWith('.metadata')) errs.push(field.invalid(p, f.jsonPath, 'must not point to fields in metadata'));
    else if (uniq.has(f.jsonPath)) errs.push(field.duplicate(p, f.jsonPath));
    uniq.add(f.jsonPath);
  });
  if (uniq.size > MAX_SELECTABLE_FIELDS) errs.push(field.tooMany(`${path}.selectableFields`, uniq.size, MAX_SELECTABLE_FIELDS));
  return errs;
}

/** ValidateCustomResourceDefinitionSubresources for scale. */
function validateScale(scale: { specReplicasPath?: string; statusReplicasPath?: string; labelSelectorPath?: string }, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const check = (name: string, value: string | undefined, prefixes: string[], needed: boolean) => {
    if (!value) {
      if (needed) errs.push(field.required(`${path}.${name}`));
      return;
    }
    errs.push(...validateSimpleJSONPath(value, `${path}.${name}`));
    if (!prefixes.some((p) => value.startsWith(p))) {
      const where = prefixes.map((p) => `\`${p.slice(0, -1)}\``).join(' or ');
      errs.push(field.invalid(`${path}.${name}`, value, `should be a json path under ${where}`));
    }
  };
  check('specReplicasPath', scale.specReplicasPath, ['.spec.'], true);
  check('statusReplicasPath', scale.statusReplicasPath, ['.status.'], true);
  check('labelSelectorPath', scale.labelSelectorPath, ['.spec.', '.status.'], false);
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

/** validateSimpleJSONPath: a path starting with a dot, evaluable by the table printer. */
function validateSimpleJSONPath(path: string, fld: string): FieldError[] {
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
function validateStoredVersions(stored: string[], versions: CRDVersion[]): FieldError[] {
  const path = 'status.storedVersions';
  // Go prints the list with %#v: []string{"v1", "v2"}.
  const goList = `[]string{${stored.map((v) => JSON.stringify(v)).join(', ')}}`;
  const invalidList = (detail: string): FieldError => ({ type: 'FieldValueInvalid', field: path, message: `Invalid value: ${stored.length ? goList : '[]string(nil)'}: ${detail}` });
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
