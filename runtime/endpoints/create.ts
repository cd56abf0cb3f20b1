/** POST: create (kube's handlers/create.go). 201 with the stored object. */
import type { APIRequest, APIResponse, RequestScope } from './handler.js';
import { checkUnknownFields } from './fieldvalidation.js';
import { negotiateOutput } from './negotiation.js';
import { parseDryRun, parseFieldValidation } from './queryparams.js';
import { checkObjectNamespace, decodeTarget, expectedKind, namespaceFor } from './requestscope.js';
import { objectResponse } from './responsewriters.js';
import { decodeObject } from './serializer.js';

export async function createResource(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: false, list: false });
  const dryRun = parseDryRun(req.query, 'CreateOptions');
  const directive = parseFieldValidation(req.query, 'CreateOptions');
  const warnings: string[] = [];
  const namespace = namespaceFor(scope, req.info);
  const obj = decodeObject(req, expectedKind(scope));
  checkUnknownFields(obj, decodeTarget(scope), directive, warnings);
  checkObjectNamespace(scope, obj, namespace);
  const created = await scope.store.create(namespace, obj, { dryRun });
  return objectResponse(201, created, target.format, warnings);
}
