/**
 * PUT: replace an object or its status (kube's handlers/update.go). No create-on-update. The
 * writer is recorded in managedFields as an Update by the request's field manager.
 */
import type { Store } from '../registry/store.js';
import { fieldManagerOf, updateManager } from './fieldmanager/index.js';
import type { APIRequest, APIResponse, RequestScope } from './handler.js';
import { bodyProblems, checkUnknownFields, deprecatedFieldWarnings } from './fieldvalidation.js';
import { negotiateOutput } from './negotiation.js';
import { parseDryRun, parseFieldValidation } from './queryparams.js';
import { checkName, checkObjectNamespace, decodeTarget, expectedKind, namespaceFor } from './requestscope.js';
import { objectResponse } from './responsewriters.js';
import { asObjectOfKind, decodeRequestBody } from './serializer.js';

export async function updateResource(scope: RequestScope, req: APIRequest, store: Store = scope.store): Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: false, list: false });
  const dryRun = parseDryRun(req.query, 'UpdateOptions');
  const directive = parseFieldValidation(req.query, 'UpdateOptions');
  const manager = updateManager(req.query, req.headers, 'UpdateOptions');
  const fm = fieldManagerOf(scope);
  const subresource = req.info.subresource === 'status' ? 'status' : '';
  const namespace = namespaceFor(scope, req.info);
  const body = decodeRequestBody(req, directive !== 'Ignore');
  const obj = asObjectOfKind(body.value, expectedKind(scope));
  const warnings = deprecatedFieldWarnings(obj, fm.structure);
  checkUnknownFields(obj, decodeTarget(scope), directive, warnings, bodyProblems(body));
  checkName(obj, req.info.name);
  checkObjectNamespace(scope, obj, namespace);
  scope.validator.applyDefaults(obj);
  const updated = await store.update(namespace, req.info.name, { updatedObject: (current) => fm.update(current, obj, manager, subresource) }, { dryRun });
  return objectResponse(200, updated, target.format, warnings);
}
