/**
 * Owner reference helpers (controller-runtime's controllerutil): an object a controller makes
 * names its owner with `controller: true` and `blockOwnerDeletion: true`, so the garbage collector
 * deletes it with the owner and the controller can map it back to its owner's key.
 */
import type { APIObject, OwnerReference } from '../../../../runtime/api/meta.js';

export type { OwnerReference };

/** The reference to owner an owned object carries. */
export function ownerReference(owner: APIObject, opts: { controller?: boolean; blockOwnerDeletion?: boolean } = { controller: true, blockOwnerDeletion: true }): OwnerReference {
  const { name, uid } = owner.metadata ?? {};
  if (!owner.apiVersion || !owner.kind || !name || !uid) throw new Error('owner must have apiVersion, kind, metadata.name and metadata.uid');
  return { apiVersion: owner.apiVersion, kind: owner.kind, name, uid, ...opts };
}

/** The reference of obj's managing controller, if any. */
export function getControllerOf(obj: APIObject): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}

export function isControlledBy(obj: APIObject, owner: APIObject): boolean {
  return getControllerOf(obj)?.uid === owner.metadata?.uid;
}

/**
 * Makes owner obj's controller (in place): replaces a reference to the same owner, refuses an
 * object another controller already manages (controllerutil.SetControllerReference).
 */
export function setControllerReference(owner: APIObject, obj: APIObject): void {
  const ref = ownerReference(owner);
  const existing = getControllerOf(obj);
  if (existing && existing.uid !== ref.uid) {
    throw new Error(`Object ${obj.metadata?.namespace}/${obj.metadata?.name} is already owned by another ${existing.kind} controller ${existing.name}`);
  }
  const metadata = (obj.metadata ??= {});
  metadata.ownerReferences = [...(metadata.ownerReferences ?? []).filter((r) => r.uid !== ref.uid), ref];
}
