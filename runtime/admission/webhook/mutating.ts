/**
 * The mutating webhook dispatcher (admission/plugin/webhook/mutating/dispatcher.go): matching
 * webhooks are called one after another, each seeing the previous one's changes; a JSONPatch
 * answer is applied to the object. Webhooks with reinvocationPolicy IfNeeded are called once
 * more when a later webhook changed the object.
 */
import type { AdmissionAttributes } from '../../api/auth.js';
import type { KubeObject } from '../../api/meta.js';
import { newInternalError, newInvalid } from '../../api/status.js';
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
  // A custom resource patched to another kind of its group decodes, and kube's custom resource
  // validator (run after admission) refuses it.
  const kind = attrs.object?.kind;
  if (attrs.customResource && attrs.object && kind !== attrs.kind.kind) {
    const cause = { reason: 'FieldValueInvalid' as const, field: 'kind', message: `Invalid value: ${JSON.stringify(kind)}: must be ${attrs.kind.kind}` };
    throw newInvalid({ group: attrs.kind.group, kind: attrs.kind.kind }, attrs.object?.metadata?.name ?? attrs.name, [cause]);
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
      const patched = applyWebhookPatch(attrs.object, result.patch, attrs);
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
 * The patched object; it must decode as kube decodes it (callAttrMutatingHook's
 * jsonSerializer.Decode and the conversion back), and nest no deeper than a request body may
 * (api/nesting.ts): the patch can nest it deeper than both the object and the webhook's answer,
 * and a too-deep object, once stored, makes every later update of it fail in kgen's recursive
 * layers. kube's decoder refuses the patched JSON the same way (at its own depth, 10,000): 500
 * InternalError with the decoder's message, nothing stored.
 */
function applyWebhookPatch(obj: KubeObject, patch: unknown[], attrs: AdmissionAttributes): KubeObject {
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
  checkTypeMeta(out, obj, attrs);
  return out;
}

const LEGACY_SCHEME = 'pkg/api/legacyscheme/scheme.go:30';

/**
 * The patched object's apiVersion and kind, as kube's decode and conversion back to the
 * request's version judge them (all 500 InternalError):
 * - not strings: meta.Interpret's error;
 * - a compiled kind (typed in kube): a missing one is defaulted from the object's type; another is
 *   `no kind "X" is registered` (kgen serves one version of a compiled kind per request, so
 *   another version is refused too, where kube would convert a version that registers the kind);
 * - a custom resource (unstructured): a missing kind is the decoder's error; another group (or
 *   version) is the CR converter's error; another kind of the same group and version passes, for
 *   dispatchMutating to refuse as the custom resource validator does.
 */
function checkTypeMeta(out: KubeObject, obj: KubeObject, attrs: AdmissionAttributes): void {
  for (const field of ['apiVersion', 'kind'] as const) {
    const value: unknown = out[field];
    if (value !== undefined && value !== null && typeof value !== 'string') {
      const type = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
      throw newInternalError(`couldn't get version/kind; json parse error: json: cannot unmarshal ${type} into Go struct field .${field} of type string`);
    }
  }
  const apiVersion = (out.apiVersion as string | null | undefined) ?? '';
  const kind = (out.kind as string | null | undefined) ?? '';
  if (!attrs.customResource) {
    if (apiVersion === '') out.apiVersion = obj.apiVersion;
    if (kind === '') out.kind = obj.kind;
    if (out.apiVersion !== obj.apiVersion || out.kind !== obj.kind) {
      throw newInternalError(`no kind ${JSON.stringify(out.kind)} is registered for version ${JSON.stringify(out.apiVersion)} in scheme ${JSON.stringify(LEGACY_SCHEME)}`);
    }
    return;
  }
  if (kind === '') throw newInternalError(`Object 'Kind' is missing in '${JSON.stringify(out)}'`);
  if (apiVersion !== obj.apiVersion) {
    const target = obj.apiVersion ?? '';
    const group = (v: string) => (v.includes('/') ? v.slice(0, v.indexOf('/')) : '');
    const gvk = `${apiVersion.includes('/') ? apiVersion : `/${apiVersion}`}, Kind=${kind}`;
    if (group(apiVersion) !== group(target)) throw newInternalError(`${gvk} is unstructured and is not suitable for converting to ${JSON.stringify(target)}`);
    throw newInternalError(`request to convert CR from an invalid group/version: ${apiVersion}`);
  }
}
