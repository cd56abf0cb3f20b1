/**
 * PATCH of an object or its status (kube's handlers/patch.go): the patch is applied to the
 * current object inside the store's update, so it always patches the latest state; a
 * resourceVersion in the patch acts as a precondition.
 */
import type { KubeObject } from '../api/meta.js';
import type { Store } from '../registry/store.js';
import type { APIRequest, APIResponse, RequestScope } from './handler.js';
import { checkUnknownFields } from './fieldvalidation.js';
import { mediaTypeOf, negotiateOutput } from './negotiation.js';
import { applyPatch, resolvePatchType } from './patchers.js';
import { parseDryRun, parseFieldValidation } from './queryparams.js';
import { checkName, checkObjectNamespace, decodeTarget, expectedKind, namespaceFor } from './requestscope.js';
import { objectResponse } from './responsewriters.js';
import { asObjectOfKind } from './serializer.js';

export async function patchResource(scope: RequestScope, req: APIRequest, store: Store = scope.store): Promise<APIResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: false, list: false });
  const patchType = resolvePatchType(mediaTypeOf(req.headers['content-type']), scope.definition.group === '');
  const dryRun = parseDryRun(req.query, 'PatchOptions');
  const directive = parseFieldValidation(req.query, 'PatchOptions');
  const warnings: string[] = [];
  const namespace = namespaceFor(scope, req.info);
  const name = req.info.name;
  const updatedObject = (current: KubeObject): KubeObject => {
    const patched = asObjectOfKind(applyPatch(current, patchType, req.body), expectedKind(scope));
    checkUnknownFields(patched, decodeTarget(scope), directive, warnings);
    checkName(patched, name);
    checkObjectNamespace(scope, patched, namespace);
    return patched;
  };
  const updated = await store.update(namespace, name, { updatedObject }, { dryRun });
  return objectResponse(200, updated, target.format, warnings);
}
