/**
 * Turning a failed HTTP response into a StatusError, as client-go's transformResponse and
 * errors.NewGenericServerResponse: a metav1.Status body is used as sent; any other body becomes a
 * synthesized Status whose reason matches the HTTP code and whose message is the body text.
 */
import type { Status } from '../../../runtime/api/meta.js';
import { StatusError, StatusReasons, isStatus, newStatus, type StatusReason } from '../../../runtime/api/status.js';

/** The Status in a response body, or undefined if the body is not one. */
export function parseStatus(body: string): Status | undefined {
  if (!body) return undefined;
  try {
    const value: unknown = JSON.parse(body);
    return isStatus(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The error for a non-2xx response. */
export function responseError(code: number, method: string, body: string, retryAfterSeconds?: number): StatusError {
  const status = parseStatus(body);
  if (status) {
    // A Status without a code still failed with the HTTP one.
    return new StatusError(status.code ? status : { ...status, code });
  }
  return new StatusError(genericServerResponse(code, method, body.trim(), retryAfterSeconds));
}

/**
 * A Status for a response that carried none. 409 is AlreadyExists for POST and Conflict otherwise,
 * as client-go; codes the table does not name keep their code, with InternalError for 5xx.
 */
export function genericServerResponse(code: number, method: string, body: string, retryAfterSeconds?: number): Status {
  const reason = reasonForCode(code, method);
  const message = body || `the server responded with the status code ${code} but did not return more information`;
  const details = {
    causes: [{ reason: 'UnexpectedServerResponse', message: body }],
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  };
  if (reason) return newStatus(reason, message, details, code);
  const status = newStatus('InternalError', message, details, code);
  delete status.reason; // metav1.StatusReasonUnknown is the empty reason
  return status;
}

/** First reason in the table for a code, with the two special cases client-go makes. */
export function reasonForCode(code: number, method: string): StatusReason | undefined {
  if (code === 409) return method.toUpperCase() === 'POST' ? 'AlreadyExists' : 'Conflict';
  const reasons = Object.keys(StatusReasons) as StatusReason[];
  const match = reasons.find((r) => StatusReasons[r] === code);
  if (match) return match;
  return code >= 500 ? 'InternalError' : undefined;
}
