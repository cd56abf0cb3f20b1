/**
 * The mutating webhook dispatcher (admission/plugin/webhook/mutating/dispatcher.go): matching
 * webhooks are called one after another, each seeing the previous one's changes; a JSONPatch
 * answer is applied to the object. Webhooks with reinvocationPolicy IfNeeded are called once
 * more when a later webhook changed the object.
 */
import type { AdmissionAttributes } from '../../api/auth.js';
import type { KubeObject } from '../../api/meta.js';
import { newInternalError } from '../../api/status.js';
import { tooDeepContainer } from '../../api/nesting.js';
import { applyJSONPatch } from '../../registry/jsonpatch.js';
import { jsonEqual } from '../../registry/equality.js';
import { ErrCallingWebhook, failedCallingWebhook } from '../errors.js';
import { addAnnotationWithLevel, type AdmissionContext } from '../../api/admission.js';
import { callHook, ignoresCallFailures } from './call.js';
import type { ServiceResolver } from './client.js';
import { shouldCallHook, type NamespaceLabels } from './matcher.js';
import type { WebhookAccessor } from './types.js';

/** Audit annotation prefixes kube records mutations under. */
export const MUTATION_AUDIT_ANNOTATION_PREFIX = 'mutation.webhook.admission.k8s.io/';
export const PATCH_AUDIT_ANNOTATION_PREFIX = 'patch.webhook.admission.k8s.io/';
export const FAILED_OPEN_AUDIT_ANNOTATION_PREFIX = 'failed-open.mutation.webhook.admission.k8s.io/';

export async function dispatchMutating(
  hooks: readonly WebhookAccessor[],
  attrs: AdmissionAttributes,
  ctx: AdmissionContext,
  namespaceLabels: NamespaceLabels,
  resolveService?: ServiceResolver,
): Promise<void> {
  const invokedIfNeeded: WebhookAccessor[] = [];
  const reinvoke = new Set<string>();
  for (const [index, hook] of hooks.entries()) {
    if (!(await shouldCallHook(hook.webhook, attrs, namespaceLabels))) continue;
    const changed = await callMutatingHook(hook, attrs, ctx, 0, index, resolveService);
    // A change requires every IfNeeded webhook called so far to see the new object.
    if (changed) for (const earlier of invokedIfNeeded) reinvoke.add(earlier.uid);
    if (hook.webhook.reinvocationPolicy === 'IfNeeded') invokedIfNeeded.push(hook);
  }
  for (const [index, hook] of hooks.entries()) {
    if (reinvoke.has(hook.uid)) await callMutatingHook(hook, attrs, ctx, 1, index, resolveService);
  }
}

/** callAttrMutatingHook with the failure policy applied; true when the object changed. */
async function callMutatingHook(
  hook: WebhookAccessor,
  attrs: AdmissionAttributes,
  ctx: AdmissionContext,
  round: number,
  index: number,
  resolveService?: ServiceResolver,
): Promise<boolean> {
  const { webhook } = hook;
  const key = `round_${round}_index_${index}`;
  let changed = false;
  try {
    const result = await callHook(webhook, attrs, ctx, true, resolveService);
    if (result.patch && result.patch.length > 0) {
      if (!attrs.object) throw newInternalError(`admission webhook "${webhook.name}" attempted to modify the object, which is not supported for this operation`);
      const patched = applyWebhookPatch(attrs.object, result.patch);
      changed = !jsonEqual(patched, attrs.object);
      attrs.object = patched;
      const annotation = JSON.stringify({ configuration: hook.configurationName, webhook: webhook.name, patch: result.patch, patchType: 'JSONPatch' });
      addAnnotationWithLevel(ctx, PATCH_AUDIT_ANNOTATION_PREFIX + key, annotation, 'Request');
    }
  } catch (err) {
    if (!(err instanceof ErrCallingWebhook)) throw err;
    if (!ignoresCallFailures(webhook)) throw failedCallingWebhook(err);
    ctx.annotations[FAILED_OPEN_AUDIT_ANNOTATION_PREFIX + key] = webhook.name;
  }
  ctx.annotations[MUTATION_AUDIT_ANNOTATION_PREFIX + key] = JSON.stringify({ configuration: hook.configurationName, webhook: webhook.name, mutated: changed });
  return changed;
}

/**
 * The patched object; it must stay an object of the same kind (kube decodes it back), and nested
 * no deeper than a request body may be (api/nesting.ts): the patch can nest it deeper than both
 * the object and the webhook's answer, and a too-deep object, once stored, makes every later
 * update of it fail in kgen's recursive layers. kube's decoder refuses the patched JSON the same
 * way (at its own depth, 10,000): 500 InternalError with the decoder's message, nothing stored.
 */
function applyWebhookPatch(obj: KubeObject, patch: unknown[]): KubeObject {
  let patched: unknown;
  try {
    patched = applyJSONPatch(obj, patch);
  } catch (err) {
    throw newInternalError((err as { status?: { details?: { causes?: { message?: string }[] } } }).status?.details?.causes?.[0]?.message ?? (err as Error).message);
  }
  const out = patched as KubeObject;
  if (typeof patched !== 'object' || patched === null || Array.isArray(patched) || typeof out.metadata !== 'object' || out.metadata === null) {
    throw newInternalError('the patched object is not an API object');
  }
  const tooDeep = tooDeepContainer(out);
  if (tooDeep !== undefined) {
    throw newInternalError(`couldn't get version/kind; json parse error: invalid character '${Array.isArray(tooDeep) ? '[' : '{'}' exceeded max depth`);
  }
  if (out.apiVersion !== obj.apiVersion || out.kind !== obj.kind) {
    throw newInternalError(`the patched object changed its kind from ${obj.apiVersion}, Kind=${obj.kind} to ${String(out.apiVersion)}, Kind=${String(out.kind)}`);
  }
  return out;
}
