/**
 * How admission failures become Status errors, as kube words them:
 * - a plugin or hook that throws a StatusError is answered with it; any other error is
 *   admission.NewForbidden (403 `<resource> "<name>" is forbidden: <message>`);
 * - a webhook that answers allowed=false is webhookerrors.ToStatusErr (code from its status,
 *   403 when unset, `admission webhook "<name>" denied the request: <message>`);
 * - a webhook that cannot be called is ErrCallingWebhook, a 500 `Internal error occurred: failed
 *   calling webhook "<name>": <reason>` under failurePolicy Fail, and ignored under Ignore.
 */
import type { AdmissionAttributes } from '../api/auth.js';
import type { Status } from '../api/meta.js';
import { StatusError, newBadRequest, newStatus, statusError } from '../api/status.js';

function qualifiedResource(attrs: Pick<AdmissionAttributes, 'resource'>): string {
  const { group, resource } = attrs.resource;
  return group ? `${resource}.${group}` : resource;
}

/** The name in admission messages: the request's, else the object's (kube's extractResourceName). */
function nameOf(attrs: AdmissionAttributes): string {
  return attrs.name || attrs.object?.metadata?.name || attrs.oldObject?.metadata?.name || '';
}

/** admission.NewForbidden: a denial by an in-process plugin. */
export function newAdmissionForbidden(attrs: AdmissionAttributes, err: unknown): StatusError {
  if (err instanceof StatusError) return err;
  const why = err instanceof Error ? err.message : String(err);
  const name = nameOf(attrs);
  const resource = qualifiedResource(attrs);
  const message = resource ? `${resource} "${name}" is forbidden: ${why}` : `forbidden: ${why}`;
  return statusError('Forbidden', message, { name, group: attrs.resource.group, kind: attrs.resource.resource });
}

/** The status a webhook answers with in AdmissionResponse.result (metav1.Status, every field optional). */
export interface WebhookResultStatus {
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: Status['details'];
}

/** webhookerrors.ToStatusErr: a webhook's denial. */
export function webhookDenied(attrs: AdmissionAttributes, webhookName: string, result: WebhookResultStatus | undefined): StatusError {
  const r = result ?? {};
  const code = Number.isInteger(r.code) && r.code! !== 0 ? r.code! : 403;
  const name = nameOf(attrs) || 'Unknown';
  const deniedBy = `admission webhook "${webhookName}" denied the request`;
  let message = r.message ? `${deniedBy}: ${r.message}` : r.reason ? `${deniedBy}: ${r.reason}` : `${deniedBy} without explanation`;
  let details = r.details;
  if (!details) {
    details = code === 500 ? { causes: [{ message }] } : { group: attrs.resource.group, kind: attrs.resource.resource, name };
  }
  const prefix = code === 500 ? 'Internal error occurred' : `${qualifiedResource(attrs)} "${name}" is forbidden`;
  message = `${prefix}: ${message}`;
  const reason = r.reason || (code === 500 ? 'InternalError' : 'Forbidden');
  const status: Status = { ...newStatus('Forbidden', message, details, code), reason };
  return new StatusError(status);
}

/** webhookutil.ErrCallingWebhook: the webhook could not be called or answered nonsense. */
export class ErrCallingWebhook extends Error {
  constructor(
    readonly webhookName: string,
    readonly why: string,
  ) {
    super(`failed calling webhook "${webhookName}": ${why}`);
    this.name = 'ErrCallingWebhook';
  }
}

/** apierrors.NewInternalError(ErrCallingWebhook): failurePolicy Fail. */
export function failedCallingWebhook(err: ErrCallingWebhook): StatusError {
  return new StatusError(newStatus('InternalError', `Internal error occurred: ${err.message}`, { causes: [{ message: err.message }] }));
}

/** webhookerrors.NewDryRunUnsupportedErr: a dry run reached a webhook with side effects. */
export function dryRunUnsupported(webhookName: string): StatusError {
  return newBadRequest(`admission webhook "${webhookName}" does not support dry run`);
}
