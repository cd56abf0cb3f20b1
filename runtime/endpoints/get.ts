/**
 * GET of one object and of lists (kube's handlers/get.go), with Table/metadata transformation.
 * resourceVersion on get and list follows kube's API concepts: unset is the most recent state,
 * "0" any state, N a state not older than N (resourceVersionMatch=Exact: exactly N); the storage
 * (the watch cache) serves each as such, and invalid combinations are refused first.
 */
import type { KubeObject } from '../api/meta.js';
import type { APIRequest, APIResponse, RequestScope } from './handler.js';
import { validateListOptions } from './listoptions.js';
import { negotiateOutput } from './negotiation.js';
import { parseBool, parseListQuery } from './queryparams.js';
import { namespaceFor, servesProtobuf } from './requestscope.js';
import { objectResponse } from './responsewriters.js';
import { parseIncludeObject } from './tableconvertor.js';
import { transformList, transformObject } from './transform.js';
import { watchResource } from './watch.js';

/**
 * GET of one object: answered synchronously when the store can read the object at once (a most
 * recent read the watch cache is current for, see Store.getNow), after awaiting the store
 * otherwise. Both give the same response.
 */
export function getResource(scope: RequestScope, req: APIRequest): APIResponse | Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: true, list: false, protobuf: servesProtobuf(scope, req.headers.accept) });
  const includeObject = parseIncludeObject(req.query.get('includeObject'));
  const resourceVersion = req.query.get('resourceVersion') ?? undefined;
  const namespace = namespaceFor(scope, req.info);
  const respond = (obj: KubeObject) => objectResponse(200, transformObject(scope.definition, obj, target, { includeObject }), target.format);
  const now = scope.store.getNow(namespace, req.info.name, { resourceVersion });
  if (now !== undefined) return respond(now);
  return scope.store.get(namespace, req.info.name, { resourceVersion }).then(respond);
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
