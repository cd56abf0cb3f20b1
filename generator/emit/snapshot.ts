/**
 * `api-snapshot.json`: the checked model as it bears on compatibility, written into generated/ so
 * that a later `kgen diff` or `kgen generate --check --against <ref>` has a baseline to compare
 * with (generator/evolve). It holds every group, version, kind and named type without source
 * locations, descriptions, examples or acceptance markers, so edits that cannot break a client
 * (comments, moving code) leave it unchanged. Deterministic: the model is sorted and the keys are
 * written in the model's order.
 */
import type { ApiModel, ApiVersion } from '../model.js';
import { partsFile, type EmittedFile } from './emitted.js';

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

/**
 * Printed as parts: each version's text is kept per version object (a `--watch` session reuses the
 * version objects of the groups it did not parse again), so a regeneration prints only the changed
 * versions, and the writer compares and writes the file without joining it. The parts joined are
 * exactly `JSON.stringify({ snapshotVersion, groups }, keep, 2)`: a nested value's lines are its own
 * JSON lines indented by its depth (JSON strings hold no raw newline), and an array of n items is
 * `[`, the items each on a line of their own, `]`.
 */
export function emitSnapshot(model: ApiModel): EmittedFile[] {
  const parts: string[] = [];
  const [head, tail] = around({ snapshotVersion: SNAPSHOT_VERSION, groups: MARK }, 0);
  parts.push(head);
  pushArray(
    parts,
    model.groups,
    1,
    (group) => {
      const [before, after] = around({ ...group, versions: MARK }, 2);
      parts.push(before);
      pushArray(parts, group.versions, 3, (v) => parts.push(versionText(v)));
      parts.push(after);
    },
  );
  parts.push(`${tail}\n`);
  return [partsFile(SNAPSHOT_FILE, parts)];
}

/** Stands for the array printed by parts; JSON.stringify prints it as `"\u0000…"`, found nowhere else. */
const MARK = '\u0000kgen-snapshot-array';
const MARK_JSON = JSON.stringify(MARK);
/** '\n' and the indentation of depth d (2 spaces a level). */
const INDENT = Array.from({ length: 6 }, (_, d) => `\n${'  '.repeat(d)}`);

/** `value` printed at depth `depth`, split where MARK stands: [before, after]. */
function around(value: object, depth: number): [string, string] {
  const text = atDepth(value, depth);
  const at = text.indexOf(MARK_JSON);
  return [text.slice(0, at), text.slice(at + MARK_JSON.length)];
}

/**
 * `value` printed as it is at depth `depth` of the document: JSON.stringify prints it inside
 * `depth` arrays, whose brackets are cut off (re-indenting a printed text line by line cost twice
 * the printing).
 */
function atDepth(value: object, depth: number): string {
  let wrapped: unknown = value;
  for (let d = 0; d < depth; d++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, keep, 2);
  return depth === 0 ? text : text.slice(WRAP_OPEN[depth]!.length, text.length - WRAP_CLOSE[depth]!.length);
}

/** What `depth` arrays around a value print before and after it. */
const WRAP_OPEN = INDENT.map((_, depth) => Array.from({ length: depth }, (_, d) => `[${INDENT[d + 1]}`).join(''));
const WRAP_CLOSE = INDENT.map((_, depth) => Array.from({ length: depth }, (_, d) => `${INDENT[depth - 1 - d]}]`).join(''));

/** An array whose opening bracket is at depth `depth`: its items at depth + 1, each pushed by `item`. */
function pushArray<T>(parts: string[], items: readonly T[], depth: number, item: (t: T) => void): void {
  if (items.length === 0) {
    parts.push('[]');
    return;
  }
  const between = `,${INDENT[depth + 1]}`;
  parts.push(`[${INDENT[depth + 1]}`);
  items.forEach((t, i) => {
    if (i > 0) parts.push(between);
    item(t);
  });
  parts.push(`${INDENT[depth]}]`);
}

const printedVersions = new WeakMap<ApiVersion, string>();

/** A version's text at depth 4 (an item of a group's versions), kept per version object. */
function versionText(version: ApiVersion): string {
  let text = printedVersions.get(version);
  if (text === undefined) {
    text = atDepth(version, 4);
    printedVersions.set(version, text);
  }
  return text;
}
