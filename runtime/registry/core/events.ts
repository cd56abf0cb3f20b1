/**
 * kube's event strategy (pkg/registry/core/event) over the generic one: legacyValidateEvent's
 * namespace rule (pkg/apis/core/validation/events.go), which both APIs run on create and update.
 * An Event without eventTime names an object of its own namespace, or, about a cluster-scoped
 * object, lives in `default`; one with eventTime about a cluster-scoped object lives in `default`
 * or `kube-system` (kube checks nothing else there). So an Event written in one namespace cannot
 * claim to be about an object of another.
 *
 * The events.k8s.io/v1 form names the object `regarding` (core/v1: `involvedObject`); kube
 * validates the internal form, so the error's path is `involvedObject.namespace` through either.
 */
import type { KubeObject } from '../../api/meta.js';
import { toStatusCauses } from '../../validation/index.js';
import { invalid } from '../../validation/field.js';
import type { FieldError } from '../../validation/types.js';
import type { RESTStrategy } from '../strategy.js';

type ObjectField = 'involvedObject' | 'regarding';

function eventNamespaceErrors(obj: KubeObject, field: ObjectField): FieldError[] {
  const ref = obj[field] as { namespace?: unknown } | undefined;
  const involved = typeof ref?.namespace === 'string' ? ref.namespace : '';
  const namespace = obj.metadata.namespace ?? '';
  const hasEventTime = obj.eventTime !== undefined && obj.eventTime !== null && obj.eventTime !== '';
  const mismatch = hasEventTime
    ? involved === '' && namespace !== 'default' && namespace !== 'kube-system'
    : involved === ''
      ? namespace !== '' && namespace !== 'default'
      : namespace !== involved;
  return mismatch ? [invalid('involvedObject.namespace', involved, 'does not match event.namespace')] : [];
}

export function withEventStrategy(field: ObjectField): (base: RESTStrategy) => RESTStrategy {
  return (base) => ({
    ...base,
    validate(obj) {
      return [...base.validate(obj), ...toStatusCauses(eventNamespaceErrors(obj, field))];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...toStatusCauses(eventNamespaceErrors(obj, field))];
    },
  });
}
