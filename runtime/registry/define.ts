/**
 * What a generated storage module exports per kind: the kind's ResourceDefinition, tagged with
 * its TypeScript type so typed hooks (admission, defaulting) can be attached later.
 */
import type { APIObject } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';

/** Generated models have no index signature, so they satisfy APIObject rather than KubeObject. */
export type TypedObject = APIObject;

export interface ResourceRegistration<T extends TypedObject = TypedObject> {
  readonly definition: ResourceDefinition;
  /** Never set at runtime; carries T so `defineResource<Widget>` keeps the kind's type. */
  readonly __type?: T;
}

export function defineResource<T extends TypedObject>(definition: ResourceDefinition): ResourceRegistration<T> {
  return Object.freeze({ definition });
}
