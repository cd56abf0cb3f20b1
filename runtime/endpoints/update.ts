/** PUT: replace an object or its status (kube's handlers/update.go). No create-on-update. */
import type { Store } from '../registry/store.js';
import type { APIRequest, APIResponse, RequestScope } from './handler.js';
import { checkUnknownFields } from './fieldvalidation.js';
import { negotiateOutput } from './negotiation.js';
import { parseDryRun, parseFieldValidation } from './queryparams.js';
import { checkName, checkObjectNamespace, decodeTarget, expectedKind, namespaceFor } from './requestscope.js';
import { objectResponse } from './responsewriters.js';
import { decodeObject } from './serializer.js';

export async function updateResource(scope: RequestScope, req: APIRequest, store: Store = scope.store): Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: false, list: false });
  const dryRun = parseDryRun(req.query, 'UpdateOptions');
  const directive = parseFieldValidation(req.query, 'UpdateOptions');
  const warnings: string[] = [];
  const namespace = namespaceFor(scope, req.info);
  const obj = decodeObject(req, expectedKind(scope));
  checkUnknownFields(obj, decodeTarget(scope), directive, warnings);
  checkName(obj, req.info.name);
  checkObjectNamespace(scope, obj, namespace);
  const updated = await store.update(namespace, req.info.name, { updatedObject: () => obj }, { dryRun });
  return objectResponse(200, updated, target.format, warnings);
}
