/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition as the extensions server reads it. The types
 * are the generated models of kgen's built-in API (generator/builtin/apiextensions.k8s.io/v1,
 * compiled into generated/models), imported as types only; this file adds kube's constants and
 * the runtime's view of a stored CRD (a KubeObject) and of a schema (free JSON).
 */
import type { KubeObject } from '../api/meta.js';
import type * as apiextensions from '../../generated/models/apiextensions.k8s.io/v1.js';

export type {
  CustomResourceColumnDefinition as CRDColumn,
  CustomResourceDefinitionCondition as CRDCondition,
  CustomResourceDefinitionNames as CRDNames,
  CustomResourceDefinitionSpec as CRDSpec,
  CustomResourceDefinitionStatus as CRDStatus,
  CustomResourceDefinitionVersion as CRDVersion,
  CustomResourceSubresourceScale as CRDScale,
} from '../../generated/models/apiextensions.k8s.io/v1.js';

export const GROUP = 'apiextensions.k8s.io';
export const VERSION = 'v1';
export const RESOURCE = 'customresourcedefinitions';
export const KIND = 'CustomResourceDefinition';

/** kube's apiextensions.CustomResourceCleanupFinalizer. */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

export type ConditionStatus = 'True' | 'False' | 'Unknown';
export type ConditionType = 'Established' | 'NamesAccepted' | 'NonStructuralSchema' | 'Terminating' | 'KubernetesAPIApprovalPolicyConformant';

/**
 * A schema as the runtime walks it: any JSON object (the generated JSONSchemaProps names kube's
 * fields, but validation and serving read schemas generically).
 */
export type JSONSchemaProps = Record<string, unknown>;

/** A stored CustomResourceDefinition: the generated model, readable as any KubeObject. */
export type CustomResourceDefinition = apiextensions.CustomResourceDefinition & KubeObject;

export function asCRD(obj: KubeObject): CustomResourceDefinition {
  return obj as CustomResourceDefinition;
}

/** The version objects are stored in (exactly one has storage=true in a valid CRD). */
export function storageVersionOf(crd: CustomResourceDefinition): apiextensions.CustomResourceDefinitionVersion | undefined {
  return (crd.spec.versions ?? []).find((v) => v.storage);
}
