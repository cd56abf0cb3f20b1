/**
 * Routing one resource request to its handler by verb and subresource (what kube's
 * APIInstaller registers as go-restful routes), and turning every failure into a Status.
 */
import { newBadRequest, newMethodNotSupported, newNotFound, statusError } from '../api/status.js';
import { isNamespaceResource, namespaceFinalizeStore } from '../registry/namespaces.js';
import { createResource } from './create.js';
import { deleteCollection, deleteResource } from './delete.js';
import { getResource, listResource } from './get.js';
import type { APIRequest, APIResponse, Handler, RequestScope } from './handler.js';
import { patchResource } from './patch.js';
import { errorResponse } from './responsewriters.js';
import { getScale, patchScale, updateScale } from './scale.js';
import { updateResource } from './update.js';
import { createVirtual } from './virtual.js';
import { createToken } from './tokenrequest.js';
import { connectCustom, customSubresource, getCustom } from './custom.js';

/**
 * The 404s of a path no route serves (kube's NotFound handler, and the CRD handler's unknown
 * subresource): the metrics filter does not count them, as kube instruments only its routes, so
 * made-up groups, versions, resources and subresources cannot add label sets without bound.
 */
const unrouted = new WeakSet<APIResponse>();

/** Whether response is the answer to a path no route serves. */
export function isUnroutedResponse(response: APIResponse): boolean {
  return response.code === 404 && unrouted.has(response);
}

function markUnrouted(response: APIResponse): APIResponse {
  unrouted.add(response);
  return response;
}

export function notFoundResponse(): APIResponse {
  return markUnrouted(errorResponse(statusError('NotFound', 'the server could not find the requested resource', {})));
}

const mainHandlers: Record<string, Handler> = {
  get: getResource,
  list: listResource,
  watch: listResource,
  create: createResource,
  update: (scope, req) => updateResource(scope, req),
  patch: (scope, req) => patchResource(scope, req),
  delete: deleteResource,
  deletecollection: deleteCollection,
};

const statusHandlers: Record<string, Handler> = {
  get: getResource,
  update: (scope, req) => updateResource(scope, req, scope.statusStore),
  patch: (scope, req) => patchResource(scope, req, scope.statusStore),
};

const scaleHandlers: Record<string, Handler> = { get: getScale, update: updateScale, patch: patchScale };

/** `namespaces/<name>/finalize`: PUT only, as kube's FinalizeREST. */
const finalizeHandlers: Record<string, Handler> = {
  update: (scope, req) => updateResource(scope, req, namespaceFinalizeStore(scope.store)),
};

/** `serviceaccounts/<name>/token`: POST only, as kube's TokenREST. */
const tokenHandlers: Record<string, Handler> = { create: createToken };
/**
 * Custom subresources: GET for `verbs=get`; for `verbs=connect` a WebSocket upgrade, by GET or
 * POST, which request-info authorises as `create` (kube's exec: AuthorizePodWebsocketUpgradeCreatePermission).
 */
const getHandlers: Record<string, Handler> = { get: getCustom };
const connectHandlers: Record<string, Handler> = { create: connectCustom };
const getConnectHandlers: Record<string, Handler> = { get: (scope, req) => (req.upgrade ? connectCustom(scope, req) : getCustom(scope, req)), create: connectCustom };

/** A virtual kind (SelfSubjectAccessReview, …) is only created, and never stored. */
const virtualHandlers: Record<string, Handler> = { create: createVirtual };

function handlersFor(scope: RequestScope, subresource: string): Record<string, Handler> | undefined {
  if (scope.definition.virtual) return subresource === '' ? virtualHandlers : undefined;
  if (subresource === '') return mainHandlers;
  if (subresource === 'status' && scope.statusStore) return statusHandlers;
  if (subresource === 'scale' && scope.definition.subresources.scale) return scaleHandlers;
  if (subresource === 'finalize' && isNamespaceResource(scope.definition)) return finalizeHandlers;
  if (subresource === 'token' && scope.tokenRequest) return tokenHandlers;
  const custom = customSubresource(scope, subresource);
  if (custom) return custom.verbs.includes('connect') ? (custom.verbs.includes('get') ? getConnectHandlers : connectHandlers) : getHandlers;
  return undefined;
}

/**
 * kube's CRD handler answers a subresource the kind does not have as the object not being found;
 * built-in kinds have no route for it (the generic 404).
 */
function unknownSubresource(scope: RequestScope, req: APIRequest): APIResponse {
  if (scope.definition.group === '') return notFoundResponse();
  return markUnrouted(errorResponse(newNotFound({ group: scope.definition.group, resource: scope.definition.plural }, req.info.name)));
}

/** Whether the URL has the namespace the verb needs, or none where the kind has none. */
function scopeMismatch(scope: RequestScope, req: APIRequest): APIResponse | undefined {
  const { info } = req;
  const namespaced = scope.definition.scope === 'Namespaced';
  if (namespaced && !info.namespace) {
    if (info.verb === 'list' || info.verb === 'watch') return undefined;
    if (info.name) return notFoundResponse();
    return errorResponse(newMethodNotSupported({ group: scope.definition.group, resource: scope.definition.plural }, info.verb));
  }
  // /api/v1/namespaces/<name> names a namespace; any other namespace in the URL of a cluster-scoped kind is not a route.
  const selfNamespace = info.resource === 'namespaces' && info.namespace === info.parts[1];
  if (!namespaced && info.namespace && !selfNamespace) return notFoundResponse();
  return undefined;
}

function verbAllowed(scope: RequestScope, verb: string, subresource: string): boolean {
  if (subresource !== '') return true;
  const verbs = scope.definition.verbs ?? [];
  return verbs.length === 0 || verbs.includes(verb);
}

/**
 * Serves one resource request; never throws (nor rejects). The response is given synchronously
 * when the verb's handler gives it so (a GET the watch cache answers), a promise otherwise.
 */
export function serveResource(scope: RequestScope, req: APIRequest): APIResponse | Promise<APIResponse> {
  const response = serve(scope, req);
  if (response instanceof Promise) return response.then((r) => withDeprecationWarning(scope, r));
  return withDeprecationWarning(scope, response);
}

/**
 * A deprecated version's warning on every response of that version, errors included, ahead of
 * the request's other warnings (kube's CRD handler adds it before serving).
 */
function withDeprecationWarning(scope: RequestScope, response: APIResponse): APIResponse {
  const warning = scope.definition.deprecationWarning;
  if (warning === undefined) return response;
  const header = `299 - ${JSON.stringify(warning)}`;
  const existing = response.headers.Warning;
  const rest = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
  response.headers = { ...response.headers, Warning: [header, ...rest.filter((w) => w !== header)] };
  return response;
}

function serve(scope: RequestScope, req: APIRequest): APIResponse | Promise<APIResponse> {
  try {
    const { verb, subresource, name } = req.info;
    const mismatch = scopeMismatch(scope, req);
    if (mismatch) return mismatch;
    const handlers = handlersFor(scope, subresource);
    if (!handlers) return unknownSubresource(scope, req);
    // ContextBasedNaming.Name: a PUT to the collection has no object to update.
    if (verb === 'update' && name === '') return errorResponse(newBadRequest('name must be provided'));
    const handler = handlers[verb];
    const misplacedName = verb === 'create' && name !== '' && subresource === '';
    if (!handler || misplacedName || !verbAllowed(scope, verb, subresource)) {
      const resource = subresource ? `${scope.definition.plural}/${subresource}` : scope.definition.plural;
      return errorResponse(newMethodNotSupported({ group: scope.definition.group, resource }, verb));
    }
    const response = handler(scope, req);
    return response instanceof Promise ? response.catch((err: unknown) => errorResponse(err, req.warnings)) : response;
  } catch (err) {
    return errorResponse(err, req.warnings);
  }
}
