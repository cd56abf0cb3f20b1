/**
 * authorization.k8s.io/v1 SelfSubjectAccessReview and SelfSubjectRulesReview
 * (pkg/registry/authorization/selfsubject{access,rules}review): create-only, never stored. The
 * answer is about the requesting user — the impersonated one, when impersonating.
 *
 * SubjectAccessReview and LocalSubjectAccessReview (pkg/registry/authorization/
 * {,local}subjectaccessreview) ask the same about the user, groups, extra and uid the spec names;
 * a LocalSubjectAccessReview only about resources in the namespace it is posted to.
 */
import type { AuthorizationAttributes, Authorizer, UserInfo } from '../api/auth.js';
import type { KubeObject } from '../api/meta.js';
import { newBadRequest, newInvalid } from '../api/status.js';
import type { APIRequest } from '../endpoints/handler.js';
import { goQuote } from '../validation/gofmt.js';
import { field, toStatusCauses } from '../validation/index.js';
import { invalidGo } from './strategy.js';
import type { RBACAuthorizer } from './rbac.js';
import { AUTHORIZATION_GROUP } from './types.js';
import type {
  SelfSubjectAccessReviewSpec,
  SelfSubjectRulesReviewSpec,
  SubjectAccessReviewSpec,
  SubjectAccessReviewStatus,
  SubjectRulesReviewStatus,
} from '../../generated/models/authorization.k8s.io/v1.js';

/** kube's rest.Creater for a virtual resource: the object to answer a POST with (201). */
export type Creater = (obj: KubeObject, req: APIRequest) => Promise<KubeObject>;

/** The user the request runs as (set by authentication and impersonation). */
export function requestUser(req: APIRequest): UserInfo {
  const user = (req as APIRequest & { user?: UserInfo }).user;
  if (!user) throw newBadRequest('no user present on request');
  return user;
}

/** authorizationutil.ResourceAttributesFrom / NonResourceAttributesFrom. */
export function attributesFrom(user: UserInfo, spec: SelfSubjectAccessReviewSpec): AuthorizationAttributes {
  const r = spec.resourceAttributes;
  if (r) {
    return {
      user,
      verb: r.verb ?? '',
      isResourceRequest: true,
      path: '',
      namespace: r.namespace ?? '',
      apiGroup: r.group ?? '',
      apiVersion: r.version ?? '',
      resource: r.resource ?? '',
      subresource: r.subresource ?? '',
      name: r.name ?? '',
    };
  }
  const n = spec.nonResourceAttributes ?? {};
  return { user, verb: n.verb ?? '', isResourceRequest: false, path: n.path ?? '', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}

/** ValidateSelfSubjectAccessReviewSpec: exactly one of the two attribute sets. */
function validateAccessReview(obj: KubeObject): void {
  const spec = (obj.spec ?? {}) as SelfSubjectAccessReviewSpec;
  const errs = attributeErrors(spec);
  if (errs.length) throw newInvalid({ group: AUTHORIZATION_GROUP, kind: 'SelfSubjectAccessReview' }, obj.metadata?.name ?? '', toStatusCauses(errs));
}

function attributeErrors(spec: SelfSubjectAccessReviewSpec) {
  const errs = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    const n = spec.nonResourceAttributes;
    const goValue = `&authorization.NonResourceAttributes{Path:${goQuote(n.path ?? '')}, Verb:${goQuote(n.verb ?? '')}}`;
    errs.push(invalidGo('spec.nonResourceAttributes', goValue, 'cannot be specified in combination with resourceAttributes'));
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    errs.push(field.invalid('spec.resourceAttributes', null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  return errs;
}

/** The status kube's access-review REST writes from a decision. */
function statusOf(result: { decision: string; reason: string }): SubjectAccessReviewStatus {
  const status: SubjectAccessReviewStatus = { allowed: result.decision === 'Allow' };
  if (result.decision === 'Deny') status.denied = true;
  if (result.reason) status.reason = result.reason;
  return status;
}

/** The user a SubjectAccessReview spec names (authorizationutil.AuthorizationAttributesFrom). */
function specUser(spec: SubjectAccessReviewSpec): UserInfo {
  const user: UserInfo = { username: spec.user ?? '', groups: [...(spec.groups ?? [])] };
  if (spec.uid) user.uid = spec.uid;
  if (spec.extra && Object.keys(spec.extra).length) user.extra = structuredClone(spec.extra);
  return user;
}

/** ValidateSubjectAccessReviewSpec (and, for the local kind, no non-resource attributes). */
function validateSubjectAccessReview(obj: KubeObject, kind: 'SubjectAccessReview' | 'LocalSubjectAccessReview'): SubjectAccessReviewSpec {
  const spec = (obj.spec ?? {}) as SubjectAccessReviewSpec;
  const errs = attributeErrors(spec);
  if (kind === 'LocalSubjectAccessReview' && spec.nonResourceAttributes) {
    const n = spec.nonResourceAttributes;
    const goValue = `&authorization.NonResourceAttributes{Path:${goQuote(n.path ?? '')}, Verb:${goQuote(n.verb ?? '')}}`;
    errs.push(invalidGo('spec.nonResourceAttributes', goValue, 'disallowed on this kind of request'));
  }
  if (!spec.user && !spec.groups?.length) errs.push(field.invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
  if (errs.length) throw newInvalid({ group: AUTHORIZATION_GROUP, kind }, obj.metadata?.name ?? '', toStatusCauses(errs));
  return spec;
}

/** SubjectAccessReview: may any user, groups and extra do this? (`create subjectaccessreviews` in system:auth-delegator) */
export function newSubjectAccessReviewCreater(authorizer: Authorizer): Creater {
  return async (obj) => {
    const spec = validateSubjectAccessReview(obj, 'SubjectAccessReview');
    return { ...obj, status: statusOf(await authorizer.authorize(attributesFrom(specUser(spec), spec))) };
  };
}

/** LocalSubjectAccessReview: the same, for resources in the namespace the review is posted to. */
export function newLocalSubjectAccessReviewCreater(authorizer: Authorizer): Creater {
  return async (obj, req) => {
    const namespace = req.info.namespace;
    if (!namespace) throw newBadRequest(`namespace is required on this type: ${namespace}`);
    const spec = validateSubjectAccessReview(obj, 'LocalSubjectAccessReview');
    const objNamespace = obj.metadata?.namespace;
    if (objNamespace && objNamespace !== namespace) throw newBadRequest(`namespace of request does not match the namespace of the object: ${namespace}`);
    const attrs = spec.resourceAttributes!;
    // An empty spec namespace is defaulted to the request's, as the API documents.
    if (!attrs.namespace) attrs.namespace = namespace;
    else if (attrs.namespace !== namespace) throw newBadRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`);
    const answer = { ...obj, metadata: { ...obj.metadata, namespace } };
    return { ...answer, status: statusOf(await authorizer.authorize(attributesFrom(specUser(spec), spec))) };
  };
}

export function newSelfSubjectAccessReviewCreater(authorizer: Authorizer): Creater {
  return async (obj, req) => {
    validateAccessReview(obj);
    const user = requestUser(req);
    const result = await authorizer.authorize(attributesFrom(user, obj.spec as SelfSubjectAccessReviewSpec));
    return { ...obj, status: statusOf(result) };
  };
}

export function newSelfSubjectRulesReviewCreater(authorizer: RBACAuthorizer): Creater {
  return async (obj, req) => {
    const user = requestUser(req);
    const namespace = (obj.spec as SelfSubjectRulesReviewSpec | undefined)?.namespace ?? '';
    if (!namespace) throw newBadRequest('no namespace on request');
    const rules = authorizer.rulesFor(user, namespace);
    const status: SubjectRulesReviewStatus = { resourceRules: rules.resourceRules, nonResourceRules: rules.nonResourceRules, incomplete: rules.incomplete };
    if (rules.evaluationError) status.evaluationError = rules.evaluationError;
    // As kube: a fresh object carrying only the status.
    return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: {}, spec: {}, status };
  };
}
