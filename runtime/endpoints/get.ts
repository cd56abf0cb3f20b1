/** GET of one object and of lists (kube's handlers/get.go), with Table/metadata transformation. */
import type { APIRequest, APIResponse, RequestScope } from './handler.js';
import { negotiateOutput } from './negotiation.js';
import { parseListQuery } from './queryparams.js';
import { namespaceFor } from './requestscope.js';
import { objectResponse } from './responsewriters.js';
import { parseIncludeObject } from './tableconvertor.js';
import { transformList, transformObject } from './transform.js';
import { watchResource } from './watch.js';

export async function getResource(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: true, list: false });
  const includeObject = parseIncludeObject(req.query.get('includeObject'));
  const obj = await scope.store.get(namespaceFor(scope, req.info), req.info.name);
  return objectResponse(200, transformObject(scope.definition, obj, target, { includeObject }), target.format);
}

export async function listResource(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const query = parseListQuery(req.query, scope.definition.selectableFields ?? []);
  if (query.watch || req.info.verb === 'watch') return watchResource(scope, req, query);
  const target = negotiateOutput(req.headers.accept, { transform: true, list: true });
  const includeObject = parseIncludeObject(req.query.get('includeObject'));
  const list = await scope.store.list(namespaceFor(scope, req.info), query);
  return objectResponse(200, transformList(scope.definition, list, target, { includeObject }), target.format);
}
