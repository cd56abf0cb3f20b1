/**
 * GET of one object and of lists (kube's handlers/get.go), with Table/metadata transformation.
 * resourceVersion on get and list follows kube's API concepts: unset is the most recent state,
 * "0" any state, N a state not older than N (resourceVersionMatch=Exact: exactly N); the storage
 * (the watch cache) serves each as such, and invalid combinations are refused first.
 */
import type { KubeObject } from '../api/meta.js';
import type { GetRequest } from '../registry/store.js';
import type { APIRequest, APIResponse, RequestScope } from './handler.js';
import { validateListOptions } from './listoptions.js';
import { negotiateOutput, type NegotiationContext, type OutputTarget } from './negotiation.js';
import { parseBool, parseListQuery } from './queryparams.js';
import { namespaceFor, servesProtobuf } from './requestscope.js';
import { objectResponse } from './responsewriters.js';
import { parseIncludeObject, type IncludeObject } from './tableconvertor.js';
import { transformList, transformObject } from './transform.js';
import { watchResource } from './watch.js';

/** What a GET of one object can answer: the object transformed or not, in protobuf or not. */
const ONE_OBJECT: NegotiationContext = { transform: true, list: false, protobuf: false };
const ONE_OBJECT_OR_PROTOBUF: NegotiationContext = { transform: true, list: false, protobuf: true };

/**
 * GET of one object: answered synchronously when the store can read the object at once (a most
 * recent read the watch cache is current for, see Store.getNow), after awaiting the store
 * otherwise. Both give the same response.
 */
export function getResource(scope: RequestScope, req: APIRequest): APIResponse | Promise<APIResponse> {
  const accept = req.headers.accept;
  const target = negotiateOutput(accept, servesProtobuf(scope, accept) ? ONE_OBJECT_OR_PROTOBUF : ONE_OBJECT);
  const includeObject = parseIncludeObject(req.query.get('includeObject'));
  const options: GetRequest = { resourceVersion: req.query.get('resourceVersion') ?? undefined };
  const namespace = namespaceFor(scope, req.info);
  const now = scope.store.getNow(namespace, req.info.name, options);
  if (now !== undefined) return objectOf(scope, now, target, includeObject);
  return scope.store.get(namespace, req.info.name, options).then((obj) => objectOf(scope, obj, target, includeObject));
}

function objectOf(scope: RequestScope, obj: KubeObject, target: OutputTarget, includeObject: IncludeObject): APIResponse {
  return objectResponse(200, target.as === 'Object' ? obj : transformObject(scope.definition, obj, target, { includeObject }), target.format);
}

export async function listResource(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const watch = req.info.verb === 'watch' || parseBool(req.query, 'watch');
  validateListOptions(req.query, watch);
  const query = parseListQuery(req.query, scope.definition.selectableFields ?? []);
  if (watch) return watchResource(scope, req, query);
  const target = negotiateOutput(req.headers.accept, { transform: true, list: true, protobuf: servesProtobuf(scope, req.headers.accept) });
  const includeObject = parseIncludeObject(req.query.get('includeObject'));
  const list = await scope.store.list(namespaceFor(scope, req.info), query);
  return objectResponse(200, transformList(scope.definition, list, target, { includeObject }), target.format);
}
