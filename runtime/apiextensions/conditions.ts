/**
 * CustomResourceDefinition conditions, as apiextensions helpers.go sets them: setting a condition
 * keeps its lastTransitionTime unless its status changes; reason and message are always updated.
 */
import type { CRDCondition, ConditionType, CustomResourceDefinition } from './types.js';

/** metav1.Time: RFC 3339 at second precision. */
export function nowTime(now: Date = new Date()): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function findCondition(crd: CustomResourceDefinition, type: ConditionType): CRDCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

export function isConditionTrue(crd: CustomResourceDefinition, type: ConditionType): boolean {
  return findCondition(crd, type)?.status === 'True';
}

/** SetCRDCondition: adds or updates the condition of `next.type` in place. */
export function setCondition(crd: CustomResourceDefinition, next: CRDCondition, now: Date = new Date()): void {
  crd.status ??= {};
  const conditions = (crd.status.conditions ??= []);
  const existing = conditions.find((c) => c.type === next.type);
  if (!existing) {
    conditions.push({ ...next, lastTransitionTime: next.lastTransitionTime ?? nowTime(now) });
    return;
  }
  if (existing.status !== next.status) {
    existing.status = next.status;
    existing.lastTransitionTime = next.lastTransitionTime ?? nowTime(now);
  }
  existing.reason = next.reason;
  existing.message = next.message;
  if (next.observedGeneration !== undefined) existing.observedGeneration = next.observedGeneration;
}

/** RemoveCRDCondition. */
export function removeCondition(crd: CustomResourceDefinition, type: ConditionType): void {
  if (!crd.status?.conditions) return;
  crd.status.conditions = crd.status.conditions.filter((c) => c.type !== type);
}
