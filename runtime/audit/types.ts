/**
 * The audit.k8s.io/v1 wire types (k8s.io/apiserver/pkg/apis/audit/v1): the Policy an operator
 * writes and the Event the server emits, plus the Sink events go to (k8s.io/apiserver/pkg/audit).
 */

/** How much of a request is recorded, from nothing to the request and response bodies. */
export type Level = 'None' | 'Metadata' | 'Request' | 'RequestResponse';

export const LEVELS: readonly Level[] = ['None', 'Metadata', 'Request', 'RequestResponse'];

/** True when `level` records less than `than` (kube's Level.Less). */
export function levelLess(level: Level, than: Level): boolean {
  return LEVELS.indexOf(level) < LEVELS.indexOf(than);
}

/** The stages of request handling at which an event may be emitted. */
export type Stage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

export const STAGES: readonly Stage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

export const AUDIT_API_VERSION = 'audit.k8s.io/v1';

/** Resources in one API group; empty `resources` means all of the group's resources. */
export interface GroupResources {
  /** The API group; empty or absent is the core group. */
  group?: string;
  /** `widgets`, `widgets/status`, `*` (every resource), `*\/scale` (that subresource of any resource) or `widgets/*` (widgets and its subresources). */
  resources?: string[];
  /** Object names; empty means every name. Requires `resources`. */
  resourceNames?: string[];
}

/** One rule: every selector given must match; the first matching rule decides the level. */
export interface PolicyRule {
  level: Level;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  /** Namespaces; `""` matches cluster-scoped and non-namespaced requests. */
  namespaces?: string[];
  /** Non-resource paths; a trailing `*` matches any suffix, `*` alone matches all. */
  nonResourceURLs?: string[];
  omitStages?: Stage[];
  /** Overrides the policy's omitManagedFields when set. */
  omitManagedFields?: boolean;
}

export interface Policy {
  apiVersion: string;
  kind: 'Policy';
  metadata?: Record<string, unknown>;
  rules: PolicyRule[];
  /** Stages omitted for every rule (unioned with each rule's own). */
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

/** What the policy decided for one request (kube's RequestAuditConfig). */
export interface RequestAuditConfig {
  level: Level;
  omitStages: readonly Stage[];
  omitManagedFields: boolean;
}

/** authentication/v1 UserInfo as it appears in events. */
export interface EventUser {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** The bounded fields of a metav1.Status kept in `responseStatus`. */
export interface ResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code?: number;
}

/** audit.k8s.io/v1 Event; field order is kube's, so JSON lines read the same. */
export interface AuditEvent {
  kind: 'Event';
  apiVersion: typeof AUDIT_API_VERSION;
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: EventUser;
  impersonatedUser?: EventUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: ObjectReference;
  responseStatus?: ResponseStatus;
  requestObject?: unknown;
  responseObject?: unknown;
  /** RFC 3339 with microseconds, as metav1.MicroTime. */
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/**
 * Where events go (kube's audit.Sink). processEvents must not block: it returns false when the
 * events could not be accepted (e.g. the backend's buffer is full) and they were dropped.
 */
export interface AuditSink {
  processEvents(...events: AuditEvent[]): boolean;
}
