/**
 * The one table of Status reasons and HTTP codes (k8s.io/apimachinery/pkg/api/errors),
 * and StatusError, the error every layer throws and the client decodes.
 */
import type { Status, StatusCause, StatusDetails } from './meta.js';

export const StatusReasons = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  NotAcceptable: 406,
  AlreadyExists: 409,
  Conflict: 409,
  Gone: 410,
  Expired: 410,
  RequestEntityTooLarge: 413,
  UnsupportedMediaType: 415,
  Invalid: 422,
  TooManyRequests: 429,
  InternalError: 500,
  ServiceUnavailable: 503,
  Timeout: 504,
} as const;

export type StatusReason = keyof typeof StatusReasons;

/** A failed API call, carrying the metav1.Status that describes it. */
export class StatusError extends Error {
  readonly status: Status;

  constructor(status: Status) {
    super(status.message ?? status.reason ?? `HTTP ${status.code}`);
    this.name = 'StatusError';
    this.status = status;
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): string | undefined {
    return this.status.reason;
  }
}

export function newStatus(reason: StatusReason, message: string, details?: StatusDetails, code?: number): Status {
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code: code ?? StatusReasons[reason],
  };
  if (details) status.details = details;
  return status;
}

export function statusError(reason: StatusReason, message: string, details?: StatusDetails): StatusError {
  return new StatusError(newStatus(reason, message, details));
}

/** The qualified resource as kube prints it in messages: `widgets.example.com`, or `namespaces`. */
export interface QualifiedResource {
  group: string;
  resource: string;
}

function qualified(qr: QualifiedResource): string {
  return qr.group ? `${qr.resource}.${qr.group}` : qr.resource;
}

export function newNotFound(qr: QualifiedResource, name: string): StatusError {
  return statusError('NotFound', `${qualified(qr)} "${name}" not found`, { name, group: qr.group, kind: qr.resource });
}

export function newAlreadyExists(qr: QualifiedResource, name: string): StatusError {
  return statusError('AlreadyExists', `${qualified(qr)} "${name}" already exists`, { name, group: qr.group, kind: qr.resource });
}

export function newConflict(qr: QualifiedResource, name: string, why: string): StatusError {
  return statusError('Conflict', `Operation cannot be fulfilled on ${qualified(qr)} "${name}": ${why}`, {
    name,
    group: qr.group,
    kind: qr.resource,
  });
}

/** 422: `Widget.example.com "w1" is invalid: spec.replicas: Invalid value: …`, one cause per field. */
export function newInvalid(groupKind: { group: string; kind: string }, name: string, causes: StatusCause[]): StatusError {
  const gk = groupKind.group ? `${groupKind.kind}.${groupKind.group}` : groupKind.kind;
  const summary = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message)).join(', ');
  const message = `${gk} "${name}" is invalid: ${causes.length > 1 ? `[${summary}]` : summary}`;
  return statusError('Invalid', message, { name, group: groupKind.group, kind: groupKind.kind, causes });
}

export function newBadRequest(message: string): StatusError {
  return statusError('BadRequest', message);
}

export function newMethodNotSupported(qr: QualifiedResource, verb: string): StatusError {
  return statusError('MethodNotAllowed', `${verb} is not supported on resources of kind "${qualified(qr)}"`, {
    group: qr.group,
    kind: qr.resource,
  });
}

export function newGone(message: string): StatusError {
  return statusError('Expired', message);
}

/** kube's NewInternalError: the error's text is also the single cause (details.causes[0].message). */
export function newInternalError(message: string): StatusError {
  return statusError('InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
}

export function newUnsupportedMediaType(contentType: string): StatusError {
  return statusError(
    'UnsupportedMediaType',
    `the body of the request was in an unknown format (${contentType}) - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf`,
  );
}

export function isStatus(value: unknown): value is Status {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'Status';
}

function hasReason(err: unknown, reason: StatusReason, code: number): boolean {
  if (!(err instanceof StatusError)) return false;
  return err.status.reason === reason || (err.status.reason === undefined && err.status.code === code);
}

export const isNotFound = (err: unknown) => hasReason(err, 'NotFound', 404);
export const isAlreadyExists = (err: unknown) => hasReason(err, 'AlreadyExists', 409);
export const isConflict = (err: unknown) => hasReason(err, 'Conflict', 409);
export const isInvalid = (err: unknown) => hasReason(err, 'Invalid', 422);
export const isBadRequest = (err: unknown) => hasReason(err, 'BadRequest', 400);
export const isForbidden = (err: unknown) => hasReason(err, 'Forbidden', 403);
export const isUnauthorized = (err: unknown) => hasReason(err, 'Unauthorized', 401);
export const isGone = (err: unknown) => hasReason(err, 'Gone', 410) || hasReason(err, 'Expired', 410);
export const isTooManyRequests = (err: unknown) => hasReason(err, 'TooManyRequests', 429);
export const isMethodNotSupported = (err: unknown) => hasReason(err, 'MethodNotAllowed', 405);
