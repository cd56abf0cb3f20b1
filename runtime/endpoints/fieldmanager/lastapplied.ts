/**
 * Client-side apply meets server-side apply (k8s.io/apimachinery's managedfields/internal
 * lastappliedmanager.go and lastappliedupdater.go), for the manager `kubectl` only, as kube:
 *
 * - lastAppliedManager: when `kubectl apply --server-side` conflicts only with fields whose live
 *   values are still those of the `kubectl.kubernetes.io/last-applied-configuration` annotation
 *   (fields client-side apply set, owned by `kubectl-client-side-apply` or an edit since), the
 *   apply takes them over as if forced; other conflicts are still reported, alone.
 * - lastAppliedUpdater: a successful server-side apply by `kubectl` on an object that has the
 *   annotation rewrites it to the applied configuration, so a later client-side apply computes
 *   its three-way patch from what was really applied last.
 */
import type { KubeObject } from '../../api/meta.js';
import { FieldSet } from './fieldset.js';
import { compare, toFieldSet } from './typed.js';
import type { TypeNode } from './typeschema.js';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
/** The only manager whose applies upgrade from, and keep, the client-side annotation. */
export const KUBECTL_MANAGER = 'kubectl';

function lastAppliedOf(obj: KubeObject | Record<string, unknown> | undefined): string | undefined {
  const annotations = (obj?.metadata as { annotations?: Record<string, unknown> } | undefined)?.annotations;
  const value = annotations?.[LAST_APPLIED_ANNOTATION];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The fields of live's last-applied configuration whose live values still match it (kube's
 * allowedConflictsFromLastApplied): conflicts on them may be taken over. Undefined when there is
 * no usable annotation (absent, not JSON, or of another apiVersion).
 */
export function allowedConflictsFromLastApplied(live: KubeObject | Record<string, unknown> | undefined, apiVersion: string, structure: TypeNode): FieldSet | undefined {
  const text = lastAppliedOf(live);
  if (!text) return undefined;
  let lastApplied: unknown;
  try {
    lastApplied = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof lastApplied !== 'object' || lastApplied === null || (lastApplied as { apiVersion?: unknown }).apiVersion !== apiVersion) return undefined;
  const comparison = compare(lastApplied, live, structure);
  return toFieldSet(lastApplied, structure).difference(comparison.modified).difference(comparison.added).difference(comparison.removed);
}

/**
 * result with the annotation set to the applied configuration (without the annotation itself),
 * when result has one (kube's lastAppliedUpdater); otherwise result unchanged.
 */
export function withUpdatedLastApplied<T extends Record<string, unknown>>(result: T, config: KubeObject): T {
  if (!lastAppliedOf(result)) return result;
  const applied = structuredClone(config) as KubeObject;
  const annotations = applied.metadata?.annotations;
  if (annotations) {
    delete annotations[LAST_APPLIED_ANNOTATION];
    if (Object.keys(annotations).length === 0) delete applied.metadata!.annotations;
  }
  const meta = result.metadata as { annotations: Record<string, string> };
  return { ...result, metadata: { ...meta, annotations: { ...meta.annotations, [LAST_APPLIED_ANNOTATION]: JSON.stringify(sortedKeys(applied)) } } };
}

/** Go encodes an unstructured object's maps with sorted keys, as kubectl writes the annotation. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
  );
}
