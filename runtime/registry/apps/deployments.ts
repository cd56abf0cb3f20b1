/**
 * kube's Deployment strategy (pkg/registry/apps/deployment, pkg/apis/apps/v1/defaults.go,
 * pkg/apis/apps/validation) over the generic one. kgen runs no deployment controller: a
 * Deployment is stored, defaulted and validated as kube-apiserver does, and its status is what a
 * client writes to `…/status`.
 *
 * - Defaults (SetDefaults_Deployment): replicas 1, revisionHistoryLimit 10 and
 *   progressDeadlineSeconds 600 are schema defaults; here strategy.type RollingUpdate and, for
 *   RollingUpdate, maxUnavailable and maxSurge 25%; then the pod template's code defaults.
 * - Generation moves on a spec change (the generic strategy) and on an annotation change (kube
 *   copies a Deployment's annotations to its ReplicaSets).
 * - Validation (ValidateDeployment, ValidateDeploymentUpdate): the selector is required, not
 *   empty, matches the template's labels and never changes (apps/v1); replicas,
 *   minReadySeconds, revisionHistoryLimit and progressDeadlineSeconds are not negative, and
 *   progressDeadlineSeconds exceeds minReadySeconds; the strategy; the template as a pod
 *   template whose restartPolicy is Always and without activeDeadlineSeconds.
 */
import type { KubeObject, StatusCause } from '../../api/meta.js';
import { labelSelectorAsSelector, LabelSelectorError, selectorString, type MetaLabelSelector } from '../../api/labels.js';
import { forbidden, invalid, invalidPrinted, notSupported, required } from '../../validation/field.js';
import { goIntOrString, goLabelSelector, goStringMap } from '../../validation/gofmt.js';
import { INT32_MAX } from '../../validation/formats.js';
import { validateLabelSelector } from '../../validation/labelselector.js';
import { toStatusCauses } from '../../validation/index.js';
import type { FieldError } from '../../validation/types.js';
import { jsonEqual } from '../equality.js';
import { hasWrongTypes, type RESTStrategy } from '../strategy.js';
import { nonNegative } from '../core/containers-validation.js';
import { defaultTemplateOf, isObj } from '../core/podtemplate-defaults.js';
import { validatePodTemplateSpec } from '../core/podtemplate-validation.js';

type Obj = Record<string, unknown>;

const STRATEGY_TYPES = ['Recreate', 'RollingUpdate'];
const DEFAULT_SURGE = '25%';

/** SetDefaults_Deployment's strategy part (the plain field defaults are the schema's). */
export function defaultDeployment(obj: KubeObject): void {
  const spec = obj.spec;
  if (!isObj(spec)) return;
  if (spec.strategy === undefined || spec.strategy === null) spec.strategy = {};
  const strategy = spec.strategy;
  if (isObj(strategy)) {
    if (strategy.type === undefined || strategy.type === '') strategy.type = 'RollingUpdate';
    if (strategy.type === 'RollingUpdate') {
      if (strategy.rollingUpdate === undefined || strategy.rollingUpdate === null) strategy.rollingUpdate = {};
      const ru = strategy.rollingUpdate;
      if (isObj(ru)) {
        if (ru.maxUnavailable === undefined || ru.maxUnavailable === null) ru.maxUnavailable = DEFAULT_SURGE;
        if (ru.maxSurge === undefined || ru.maxSurge === null) ru.maxSurge = DEFAULT_SURGE;
      }
    }
  }
  defaultTemplateOf(obj);
}

/** getIntOrPercentValue: the number, or the percentage's number. */
function intOrPercentValue(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^[0-9]+%$/.test(v)) return Number(v.slice(0, -1));
  return undefined;
}

const PERCENT_MESSAGE = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/**
 * ValidatePositiveIntOrPercent. An integer is also an int32 (intstr.IntOrString's IntVal): kube's
 * decoder refuses a larger one, and a stored one would break every Go client that lists
 * Deployments; the schema's int-or-string has no range, so the overflow is reported here in the
 * words of an int32 field's (validate.ts checkInt32).
 */
function validatePositiveIntOrPercent(v: unknown, path: string): FieldError[] {
  if (typeof v === 'string') return /^[0-9]+%$/.test(v) ? [] : [invalidPrinted(path, goIntOrString(v), PERCENT_MESSAGE)];
  if (typeof v === 'number' && v > INT32_MAX) return [invalid(path, v, `${path} in body should be less than or equal to ${INT32_MAX}`)];
  return nonNegative(v, path);
}

/** ValidateDeploymentStrategy and ValidateRollingUpdateDeployment. */
function validateStrategy(strategy: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ru = strategy.rollingUpdate;
  switch (strategy.type) {
    case 'Recreate':
      if (ru !== undefined && ru !== null) errs.push(forbidden(`${path}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'"));
      break;
    case 'RollingUpdate': {
      if (!isObj(ru)) {
        errs.push(required(`${path}.rollingUpdate`, 'this should be defaulted and never be nil'));
        break;
      }
      const p = `${path}.rollingUpdate`;
      errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, `${p}.maxUnavailable`));
      errs.push(...validatePositiveIntOrPercent(ru.maxSurge, `${p}.maxSurge`));
      if ((intOrPercentValue(ru.maxUnavailable) ?? 0) === 0 && (intOrPercentValue(ru.maxSurge) ?? 0) === 0) {
        errs.push(invalidPrinted(`${p}.maxUnavailable`, goIntOrString(ru.maxUnavailable), 'may not be 0 when `maxSurge` is 0'));
      }
      if (typeof ru.maxUnavailable === 'string' && (intOrPercentValue(ru.maxUnavailable) ?? 0) > 100) {
        errs.push(invalidPrinted(`${p}.maxUnavailable`, goIntOrString(ru.maxUnavailable), 'must not be greater than 100%'));
      }
      break;
    }
    default: {
      const printed = `apps.DeploymentStrategy{Type:${JSON.stringify(String(strategy.type ?? ''))}, RollingUpdate:(*apps.RollingUpdateDeployment)(${isObj(ru) ? '0xc000000000' : 'nil'})}`;
      errs.push({ ...notSupported(path, '', STRATEGY_TYPES), message: `Unsupported value: ${printed}: supported values: "Recreate", "RollingUpdate"` });
    }
  }
  return errs;
}

/** ValidatePodTemplateSpecForReplicaSet. */
function validateTemplate(template: unknown, selector: MetaLabelSelector | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!isObj(template)) return [required(path)];
  const labels = isObj(template.metadata) ? (template.metadata.labels as Record<string, string> | undefined) : undefined;
  try {
    const sel = labelSelectorAsSelector(selector);
    if (selector && !sel.empty() && !sel.matches(labels)) {
      errs.push(invalidPrinted(`${path}.metadata.labels`, goStringMap(labels), '`selector` does not match template `labels`'));
    }
  } catch (err) {
    if (!(err instanceof LabelSelectorError)) throw err;
  }
  errs.push(...validatePodTemplateSpec(template, path));
  const podSpec = isObj(template.spec) ? template.spec : {};
  const restart = podSpec.restartPolicy;
  if (typeof restart === 'string' && restart !== '' && restart !== 'Always') errs.push(notSupported(`${path}.spec.restartPolicy`, restart, ['Always']));
  if (podSpec.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
    errs.push(forbidden(`${path}.spec.activeDeadlineSeconds`, 'activeDeadlineSeconds in ReplicaSet is not Supported'));
  }
  return errs;
}

/** ValidateDeploymentSpec. */
export function validateDeploymentSpec(spec: unknown, path = 'spec'): FieldError[] {
  if (!isObj(spec)) return [required(path)];
  const errs: FieldError[] = [];
  errs.push(...nonNegative(spec.replicas ?? 0, `${path}.replicas`));
  const selector = spec.selector;
  let selectorOk = false;
  if (!isObj(selector)) {
    errs.push(required(`${path}.selector`));
  } else {
    errs.push(...validateLabelSelector(selector as MetaLabelSelector, `${path}.selector`));
    const count = Object.keys(isObj(selector.matchLabels) ? selector.matchLabels : {}).length + (Array.isArray(selector.matchExpressions) ? selector.matchExpressions.length : 0);
    if (count === 0) errs.push(invalidPrinted(`${path}.selector`, goLabelSelector(selector), 'empty selector is invalid for deployment'));
    try {
      labelSelectorAsSelector(selector as MetaLabelSelector);
      selectorOk = true;
    } catch (err) {
      if (!(err instanceof LabelSelectorError)) throw err;
      errs.push(invalidPrinted(`${path}.selector`, goLabelSelector(selector), 'invalid label selector'));
    }
  }
  if (selectorOk || !isObj(selector)) errs.push(...validateTemplate(spec.template, isObj(selector) ? (selector as MetaLabelSelector) : undefined, `${path}.template`));
  errs.push(...validateStrategy(isObj(spec.strategy) ? spec.strategy : {}, `${path}.strategy`));
  errs.push(...nonNegative(spec.minReadySeconds, `${path}.minReadySeconds`));
  errs.push(...nonNegative(spec.revisionHistoryLimit, `${path}.revisionHistoryLimit`));
  const deadline = spec.progressDeadlineSeconds;
  if (typeof deadline === 'number') {
    errs.push(...nonNegative(deadline, `${path}.progressDeadlineSeconds`));
    const minReady = typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0;
    if (deadline <= minReady) errs.push(invalid(`${path}.progressDeadlineSeconds`, deadline, 'must be greater than minReadySeconds'));
  }
  return errs;
}

/** The strategy's own update rule (apps/v1): spec.selector is immutable. */
function validateSelectorUnchanged(obj: KubeObject, old: KubeObject): FieldError[] {
  const selector = isObj(obj.spec) ? obj.spec.selector : undefined;
  const oldSelector = isObj(old.spec) ? old.spec.selector : undefined;
  if (jsonEqual(selector ?? null, oldSelector ?? null)) return [];
  return [invalidPrinted('spec.selector', goLabelSelector(selector), 'field is immutable')];
}

/**
 * kube validates built-in kinds with Go code, not with their schema's list-map keys: env names
 * may repeat (kube warns), and duplicate container names are the containers' own error.
 */
function withoutListMapDuplicates(causes: StatusCause[]): StatusCause[] {
  return causes.filter((c) => c.reason !== 'FieldValueDuplicate');
}

/** Causes once: the schema and kube's code may report the same required field. */
function unique(causes: StatusCause[]): StatusCause[] {
  const seen = new Set<string>();
  return causes.filter((c) => {
    const id = `${c.field}\u0000${c.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** ValidateDeploymentStatus and ValidateDeploymentStatusUpdate's collisionCount rule. */
export function validateDeploymentStatus(status: unknown, oldStatus: unknown, path = 'status'): FieldError[] {
  if (!isObj(status)) return [];
  const errs: FieldError[] = [];
  const n = (k: string) => (typeof status[k] === 'number' ? (status[k] as number) : 0);
  for (const f of ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'terminatingReplicas', 'collisionCount']) {
    errs.push(...nonNegative(status[f], `${path}.${f}`));
  }
  const msg = 'cannot be greater than status.replicas';
  if (n('updatedReplicas') > n('replicas')) errs.push(invalid(`${path}.updatedReplicas`, n('updatedReplicas'), msg));
  if (n('readyReplicas') > n('replicas')) errs.push(invalid(`${path}.readyReplicas`, n('readyReplicas'), msg));
  if (n('availableReplicas') > n('replicas')) errs.push(invalid(`${path}.availableReplicas`, n('availableReplicas'), msg));
  if (n('availableReplicas') > n('readyReplicas')) errs.push(invalid(`${path}.availableReplicas`, n('availableReplicas'), 'cannot be greater than readyReplicas'));
  const was = isObj(oldStatus) ? oldStatus.collisionCount : undefined;
  if (typeof status.collisionCount === 'number' && typeof was === 'number' && status.collisionCount < was) {
    errs.push(invalid(`${path}.collisionCount`, status.collisionCount, 'cannot be decremented'));
  }
  return errs;
}

/** kube's deploymentStatusStrategy: the status write is validated as a Deployment status. */
export function withDeploymentStatusStrategy(base: RESTStrategy): RESTStrategy {
  return {
    ...base,
    validateUpdate(obj, old) {
      const causes = base.validateUpdate(obj, old);
      if (hasWrongTypes(causes)) return causes;
      return [...causes, ...toStatusCauses(validateDeploymentStatus(obj.status, old.status))];
    },
  };
}

/** The Scale's status.selector: spec.selector as kube's selector string. */
export function deploymentScaleSelector(obj: KubeObject): string | undefined {
  const selector = isObj(obj.spec) ? obj.spec.selector : undefined;
  if (!isObj(selector)) return undefined;
  try {
    return selectorString(labelSelectorAsSelector(selector as MetaLabelSelector));
  } catch {
    return undefined;
  }
}

export function withDeploymentStrategy(base: RESTStrategy): RESTStrategy {
  return {
    ...base,
    // kube defaults an object as it decodes it, before the strategy runs: so here, before the
    // generic strategy compares the new spec with the stored (defaulted) one.
    prepareForCreate(obj) {
      defaultDeployment(obj);
      base.prepareForCreate(obj);
      obj.status = {};
    },
    prepareForUpdate(obj, old) {
      defaultDeployment(obj);
      base.prepareForUpdate(obj, old);
      const generation = old.metadata.generation ?? 0;
      if (obj.metadata.generation === generation && !jsonEqual(obj.metadata.annotations ?? {}, old.metadata.annotations ?? {})) obj.metadata.generation = generation + 1;
    },
    validate(obj) {
      const causes = withoutListMapDuplicates(base.validate(obj));
      if (hasWrongTypes(causes)) return causes;
      return unique([...causes, ...toStatusCauses(validateDeploymentSpec(obj.spec))]);
    },
    validateUpdate(obj, old) {
      const causes = withoutListMapDuplicates(base.validateUpdate(obj, old));
      if (hasWrongTypes(causes)) return causes;
      return unique([...causes, ...toStatusCauses([...validateDeploymentSpec(obj.spec), ...validateSelectorUnchanged(obj, old)])]);
    },
  };
}
