/**
 * kube's capManagersManager (apimachinery managedfields/internal/capmanagers.go): after an
 * Update, at most DEFAULT_MAX_UPDATE_MANAGERS entries from updates are kept. The oldest are merged,
 * per apiVersion, into an Update entry of the manager `ancient-changes`, so a client that writes
 * under a new manager name each time cannot grow an object's managedFields without bound.
 * Appliers are not counted (nor capped), as in kube.
 */
import { managerIdentity, type Managed } from './managedfields.js';

/** kube's DefaultMaxUpdateManagers. */
export const DEFAULT_MAX_UPDATE_MANAGERS = 10;

const ANCIENT_CHANGES = 'ancient-changes';

function timeSeconds(t: string | undefined): number {
  const ms = t ? Date.parse(t) : NaN;
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** Merges the oldest update entries of managed (in place) until at most `max` remain. */
export function capUpdateManagers(managed: Managed, max = DEFAULT_MAX_UPDATE_MANAGERS): void {
  const updaters = [...managed].filter(([, e]) => e.operation === 'Update').map(([id]) => id);
  if (updaters.length <= max) return;
  const seconds = (id: string) => timeSeconds(managed.get(id)?.time);
  // Oldest first; equal seconds by identity (kube compares the identifier strings).
  updaters.sort((a, b) => seconds(a) - seconds(b) || (a < b ? -1 : a > b ? 1 : 0));
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i]!;
    const entry = managed.get(id);
    if (!entry) continue;
    const version = entry.apiVersion;
    const first = firstOfVersion.get(version);
    if (first === undefined) {
      firstOfVersion.set(version, id);
      continue;
    }
    const bucketId = managerIdentity(ANCIENT_CHANGES, 'Update', version, '');
    if (!managed.has(bucketId)) {
      // The version's first (oldest) entry becomes the bucket.
      const start = managed.get(first)!;
      managed.delete(first);
      managed.set(bucketId, { manager: ANCIENT_CHANGES, operation: 'Update', apiVersion: version, subresource: '', time: start.time, set: start.set });
    }
    const bucket = managed.get(bucketId)!;
    // The bucket takes the time of the update merged into it, the more recent one.
    managed.set(bucketId, { ...bucket, set: entry.set.union(bucket.set), time: entry.time });
    managed.delete(id);
    length--;
  }
}
