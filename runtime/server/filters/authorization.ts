/**
 * Authorization (kube's WithAuthorization): asks the authorizer about the request's attributes
 * (user plus RequestInfo); only `Allow` passes. Anything else is kube's 403, e.g.
 *
 *   widgets.example.com "w1" is forbidden: User "bob" cannot get resource "widgets" in API group
 *   "example.com" in the namespace "default"
 *
 * The decision and reason are recorded as kube's audit annotations.
 */
import type { AuthorizationAttributes, UserInfo } from '../../api/auth.js';
import { ANONYMOUS_USER, type Authorizer } from '../../api/auth.js';
import { statusError, type StatusError } from '../../api/status.js';
import type { APIResponse, RequestInfo } from '../../endpoints/handler.js';
import { errorResponse } from '../../endpoints/responsewriters.js';
import type { AuthorizationResult } from '../../api/auth.js';
import type { ChainHandler, ChainResult, Filter, RequestContext } from './types.js';

export const DECISION_ANNOTATION = 'authorization.k8s.io/decision';
export const REASON_ANNOTATION = 'authorization.k8s.io/reason';

/** kube's GetAuthorizerAttributes. */
export function authorizationAttributes(user: UserInfo, info: RequestInfo): AuthorizationAttributes {
  return {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    namespace: info.namespace,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
  };
}

/** kube's forbiddenMessage (responsewriters/errors.go). */
export function forbiddenMessage(a: AuthorizationAttributes): string {
  const user = JSON.stringify(a.user.username);
  if (!a.isResourceRequest) return `User ${user} cannot ${a.verb} path ${JSON.stringify(a.path)}`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const where = a.namespace ? `in the namespace ${JSON.stringify(a.namespace)}` : 'at the cluster scope';
  return `User ${user} cannot ${a.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(a.apiGroup)} ${where}`;
}

/**
 * kube's sanitizer (responsewriters/errors.go): "Avoid emitting errors that look like valid HTML".
 * The message quotes the path, namespace, resource and user name as the request sent them.
 */
function sanitize(message: string): string {
  return /[&<>]/.test(message) ? message.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : message;
}

/**
 * kube's responsewriters.Forbidden: apierrors.NewForbidden(group/resource, name, message[: reason]),
 * forbiddenMessage sanitized (the name and the authorizer's reason are not, as in kube).
 */
export function forbiddenError(a: AuthorizationAttributes, reason = ''): StatusError {
  const message = sanitize(forbiddenMessage(a));
  const detail = reason ? `${message}: ${reason}` : message;
  const qualified = a.apiGroup ? `${a.resource}.${a.apiGroup}` : a.resource;
  let full: string;
  if (qualified === '') full = `forbidden: ${detail}`;
  else if (a.name === '') full = `${qualified} is forbidden: ${detail}`;
  else full = `${qualified} ${JSON.stringify(a.name)} is forbidden: ${detail}`;
  const details: { name?: string; group?: string; kind?: string } = {};
  if (a.name) details.name = a.name;
  if (a.apiGroup) details.group = a.apiGroup;
  if (a.resource) details.kind = a.resource;
  return statusError('Forbidden', full, details);
}

/** kube's RespondWithError for a refusal: the Status, with `X-Content-Type-Options: nosniff`. */
export function forbiddenResponse(a: AuthorizationAttributes, reason = ''): APIResponse {
  const response = errorResponse(forbiddenError(a, reason));
  response.headers['X-Content-Type-Options'] = 'nosniff';
  return response;
}

export function withAuthorization(authorizer: Authorizer): Filter {
  const decided = (ctx: RequestContext, next: ChainHandler, attributes: AuthorizationAttributes, result: AuthorizationResult): ChainResult => {
    ctx.authorization = result;
    if (result.decision === 'Allow') {
      ctx.annotations[DECISION_ANNOTATION] = 'allow';
      ctx.annotations[REASON_ANNOTATION] = result.reason;
      return next(ctx);
    }
    ctx.annotations[DECISION_ANNOTATION] = 'forbid';
    ctx.annotations[REASON_ANNOTATION] = result.reason;
    return forbiddenResponse(attributes, result.reason);
  };
  return (next) => (ctx) => {
    const attributes = authorizationAttributes(ctx.user ?? ANONYMOUS_USER, ctx.info!);
    // An authorizer that decides at once (RBAC) answers synchronously: nothing is awaited then.
    const result = authorizer.authorize(attributes);
    return result instanceof Promise ? result.then((r) => decided(ctx, next, attributes, r)) : decided(ctx, next, attributes, result);
  };
}
