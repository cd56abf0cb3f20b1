/**
 * DELETE of one object and of a collection (kube's handlers/delete.go and Store.finalizeDelete).
 * A deleted object is answered with a Success Status naming it (kube's answer for custom
 * resources; namespaces answer with the object, as kube's namespace store returns deleted
 * objects); an object kept by finalizers is answered with its marked state. The code is 200, or
 * 202 when the deprecated orphanDependents=false asked for cascading and the object stays.
 * DeleteOptions (preconditions, propagationPolicy, dryRun, gracePeriodSeconds) go to the store,
 * which applies them as kube's generic registry does.
 */
import { RequestAdmission } from './admission.js';
import type { KubeObject } from '../api/meta.js';
import { isNamespaceResource } from '../registry/namespaces.js';
import type { DeleteResult } from '../registry/store.js';
import type { APIRequest, APIResponse, RequestScope } from './handler.js';
import { parseDeleteOptions, type DeleteOptions } from './deleteoptions.js';
import { negotiateOutput } from './negotiation.js';
import { parseListQuery } from './queryparams.js';
import { namespaceFor, servesProtobuf } from './requestscope.js';
import { objectResponse } from './responsewriters.js';

export async function deleteResource(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: false, list: false, protobuf: servesProtobuf(scope, req.headers.accept) });
  const options = parseDeleteOptions(req);
  const admission = new RequestAdmission(scope, req, { subresource: '', dryRun: options.dryRun });
  const result = await scope.store.deleteObject(namespaceFor(scope, req.info), req.info.name, {
    preconditions: options.preconditions,
    dryRun: options.dryRun,
    propagationPolicy: options.propagationPolicy,
    orphanDependents: options.orphanDependents,
    gracePeriodSeconds: options.gracePeriodSeconds,
    deleteValidation: admitDelete(admission, options),
  });
  const code = !result.deleted && options.orphanDependents === false ? 202 : 200;
  return objectResponse(code, finalizeDelete(scope, result), target.format, admission.warnings);
}

/**
 * kube's AdmissionToValidateObjectDeleteFunc: mutating then validating admission of a DELETE,
 * with the object being deleted as the old object.
 */
function admitDelete(admission: RequestAdmission, options: DeleteOptions): (old: KubeObject) => Promise<void> {
  const deleteOptions: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' };
  if (options.dryRun) deleteOptions.dryRun = ['All'];
  if (options.propagationPolicy) deleteOptions.propagationPolicy = options.propagationPolicy;
  if (options.orphanDependents !== undefined) deleteOptions.orphanDependents = options.orphanDependents;
  if (options.gracePeriodSeconds !== undefined) deleteOptions.gracePeriodSeconds = options.gracePeriodSeconds;
  if (options.preconditions) deleteOptions.preconditions = options.preconditions;
  return async (old) => {
    await admission.mutate('DELETE', undefined, structuredClone(old), deleteOptions);
    await admission.validate('DELETE', undefined, old, deleteOptions);
  };
}

/** finalizeDelete: the object itself, or the Success Status kube returns for a deleted custom resource. */
function finalizeDelete(scope: RequestScope, result: DeleteResult): KubeObject | Record<string, unknown> {
  if (!result.deleted || isNamespaceResource(scope.definition)) return result.object;
  const { name, uid } = result.object.metadata;
  // kube sets details.kind to the resource, not the kind.
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name, group: scope.definition.group, kind: scope.definition.plural, uid } };
}

export async function deleteCollection(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: false, list: true, protobuf: servesProtobuf(scope, req.headers.accept) });
  const options = parseDeleteOptions(req);
  const admission = new RequestAdmission(scope, req, { subresource: '', dryRun: options.dryRun });
  const query = parseListQuery(req.query, scope.definition.selectableFields ?? []);
  const deleted = await scope.store.deleteCollection(
    namespaceFor(scope, req.info),
    { labelSelector: query.labelSelector, fieldSelector: query.fieldSelector },
    {
      dryRun: options.dryRun,
      propagationPolicy: options.propagationPolicy,
      orphanDependents: options.orphanDependents,
      gracePeriodSeconds: options.gracePeriodSeconds,
      deleteValidation: admitDelete(admission, options),
    },
  );
  return objectResponse(200, deleted, target.format, admission.warnings);
}
