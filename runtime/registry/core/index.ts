/**
 * The strategies of the core/v1 kinds a control plane serves (ConfigMap, Secret,
 * PersistentVolumeClaim, Endpoints), by resource:
 * what kube's per-kind registries add to the generic store. Other kinds keep the generic strategy.
 */
import type { ResourceDefinition } from '../../api/resource.js';
import type { RESTStrategy } from '../strategy.js';
import { withConfigMapStrategy } from './configmaps.js';
import { withEndpointsStrategy } from './endpoints.js';
import { withPersistentVolumeClaimStrategy } from './persistentvolumeclaims.js';
import { withSecretStrategy } from './secrets.js';

export const CORE_STRATEGIES: Readonly<Record<string, (base: RESTStrategy) => RESTStrategy>> = {
  configmaps: withConfigMapStrategy,
  secrets: withSecretStrategy,
  endpoints: withEndpointsStrategy,
  persistentvolumeclaims: withPersistentVolumeClaimStrategy,
};

/** The strategy of a core/v1 control-plane kind, or `base` unchanged for any other resource. */
export function withCoreStrategy(definition: Pick<ResourceDefinition, 'group' | 'plural'>, base: RESTStrategy): RESTStrategy {
  if (definition.group !== '') return base;
  const wrap = CORE_STRATEGIES[definition.plural];
  return wrap ? wrap(base) : base;
}

export { withPersistentVolumeClaimStatusStrategy } from './persistentvolumeclaims.js';
export { withEventStrategy } from './events.js';
export { MAX_SECRET_SIZE } from './configdata.js';
export { mergeStringData, SECRET_TYPE_OPAQUE, SECRET_TYPE_SERVICE_ACCOUNT_TOKEN } from './secrets.js';
