/**
 * `api-snapshot.json`: the checked model as it bears on compatibility, written into generated/ so
 * that a later `kgen diff` or `kgen generate --check --against <ref>` has a baseline to compare
 * with (generator/evolve). It holds every group, version, kind and named type without source
 * locations, descriptions, examples or acceptance markers, so edits that cannot break a client
 * (comments, moving code) leave it unchanged. Deterministic: the model is sorted and the keys are
 * written in the model's order.
 */
import type { ApiModel } from '../model.js';
import type { EmittedFile } from './emitted.js';

export const SNAPSHOT_FILE = 'api-snapshot.json';
/** Bumped when the snapshot's shape changes incompatibly. */
export const SNAPSHOT_VERSION = 1;

const DROPPED = new Set(['loc', 'description', 'example', 'allowBreakingChange']);

/**
 * What the snapshot keeps of one member, as a JSON.stringify replacer: the model is printed in one
 * pass, without a stripped copy of it first (the snapshot is a few MB for 100 kinds).
 */
function keep(key: string, v: unknown): unknown {
  if (DROPPED.has(key)) return undefined;
  // Kinds keep only whether they are unserved or deprecated, not where the marker was.
  if (key === 'unserved' || key === 'virtual') return v === undefined ? undefined : true;
  if (key === 'status' && typeof v === 'object' && v && 'line' in v) return true;
  return v;
}

export function emitSnapshot(model: ApiModel): EmittedFile[] {
  return [{ path: SNAPSHOT_FILE, content: JSON.stringify({ snapshotVersion: SNAPSHOT_VERSION, groups: model.groups }, keep, 2) + '\n' }];
}
