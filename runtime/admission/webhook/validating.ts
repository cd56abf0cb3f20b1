/**
 * The validating webhook dispatcher (admission/plugin/webhook/validating/dispatcher.go): every
 * matching webhook is called at once; the first failure (in configuration order) is the answer.
 */
import type { AdmissionAttributes } from '../../api/auth.js';
import { ErrCallingWebhook, failedCallingWebhook } from '../errors.js';
import type { AdmissionContext } from '../../api/admission.js';
import { callHook, ignoresCallFailures } from './call.js';
import type { ServiceResolver } from './client.js';
import { shouldCallHook, type NamespaceLabels } from './matcher.js';
import type { WebhookAccessor } from './types.js';

/** The audit annotation kube records when a validating webhook's call failed open. */
export const FAILED_OPEN_VALIDATING_AUDIT_ANNOTATION_PREFIX = 'failed-open.validating.webhook.admission.k8s.io/';

export async function dispatchValidating(
  hooks: readonly WebhookAccessor[],
  attrs: AdmissionAttributes,
  ctx: AdmissionContext,
  namespaceLabels: NamespaceLabels,
  resolveService?: ServiceResolver,
): Promise<void> {
  const relevant: WebhookAccessor[] = [];
  for (const hook of hooks) {
    if (await shouldCallHook(hook.webhook, attrs, namespaceLabels)) relevant.push(hook);
  }
  const outcomes = await Promise.all(
    relevant.map(async ({ webhook }, index): Promise<unknown> => {
      try {
        await callHook(webhook, attrs, ctx, false, resolveService);
        return undefined;
      } catch (err) {
        if (!(err instanceof ErrCallingWebhook)) return err;
        if (!ignoresCallFailures(webhook)) return failedCallingWebhook(err);
        ctx.annotations[`${FAILED_OPEN_VALIDATING_AUDIT_ANNOTATION_PREFIX}round_0_index_${index}`] = webhook.name;
        return undefined;
      }
    }),
  );
  const failure = outcomes.find((o) => o !== undefined);
  if (failure !== undefined) throw failure;
}
