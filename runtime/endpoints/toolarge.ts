/**
 * kube's handlers (create.go, update.go, patch.go) retry a write once when storage refused it as
 * too large to store (isTooLargeError), with managedFields cleared: they can be large and are
 * safe to drop. Server-side apply is never retried. A write still too large without them is
 * refused as before (413 in kgen, kube's 500: see registry/errors.ts).
 */
import type { KubeObject } from '../api/meta.js';
import { isTooLargeError } from '../registry/errors.js';

/** Runs write(false); if storage found it too large, write(true), which must drop managedFields. */
export async function retryWithoutManagedFields<T>(write: (withoutManagedFields: boolean) => Promise<T>): Promise<T> {
  try {
    return await write(false);
  } catch (err) {
    if (!isTooLargeError(err)) throw err;
    return write(true);
  }
}

/** kube's accessor.SetManagedFields(nil). */
export function clearManagedFields(obj: KubeObject): KubeObject {
  if (obj.metadata) delete obj.metadata.managedFields;
  return obj;
}
