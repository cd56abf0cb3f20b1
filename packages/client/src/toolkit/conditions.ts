/**
 * Status condition helpers (apimachinery's meta.SetStatusCondition / FindStatusCondition):
 * conditions are keyed by type; lastTransitionTime changes only when status does.
 */

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
}

export function findCondition<C extends Condition>(conditions: readonly C[] | undefined, type: string): C | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isConditionTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return findCondition(conditions, type)?.status === 'True';
}

/**
 * conditions with `condition` set (a new list; the input is not changed): added, or updated in
 * place keeping its lastTransitionTime unless the status changed. Returns whether anything changed.
 */
export function setCondition<C extends Condition>(conditions: readonly C[] | undefined, condition: C, now: Date = new Date()): { conditions: C[]; changed: boolean } {
  const list = [...(conditions ?? [])];
  const at = now.toISOString().replace(/\.\d+Z$/, 'Z');
  const i = list.findIndex((c) => c.type === condition.type);
  if (i < 0) return { conditions: [...list, { ...condition, lastTransitionTime: condition.lastTransitionTime ?? at }], changed: true };
  const old = list[i]!;
  const next: C = { ...old, ...condition, lastTransitionTime: old.status !== condition.status ? (condition.lastTransitionTime ?? at) : old.lastTransitionTime };
  const changed = (['status', 'reason', 'message', 'observedGeneration', 'lastTransitionTime'] as const).some((k) => next[k] !== old[k]);
  list[i] = next;
  return { conditions: list, changed };
}

export function removeCondition<C extends Condition>(conditions: readonly C[] | undefined, type: string): C[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}
