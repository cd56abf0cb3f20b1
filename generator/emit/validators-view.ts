/**
 * Which kinds get a client validator (emit/validators.ts), shared with the client emitter that
 * re-exports them: the served, stored kinds of the user's groups. Kinds of kgen's built-in groups
 * are left out: the server validates those with their own strategies, not the custom-resource one
 * the validators reproduce.
 */
import type { ApiVersion, Kind } from '../model.js';
import { isProtectedGroup } from '../names.js';

/** kube's own groups (core, *.k8s.io, *.kubernetes.io, apps, …): one list, runtime/api/kube-groups.ts. */
export const isBuiltinGroup = (group: string) => isProtectedGroup(group);

export function validatedKinds(version: ApiVersion): Kind[] {
  return isBuiltinGroup(version.group) ? [] : version.kinds.filter((k) => !k.unserved && !k.virtual);
}

export const hasValidators = (version: ApiVersion) => validatedKinds(version).length > 0;
