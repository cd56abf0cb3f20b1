/**
 * The `…/scale` subresource endpoints: GET, PUT and PATCH of an autoscaling/v1 Scale, stored
 * through the main store (so generation and validation follow the main resource's rules).
 */
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
  return objectResponse(200, scaleFromObject(obj, scaleConfig(scope)), target.format);
}

export async function updateScale(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: false, list: false });
  const dryRun = parseDryRun(req.query, 'UpdateOptions');
  const scale = asObjectOfKind(decodeBody(req), SCALE_KIND) as Scale;
  const manager = updateManager(req.query, req.headers, 'UpdateOptions');
  const name = req.info.name;
  const updated = await scope.store.update(
    namespaceFor(scope, req.info),
    name,
    { updatedObject: (current) => objectFromScale(scope, current, scale, name, manager) },
    { dryRun },
  );
  return objectResponse(200, scaleFromObject(updated, scaleConfig(scope)), target.format);
}

export async function patchScale(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: false, list: false });
  // Scale is a built-in type, so strategic merge patch is accepted as for core kinds.
  const patchType = resolvePatchType(mediaTypeOf(req.headers['content-type']), true, false);
  const manager = updateManager(req.query, req.headers, 'PatchOptions');
  const dryRun = parseDryRun(req.query, 'PatchOptions');
  const name = req.info.name;
  const updatedObject = (current: KubeObject): KubeObject => {
    const currentScale = scaleFromObject(current, scaleConfig(scope));
    const patched = asObjectOfKind(applyPatch(currentScale, patchType, req.body), SCALE_KIND) as Scale;
    return objectFromScale(scope, current, patched, name, manager);
  };
  const updated = await scope.store.update(namespaceFor(scope, req.info), name, { updatedObject }, { dryRun });
  return objectResponse(200, scaleFromObject(updated, scaleConfig(scope)), target.format);
}
