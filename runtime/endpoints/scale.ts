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
import { META_SCHEMAS } from './openapi/meta-schemas.js';
import { patchOptions } from './patch.js';
import { decodeApplyPatch, type ApplyTarget } from './patchbody.js';
import { APPLY_PATCH, applyPatch, resolvePatchType } from './patchers.js';
import { parseDryRun, parseFieldValidation } from './queryparams.js';
import { checkName, namespaceFor } from './requestscope.js';
import { objectResponse } from './responsewriters.js';
import { asObjectOfKind, decodeBody } from './serializer.js';
import { checkObjectMetaDecodes } from './decodemeta.js';
import { simpleFieldPath } from '../registry/jsonpath.js';
import { compileSchemaValidator, type SchemaValidator } from '../validation/index.js';

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
  checkObjectMetaDecodes(scale, SCALE_KIND);
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
  const patchType = resolvePatchType(mediaTypeOf(req.headers['content-type']), true);
  const dryRun = parseDryRun(req.query, 'PatchOptions');
  if (patchType === APPLY_PATCH) return applyScale(scope, req, dryRun, target.format);
  const manager = updateManager(req.query, req.headers, 'PatchOptions');
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

let scaleValidator: SchemaValidator | undefined;

/** What an applied Scale may hold: autoscaling/v1 Scale's fields. */
const SCALE_APPLY_TARGET: ApplyTarget = {
  apiVersion: SCALE_KIND.apiVersion,
  kind: SCALE_KIND.kind,
  unknownFields: (obj) => (scaleValidator ??= compileSchemaValidator(META_SCHEMAS, 'io.k8s.api.autoscaling.v1.Scale')).unknownFields(obj),
};

/**
 * The applied Scale as a configuration of the main resource: its replicas at specReplicasPath,
 * and its name and resourceVersion (a precondition, as on the main resource). Nothing else of a
 * Scale reaches the object (kube's scaleUpdatedObjectInfo copies replicas and resourceVersion).
 */
function parentConfiguration(scope: RequestScope, scale: KubeObject): KubeObject {
  const metadata: KubeObject['metadata'] = { name: scale.metadata.name ?? '' };
  if (scale.metadata.resourceVersion !== undefined) metadata.resourceVersion = scale.metadata.resourceVersion;
  const config: KubeObject = { apiVersion: scope.apiVersion, kind: scope.definition.kind, metadata };
  const replicas = (scale as Partial<Scale>).spec?.replicas;
  if (replicas === undefined) return config;
  const path = simpleFieldPath(scaleConfig(scope).specReplicasPath)!;
  let cursor: Record<string, unknown> = config;
  for (const field of path.slice(0, -1)) cursor = (cursor[field] = {}) as Record<string, unknown>;
  cursor[path[path.length - 1]!] = replicas;
  return config;
}

/**
 * Server-side apply of an autoscaling/v1 Scale (kube's ScaleHandler): the applier owns the
 * object's replicas field with subresource scale, and conflicts with any other manager of it
 * (409 unless force) at the Scale's `.spec.replicas`. A replicas field the applier no longer
 * applies, and no one else owns, goes back to the Scale's zero value, 0. The object must exist.
 */
async function applyScale(scope: RequestScope, req: APIRequest, dryRun: boolean, format: ReturnType<typeof negotiateOutput>['format']): Promise<APIResponse> {
  const { manager, force } = patchOptions(req, true);
  const namespace = namespaceFor(scope, req.info);
  const name = req.info.name;
  const config = decodeApplyPatch(req.body, SCALE_APPLY_TARGET, parseFieldValidation(req.query, 'PatchOptions'), namespace, name);
  const admit = scaleAdmission(scope, req, dryRun);
  admit.admission.warnings.push(...config.warnings);
  const updatedObject = async (current: KubeObject): Promise<KubeObject> => {
    // Inside the update, as kube's patcher: a missing object is 404 before a wrong name is 400.
    checkName({ ...config.object, metadata: { ...config.object.metadata, name: config.object.metadata.name ?? name } }, name);
    // The applied replicas as a PUT's are checked: read back from the object, one that is not an
    // integer ("3", 1.5) would become 0. null stays "not given" (the Scale's zero value).
    const replicas = (config.object as Partial<Scale>).spec?.replicas;
    if (replicas !== undefined && replicas !== null) validateScale({ ...(config.object as Scale), spec: { replicas } });
    const applied = fieldManagerOf(scope).apply(current, parentConfiguration(scope, { ...config.object, metadata: { ...config.object.metadata, name } }), manager, {
      force,
      subresource: 'scale',
    });
    const scale = await admit.mutate(scaleOf(scope, applied), current);
    checkName(scale, name);
    validateScale(scale);
    return applyScaleToObject(applied, scale, scaleConfig(scope));
  };
  const updated = await scope.store.update(namespace, name, { updatedObject }, admit.storeOptions);
  return objectResponse(200, scaleOf(scope, updated), format, admit.admission.warnings);
}
