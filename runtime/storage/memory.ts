/**
 * MemoryStorage: the full Storage contract held in process memory, for tests (`memory:`).
 * MemoryLog keeps the same log SqliteLog keeps on disk (every row, per-key histories, a sorted
 * key index), so reads at older revisions, watch catch-up and compaction behave identically.
 */
import type { Storage } from './interface.js';
import { LogStorage } from './log-storage.js';
import type { KeyRange, LogChange, LogEntry, LogRow, LogWrite, RevisionLog } from './revision-log.js';

export class MemoryStorage extends LogStorage implements Storage {
  constructor() {
    super(new MemoryLog());
  }
}

export class MemoryLog implements RevisionLog {
  /** Every retained row, in revision order. */
  private rows: LogChange[] = [];
  /** Each key's retained rows, in revision order. */
  private histories = new Map<string, LogChange[]>();
  /** Keys with retained rows, sorted. */
  private keys: string[] = [];
  private revision = 1;
  private compacted = 0;

  currentRevision(): number {
    return this.revision;
  }

  compactedRevision(): number {
    return this.compacted;
  }

  latest(key: string): LogRow | undefined {
    const history = this.histories.get(key);
    return history?.[history.length - 1];
  }

  append(write: LogWrite, expectedRevision: number): LogChange | undefined {
    const previous = this.latest(write.key);
    if ((previous?.revision ?? 0) !== expectedRevision) return undefined;
    const created = !write.deleted && (!previous || previous.deleted);
    const change: LogChange = {
      revision: ++this.revision,
      key: write.key,
      value: write.value,
      created,
      deleted: write.deleted,
      prevRevision: previous?.revision ?? 0,
    };
    if (previous && !created && !write.deleted) change.prevValue = previous.value;
    this.rows.push(change);
    let history = this.histories.get(write.key);
    if (!history) {
      history = [];
      this.histories.set(write.key, history);
      this.keys.splice(lowerBound(this.keys, write.key), 0, write.key);
    }
    history.push(change);
    return change;
  }

  range(range: KeyRange, revision: number, limit: number): LogEntry[] {
    const out: LogEntry[] = [];
    for (let i = lowerBound(this.keys, range.start); i < this.keys.length; i++) {
      const key = this.keys[i];
      if (key >= range.end || (limit > 0 && out.length === limit)) break;
      const row = rowAt(this.histories.get(key) ?? [], revision);
      if (row && !row.deleted) out.push({ key, revision: row.revision, value: row.value });
    }
    return out;
  }

  count(range: KeyRange, revision: number): number {
    return this.range(range, revision, 0).length;
  }

  changes(range: KeyRange, after: number): LogChange[] {
    let lo = 0;
    let hi = this.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.rows[mid].revision <= after) lo = mid + 1;
      else hi = mid;
    }
    return this.rows
      .slice(lo).filter((row) => row.key >= range.start && row.key < range.end);
  }

  compact(revision: number): void {
    const dropped = new Set<LogChange>();
    for (const [key, history] of this.histories) {
      const keep = history.filter((row, i) => !isCompactedAway(row, history[i + 1], revision));
      if (keep.length === history.length) continue;
      for (const row of history) if (!keep.includes(row)) dropped.add(row);
      if (keep.length > 0) this.histories.set(key, keep);
      else this.histories.delete(key);
    }
    this.rows = this.rows.filter((row) => !dropped.has(row));
    this.keys = this.keys.filter((key) => this.histories.has(key));
    this.compacted = Math.max(this.compacted, revision);
  }

  check(): void {}

  close(): void {}
}

/** A row goes when a newer row at or below `revision` supersedes it, or it is such a deletion. */
function isCompactedAway(row: LogRow, next: LogRow | undefined, revision: number): boolean {
  if (row.revision > revision) return false;
  return row.deleted || (next !== undefined && next.revision <= revision);
}

/** The newest row at or below revision. */
function rowAt(history: LogRow[], revision: number): LogRow | undefined {
  for (let i = history.length - 1; i >= 0; i--) if (history[i].revision <= revision) return history[i];
  return undefined;
}

/** The first index whose key is >= key. */
function lowerBound(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
