/**
 * kube's lease strategy (pkg/registry/coordination/lease) over the generic one: ValidateLeaseSpec
 * (pkg/apis/coordination/validation) on create and update. A duration of 0 or less would make
 * the lease read as expired to every leader-election candidate at once (client-go's
 * isLeaseValid), and kube refuses it, as it refuses negative transitions, an unknown strategy,
 * and a preferred holder without a strategy.
 */
import { isQualifiedName } from '../api/names.js';
import type { KubeObject } from '../api/meta.js';
import { toStatusCauses } from '../validation/index.js';
import { forbidden, invalid, notSupported } from '../validation/field.js';
import type { FieldError } from '../validation/types.js';
import type { RESTStrategy } from './strategy.js';

/** kube's validLeaseStrategies: a strategy without a '/' must be one of these. */
const LEASE_STRATEGIES = ['OldestEmulationVersion'];

/** ValidateCoordinatedLeaseStrategy; kube passes it `spec.strategy` and adds `strategy` again. */
function validateStrategy(strategy: string, path: string): FieldError[] {
  const field = `${path}.strategy`;
  if (!strategy.includes('/')) return LEASE_STRATEGIES.includes(strategy) ? [] : [notSupported(field, strategy, LEASE_STRATEGIES)];
  return isQualifiedName(strategy).map((msg) => invalid(field, strategy, msg));
}

export function validateLeaseSpec(obj: KubeObject): FieldError[] {
  const spec = (obj.spec ?? {}) as Record<string, unknown>;
  const errs: FieldError[] = [];
  const duration = spec.leaseDurationSeconds;
  if (typeof duration === 'number' && duration <= 0) errs.push(invalid('spec.leaseDurationSeconds', duration, 'must be greater than 0'));
  const transitions = spec.leaseTransitions;
  if (typeof transitions === 'number' && transitions < 0) errs.push(invalid('spec.leaseTransitions', transitions, 'must be greater than or equal to 0'));
  const strategy = typeof spec.strategy === 'string' ? spec.strategy : undefined;
  if (strategy !== undefined) errs.push(...validateStrategy(strategy, 'spec.strategy'));
  if (typeof spec.preferredHolder === 'string' && spec.preferredHolder !== '' && !strategy) {
    errs.push(forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  }
  return errs;
}

export function withLeaseStrategy(base: RESTStrategy): RESTStrategy {
  return {
    ...base,
    validate(obj) {
      return [...base.validate(obj), ...toStatusCauses(validateLeaseSpec(obj))];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...toStatusCauses(validateLeaseSpec(obj))];
    },
  };
}
