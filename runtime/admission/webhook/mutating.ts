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
  const patched = { any: false };
  for (const [index, hook] of hooks.entries()) {
    if (!(await shouldCallHook(hook.webhook, attrs, namespaceLabels))) continue;
    const changed = await callMutatingHook(hook, attrs, ctx, 0, index, patched, resolveService);
    // A change requires every IfNeeded webhook called so far to see the new object.
    if (changed) for (const earlier of invokedIfNeeded) reinvoke.add(earlier.uid);
    if (hook.webhook.reinvocationPolicy === 'IfNeeded') invokedIfNeeded.push(hook);
  }
  for (const [index, hook] of hooks.entries()) {
    if (reinvoke.has(hook.uid)) await callMutatingHook(hook, attrs, ctx, 1, index, patched, resolveService);
  }
  // A custom resource patched to another kind of its group decodes, and kube's custom resource
  // validator (run after admission, so after every webhook) refuses it. Only a patch can change
  // the kind: a request no webhook patched was checked by the handler's decoding.
  const kind = attrs.object?.kind;
  if (patched.any && attrs.customResource && attrs.object && kind !== attrs.kind.kind) {
    const cause = { reason: 'FieldValueInvalid' as const, field: 'kind', message: `Invalid value: ${JSON.stringify(kind)}: must be ${attrs.kind.kind}` };
    // Named, as rest.BeforeCreate/BeforeUpdate name it, by the kind the typer reads from the object.
    throw newInvalid({ group: attrs.kind.group, kind: kind ?? '' }, attrs.object?.metadata?.name ?? attrs.name, [cause]);
  }
}

/** callAttrMutatingHook with the failure policy applied; true when the object changed. */
async function callMutatingHook(
  hook: WebhookAccessor,
  attrs: AdmissionAttributes,
  ctx: AdmissionContext,
  round: number,
  index: number,
  patched: { any: boolean },
  resolveService?: ServiceResolver,
): Promise<boolean> {
  const { webhook } = hook;
  const key = `round_${round}_index_${index}`;
  let changed = false;
  try {
    const result = await callHook(webhook, attrs, ctx, true, resolveService);
    if (result.patch && result.patch.length > 0) {
      if (!attrs.object) throw newInternalError(`admission webhook "${webhook.name}" attempted to modify the object, which is not supported for this operation`);
      const applied = await applyWebhookPatch(attrs.object, result.patch, attrs);
      changed = applied.changed;
      attrs.object = applied.object;
      patched.any = true;
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
 * The patched object in the request's version (`object`), and whether the patch changed it. As
 * kube's callAttrMutatingHook: the patched JSON is decoded (in whatever version the patch gave it),
 * compared with the object sent (`changed`), defaulted in its own version
 * (`Default(newVersionedObject)`: attrs.defaultVersion), then converted back to the request's
 * version (the generic dispatcher's runtime.Convert). It must decode as kube decodes it, and nest
 * no deeper than a request body may
 * (api/nesting.ts): the patch can nest it deeper than both the object and the webhook's answer,
 * and a too-deep object, once stored, makes every later update of it fail in kgen's recursive
 * layers. kube's decoder refuses the patched JSON the same way (at its own depth, 10,000): 500
 * InternalError with the decoder's message, nothing stored.
 */
async function applyWebhookPatch(obj: KubeObject, patch: unknown[], attrs: AdmissionAttributes): Promise<{ changed: boolean; object: KubeObject }> {
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
  decodeTypeMeta(out, obj, attrs);
  const changed = !jsonEqual(out, obj);
  attrs.defaultVersion?.(out);
  return { changed, object: await convertBack(out, obj, attrs) };
}

const LEGACY_SCHEME = 'pkg/api/legacyscheme/scheme.go:30';

/**
 * The patched object's apiVersion and kind as kube's decode judges them (errors are 500
 * InternalError): not strings, meta.Interpret's error; a compiled kind (typed in kube) missing one
 * takes the object's; a custom resource (unstructured) missing its kind is the decoder's error.
 */
function decodeTypeMeta(out: KubeObject, obj: KubeObject, attrs: AdmissionAttributes): void {
  for (const field of ['apiVersion', 'kind'] as const) {
    const value: unknown = out[field];
    if (value !== undefined && value !== null && typeof value !== 'string') {
      const type = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
      throw newInternalError(`couldn't get version/kind; json parse error: json: cannot unmarshal ${type} into Go struct field .${field} of type string`);
    }
  }
  if (!attrs.customResource) {
    if (((out.apiVersion as string | null | undefined) ?? '') === '') out.apiVersion = obj.apiVersion;
    if (((out.kind as string | null | undefined) ?? '') === '') out.kind = obj.kind;
  } else if (((out.kind as string | null | undefined) ?? '') === '') {
    throw newInternalError(`Object 'Kind' is missing in '${JSON.stringify(out)}'`);
  }
}

/**
 * The decoded object converted back to the request's version, as kube's conversion judges it:
 * - a compiled kind: another version that registers the kind is converted (attrs.convertVersion,
 *   the storage's converter); anything else is `no kind "X" is registered`;
 * - a custom resource: another group is the CR converter's error, and so is a version the CRD
 *   does not list; another version it lists is converted through the CRD's conversion (None or
 *   Webhook; a webhook's failure is its Status); another kind of the same group passes, for
 *   dispatchMutating to refuse as the custom resource validator does.
 */
async function convertBack(out: KubeObject, obj: KubeObject, attrs: AdmissionAttributes): Promise<KubeObject> {
  const apiVersion = (out.apiVersion as string | null | undefined) ?? '';
  const kind = out.kind as string;
  if (!attrs.customResource) {
    if (out.apiVersion === obj.apiVersion && out.kind === obj.kind) return out;
    const converted = out.kind === obj.kind ? await attrs.convertVersion?.(out) : undefined;
    if (converted) return converted;
    throw newInternalError(`no kind ${JSON.stringify(out.kind)} is registered for version ${JSON.stringify(out.apiVersion)} in scheme ${JSON.stringify(LEGACY_SCHEME)}`);
  }
  if (apiVersion === obj.apiVersion) return out;
  const target = obj.apiVersion ?? '';
  const group = (v: string) => (v.includes('/') ? v.slice(0, v.indexOf('/')) : '');
  const gvk = `${apiVersion.includes('/') ? apiVersion : `/${apiVersion}`}, Kind=${kind}`;
  if (group(apiVersion) !== group(target)) throw newInternalError(`${gvk} is unstructured and is not suitable for converting to ${JSON.stringify(target)}`);
  const converted = await attrs.convertVersion?.(out);
  if (converted) return converted;
  throw newInternalError(`request to convert CR from an invalid group/version: ${apiVersion}`);
}
