/** The strategies of the apps/v1 kinds kgen serves (Deployment), by resource. */
import type { RESTStrategy } from '../strategy.js';
import { withDeploymentStrategy } from './deployments.js';

export const APPS_GROUP = 'apps';

export const APPS_STRATEGIES: Readonly<Record<string, (base: RESTStrategy) => RESTStrategy>> = {
  deployments: withDeploymentStrategy,
};

export { deploymentScaleSelector, withDeploymentStatusStrategy } from './deployments.js';
