/**
 * GroupCommit: the writes that reach a durable log in the same turn of the event loop share one
 * transaction and one fsync (group commit, as databases batch their log flushes).
 *
 * Contract:
 * - append() queues a compare-and-swap append; the queue is flushed once the current turn's
 *   I/O callbacks and microtasks ran (setImmediate), so every request parsed in that turn joins.
 *   While a flush's fsync blocks the loop, new requests queue up in the kernel and form the next
 *   group: the group grows with the cost of a commit.
 * - A write's promise settles only after the transaction holding it committed durably: resolved
 *   with its change (or undefined when its compare-and-swap lost), after every change of the
 *   group was published to watchers in revision order. Nothing is acknowledged, visible to reads
 *   or published before its commit.
 * - When the transaction fails, every write of that group (and only of that group) rejects with
 *   the error and none of them happened; later groups are unaffected. A write the log failed
 *   alone (its statement undone, the transaction intact) rejects alone.
 */
import { isAppendFailure, type AppendOutcome, type AppendRequest, type LogChange, type LogWrite } from './revision-log.js';

export type AppendBatch = (requests: readonly AppendRequest[]) => AppendOutcome[];

interface Queued extends AppendRequest {
  resolve(change: LogChange | undefined): void;
  reject(err: unknown): void;
}

export class GroupCommit {
  private queue: Queued[] = [];
  private scheduled = false;

  constructor(
    private readonly appendBatch: AppendBatch,
    private readonly publish: (change: LogChange) => void,
  ) {}

  /** Queues one append; settles once its group committed (see the file comment). */
  append(write: LogWrite, expectedRevision: number): Promise<LogChange | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ write, expectedRevision, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** The number of queued writes (for tests). */
  get pending(): number {
    return this.queue.length;
  }

  /** Commits every queued write now, as one group. */
  flush(): void {
    this.scheduled = false;
    const group = this.queue;
    if (group.length === 0) return;
    this.queue = [];
    let outcomes: AppendOutcome[];
    try {
      outcomes = this.appendBatch(group);
    } catch (err) {
      for (const q of group) q.reject(err);
      return;
    }
    for (const outcome of outcomes) if (outcome && !isAppendFailure(outcome)) this.publish(outcome);
    for (let i = 0; i < group.length; i++) {
      const outcome = outcomes[i];
      if (isAppendFailure(outcome)) group[i].reject(outcome.error);
      else group[i].resolve(outcome);
    }
  }
}
