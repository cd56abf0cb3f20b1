/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition as the extensions server reads it (the shapes
 * of k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1). The built-in kind is declared in
 * generator/builtin/apiextensions.k8s.io/v1; these are the runtime's view of the same JSON.
 */
import type { KubeObject } from '../api/meta.js';

export const GROUP = 'apiextensions.k8s.io';
export const VERSION = 'v1';
export const RESOURCE = 'customresourcedefinitions';
export const KIND = 'CustomResourceDefinition';

/** kube's apiextensions.CustomResourceCleanupFinalizer. */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

export type ConditionStatus = 'True' | 'False' | 'Unknown';
export type ConditionType = 'Established' | 'NamesAccepted' | 'NonStructuralSchema' | 'Terminating' | 'KubernetesAPIApprovalPolicyConformant';

export interface CRDCondition {
  type: ConditionType | string;
  status: ConditionStatus | string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
  observedGeneration?: number;
}

export interface CRDNames {
  plural: string;
  singular?: string;
  shortNames?: string[];
  kind: string;
  listKind?: string;
  categories?: string[];
}

export type JSONSchemaProps = Record<string, unknown>;

export interface CRDColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface CRDScale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface CRDVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: { status?: Record<string, never>; scale?: CRDScale };
  additionalPrinterColumns?: CRDColumn[];
  selectableFields?: { jsonPath: string }[];
}

export interface CRDSpec {
  group: string;
  names: CRDNames;
  scope: string;
  versions: CRDVersion[];
  conversion?: { strategy: string; webhook?: unknown };
  preserveUnknownFields?: boolean;
}

export interface CRDStatus {
  conditions?: CRDCondition[];
  acceptedNames?: CRDNames;
  storedVersions?: string[];
}

export interface CustomResourceDefinition extends KubeObject {
  spec: CRDSpec;
  status?: CRDStatus;
}

export function asCRD(obj: KubeObject): CustomResourceDefinition {
  return obj as CustomResourceDefinition;
}

/** The version objects are stored in (exactly one has storage=true in a valid CRD). */
export function storageVersionOf(crd: CustomResourceDefinition): CRDVersion | undefined {
  return (crd.spec.versions ?? []).find((v) => v.storage);
}
