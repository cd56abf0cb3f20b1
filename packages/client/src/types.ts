/**
 * The option types of ResourceClient's verbs, named for the metav1 option types they stand for
 * (CreateOptions, ListOptions, PatchOptions, DeleteOptions…), and the autoscaling/v1 Scale.
 * Every verb also takes an AbortSignal.
 */
import type { KubeObject } from '../../../runtime/api/meta.js';

/** What generated code knows about the resource a ResourceClient serves. */
export interface ResourceInfo {
  /** '' for the legacy core group (`/api/v1`). */
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
}

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

interface Cancellable {
  signal?: AbortSignal;
}

export interface CreateOptions extends Cancellable {
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: FieldValidation;
}

export type UpdateOptions = CreateOptions;

export interface GetOptions extends Cancellable {
  resourceVersion?: string;
}

export interface ListOptions extends Cancellable {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  timeoutSeconds?: number;
}

export type PatchType = 'merge' | 'json' | 'apply' | 'strategic';

/** The Content-Type that selects each patch strategy on the server. */
export const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
  strategic: 'application/strategic-merge-patch+json',
};

export type Subresource = 'status' | 'scale';

export interface PatchOptions extends Cancellable {
  fieldManager?: string;
  /** Server-side apply only: take ownership of conflicting fields. */
  force?: boolean;
  dryRun?: boolean;
  fieldValidation?: FieldValidation;
  subresource?: Subresource;
}

export interface ApplyOptions extends Omit<PatchOptions, 'fieldManager'> {
  /** Required for server-side apply. */
  fieldManager: string;
}

/** RFC 6902 operation. */
export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

export interface DeleteOptions extends Cancellable {
  propagationPolicy?: PropagationPolicy;
  preconditions?: Preconditions;
  gracePeriodSeconds?: number;
  dryRun?: boolean;
}

export type DeleteCollectionOptions = ListOptions & DeleteOptions;

export interface WatchOptions extends Cancellable {
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  labelSelector?: string;
  fieldSelector?: string;
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
  timeoutSeconds?: number;
}

/** autoscaling/v1 Scale, what `…/scale` serves. */
export interface Scale extends KubeObject {
  apiVersion?: 'autoscaling/v1';
  kind?: 'Scale';
  spec: { replicas?: number };
  status?: { replicas: number; selector?: string };
}
