/**
 * PATCH of an object or its status (kube's handlers/patch.go): the patch is applied to the
 * current object inside the store's update, so it always patches the latest state; a
 * resourceVersion in the patch acts as a precondition. Every patch records its field manager in
 * managedFields; server-side apply (application/apply-patch+yaml) merges through the field
 * manager and creates the object when it is absent (201).
 */
import type { KubeObject } from '../api/meta.js';
import { isAlreadyExists, isNotFound, newInvalid } from '../api/status.js';
import { RequestAdmission, operationOptions } from './admission.js';
import type { Store } from '../registry/store.js';
import { fieldManagerOf, fieldManagerParam, updateManager, type FieldManager, type Subresource } from './fieldmanager/index.js';
import { requestWarnings, type APIRequest, type APIResponse, type RequestScope } from './handler.js';
import { checkUnknownFields, deprecatedFieldWarnings, deprecatedJSONPatchWarnings } from './fieldvalidation.js';
import { mediaTypeOf, negotiateOutput, type Format } from './negotiation.js';
import { APPLY_PATCH, applyPatchValue, JSON_PATCH, MERGE_PATCH, resolvePatchType, type DocumentPatchType } from './patchers.js';
import { checkAppliedConverts, decodeApplyPatch, decodeDocumentPatch, scopeApplyTarget } from './patchbody.js';
import { jsonPatchResultLiterals } from './jsonpatch-literals.js';
import { parseBool, parseDryRun, parseFieldValidation, type FieldValidationDirective } from './queryparams.js';
import { checkCustomResourcePatchResult, checkPatchResultDecodes } from './decodemeta.js';
import { checkName, checkObjectNamespace, decodeTarget, expectedKind, namespaceFor, servesProtobuf } from './requestscope.js';
import { objectResponse } from './responsewriters.js';
import { asObjectOfKind, normalizeObjectMeta } from './serializer.js';
import { clearManagedFields, retryWithoutManagedFields } from './toolarge.js';

const PATCH_OPTIONS = 'PatchOptions';

interface PatchContext {
  scope: RequestScope;
  req: APIRequest;
  store: Store;
  namespace: string | undefined;
  name: string;
  subresource: Subresource;
  dryRun: boolean;
  directive: FieldValidationDirective;
  fm: FieldManager;
  /** The request's warnings (requestWarnings; admission.warnings is the same array). */
  warnings: string[];
  admission: RequestAdmission;
}

/** kube's ValidatePatchOptions: `force` only for apply, a field manager required for it (422). */
export function patchOptions(req: APIRequest, isApply: boolean): { manager: string; force: boolean } {
  const manager = fieldManagerParam(req.query, PATCH_OPTIONS);
  const forceGiven = req.query.get('force') !== null;
  const force = parseBool(req.query, 'force');
  const causes = [];
  if (!isApply && forceGiven) causes.push({ reason: 'FieldValueForbidden', field: 'force', message: 'Forbidden: may not be specified for non-apply patch' });
  if (isApply && manager === '') causes.push({ reason: 'FieldValueRequired', field: 'fieldManager', message: 'Required value: is required for apply patch' });
  if (causes.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: PATCH_OPTIONS }, '', causes);
  return { manager: manager || updateManager(req.query, req.headers, PATCH_OPTIONS), force };
}

export async function patchResource(scope: RequestScope, req: APIRequest, store: Store = scope.store): Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: false, list: false, protobuf: servesProtobuf(scope, req.headers.accept) });
  const patchType = resolvePatchType(mediaTypeOf(req.headers['content-type']), !scope.definition.customResource);
  const dryRun = parseDryRun(req.query, PATCH_OPTIONS);
  const ctx: PatchContext = {
    scope,
    req,
    store,
    namespace: namespaceFor(scope, req.info),
    name: req.info.name,
    subresource: req.info.subresource === 'status' ? 'status' : '',
    dryRun,
    directive: parseFieldValidation(req.query, PATCH_OPTIONS),
    fm: fieldManagerOf(scope),
    warnings: requestWarnings(req),
    admission: new RequestAdmission(scope, req, { subresource: req.info.subresource, dryRun }),
  };
  const { manager, force } = patchOptions(req, patchType === APPLY_PATCH);
  if (patchType === APPLY_PATCH) return serverSideApply(ctx, manager, force, target.format);
  const updated = await patchDocument(ctx, patchType, manager);
  return objectResponse(200, updated, target.format, ctx.warnings);
}

/** JSON, merge and strategic merge patches: patch the current object, then record the manager. */
async function patchDocument(ctx: PatchContext, patchType: DocumentPatchType, manager: string): Promise<KubeObject> {
  const { scope, fm, warnings } = ctx;
  const body = decodeDocumentPatch(ctx.req.body, patchType, ctx.directive);
  warnings.push(...(patchType === JSON_PATCH ? deprecatedJSONPatchWarnings(body.patch, fm.structure) : deprecatedFieldWarnings(body.patch, fm.structure)));
  const updatedObject = (withoutManagedFields: boolean) => async (current: KubeObject): Promise<KubeObject> => {
    const result = applyPatchValue(current, patchType, body.patch, fm.structure);
    if (scope.definition.customResource) checkCustomResourcePatchResult(result, expectedKind(scope));
    const patched = asObjectOfKind(result, expectedKind(scope));
    // kube keeps a patch's number text in the patched JSON: a merge patch's values land at their
    // own places, so its text's literals are the result's; a JSON patch's are followed through its
    // operations (only for built-in kinds, whose decode judges them, and a text that has any).
    const literals = patchType === MERGE_PATCH ? body.text : patchType === JSON_PATCH && scope.validator.decodeError !== undefined ? jsonPatchResultLiterals(current, body.patch, body.text) : undefined;
    checkPatchResultDecodes(scope.validator, patchType, body.patch, result, literals);
    checkUnknownFields(patched, decodeTarget(scope), ctx.directive, warnings, body.problems);
    scope.validator.applyDefaults(patched);
    checkName(patched, ctx.name);
    checkObjectNamespace(scope, patched, ctx.namespace);
    // Admission sees the patched object, as kube's patcher.applyAdmission.
    const admitted = (await ctx.admission.mutate('UPDATE', fm.update(current, patched, manager, ctx.subresource), current, patchOptionsFor('UPDATE', ctx)))!;
    // kube's retry after a too-large refusal (toolarge.ts) clears managedFields after admission.
    return withoutManagedFields ? clearManagedFields(admitted) : admitted;
  };
  return retryWithoutManagedFields((withoutManagedFields) =>
    ctx.store.update(ctx.namespace, ctx.name, { updatedObject: updatedObject(withoutManagedFields) }, admittedUpdate(ctx)),
  );
}

/**
 * Server-side apply: merge the applied configuration into the current object (or an empty one:
 * apply creates, 201, on the main resource), owned by manager; conflicts are 409 unless force.
 */
async function serverSideApply(ctx: PatchContext, manager: string, force: boolean, format: Format): Promise<APIResponse> {
  const { scope, fm, warnings } = ctx;
  const target = scopeApplyTarget(scope);
  const config = decodeApplyPatch(ctx.req.body, target, ctx.directive, ctx.namespace, ctx.name);
  warnings.push(...config.warnings, ...deprecatedFieldWarnings(config.object, fm.structure));
  const applied = async (current: KubeObject | undefined): Promise<KubeObject> => {
    const obj = normalizeObjectMeta(fm.apply(current, config.object, manager, { force, subresource: ctx.subresource }));
    checkAppliedConverts(obj, config.object, target, ctx.namespace, ctx.name);
    checkName(obj, ctx.name);
    checkObjectNamespace(scope, obj, ctx.namespace);
    const operation = current ? 'UPDATE' : 'CREATE';
    return (await ctx.admission.mutate(operation, obj, current, patchOptionsFor(operation, ctx)))!;
  };
  for (let attempt = 0; ; attempt++) {
    try {
      const updated = await ctx.store.update(ctx.namespace, ctx.name, { updatedObject: applied }, admittedUpdate(ctx));
      return objectResponse(200, updated, format, warnings);
    } catch (err) {
      if (!isNotFound(err) || ctx.subresource !== '' || attempt > 0) throw err;
    }
    try {
      const options = patchOptionsFor('CREATE', ctx);
      const created = await ctx.store.create(ctx.namespace, await applied(undefined), {
        dryRun: ctx.dryRun,
        warnings,
        createValidation: (o) => ctx.admission.validate('CREATE', o, undefined, options),
      });
      return objectResponse(201, created, format, warnings);
    } catch (err) {
      // Created meanwhile by someone else: apply to it instead.
      if (!isAlreadyExists(err)) throw err;
    }
  }
}


/** The options admission sees for a patch: kube's patchToUpdateOptions / patchToCreateOptions. */
function patchOptionsFor(operation: 'CREATE' | 'UPDATE', ctx: PatchContext): Record<string, unknown> {
  return operationOptions(operation === 'CREATE' ? 'CreateOptions' : 'UpdateOptions', ctx.req.query);
}

/** The store options of a patch: dry run and validating admission of the result. */
function admittedUpdate(ctx: PatchContext) {
  const options = patchOptionsFor('UPDATE', ctx);
  return { dryRun: ctx.dryRun, warnings: ctx.warnings, updateValidation: (o: KubeObject, old: KubeObject) => ctx.admission.validate('UPDATE', o, old, options) };
}
