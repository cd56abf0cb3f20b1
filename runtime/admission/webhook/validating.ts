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
    relevant.map(async ({ webhook }): Promise<unknown> => {
      try {
        await callHook(webhook, attrs, ctx, false, resolveService);
        return undefined;
      } catch (err) {
        if (!(err instanceof ErrCallingWebhook)) return err;
        return ignoresCallFailures(webhook) ? undefined : failedCallingWebhook(err);
      }
    }),
  );
  const failure = outcomes.find((o) => o !== undefined);
  if (failure !== undefined) throw failure;
}
