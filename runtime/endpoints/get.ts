/**
 * GET of one object and of lists (kube's handlers/get.go), with Table/metadata transformation.
 * resourceVersion on get and list follows kube's API concepts: unset is the most recent state,
 * "0" any state, N a state not older than N (resourceVersionMatch=Exact: exactly N); the storage
 * (the watch cache) serves each as such, and invalid combinations are refused first.
 */
import type { APIRequest, APIResponse, RequestScope } from './handler.js';
import { validateListOptions } from './listoptions.js';
import { negotiateOutput } from './negotiation.js';
import { parseBool, parseListQuery } from './queryparams.js';
import { namespaceFor } from './requestscope.js';
import { objectResponse } from './responsewriters.js';
import { parseIncludeObject } from './tableconvertor.js';
import { transformList, transformObject } from './transform.js';
import { watchResource } from './watch.js';

export async function getResource(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: true, list: false });
  const includeObject = parseIncludeObject(req.query.get('includeObject'));
  const resourceVersion = req.query.get('resourceVersion') ?? undefined;
  const obj = await scope.store.get(namespaceFor(scope, req.info), req.info.name, { resourceVersion });
  return objectResponse(200, transformObject(scope.definition, obj, target, { includeObject }), target.format);
}

export async function listResource(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const watch = req.info.verb === 'watch' || parseBool(req.query, 'watch');
  validateListOptions(req.query, watch);
  const query = parseListQuery(req.query, scope.definition.selectableFields ?? []);
  if (watch) return watchResource(scope, req, query);
  const target = negotiateOutput(req.headers.accept, { transform: true, list: true });
  const includeObject = parseIncludeObject(req.query.get('includeObject'));
  const list = await scope.store.list(namespaceFor(scope, req.info), query);
  return objectResponse(200, transformList(scope.definition, list, target, { includeObject }), target.format);
}
