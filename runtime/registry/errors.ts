/**
 * Maps storage errors to API Status errors, as k8s.io/apiserver/pkg/storage/errors.go
 * (InterpretGetError, InterpretCreateError, …) does for the generic store.
 */
import {
  StatusError,
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newGone,
  newInternalError,
  newNotFound,
  statusError,
  type QualifiedResource,
} from '../api/status.js';
import type { Status } from '../api/meta.js';
import { StorageError } from '../storage/interface.js';

/**
 * rest.EnsureObjectNamespaceMatchesRequestNamespace's refusal: the request's handler checks the
 * body, and the store checks again what mutating admission handed it (kube's BeforeCreate and
 * BeforeUpdate), so a webhook's patch cannot move an object to another namespace.
 */
export function newNamespaceMismatch(): StatusError {
  return newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
}

export const CONFLICT_MESSAGE = 'the object has been modified; please apply your changes to the latest version and try again';

/** The 413s that storage's RequestTooLarge became (not a request body's or a JSON patch's). */
const storedTooLarge = new WeakSet<StatusError>();

/**
 * kube's handlers' isTooLargeError: storage refused the write as too large to store. Create,
 * update and patch (not apply) then retry once with managedFields cleared.
 */
export function isTooLargeError(err: unknown): boolean {
  return err instanceof StatusError && storedTooLarge.has(err);
}

/** Returns err as a StatusError when it is a storage error; other errors are returned unchanged. */
export function interpretStorageError(err: unknown, qr: QualifiedResource, name: string): unknown {
  if (!(err instanceof StorageError)) return err;
  switch (err.code) {
    case 'KeyNotFound':
      return newNotFound(qr, name);
    case 'KeyExists':
      return newAlreadyExists(qr, name);
    case 'ResourceVersionConflicts':
      // Storage reports failed delete/update preconditions as kube words them ("Precondition failed: …").
      return newConflict(qr, name, err.message || CONFLICT_MESSAGE);
    case 'Expired': {
      const gone = newGone(err.message || 'too old resource version');
      if (err.continueToken) gone.status.metadata.continue = err.continueToken;
      return gone;
    }
    case 'TooLargeResourceVersion':
      return newTooLargeResourceVersion(err.message);
    case 'InvalidObject':
      return newBadRequest(err.message);
    case 'RequestTooLarge': {
      // kube-apiserver passes etcd's error through as a 500; a 413 says what happened.
      const tooLarge = statusError('RequestEntityTooLarge', `Request entity too large: ${err.message}`);
      storedTooLarge.add(tooLarge);
      return tooLarge;
    }
    case 'Unavailable':
      return statusError('ServiceUnavailable', err.message || 'storage is unavailable');
    default: {
      const never: never = err.code;
      return new Error(`unknown storage error code ${String(never)}`);
    }
  }
}

/**
 * kube's storage.NewTooLargeResourceVersionError: NewTimeoutError (504, `Timeout: ` before the
 * message, retry after 1 s) with the ResourceVersionTooLarge cause that client-go's
 * IsTooLargeResourceVersionError and reflectors look for. Storage words the message as kube:
 * "Too large resource version: 12, current: 10".
 */
export function newTooLargeResourceVersion(message: string): StatusError {
  return statusError('Timeout', `Timeout: ${message}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });
}

/** Rethrows any error, interpreted. Use as `.catch(rethrowFor(qr, name))`. */
export function rethrowFor(qr: QualifiedResource, name: string): (err: unknown) => never {
  return (err) => {
    throw interpretStorageError(err, qr, name);
  };
}

export function isStatusError(err: unknown): err is StatusError {
  return err instanceof StatusError;
}

/**
 * The metav1.Status for any error: StatusErrors carry theirs, storage errors are interpreted,
 * anything else is a 500 InternalError (its message only, never a stack).
 */
export function toStatus(err: unknown): Status {
  const interpreted = err instanceof StorageError ? interpretStorageError(err, { group: '', resource: '' }, '') : err;
  if (interpreted instanceof StatusError) return interpreted.status;
  const message = interpreted instanceof Error ? interpreted.message : String(interpreted);
  return newInternalError(message).status;
}
