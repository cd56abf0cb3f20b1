/**
 * The CustomResourceDefinition strategy (apiextensions-apiserver pkg/registry/customresourcedefinition
 * strategy.go and etcd.go) around the generic one every kind gets: kube's v1 defaults, the
 * storage version recorded in status.storedVersions, ValidateCustomResourceDefinition(Update),
 * and the first DELETE adding the cleanup finalizer and the Terminating condition so the
 * extensions server deletes every custom resource before the CRD goes.
 */
import type { KubeObject } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import type { DeletionHooks } from '../registry/deletion.js';
import { hasWrongTypes, type RESTStrategy } from '../registry/strategy.js';
import { toStatusCauses } from '../validation/index.js';
import { setCondition } from './conditions.js';
import { asCRD, CLEANUP_FINALIZER, GROUP, RESOURCE, type CustomResourceDefinition } from './types.js';
import { validateAPIApproval, validateCRD, validateCRDUpdate } from './validation.js';

/** True for apiextensions.k8s.io customresourcedefinitions (any version). */
export function isCRDResource(definition: ResourceDefinition): boolean {
  return definition.group === GROUP && definition.plural === RESOURCE;
}

/** SetDefaults_CustomResourceDefinitionSpec: singular and listKind from kind, conversion None. */
export function applyCRDDefaults(crd: CustomResourceDefinition): void {
  const spec = crd.spec;
  if (!spec || typeof spec !== 'object') return;
  const names = spec.names;
  if (names && typeof names === 'object') {
    if (!names.singular && typeof names.kind === 'string') names.singular = names.kind.toLowerCase();
    if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
  }
  spec.conversion ??= { strategy: 'None' };
}

/** The storage version joins status.storedVersions (kube's PrepareForCreate/PrepareForUpdate). */
function recordStorageVersion(crd: CustomResourceDefinition): void {
  const storage = (crd.spec?.versions ?? []).find((v) => v?.storage);
  if (!storage) return;
  crd.status ??= {};
  const stored = (crd.status.storedVersions ??= []);
  if (!stored.includes(storage.name)) stored.push(storage.name);
}

export function withCRDStrategy(base: RESTStrategy): RESTStrategy & DeletionHooks {
  return {
    ...base,
    // The CRD's own steps run only on a well-typed object (see hasWrongTypes); validate then
    // answers with the schema's causes.
    prepareForCreate(obj) {
      base.prepareForCreate(obj);
      const crd = asCRD(obj);
      crd.status = {};
      if (hasWrongTypes(base.validate(obj))) return;
      applyCRDDefaults(crd);
      recordStorageVersion(crd);
    },
    prepareForUpdate(obj, old) {
      base.prepareForUpdate(obj, old);
      if (hasWrongTypes(base.validate(obj))) return;
      const crd = asCRD(obj);
      applyCRDDefaults(crd);
      recordStorageVersion(crd);
    },
    validate(obj) {
      const causes = base.validate(obj);
      return hasWrongTypes(causes) ? causes : [...causes, ...toStatusCauses([...validateCRD(asCRD(obj)), ...validateAPIApproval(asCRD(obj))])];
    },
    validateUpdate(obj, old) {
      const causes = base.validateUpdate(obj, old);
      return hasWrongTypes(causes) ? causes : [...causes, ...toStatusCauses([...validateCRDUpdate(asCRD(obj), asCRD(old)), ...validateAPIApproval(asCRD(obj), asCRD(old))])];
    },
    markForDeletion(obj: KubeObject) {
      const crd = asCRD(obj);
      const finalizers = crd.metadata.finalizers ?? [];
      if (!finalizers.includes(CLEANUP_FINALIZER)) crd.metadata.finalizers = [...finalizers, CLEANUP_FINALIZER];
      setCondition(crd, {
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionPending',
        message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
      });
    },
  };
}
