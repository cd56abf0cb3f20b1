/**
 * POST: create (kube's handlers/create.go). 201 with the stored object, its creator recorded in
 * managedFields as an Update by the request's field manager (unless only that made it too large
 * to store: see toolarge.ts).
 */
import { RequestAdmission, operationOptions } from './admission.js';
import { fieldManagerOf, updateManager } from './fieldmanager/index.js';
import { requestWarnings, type APIRequest, type APIResponse, type RequestScope } from './handler.js';
import { bodyProblems, checkUnknownFields, deprecatedFieldWarnings } from './fieldvalidation.js';
import { negotiateOutput } from './negotiation.js';
import { parseDryRun, parseFieldValidation } from './queryparams.js';
import { checkObjectNamespace, decodeTarget, namespaceFor, servesProtobuf } from './requestscope.js';
import { jsonResponse, objectResponse } from './responsewriters.js';
import { decodeObjectBody } from './decodemeta.js';
import { clearManagedFields, retryWithoutManagedFields } from './toolarge.js';
import { takeCreatedAnswerJSON } from '../storage/stored-json.js';

export async function createResource(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: false, list: false, protobuf: servesProtobuf(scope, req.headers.accept) });
  const dryRun = parseDryRun(req.query, 'CreateOptions');
  const directive = parseFieldValidation(req.query, 'CreateOptions');
  const manager = updateManager(req.query, req.headers, 'CreateOptions');
  const fm = fieldManagerOf(scope);
  const namespace = namespaceFor(scope, req.info);
  const { obj, body } = decodeObjectBody(scope, req, directive);
  const warnings = requestWarnings(req);
  warnings.push(...deprecatedFieldWarnings(obj, fm.structure));
  checkUnknownFields(obj, decodeTarget(scope), directive, warnings, bodyProblems(body));
  checkObjectNamespace(scope, obj, namespace);
  // Defaulted as kube's decoder defaults custom resources, so the creator owns the defaults.
  scope.validator.applyDefaults(obj);
  // Mutating admission sees the object with its managedFields; validating admission runs in the store.
  const admission = new RequestAdmission(scope, req, { subresource: '', dryRun });
  const options = operationOptions('CreateOptions', req.query);
  const admitted = (await admission.mutate('CREATE', fm.update(undefined, obj, manager), undefined, options))!;
  // As kube's, a retry after a too-large refusal stores the same object (mutating admission does
  // not run again) without its managedFields.
  const created = await retryWithoutManagedFields((withoutManagedFields) =>
    scope.store.create(namespace, withoutManagedFields ? clearManagedFields(admitted) : admitted, {
      dryRun,
      // The decoded body (with its managedFields, as admission left it) is this request's own.
      handOver: true,
      warnings: admission.warnings,
      createValidation: (o) => admission.validate('CREATE', o, undefined, options),
    }),
  );
  // The backend's own answer, unchanged since it encoded it: its JSON is known (stored-json.ts).
  const json = target.format === 'json' ? takeCreatedAnswerJSON(created) : undefined;
  return json !== undefined ? jsonResponse(201, json, warnings) : objectResponse(201, created, target.format, warnings);
}
