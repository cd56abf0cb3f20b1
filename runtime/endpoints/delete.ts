/**
 * DELETE of one object (200 with the deleted object, as kube answers for custom resources) and
 * of a collection (200 with the list of deleted objects). Deletion is immediate for now;
 * propagationPolicy and gracePeriodSeconds are validated and accepted.
 */
import type { APIRequest, APIResponse, RequestScope } from './handler.js';
import { parseDeleteOptions } from './deleteoptions.js';
import { negotiateOutput } from './negotiation.js';
import { parseListQuery } from './queryparams.js';
import { namespaceFor } from './requestscope.js';
import { objectResponse } from './responsewriters.js';

export async function deleteResource(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: false, list: false });
  const options = parseDeleteOptions(req);
  const deleted = await scope.store.delete(namespaceFor(scope, req.info), req.info.name, {
    preconditions: options.preconditions,
    dryRun: options.dryRun,
  });
  return objectResponse(200, deleted, target.format);
}

export async function deleteCollection(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: false, list: true });
  const options = parseDeleteOptions(req);
  const query = parseListQuery(req.query, scope.definition.selectableFields ?? []);
  const deleted = await scope.store.deleteCollection(
    namespaceFor(scope, req.info),
    { labelSelector: query.labelSelector, fieldSelector: query.fieldSelector },
    { dryRun: options.dryRun },
  );
  return objectResponse(200, deleted, target.format);
}
