/**
 * One webhook call (the part kube's mutating and validating dispatchers share in callHook):
 * the dry-run rule, the AdmissionReview round trip, warnings and audit annotations, and the
 * webhook's denial.
 */
import type { AdmissionAttributes } from '../../api/auth.js';
import { ErrCallingWebhook, dryRunUnsupported, webhookDenied } from '../errors.js';
import type { AdmissionContext } from '../../api/admission.js';
import { isQualifiedName } from '../../api/names.js';
import { admissionWebhookDuration, observeAdmission } from '../../metrics/apiserver.js';
import { callWebhook, type ServiceResolver } from './client.js';
import { newAdmissionReview, UndecodablePatchError, verifyAdmissionResponse, type AdmissionResult } from './review.js';
import { DEFAULT_TIMEOUT_SECONDS, type Webhook } from './types.js';

/** Calls the webhook; resolves with its (allowed) result, throws a denial or ErrCallingWebhook. */
export function callHook(webhook: Webhook, attrs: AdmissionAttributes, ctx: AdmissionContext, mutating: boolean, resolveService?: ServiceResolver): Promise<AdmissionResult> {
  // kube's ObserveWebhook: type "admit" or "validating", rejected when the call denied or failed.
  return observeAdmission(admissionWebhookDuration, [webhook.name, mutating ? 'admit' : 'validating', attrs.operation], () => callHookUntimed(webhook, attrs, ctx, mutating, resolveService));
}

async function callHookUntimed(webhook: Webhook, attrs: AdmissionAttributes, ctx: AdmissionContext, mutating: boolean, resolveService?: ServiceResolver): Promise<AdmissionResult> {
  if (attrs.dryRun) {
    if (!webhook.sideEffects) throw new ErrCallingWebhook(webhook.name, 'Webhook SideEffects is nil');
    if (webhook.sideEffects !== 'None' && webhook.sideEffects !== 'NoneOnDryRun') throw dryRunUnsupported(webhook.name);
  }
  const review = newAdmissionReview(attrs);
  let answer: unknown;
  try {
    answer = await callWebhook({
      clientConfig: webhook.clientConfig,
      resolveService,
      timeoutSeconds: webhook.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
      body: review,
      signal: ctx.signal,
    });
  } catch (err) {
    throw new ErrCallingWebhook(webhook.name, (err as Error).message);
  }
  let result: AdmissionResult;
  try {
    result = verifyAdmissionResponse(review.request.uid, mutating, answer);
  } catch (err) {
    throw new ErrCallingWebhook(webhook.name, err instanceof UndecodablePatchError ? err.message : `received invalid webhook response: ${(err as Error).message}`);
  }
  for (const [key, value] of Object.entries(result.auditAnnotations)) addAuditAnnotation(ctx, `${webhook.name}/${key}`, value);
  ctx.warnings.push(...result.warnings);
  if (!result.allowed) throw webhookDenied(attrs, webhook.name, result.result);
  return result;
}

/**
 * kube's Attributes.AddAnnotation for a webhook's audit annotation: the key, `<webhook>/<key>`,
 * must be a qualified name with exactly one '/' (checkKeyFormat), and a key already recorded
 * keeps its first value. kube logs a warning and drops the annotation; so does this, silently.
 */
function addAuditAnnotation(ctx: AdmissionContext, key: string, value: string): void {
  if (key.split('/').length !== 2 || isQualifiedName(key).length > 0) return;
  if (Object.hasOwn(ctx.annotations, key)) return;
  ctx.annotations[key] = value;
}

/** failurePolicy Ignore: call failures fail open. Fail is the default. */
export function ignoresCallFailures(webhook: Webhook): boolean {
  return webhook.failurePolicy === 'Ignore';
}
