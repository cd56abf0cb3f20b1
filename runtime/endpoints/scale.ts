/**
 * The `…/scale` subresource endpoints: GET, PUT and PATCH of an autoscaling/v1 Scale, stored
 * through the main store (so generation and validation follow the main resource's rules).
 */
import { RequestAdmission, SCALE_KIND as SCALE_GVK, operationOptions } from './admission.js';
import type { KubeObject } from '../api/meta.js';
import type { ScaleSubresource } from '../api/resource.js';
import { applyScaleToObject, scaleFromObject, validateScale, type Scale } from '../registry/scale.js';
import type { APIRequest, APIResponse, RequestScope } from './handler.js';
import { mediaTypeOf, negotiateOutput } from './negotiation.js';
import { fieldManagerOf, updateManager } from './fieldmanager/index.js';
import { applyPatch, resolvePatchType } from './patchers.js';
import { parseDryRun } from './queryparams.js';
import { checkName, namespaceFor } from './requestscope.js';
import { objectResponse } from './responsewriters.js';
import { asObjectOfKind, decodeBody } from './serializer.js';

const SCALE_KIND = { apiVersion: 'autoscaling/v1', kind: 'Scale' };

function scaleConfig(scope: RequestScope): ScaleSubresource {
  return scope.definition.subresources.scale!;
}

/** The object's Scale; its selector from the kind's own scaleSelector when it has one. */
function scaleOf(scope: RequestScope, obj: KubeObject): Scale {
  return scaleFromObject(obj, scaleConfig(scope), scope.scaleSelector);
}

/** The object after writing `scale` onto `current`, checked as kube's scaleUpdatedObjectInfo does. */
function objectFromScale(scope: RequestScope, current: KubeObject, scale: Scale, name: string, manager: string): KubeObject {
  checkName(scale, name);
  validateScale(scale);
  // The writer owns the replicas field, recorded with subresource scale.
  return fieldManagerOf(scope).update(current, applyScaleToObject(current, scale, scaleConfig(scope)), manager, 'scale');
}

export async function getScale(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: false, list: false });
  const obj = await scope.store.get(namespaceFor(scope, req.info), req.info.name);
  return objectResponse(200, scaleOf(scope, obj), target.format);
}

/**
 * Admission of a scale write sees autoscaling/v1 Scale objects (kube's scale subresource):
 * mutating admission changes the Scale before it is written onto the object; validating
 * admission sees the Scale of the updated and of the current object.
 */
function scaleAdmission(scope: RequestScope, req: APIRequest, dryRun: boolean) {
  const admission = new RequestAdmission(scope, req, { subresource: 'scale', dryRun, kind: SCALE_GVK });
  const options = operationOptions('UpdateOptions', req.query);
  return {
    admission,
    mutate: async (scale: Scale, current: KubeObject) =>
      (await admission.mutate('UPDATE', scale, scaleOf(scope, current), options)) as Scale,
    storeOptions: {
      dryRun,
      updateValidation: (obj: KubeObject, old: KubeObject) =>
        admission.validate('UPDATE', scaleOf(scope, obj), scaleOf(scope, old), options),
    },
  };
}

export async function updateScale(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: false, list: false });
  const dryRun = parseDryRun(req.query, 'UpdateOptions');
  const scale = asObjectOfKind(decodeBody(req), SCALE_KIND) as Scale;
  const manager = updateManager(req.query, req.headers, 'UpdateOptions');
  const name = req.info.name;
  const admit = scaleAdmission(scope, req, dryRun);
  const updated = await scope.store.update(
    namespaceFor(scope, req.info),
    name,
    { updatedObject: async (current) => objectFromScale(scope, current, await admit.mutate(structuredClone(scale), current), name, manager) },
    admit.storeOptions,
  );
  return objectResponse(200, scaleOf(scope, updated), target.format, admit.admission.warnings);
}

export async function patchScale(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: false, list: false });
  // Scale is a built-in type, so strategic merge patch is accepted as for core kinds.
  const patchType = resolvePatchType(mediaTypeOf(req.headers['content-type']), true, false);
  const manager = updateManager(req.query, req.headers, 'PatchOptions');
  const dryRun = parseDryRun(req.query, 'PatchOptions');
  const name = req.info.name;
  const admit = scaleAdmission(scope, req, dryRun);
  const updatedObject = async (current: KubeObject): Promise<KubeObject> => {
    const currentScale = scaleOf(scope, current);
    const patched = asObjectOfKind(applyPatch(currentScale, patchType, req.body), SCALE_KIND) as Scale;
    return objectFromScale(scope, current, await admit.mutate(patched, current), name, manager);
  };
  const updated = await scope.store.update(namespaceFor(scope, req.info), name, { updatedObject }, admit.storeOptions);
  return objectResponse(200, scaleOf(scope, updated), target.format, admit.admission.warnings);
}
