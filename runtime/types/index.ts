/**
 * The well-known types API definitions import from 'kgen', and generated models use.
 * They are plain TypeScript types; the generator recognises them by name.
 */
export type { ObjectMeta, ListMeta, OwnerReference, ManagedFieldsEntry, KubeObject, KubeList, Status, StatusCause, StatusDetails, WatchEvent } from '../api/meta.js';
export type { ResourceDefinition, GroupVersionDefinition, PrinterColumn, ScaleSubresource, Scope } from '../api/resource.js';

/** A 32-bit integer (OpenAPI `integer`, format `int32`). */
export type int32 = number;
/** A 64-bit integer (OpenAPI `integer`, format `int64`). Values beyond 2^53 lose precision in JavaScript. */
export type int64 = number;
/** An RFC 3339 date-time string, e.g. `2024-01-02T03:04:05Z` (metav1.Time). */
export type Time = string;
/** A Go duration string such as `1h30m` (metav1.Duration). */
export type Duration = string;
/** A resource quantity such as `500m`, `1Gi` or `2` (resource.Quantity). */
export type Quantity = string | number;
/** An integer or a string (intstr.IntOrString), such as a port number or name. */
export type IntOrString = number | string;

/** metav1.Condition. */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  observedGeneration?: number;
  lastTransitionTime: Time;
  reason: string;
  message: string;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

/** metav1.LabelSelector. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/** corev1.ObjectReference. */
export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  fieldPath?: string;
}
