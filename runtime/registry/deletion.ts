/**
 * The rules of deletion the generic store applies, as k8s.io/apiserver's registry does them:
 * finalizers and deletionTimestamp (store.go updateForGracefulDeletionAndFinalizers, markAsDeleting,
 * ShouldDeleteDuringUpdate), the garbage collector's finalizers (deletionFinalizersForGarbageCollection)
 * and the delete preconditions (rest.BeforeDelete). Pure functions over objects; the store sequences them.
 */
import type { KubeObject, ObjectMeta } from '../api/meta.js';
import { newConflict } from '../api/status.js';
import type { Preconditions } from '../storage/interface.js';
import { field, type FieldError } from '../validation/index.js';
import { goQuote } from '../validation/gofmt.js';

/** metav1.FinalizerOrphanDependents: the GC removes the owner from its dependents, then this finalizer. */
export const FINALIZER_ORPHAN = 'orphan';
/** metav1.FinalizerDeleteDependents: the GC deletes the dependents (foreground), then this finalizer. */
export const FINALIZER_FOREGROUND = 'foregroundDeletion';

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

/** The garbage-collection part of metav1.DeleteOptions. */
export interface PropagationOptions {
  propagationPolicy?: PropagationPolicy;
  /** Deprecated metav1.DeleteOptions.orphanDependents; exclusive with propagationPolicy. */
  orphanDependents?: boolean;
}

/**
 * What a kind adds to the generic delete path. Kube's namespace REST wraps the store this way:
 * its first DELETE only marks the namespace, and it goes once its spec finalizers are empty.
 */
export interface DeletionHooks {
  /** When set, the first DELETE sets deletionTimestamp and calls this (e.g. phase Terminating). */
  markForDeletion?(obj: KubeObject): void;
  /** False while kind-specific finalizers (a namespace's spec.finalizers) remain. */
  isFinalized?(obj: KubeObject): boolean;
}

export function finalizersOf(obj: KubeObject): string[] {
  return Array.isArray(obj.metadata?.finalizers) ? obj.metadata.finalizers : [];
}

export function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return finalizersOf(obj).includes(finalizer);
}

export function isBeingDeleted(obj: KubeObject): boolean {
  return !!obj.metadata?.deletionTimestamp;
}

/** The GC's "deletingDependents": foreground deletion in progress. */
export function isDeletingDependents(obj: KubeObject): boolean {
  return isBeingDeleted(obj) && hasFinalizer(obj, FINALIZER_FOREGROUND);
}

/** shouldOrphanDependents: an explicit option wins, then the object's finalizers; the default is not to orphan. */
export function shouldOrphanDependents(meta: ObjectMeta, opts: PropagationOptions): boolean {
  if (opts.orphanDependents !== undefined) return opts.orphanDependents;
  if (opts.propagationPolicy) return opts.propagationPolicy === 'Orphan';
  for (const f of meta.finalizers ?? []) {
    if (f === FINALIZER_ORPHAN) return true;
    if (f === FINALIZER_FOREGROUND) return false;
  }
  return false;
}

/** shouldDeleteDependents: foreground only when asked for, or already chosen by a finalizer. */
export function shouldDeleteDependents(meta: ObjectMeta, opts: PropagationOptions): boolean {
  if (opts.orphanDependents !== undefined) return false;
  if (opts.propagationPolicy) return opts.propagationPolicy === 'Foreground';
  for (const f of meta.finalizers ?? []) {
    if (f === FINALIZER_FOREGROUND) return true;
    if (f === FINALIZER_ORPHAN) return false;
  }
  return false;
}

/**
 * deletionFinalizersForGarbageCollection: the finalizers the object should carry for the policy,
 * or undefined when they already are right (as a set).
 */
export function deletionFinalizersForGarbageCollection(meta: ObjectMeta, opts: PropagationOptions): string[] | undefined {
  const current = meta.finalizers ?? [];
  const next = current.filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND);
  if (shouldOrphanDependents(meta, opts)) next.push(FINALIZER_ORPHAN);
  if (shouldDeleteDependents(meta, opts)) next.push(FINALIZER_FOREGROUND);
  const a = new Set(current);
  const b = new Set(next);
  if (a.size === b.size && [...a].every((f) => b.has(f))) return undefined;
  return next;
}

/**
 * markAsDeleting: deletionTimestamp now (never later than an existing one), grace period 0, and a
 * generation bump on the first mark, as kube does for kinds without graceful deletion.
 */
export function markAsDeleting(meta: ObjectMeta, now: Date = new Date()): void {
  if (!meta.deletionTimestamp && (meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
  // metav1.Time's RFC 3339 at second precision (objectmeta.ts's nowRFC3339; not imported, as objectmeta.ts imports this module).
  const stamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (!meta.deletionTimestamp || Date.parse(meta.deletionTimestamp) > now.getTime()) meta.deletionTimestamp = stamp;
  meta.deletionGracePeriodSeconds = 0;
}

/**
 * ShouldDeleteDuringUpdate: an update that leaves no finalizers on an object being deleted (with no
 * grace period left) deletes it; `hooks.isFinalized` adds a kind's own condition.
 */
export function shouldDeleteDuringUpdate(updated: KubeObject, existing: KubeObject, hooks: DeletionHooks = {}): boolean {
  if (finalizersOf(updated).length > 0) return false;
  if (!existing.metadata.deletionTimestamp) return false;
  const grace = existing.metadata.deletionGracePeriodSeconds;
  if (grace !== undefined && grace !== 0) return false;
  return hooks.isFinalized?.(updated) ?? true;
}

/** ValidateNoNewFinalizers: once deletion started, finalizers may only be removed. */
export function validateNoNewFinalizers(meta: ObjectMeta, old: ObjectMeta): FieldError[] {
  if (!old.deletionTimestamp) return [];
  const before = new Set(old.finalizers ?? []);
  const added = [...new Set((meta.finalizers ?? []).filter((f) => !before.has(f)))].sort();
  if (added.length === 0) return [];
  const goList = `[]string{${added.map(goQuote).join(', ')}}`;
  return [field.forbidden('metadata.finalizers', `no new finalizers can be added if the object is being deleted, found new finalizers ${goList}`)];
}

/**
 * rest.BeforeDelete's early precondition check, with its messages. The conflict names the kind, as
 * kube's does (`Operation cannot be fulfilled on Widget.widgets.example.com "w": …`).
 */
export function checkDeletePreconditions(obj: KubeObject, pre: Preconditions | undefined, groupKind: { group: string; kind: string }): void {
  if (!pre) return;
  const meta = obj.metadata;
  const qr = { group: groupKind.group, resource: groupKind.kind };
  const name = meta.name ?? '';
  if (pre.uid !== undefined && pre.uid !== (meta.uid ?? '')) {
    throw newConflict(
      qr,
      name,
      `the UID in the precondition (${pre.uid}) does not match the UID in record (${meta.uid ?? ''}). The object might have been deleted and then recreated`,
    );
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== (meta.resourceVersion ?? '')) {
    throw newConflict(
      qr,
      name,
      `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${meta.resourceVersion ?? ''}). The object might have been modified`,
    );
  }
}

/** Thrown inside an update's compare-and-swap when the update empties the finalizers of a deleting object. */
export class EmptiedFinalizers extends Error {
  constructor(readonly object: KubeObject) {
    super('emptied finalizers');
  }
}

/** Thrown inside the delete-marking update when no finalizer remains: delete now. */
export class DeleteNow extends Error {
  constructor() {
    super('delete now');
  }
}
