/**
 * kube's PersistentVolumeClaim strategy (pkg/registry/core/persistentvolumeclaim,
 * pkg/apis/core/v1/defaults.go, pkg/apis/core/validation) over the generic one. kgen binds no
 * claims: a claim is stored Pending until a client writes its status.
 *
 * - Defaults: volumeMode Filesystem (a schema default); status.phase Pending; dataSource and
 *   dataSourceRef filled from each other (NormalizeDataSources).
 * - Validation (ValidatePersistentVolumeClaimSpec): accessModes required and known, not
 *   ReadWriteOncePod with another; resources.requests.storage required and > 0; the selector;
 *   volumeMode Block or Filesystem.
 * - Update (ValidatePersistentVolumeClaimUpdate, Kubernetes 1.34): the spec is immutable but,
 *   on a Bound claim, resources.requests.storage and volumeAttributesClassName; volumeName may be set once, and
 *   storageClassName set where it was absent on an unbound claim; the storage request may go down
 *   only while it stays above status.capacity.
 */
import type { KubeObject, StatusCause } from '../../api/meta.js';
import type { MetaLabelSelector } from '../../api/labels.js';
import { forbidden, invalid, notSupported, required, invalidPrinted } from '../../validation/field.js';
import { validateLabelSelector } from '../../validation/labelselector.js';
import { goQuote } from '../../validation/gofmt.js';
import { toStatusCauses } from '../../validation/index.js';
import type { FieldError } from '../../validation/types.js';
import { jsonEqual } from '../equality.js';
import { hasWrongTypes, type RESTStrategy } from '../strategy.js';
import { isObj } from './podtemplate-defaults.js';
import { quantityValue } from './quantity.js';

type Obj = Record<string, unknown>;

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];

const specOf = (obj: KubeObject): Obj => (isObj(obj.spec) ? obj.spec : {});
const storageOf = (spec: Obj): unknown => (isObj(spec.resources) && isObj(spec.resources.requests) ? spec.resources.requests.storage : undefined);

/** NormalizeDataSources (AnyVolumeDataSource, GA). */
export function normalizeDataSources(spec: Obj): void {
  const ds = spec.dataSource;
  const ref = spec.dataSourceRef;
  if (isObj(ds) && (ref === undefined || ref === null)) {
    spec.dataSourceRef = { ...(ds.apiGroup !== undefined ? { apiGroup: ds.apiGroup } : {}), kind: ds.kind, name: ds.name };
  } else if (isObj(ref) && (ds === undefined || ds === null) && (ref.namespace === undefined || ref.namespace === '')) {
    spec.dataSource = { ...(ref.apiGroup !== undefined ? { apiGroup: ref.apiGroup } : {}), kind: ref.kind, name: ref.name };
  }
}

/** SetDefaults_PersistentVolumeClaim's status part. */
function defaultStatus(obj: KubeObject): void {
  if (!isObj(obj.status)) obj.status = {};
  const status = obj.status as Obj;
  if (status.phase === undefined || status.phase === '') status.phase = 'Pending';
}

/** The claim's storage request as field.Invalid prints a Quantity (its String()). */
function validateStorage(spec: Obj, path: string): FieldError[] {
  const storage = storageOf(spec);
  if (storage === undefined || storage === null) return [required(path)];
  const value = quantityValue(storage);
  if (value !== undefined && value <= 0) return [invalidPrinted(path, goQuote(String(storage)), 'must be greater than zero')];
  return [];
}

/** ValidatePersistentVolumeClaimSpec's core rules. */
export function validatePersistentVolumeClaimSpec(spec: Obj, path = 'spec'): FieldError[] {
  const errs: FieldError[] = [];
  const modes = Array.isArray(spec.accessModes) ? spec.accessModes : [];
  if (modes.length === 0) errs.push(required(`${path}.accessModes`, 'at least 1 access mode is required'));
  if (isObj(spec.selector)) errs.push(...validateLabelSelector(spec.selector as MetaLabelSelector, `${path}.selector`));
  let once = false;
  let other = false;
  for (const mode of modes) {
    if (!ACCESS_MODES.includes(mode as string)) errs.push(notSupported(`${path}.accessModes`, mode, ACCESS_MODES));
    if (mode === 'ReadWriteOncePod') once = true;
    else if (ACCESS_MODES.includes(mode as string)) other = true;
  }
  if (once && other) errs.push(forbidden(`${path}.accessModes`, 'may not use ReadWriteOncePod with other access modes'));
  errs.push(...validateStorage(spec, `${path}.resources[storage]`));
  if (typeof spec.volumeMode === 'string' && !VOLUME_MODES.includes(spec.volumeMode)) errs.push(notSupported(`${path}.volumeMode`, spec.volumeMode, VOLUME_MODES));
  return errs;
}

/** A short account of what changed, where kube appends go-cmp's diff of the two specs. */
function specDiff(oldSpec: Obj, newSpec: Obj): string {
  const keys = [...new Set([...Object.keys(oldSpec), ...Object.keys(newSpec)])].sort();
  const lines = keys
    .filter((k) => !jsonEqual(oldSpec[k] ?? null, newSpec[k] ?? null))
    .flatMap((k) => [...(k in oldSpec ? [`- \t${k}: ${JSON.stringify(oldSpec[k])},`] : []), ...(k in newSpec ? [`+ \t${k}: ${JSON.stringify(newSpec[k])},`] : [])]);
  return ['  core.PersistentVolumeClaimSpec{', ...lines, '  }'].join('\n');
}

/** ValidatePersistentVolumeClaimUpdate's spec rules. */
export function validateClaimUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = specOf(obj);
  const oldSpec = specOf(old);
  // What may change: a volumeName or storageClassName set for the first time; and, only once the
  // claim is Bound (its status is the stored one on this path), the storage request and the
  // attributes class. kube keeps a Pending claim's requests fixed so that quota cannot be gamed,
  // and other requests than storage never change.
  const bound = isObj(obj.status) && obj.status.phase === 'Bound';
  const comparable = (s: Obj, from: Obj): Obj => {
    const out: Obj = { ...s };
    if (bound) {
      if (out.volumeAttributesClassName !== undefined && out.volumeAttributesClassName !== null) out.volumeAttributesClassName = oldSpec.volumeAttributesClassName;
      if (isObj(out.resources) && isObj(out.resources.requests)) {
        out.resources = { ...out.resources, requests: { ...out.resources.requests, storage: storageOf(oldSpec) } };
      }
    }
    if (!from.volumeName) delete out.volumeName;
    if ((from.storageClassName === undefined || from.storageClassName === null) && !from.volumeName) delete out.storageClassName;
    return JSON.parse(JSON.stringify(out)) as Obj;
  };
  if (!jsonEqual(comparable(spec, oldSpec), comparable(oldSpec, oldSpec))) {
    errs.push(forbidden('spec', `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${specDiff(oldSpec, spec)}`));
  }
  const newSize = quantityValue(storageOf(spec));
  const oldSize = quantityValue(storageOf(oldSpec));
  const capacity = isObj(old.status) && isObj(old.status.capacity) ? (quantityValue(old.status.capacity.storage) ?? 0) : 0;
  if (newSize !== undefined && oldSize !== undefined && newSize < oldSize && newSize <= capacity) {
    errs.push(forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
  }
  return errs;
}

/** validateBasicResource: a quantity's Value() (rounded up to an integer) is not negative. */
function validateBasicResource(q: unknown, path: string): FieldError[] {
  const value = quantityValue(q);
  if (value === undefined || value >= 0) return [];
  return [invalid(path, Math.ceil(value), 'must be a valid resource quantity')];
}

/** IsExtendedResourceName: not native (no '/', or under kubernetes.io/) and not `requests.`-prefixed. */
const isExtendedResourceName = (name: string) => name.includes('/') && !name.includes('kubernetes.io/') && !name.startsWith('requests.');

/** ValidatePersistentVolumeClaimStatusUpdate's quantities (RecoverVolumeExpansionFailure on, as in 1.34). */
export function validateClaimStatus(status: unknown): FieldError[] {
  if (!isObj(status)) return [];
  const errs: FieldError[] = [];
  if (isObj(status.capacity)) {
    for (const [name, q] of Object.entries(status.capacity)) errs.push(...validateBasicResource(q, `status.capacity[${name}]`));
  }
  if (isObj(status.allocatedResources)) {
    for (const [name, q] of Object.entries(status.allocatedResources)) {
      if (name !== 'storage' && !isExtendedResourceName(name)) errs.push(notSupported('status.allocatedResources', name, ['storage']));
      else errs.push(...validateBasicResource(q, `status.allocatedResources[${name}]`));
    }
  }
  return errs;
}

/**
 * kube's persistentvolumeclaimStatusStrategy over the generic status strategy: the written status
 * is defaulted as kube decodes every claim (phase Pending when empty), and its quantities checked.
 */
export function withPersistentVolumeClaimStatusStrategy(base: RESTStrategy): RESTStrategy {
  return {
    ...base,
    prepareForUpdate(obj, old) {
      base.prepareForUpdate(obj, old);
      defaultStatus(obj);
    },
    validateUpdate(obj, old) {
      const causes = base.validateUpdate(obj, old);
      if (hasWrongTypes(causes)) return causes;
      return [...causes, ...toStatusCauses(validateClaimStatus(obj.status))];
    },
  };
}

const notDuplicates = (causes: StatusCause[]) => causes.filter((c) => c.reason !== 'FieldValueDuplicate');

export function withPersistentVolumeClaimStrategy(base: RESTStrategy): RESTStrategy {
  return {
    ...base,
    prepareForCreate(obj) {
      base.prepareForCreate(obj);
      obj.status = {};
      defaultStatus(obj);
      if (isObj(obj.spec)) normalizeDataSources(obj.spec);
    },
    prepareForUpdate(obj, old) {
      base.prepareForUpdate(obj, old);
      defaultStatus(obj);
      // As kube's PrepareForUpdate: a replace that omits the filled-in half keeps it (no immutability error).
      if (isObj(obj.spec)) normalizeDataSources(obj.spec);
    },
    validate(obj) {
      const causes = notDuplicates(base.validate(obj));
      if (hasWrongTypes(causes)) return causes;
      return [...causes, ...toStatusCauses(validatePersistentVolumeClaimSpec(specOf(obj)))];
    },
    validateUpdate(obj, old) {
      const causes = notDuplicates(base.validateUpdate(obj, old));
      if (hasWrongTypes(causes)) return causes;
      return [...causes, ...toStatusCauses([...validatePersistentVolumeClaimSpec(specOf(obj)), ...validateClaimUpdate(obj, old)])];
    },
  };
}
