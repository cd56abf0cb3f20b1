/**
 * ObjectMeta validation on create, as k8s.io/apimachinery/pkg/api/validation/objectmeta.go
 * (ValidateObjectMetaAccessor) and metav1 validation (ValidateLabels, ValidateManagedFields) do it,
 * in the same order and with the same messages. Field paths are rooted at `metadata`.
 *
 * One difference: a missing name is accepted when generateName is set, so this can run before the
 * registry generates the name (kube runs it after).
 */
import { forbidden, invalid, required, tooLong } from './field.js';
import { isPlainObject } from './node.js';
import {
  isQualifiedName,
  isValidLabelValue,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  nameIsPathSegment,
} from './names.js';
import type { FieldError } from './types.js';

export type NameValidation = 'DNS1123Subdomain' | 'DNS1123Label' | 'PathSegmentName';

export interface ObjectMetaValidationOptions {
  /** The resource is namespaced: namespace is required; otherwise it is forbidden. */
  namespaced: boolean;
  /** How metadata.name (and generateName) are checked; DNS1123Subdomain when unset. */
  nameValidation?: NameValidation | undefined;
}

/** apimachinery's TotalAnnotationSizeLimitB: 256 KiB over all keys and values. */
export const TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;
const FINALIZER_ORPHAN = 'orphan';
const FINALIZER_FOREGROUND = 'foregroundDeletion';
const FIELD_MANAGER_MAX_LENGTH = 128;
const SUBRESOURCE_MAX_LENGTH = 128;

type NameFn = (name: string, prefix: boolean) => string[];
const NAME_FNS: Record<NameValidation, NameFn> = {
  DNS1123Subdomain: nameIsDNSSubdomain,
  DNS1123Label: nameIsDNSLabel,
  PathSegmentName: nameIsPathSegment,
};

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function validateObjectMeta(meta: unknown, opts: ObjectMetaValidationOptions, path = 'metadata'): FieldError[] {
  if (meta !== undefined && meta !== null && !isPlainObject(meta)) return [invalid(path, meta, 'must be an object')];
  const m = (meta ?? {}) as Record<string, unknown>;
  const nameFn = NAME_FNS[opts.nameValidation ?? 'DNS1123Subdomain'];
  const errs: FieldError[] = [];
  validateNames(m, nameFn, path, errs);
  validateNamespace(str(m.namespace), opts.namespaced, `${path}.namespace`, errs);
  if (typeof m.generation === 'number' && m.generation < 0) {
    errs.push(invalid(`${path}.generation`, m.generation, 'must be greater than or equal to 0'));
  }
  errs.push(...validateLabels(m.labels, `${path}.labels`));
  errs.push(...validateAnnotations(m.annotations, `${path}.annotations`));
  errs.push(...validateOwnerReferences(m.ownerReferences, `${path}.ownerReferences`));
  errs.push(...validateFinalizers(m.finalizers, `${path}.finalizers`));
  errs.push(...validateManagedFields(m.managedFields, `${path}.managedFields`));
  return errs;
}

function validateNames(m: Record<string, unknown>, nameFn: NameFn, path: string, errs: FieldError[]): void {
  const generateName = str(m.generateName);
  const name = str(m.name);
  if (generateName !== '') {
    for (const msg of nameFn(generateName, true)) errs.push(invalid(`${path}.generateName`, generateName, msg));
  }
  if (name === '') {
    if (generateName === '') errs.push(required(`${path}.name`, 'name or generateName is required'));
  } else {
    for (const msg of nameFn(name, false)) errs.push(invalid(`${path}.name`, name, msg));
  }
}

function validateNamespace(namespace: string, namespaced: boolean, field: string, errs: FieldError[]): void {
  if (namespaced) {
    if (namespace === '') errs.push(required(field));
    else for (const msg of nameIsDNSLabel(namespace, false)) errs.push(invalid(field, namespace, msg));
  } else if (namespace !== '') {
    errs.push(forbidden(field, 'not allowed on this type'));
  }
}

/** metav1validation.ValidateLabels: qualified-name keys, label values. */
export function validateLabels(labels: unknown, field: string): FieldError[] {
  if (!isPlainObject(labels)) return [];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels)) {
    for (const msg of isQualifiedName(k)) errs.push(invalid(field, k, msg));
    const value = str(v);
    for (const msg of isValidLabelValue(value)) errs.push(invalid(field, value, msg));
  }
  return errs;
}

/** ValidateAnnotations: keys are qualified names in any case; the total size is bounded. */
export function validateAnnotations(annotations: unknown, field: string): FieldError[] {
  if (!isPlainObject(annotations)) return [];
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations)) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalid(field, k, msg));
    total += Buffer.byteLength(k, 'utf8') + Buffer.byteLength(str(v), 'utf8');
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) errs.push(tooLong(field, TOTAL_ANNOTATION_SIZE_LIMIT_BYTES));
  return errs;
}

/** schema.ParseGroupVersion's version part, or '' when the string does not parse. */
function versionOf(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split('/');
  if (apiVersion === '' || parts.length > 2) return { group: '', version: '' };
  return parts.length === 1 ? { group: '', version: parts[0]! } : { group: parts[0]!, version: parts[1]! };
}

/** ValidateOwnerReferences; as in kube, the per-reference paths carry no index. */
export function validateOwnerReferences(refs: unknown, field: string): FieldError[] {
  if (!Array.isArray(refs)) return [];
  const errs: FieldError[] = [];
  let firstController = '';
  for (const raw of refs) {
    const ref = isPlainObject(raw) ? raw : {};
    const apiVersion = str(ref.apiVersion);
    const kind = str(ref.kind);
    const gv = versionOf(apiVersion);
    if (gv.version === '') errs.push(invalid(`${field}.apiVersion`, apiVersion, 'version must not be empty'));
    if (kind === '') errs.push(invalid(`${field}.kind`, kind, 'kind must not be empty'));
    if (str(ref.name) === '') errs.push(invalid(`${field}.name`, str(ref.name), 'name must not be empty'));
    if (str(ref.uid) === '') errs.push(invalid(`${field}.uid`, str(ref.uid), 'uid must not be empty'));
    if (gv.group === '' && gv.version === 'v1' && kind === 'Event') {
      errs.push(invalid(field, ref, '/v1, Kind=Event is disallowed from being an owner'));
    }
    if (ref.controller === true) {
      const current = `${kind}/${str(ref.name)}`;
      if (firstController === '') firstController = current;
      else {
        const detail = `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`;
        errs.push(invalid(field, refs, detail));
      }
    }
  }
  return errs;
}

/** ValidateFinalizers: qualified names; orphan and foregroundDeletion are exclusive. */
export function validateFinalizers(finalizers: unknown, field: string): FieldError[] {
  if (!Array.isArray(finalizers)) return [];
  const errs: FieldError[] = [];
  for (const f of finalizers) {
    const name = str(f);
    for (const msg of isQualifiedName(name)) errs.push(invalid(field, name, msg));
  }
  if (finalizers.includes(FINALIZER_ORPHAN) && finalizers.includes(FINALIZER_FOREGROUND)) {
    errs.push(invalid(field, finalizers, `finalizer ${FINALIZER_ORPHAN} and ${FINALIZER_FOREGROUND} cannot be both set`));
  }
  return errs;
}

/** metav1validation.ValidateManagedFields. */
export function validateManagedFields(entries: unknown, field: string): FieldError[] {
  if (!Array.isArray(entries)) return [];
  const errs: FieldError[] = [];
  entries.forEach((raw, i) => {
    const entry = isPlainObject(raw) ? raw : {};
    const at = `${field}[${i}]`;
    const operation = str(entry.operation);
    if (operation !== 'Apply' && operation !== 'Update') {
      errs.push(invalid(`${at}.operation`, operation, 'must be `Apply` or `Update`'));
    }
    const fieldsType = str(entry.fieldsType);
    if (fieldsType !== '' && fieldsType !== 'FieldsV1') errs.push(invalid(`${at}.fieldsType`, fieldsType, 'must be `FieldsV1`'));
    if (Buffer.byteLength(str(entry.manager), 'utf8') > FIELD_MANAGER_MAX_LENGTH) {
      errs.push(tooLong(`${at}.manager`, FIELD_MANAGER_MAX_LENGTH));
    }
    if (Buffer.byteLength(str(entry.subresource), 'utf8') > SUBRESOURCE_MAX_LENGTH) {
      errs.push(tooLong(`${at}.subresource`, SUBRESOURCE_MAX_LENGTH));
    }
  });
  return errs;
}
