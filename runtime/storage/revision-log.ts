/**
 * RevisionLog: the primitive both embedded backends implement, modelled on kine's log table.
 * Every write appends one row (revision, key, value, created/deleted, prevRevision); a key's state
 * at revision R is its newest row at or below R, absent when that row is a deletion. LogStorage
 * builds the Storage semantics (preconditions, retries, paging, watch) on top of it.
 *
 * Every method is synchronous and atomic: because nothing awaits between a commit and its
 * publication to watchers, a watch that reads catch-up rows and registers for live ones in the
 * same tick can neither miss nor repeat a change. Reads only ever see committed rows.
 */

export interface LogRow {
  revision: number;
  key: string;
  /** Stored JSON (without resourceVersion). On a deletion row, the key's last state. */
  value: string;
  /** The row created the key (it was absent, or its previous row was a deletion). */
  created: boolean;
  deleted: boolean;
  /** Revision of the key's previous row, 0 if none. */
  prevRevision: number;
}

/** A row as a watch sees it: modifications also carry the previous value. */
export interface LogChange extends LogRow {
  /** The value at prevRevision; set when the row neither created the key nor deleted it. */
  prevValue?: string;
}

/** One live key in a range read. */
export interface LogEntry {
  key: string;
  /** The key's mod revision at the read revision. */
  revision: number;
  value: string;
}

export type LogWrite = { key: string; value: string; deleted: boolean };

/** One append of a group commit: append()'s arguments. */
export interface AppendRequest {
  write: LogWrite;
  expectedRevision: number;
}

/** A request's outcome in appendBatch: its change, undefined when the key moved on, or its own failure. */
export type AppendOutcome = LogChange | undefined | AppendFailure;

export interface AppendFailure {
  error: unknown;
}

export function isAppendFailure(outcome: AppendOutcome): outcome is AppendFailure {
  return outcome !== undefined && 'error' in outcome;
}

/** A key range [start, end) in plain string order. */
export interface KeyRange {
  start: string;
  end: string;
}

export interface RevisionLog {
  /** The newest revision ever assigned; starts at 1 for an empty log, as etcd's does. */
  currentRevision(): number;
  /** The revision compact() was last called with (0 if never). */
  compactedRevision(): number;
  /** The key's newest row (possibly a deletion), or undefined if it has none. */
  latest(key: string): LogRow | undefined;
  /**
   * Appends `write` as the next revision if the key's newest row is still `expectedRevision`
   * (0: the key has no row). Returns the appended change, or undefined if the key moved on.
   * On a deletion, `value` must be the key's last state.
   */
  append(write: LogWrite, expectedRevision: number): LogChange | undefined;
  /**
   * Group commit (optional; logs whose commit is expensive, i.e. durable, have it): append()
   * of every request in order, in one transaction with one durable commit. Returns one outcome
   * per request: what append() would have returned, or the error that failed that request alone
   * (nothing of it was applied). Throws when the transaction fails as a whole (the commit, or an
   * error that aborted the transaction): then none of the requests was applied.
   */
  appendBatch?(requests: readonly AppendRequest[]): AppendOutcome[];
  /** Up to `limit` live keys in `range` as of `revision`, in key order (limit 0: no limit). */
  range(range: KeyRange, revision: number, limit: number): LogEntry[];
  /** The number of live keys in `range` as of `revision`. */
  count(range: KeyRange, revision: number): number;
  /** Every row in `range` with a revision above `after`, in revision order. */
  changes(range: KeyRange, after: number): LogChange[];
  /**
   * Drops rows superseded at or below `revision` and deletions at or below it; reads at
   * `revision` and later stay exact. Records `revision` as the compacted revision.
   */
  compact(revision: number): void;
  /** Throws when the log is not usable. */
  check(): void;
  close(): void;
}

/** The range of keys under a prefix ending in '/', or of exactly one key otherwise. */
export function keyRangeOf(prefixOrKey: string): KeyRange {
  if (!prefixOrKey.endsWith('/')) return { start: prefixOrKey, end: `${prefixOrKey}\u0000` };
  return { start: prefixOrKey, end: prefixEnd(prefixOrKey) };
}

/** The smallest string greater than every string starting with prefix (prefix is non-empty). */
export function prefixEnd(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}
