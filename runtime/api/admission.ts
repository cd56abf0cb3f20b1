/**
 * The admission contracts (k8s.io/apiserver/pkg/admission interfaces.go): plugins that mutate then
 * validate a write, and the typed per-resource hooks user code attaches to a generated
 * registration. A plugin denies by throwing: a StatusError is answered as it is; any other error
 * becomes kube's admission.NewForbidden (403, `<resource> "<name>" is forbidden: <message>`).
 */
import type { AdmissionAttributes, AdmissionOperation } from './auth.js';
import type { APIObject } from './meta.js';

export type { AdmissionAttributes, AdmissionOperation };

/** What a plugin may add to the response besides its decision. */
export interface AdmissionContext {
  /** Warnings for the client (`Warning: 299 - "…"` headers). */
  readonly warnings: string[];
  /**
   * Audit annotations (key → value), as kube's Attributes.AddAnnotation: recorded on the request's
   * audit event at every level. For one recorded only from a level up, use addAnnotationWithLevel.
   */
  readonly annotations: Record<string, string>;
  /** The request's audit level (audit.k8s.io's Level); undefined when the request is not audited. */
  readonly auditLevel?: AuditLevel;
  /** Aborted when the client goes away or the request times out. */
  readonly signal?: AbortSignal;
}

/** audit.k8s.io's levels, lowest first. */
export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';
const AUDIT_LEVELS: readonly AuditLevel[] = ['None', 'Metadata', 'Request', 'RequestResponse'];

/**
 * kube's Attributes.AddAnnotationWithLevel: an annotation the audit event carries only when the
 * request is audited at `level` or above (a webhook's patch is recorded from Request up, since it
 * may hold what the Metadata level promises to leave out).
 */
export function addAnnotationWithLevel(ctx: AdmissionContext, key: string, value: string, level: AuditLevel): void {
  if (ctx.auditLevel !== undefined && AUDIT_LEVELS.indexOf(ctx.auditLevel) >= AUDIT_LEVELS.indexOf(level)) ctx.annotations[key] = value;
}

/** An admission plugin (kube's admission.MutationInterface / ValidationInterface in one). */
export interface AdmissionPlugin {
  readonly name: string;
  /** Whether the plugin cares about the operation; all when absent (kube's Handles). */
  handles?(operation: AdmissionOperation): boolean;
  /** May change attrs.object in place (CREATE, UPDATE). Throw to deny. */
  mutate?(attrs: AdmissionAttributes, ctx: AdmissionContext): void | Promise<void>;
  /** Must not change anything. Throw to deny. */
  validate?(attrs: AdmissionAttributes, ctx: AdmissionContext): void | Promise<void>;
}

/** AdmissionAttributes whose object and old object are the resource's own type. */
export type TypedAdmissionAttributes<T extends APIObject> = Omit<AdmissionAttributes, 'object' | 'oldObject'> & {
  /** The new object (CREATE, UPDATE); mutate may change it in place. */
  object?: T;
  /** The current object (UPDATE, DELETE). */
  oldObject?: T;
};

/**
 * Typed in-process admission of one resource, attached with `registration.admission({...})`.
 * Called for writes of the resource and of its `status` subresource (attrs.subresource says
 * which), never for `scale` (whose object is an autoscaling/v1 Scale: use a plugin or a webhook).
 */
export interface AdmissionHooks<T extends APIObject> {
  mutate?(attrs: TypedAdmissionAttributes<T>, ctx: AdmissionContext): void | Promise<void>;
  validate?(attrs: TypedAdmissionAttributes<T>, ctx: AdmissionContext): void | Promise<void>;
}
