/**
 * The scale subresource of generated kinds: an autoscaling/v1 Scale projected from the object
 * through specReplicasPath / statusReplicasPath / labelSelectorPath (kube's customresource
 * scale REST).
 */
import type { KubeObject, ObjectMeta, StatusCause } from '../api/meta.js';
import type { ScaleSubresource } from '../api/resource.js';
import { newInvalid } from '../api/status.js';
import { deepCopy } from './equality.js';
import { evaluateJSONPath, simpleFieldPath } from './jsonpath.js';

export interface Scale extends KubeObject {
  apiVersion: 'autoscaling/v1';
  kind: 'Scale';
  metadata: ObjectMeta;
  spec: { replicas?: number };
  status: { replicas: number; selector?: string };
}

function integerAt(obj: KubeObject, path: string): number {
  const [value] = evaluateJSONPath(obj, path);
  return typeof value === 'number' && Number.isInteger(value) ? value : 0;
}

/** `selectorOf`: the kind computes status.selector itself (a Deployment's spec.selector), instead of labelSelectorPath. */
export function scaleFromObject(obj: KubeObject, sub: ScaleSubresource, selectorOf?: (obj: KubeObject) => string | undefined): Scale {
  const meta = obj.metadata;
  const metadata: ObjectMeta = { name: meta.name, namespace: meta.namespace, uid: meta.uid, resourceVersion: meta.resourceVersion, creationTimestamp: meta.creationTimestamp };
  if (!metadata.namespace) delete metadata.namespace;
  const scale: Scale = {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata,
    spec: { replicas: integerAt(obj, sub.specReplicasPath) },
    status: { replicas: integerAt(obj, sub.statusReplicasPath) },
  };
  if (selectorOf) {
    const selector = selectorOf(obj);
    if (selector) scale.status.selector = selector;
  } else if (sub.labelSelectorPath) {
    const [selector] = evaluateJSONPath(obj, sub.labelSelectorPath);
    if (typeof selector === 'string' && selector !== '') scale.status.selector = selector;
  }
  return scale;
}

/** validation.ValidateScale: replicas must be a non-negative integer. */
export function validateScale(scale: Scale): void {
  const replicas = scale.spec?.replicas;
  const causes: StatusCause[] = [];
  if (replicas !== undefined && (typeof replicas !== 'number' || !Number.isInteger(replicas))) {
    causes.push({ reason: 'FieldValueInvalid', field: 'spec.replicas', message: `Invalid value: ${JSON.stringify(replicas)}: must be an integer` });
  } else if (typeof replicas === 'number' && replicas < 0) {
    causes.push({ reason: 'FieldValueInvalid', field: 'spec.replicas', message: `Invalid value: ${replicas}: must be greater than or equal to 0` });
  }
  if (causes.length > 0) throw newInvalid({ group: 'autoscaling', kind: 'Scale' }, scale.metadata?.name ?? '', causes);
}

/** The object with spec replicas (and resourceVersion, as a precondition) taken from the Scale. */
export function applyScaleToObject(obj: KubeObject, scale: Scale, sub: ScaleSubresource): KubeObject {
  const out = deepCopy(obj);
  const path = simpleFieldPath(sub.specReplicasPath);
  if (!path || path.length === 0) throw new Error(`specReplicasPath ${sub.specReplicasPath} is not a simple field path`);
  let cursor: Record<string, unknown> = out;
  for (const field of path.slice(0, -1)) {
    const next = cursor[field];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) cursor[field] = {};
    cursor = cursor[field] as Record<string, unknown>;
  }
  cursor[path[path.length - 1]!] = scale.spec?.replicas ?? 0;
  out.metadata.resourceVersion = scale.metadata?.resourceVersion ?? '';
  return out;
}
