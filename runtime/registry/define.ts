/**
 * What a generated storage module exports per kind: the kind's ResourceDefinition, tagged with
 * its TypeScript type so typed hooks (admission) can be attached by user code:
 *
 *   widgets.admission({ mutate(attrs) { attrs.object!.spec.replicas ??= 1; } });
 *
 * The installer reads the hooks at request time, so attaching them before or after the server
 * installed the group/version both work.
 */
import type { APIObject } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import type { AdmissionHooks } from '../api/admission.js';
import type { KindConversion } from '../conversion/conversion.js';
import type { SubresourceHandler } from '../api/subresources.js';

/** Generated models have no index signature, so they satisfy APIObject rather than KubeObject. */
export type TypedObject = APIObject;

export interface ResourceRegistration<T extends TypedObject = TypedObject, S extends string = string> {
  readonly definition: ResourceDefinition;
  /** Never set at runtime; carries T so `defineResource<Widget>` keeps the kind's type. */
  readonly __type?: T;
  /** Attaches typed admission hooks (mutate, then validate); returns the registration to chain. */
  admission(hooks: AdmissionHooks<T>): ResourceRegistration<T, S>;
  /**
   * Implements a custom subresource the kind declares (`@kgen:subresource custom name=logs …`);
   * `kgen serve --handlers <module>` imports the module that calls this. Returns the registration.
   */
  subresource<O = Record<string, string>>(name: S, handler: SubresourceHandler<T, O>): ResourceRegistration<T, S>;
  /** The handler attached for a custom subresource, if any (read per request). */
  subresourceHandler(name: string): SubresourceHandler<T, unknown> | undefined;
  /** The attached hooks, in the order they were attached. */
  admissionHooks(): readonly AdmissionHooks<T>[];
  /**
   * The kind's conversion between its versions, when it is declared in several (generated
   * `conversion/<group>/<plural>.ts`): the installer serves this version over the shared storage
   * through it.
   */
  readonly conversion?: KindConversion;
}

export function defineResource<T extends TypedObject, S extends string = string>(definition: ResourceDefinition, conversion?: KindConversion): ResourceRegistration<T, S> {
  const hooks: AdmissionHooks<T>[] = [];
  const handlers = new Map<string, SubresourceHandler<T, unknown>>();
  const registration: ResourceRegistration<T, S> = Object.freeze({
    definition,
    ...(conversion ? { conversion } : {}),
    admission(h: AdmissionHooks<T>) {
      hooks.push(h);
      return registration;
    },
    admissionHooks: () => hooks,
    subresource<O>(name: S, handler: SubresourceHandler<T, O>) {
      if (!definition.subresources.custom?.some((c) => c.name === name)) {
        throw new Error(`${definition.plural}.${definition.group} declares no custom subresource "${name}" (@kgen:subresource custom name=${name} …)`);
      }
      handlers.set(name, handler as SubresourceHandler<T, unknown>);
      return registration;
    },
    subresourceHandler: (name: string) => handlers.get(name),
  });
  return registration;
}
