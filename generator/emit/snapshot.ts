/**
 * `api-snapshot.json`: the checked model as it bears on compatibility, written into generated/ so
 * that a later `kgen diff` or `kgen generate --check --against <ref>` has a baseline to compare
 * with (generator/evolve). It holds every group, version, kind and named type without source
 * locations, descriptions, examples or acceptance markers, so edits that cannot break a client
 * (comments, moving code) leave it unchanged. Deterministic: the model is sorted and the keys are
 * written in the model's order.
 */
import type { ApiModel } from '../model.js';
import { jsonFile, type EmittedFile } from './emitted.js';

export const SNAPSHOT_FILE = 'api-snapshot.json';
/** Bumped when the snapshot's shape changes incompatibly. */
export const SNAPSHOT_VERSION = 1;

const DROPPED = new Set(['loc', 'description', 'example', 'allowBreakingChange']);

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (DROPPED.has(key) || v === undefined) continue;
    // Kinds keep only whether they are unserved or deprecated, not where the marker was.
    out[key] = key === 'unserved' || key === 'virtual' || (key === 'status' && typeof v === 'object' && v && 'line' in v) ? true : strip(v);
  }
  return out;
}

export function emitSnapshot(model: ApiModel): EmittedFile[] {
  return [jsonFile(SNAPSHOT_FILE, { snapshotVersion: SNAPSHOT_VERSION, groups: strip(model.groups) })];
}
