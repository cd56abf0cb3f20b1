/**
 * PUT: replace an object or its status (kube's handlers/update.go). No create-on-update. The
 * writer is recorded in managedFields as an Update by the request's field manager.
 */
import { RequestAdmission, operationOptions } from './admission.js';
import type { KubeObject } from '../api/meta.js';
import type { Store } from '../registry/store.js';
import { fieldManagerOf, updateManager } from './fieldmanager/index.js';
import { requestWarnings, type APIRequest, type APIResponse, type RequestScope } from './handler.js';
import { bodyProblems, checkUnknownFields, deprecatedFieldWarnings } from './fieldvalidation.js';
import { negotiateOutput } from './negotiation.js';
import { parseDryRun, parseFieldValidation } from './queryparams.js';
import { checkName, checkObjectNamespace, decodeTarget, namespaceFor, servesProtobuf } from './requestscope.js';
import { objectResponse } from './responsewriters.js';
import { decodeObjectBody } from './decodemeta.js';
import { clearManagedFields, retryWithoutManagedFields } from './toolarge.js';

export async function updateResource(scope: RequestScope, req: APIRequest, store: Store = scope.store): Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: false, list: false, protobuf: servesProtobuf(scope, req.headers.accept) });
  const dryRun = parseDryRun(req.query, 'UpdateOptions');
  const directive = parseFieldValidation(req.query, 'UpdateOptions');
  const manager = updateManager(req.query, req.headers, 'UpdateOptions');
  const fm = fieldManagerOf(scope);
  const subresource = req.info.subresource === 'status' ? 'status' : '';
  const namespace = namespaceFor(scope, req.info);
  const { obj, body } = decodeObjectBody(scope, req, directive);
  const warnings = requestWarnings(req);
  warnings.push(...deprecatedFieldWarnings(obj, fm.structure));
  checkUnknownFields(obj, decodeTarget(scope), directive, warnings, bodyProblems(body));
  checkName(obj, req.info.name);
  checkObjectNamespace(scope, obj, namespace);
  scope.validator.applyDefaults(obj);
  const admission = new RequestAdmission(scope, req, { subresource: req.info.subresource, dryRun });
  const options = operationOptions('UpdateOptions', req.query);
  // Mutating admission runs on every attempt of the update, with the current object as old. Each
  // attempt records the update into its own copy of the body: a fresh object. After a too-large
  // refusal (toolarge.ts), as kube's shouldUpdateManagedFields = false: the body without
  // managedFields, and no field manager.
  const write = (withoutManagedFields: boolean) => {
    const updatedObject = async (current: KubeObject) => {
      const copy = structuredClone(obj);
      const recorded = withoutManagedFields ? clearManagedFields(copy) : fm.update(current, copy, manager, subresource);
      return (await admission.mutate('UPDATE', recorded, current, options))!;
    };
    return store.update(namespace, req.info.name, { updatedObject, fresh: true }, {
      dryRun,
      warnings: admission.warnings,
      updateValidation: (o, old) => admission.validate('UPDATE', o, old, options),
    });
  };
  const updated = await retryWithoutManagedFields(write);
  return objectResponse(200, updated, target.format, warnings);
}
