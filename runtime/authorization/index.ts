/**
 * RBAC for the server: the RBAC authorizer over an in-memory index of Roles, ClusterRoles and
 * their bindings (kept current by watching the stores, so authorizing a request reads no storage),
 * the bootstrap policy, escalation-checking admission, the ClusterRole aggregation controller,
 * and the access reviews: SelfSubjectAccessReview, SelfSubjectRulesReview, SubjectAccessReview
 * and LocalSubjectAccessReview.
 *
 *   const rbac = await startRBAC(installer, { log });
 *   // rbac.authorizer → the authorization filter; rbac.admission → the admission chain
 */
import type { Authorizer } from '../api/auth.js';
import type { KubeObject } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import type { AdmissionPlugin } from '../api/admission.js';
import { ResourceInformer } from '../controllers/informer.js';
import type { RequestScope } from '../endpoints/handler.js';
import { ClusterRoleAggregationController } from './aggregation.js';
import { ensureBootstrapPolicy } from './bootstrap.js';
import { newRBACEscalationAdmission } from './escalation.js';
import { PolicyIndex } from './policyindex.js';
import { newRBACAuthorizer, type RBACAuthorizer, type RBACAuthorizerOptions } from './rbac.js';
import { RuleResolver } from './resolver.js';
import { newLocalSubjectAccessReviewCreater, newSelfSubjectAccessReviewCreater, newSelfSubjectRulesReviewCreater, newSubjectAccessReviewCreater } from './reviews.js';
import type { RBACResource } from './strategy.js';
import { AUTHORIZATION_GROUP, RBAC_GROUP } from './types.js';

export { newRBACAuthorizer, aggregateErrors, type RBACAuthorizer, type RBACAuthorizerOptions, type RulesForResult } from './rbac.js';
export { RuleResolver, describeSource, type RuleSource, type RuleVisitor } from './resolver.js';
export { PolicyIndex } from './policyindex.js';
export { ruleAllows, appliesToUser, serviceAccountUsername } from './rules.js';
export { covers, breakdownRule, compactRules, compactString } from './covers.js';
export { checkEscalation, confirmNoEscalation, newRBACEscalationAdmission, newForbidden, FULL_AUTHORITY, AGGREGATION_RULE_FORBIDDEN } from './escalation.js';
export {
  aggregateClusterRoleRules,
  ClusterRoleAggregationController,
  AGGREGATION_CONTROLLER_NAME,
  AGGREGATION_CONTROLLER_ROLE,
  AGGREGATION_CONTROLLER_USER,
  ruleKey,
  rulesEqual,
} from './aggregation.js';
export {
  bootstrapClusterRoles,
  bootstrapClusterRoleBindings,
  bootstrapRoles,
  ensureBootstrapPolicy,
  AUTOUPDATE_ANNOTATION,
  AUTH_DELEGATOR_ROLE,
  AUTHENTICATION_READER_ROLE,
  AUTHENTICATION_CONFIGMAP,
} from './bootstrap.js';
export { newSelfSubjectAccessReviewCreater, newSelfSubjectRulesReviewCreater, newSubjectAccessReviewCreater, newLocalSubjectAccessReviewCreater, attributesFrom } from './reviews.js';
export { rbacResourceOf, withRBACStrategy, validateRBACObject, type RBACResource } from './strategy.js';
export * from './types.js';

/** What RBAC needs of the installed APIs (APIInstaller satisfies it). */
export interface RBACAPIs {
  groupVersions(): readonly { resources: readonly ResourceDefinition[] }[];
  lookup(group: string, version: string, resource: string): RequestScope | undefined;
}

export interface RBACOptions extends RBACAuthorizerOptions {
  log?: (line: string) => void;
  /** What the access reviews answer from, when the server authorizes with something else than RBAC. */
  reviewAuthorizer?: Authorizer;
  /** Create and reconcile the bootstrap roles and bindings (default true). */
  bootstrap?: boolean;
  /** Run the ClusterRole aggregation controller, which writes aggregated rules back (default true). */
  aggregationController?: boolean;
}

export interface RunningRBAC {
  authorizer: RBACAuthorizer;
  /** Escalation prevention on role and binding writes, for the admission chain. */
  admission: AdmissionPlugin;
  index: PolicyIndex;
  /** Present unless disabled (RBACOptions.aggregationController). */
  aggregationController?: ClusterRoleAggregationController;
  stop(): Promise<void>;
}

const RESOURCES: readonly RBACResource[] = ['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings'];

/**
 * Bootstraps the policy, starts watching the RBAC stores and waits for the first list, then
 * serves the access reviews. Undefined when the RBAC kinds are not installed (generated without
 * kgen's built-ins).
 */
export async function startRBAC(apis: RBACAPIs, options: RBACOptions = {}): Promise<RunningRBAC | undefined> {
  const log = options.log ?? (() => undefined);
  const scopes = RESOURCES.map((r) => apis.lookup(RBAC_GROUP, 'v1', r));
  if (scopes.some((s) => !s)) return undefined;
  const [roles, clusterRoles, roleBindings, clusterRoleBindings] = scopes.map((s) => s!.store);
  if (options.bootstrap !== false) {
    const installed = apis.groupVersions().flatMap((gv) => gv.resources);
    await ensureBootstrapPolicy({ clusterRoles: clusterRoles!, clusterRoleBindings: clusterRoleBindings!, roles: roles! }, installed, log);
  }
  const index = new PolicyIndex();
  let aggregation: ClusterRoleAggregationController | undefined;
  const informers = [roles!, clusterRoles!, roleBindings!, clusterRoleBindings!].map((store, i) => {
    const resource = RESOURCES[i]!;
    const informer = new ResourceInformer(store, log);
    // Any ClusterRole change may change what an aggregating one gathers.
    const changed = resource === 'clusterroles' ? () => aggregation?.enqueueAll() : () => undefined;
    informer.addHandlers({
      onAdd: (obj: KubeObject) => {
        index.upsert(resource, obj);
        changed();
      },
      onUpdate: (_old: KubeObject, obj: KubeObject) => {
        index.upsert(resource, obj);
        changed();
      },
      onDelete: (obj: KubeObject) => {
        index.remove(resource, obj);
        changed();
      },
    });
    informer.start();
    return informer;
  });
  await Promise.all(informers.map((i) => i.synced));
  const authorizer = newRBACAuthorizer(new RuleResolver(index), options);
  const escalation = { authorizer, resolver: authorizer.resolver };
  if (options.aggregationController !== false) {
    aggregation = new ClusterRoleAggregationController({ ...escalation, scope: scopes[1]!, source: index, log });
    aggregation.run();
  }
  const ssar = apis.lookup(AUTHORIZATION_GROUP, 'v1', 'selfsubjectaccessreviews');
  const reviewAuthorizer = options.reviewAuthorizer ?? authorizer;
  if (ssar) ssar.creater = newSelfSubjectAccessReviewCreater(reviewAuthorizer);
  const sar = apis.lookup(AUTHORIZATION_GROUP, 'v1', 'subjectaccessreviews');
  if (sar) sar.creater = newSubjectAccessReviewCreater(reviewAuthorizer);
  const lsar = apis.lookup(AUTHORIZATION_GROUP, 'v1', 'localsubjectaccessreviews');
  if (lsar) lsar.creater = newLocalSubjectAccessReviewCreater(reviewAuthorizer);
  const ssrr = apis.lookup(AUTHORIZATION_GROUP, 'v1', 'selfsubjectrulesreviews');
  if (ssrr) ssrr.creater = newSelfSubjectRulesReviewCreater(authorizer);
  return {
    authorizer,
    admission: newRBACEscalationAdmission(escalation),
    index,
    aggregationController: aggregation,
    async stop() {
      await aggregation?.stop();
      await Promise.all(informers.map((i) => i.stop()));
    },
  };
}
