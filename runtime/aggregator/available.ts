/**
 * kube-aggregator's AvailableConditionController: for every APIService, the `Available`
 * condition follows its backend — `Local` for local ones; ServiceNotFound, ServicePortError,
 * EndpointsNotFound, MissingEndpoints when the Service cannot be resolved; FailedDiscoveryCheck
 * when `/apis/<g>/<v>` does not answer; `Passed` otherwise. Checked when an APIService, Service or
 * Endpoints changes and every interval (kube: 30 s; shorter in tests).
 */
import type { KubeObject } from '../api/meta.js';
import type { APIServiceCondition } from '../../generated/models/apiregistration.k8s.io/v1.js';

export type { APIServiceCondition };

export const AVAILABLE = 'Available';

export type Availability = Pick<APIServiceCondition, 'status' | 'reason' | 'message'>;

export const LOCAL_AVAILABLE: Availability = { status: 'True', reason: 'Local', message: 'Local APIServices are always available' };
export const PASSED: Availability = { status: 'True', reason: 'Passed', message: 'all checks passed' };

export function failedDiscoveryCheck(url: string, cause: string): Availability {
  return { status: 'False', reason: 'FailedDiscoveryCheck', message: `failing or missing response from ${url}: ${cause}` };
}

export function availableCondition(apiService: KubeObject): APIServiceCondition | undefined {
  const conditions = ((apiService.status ?? {}) as { conditions?: APIServiceCondition[] }).conditions ?? [];
  return conditions.find((c) => c.type === AVAILABLE);
}

/** Whether the object already carries this availability (no status write needed). */
export function hasAvailability(apiService: KubeObject, wanted: Availability): boolean {
  const current = availableCondition(apiService);
  return current !== undefined && current.status === wanted.status && current.reason === wanted.reason && current.message === wanted.message;
}

/**
 * The status with the Available condition set (apiregistration's SetAPIServiceCondition):
 * lastTransitionTime changes only when the status does.
 */
export function withAvailability(status: unknown, wanted: Availability, now: Date = new Date()): { conditions: APIServiceCondition[] } {
  const conditions = [...(((status ?? {}) as { conditions?: APIServiceCondition[] }).conditions ?? [])];
  const index = conditions.findIndex((c) => c.type === AVAILABLE);
  const previous = index === -1 ? undefined : conditions[index];
  const lastTransitionTime = previous && previous.status === wanted.status && previous.lastTransitionTime ? previous.lastTransitionTime : now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const condition: APIServiceCondition = { type: AVAILABLE, status: wanted.status, lastTransitionTime, reason: wanted.reason, message: wanted.message };
  if (index === -1) conditions.push(condition);
  else conditions[index] = condition;
  return { ...((status ?? {}) as object), conditions };
}
