/**
 * The log backend (k8s.io/apiserver/plugin/pkg/audit/log): one audit.k8s.io/v1 Event per line of
 * JSON, appended to a file (`-` is stdout).
 *
 * Request handling never waits for the disk. processEvents serialises the event at once and
 * queues the line; a single writer appends queued lines in order, several per write, always
 * whole lines. The queue is bounded (by events and by bytes), as kube's buffered backend is:
 * when the disk cannot keep up, new events are dropped and counted in `dropped` (a warning
 * names the count, never an event's content), instead of blocking requests or growing memory.
 * The file is opened append-only with mode 0600 (events hold request bodies); the directory is
 * created if needed.
 */
import { auditEvents } from '../metrics/apiserver.js';
import { closeSync, mkdirSync, openSync, write } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { AuditEvent, AuditSink } from './types.js';

export interface AuditLogOptions {
  /** Most events queued for writing; beyond it events are dropped. Default 10000. */
  maxBufferedEvents?: number;
  /** Most bytes queued for writing; beyond it events are dropped. Default 64 MiB. */
  maxBufferedBytes?: number;
  /** Where the backend reports dropped events and write errors (never event content). */
  warn?: (message: string) => void;
}

/** Appends chunks to the destination; resolves once the bytes are handed to the OS. */
type ChunkWriter = (chunk: Buffer) => Promise<void>;

export class AuditLogBackend implements AuditSink {
  private queue: Buffer[] = [];
  private queuedBytes = 0;
  private writing: Promise<void> | undefined;
  private closed = false;
  private droppedCount = 0;
  private lastWarnedDrops = 0;
  private readonly maxEvents: number;
  private readonly maxBytes: number;
  private readonly warn: (message: string) => void;

  private constructor(
    readonly path: string,
    private readonly writeChunk: ChunkWriter,
    private readonly release: () => void,
    opts: AuditLogOptions,
  ) {
    this.maxEvents = opts.maxBufferedEvents ?? 10_000;
    this.maxBytes = opts.maxBufferedBytes ?? 64 * 1024 * 1024;
    this.warn = opts.warn ?? ((m) => process.stderr.write(`${m}\n`));
  }

  /**
   * Opens the log at path (`-` for stdout), creating its directory. Throws at once when the file
   * cannot be opened, so a bad --audit-log-path fails startup.
   */
  static open(path: string, opts: AuditLogOptions = {}): AuditLogBackend {
    if (path === '-') return new AuditLogBackend('-', (chunk) => writeStream(process.stdout, chunk), () => undefined, opts);
    const file = resolve(path);
    let fd: number;
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      fd = openSync(file, 'a', 0o600);
    } catch (err) {
      throw new Error(`cannot open audit log ${JSON.stringify(path)}: ${(err as Error).message}`);
    }
    return new AuditLogBackend(file, (chunk) => writeFd(fd, chunk), () => closeSync(fd), opts);
  }

  /** Events dropped because the queue was full or the backend closed. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Queues each event as one JSON line. Never blocks; always true (drops are counted, as kube's buffered backend). */
  processEvents(...events: AuditEvent[]): boolean {
    // kube's audit.ObserveEvent: every event generated and handed to the backend.
    auditEvents.value += events.length;
    for (const event of events) {
      if (this.closed || this.queue.length >= this.maxEvents) {
        this.drop();
        continue;
      }
      const line = Buffer.from(`${JSON.stringify(event)}\n`, 'utf8');
      if (this.queuedBytes + line.length > this.maxBytes && this.queue.length > 0) {
        this.drop();
        continue;
      }
      this.queue.push(line);
      this.queuedBytes += line.length;
    }
    if (!this.writing && this.queue.length > 0) this.writing = this.drain();
    return true;
  }

  /** Resolves once every event queued so far is written. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** Writes what is queued, then closes the file; later events are dropped. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flush();
    this.release();
  }

  private drop(): void {
    this.droppedCount++;
    // Warn on the first drop and then at most once per further thousand.
    if (this.droppedCount - this.lastWarnedDrops >= 1000 || this.lastWarnedDrops === 0) {
      this.lastWarnedDrops = this.droppedCount;
      this.warn(`audit: ${this.droppedCount} event(s) dropped: ${this.closed ? 'the audit log is closed' : 'the audit log cannot keep up'}`);
    }
  }

  /** The single writer: appends batches of whole lines until the queue is empty. */
  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = Buffer.concat(this.queue);
        const count = this.queue.length;
        this.queue = [];
        this.queuedBytes = 0;
        try {
          await this.writeChunk(batch);
        } catch (err) {
          this.droppedCount += count;
          this.warn(`audit: writing ${this.path} failed, ${count} event(s) lost: ${(err as Error).message}`);
        }
      }
    } finally {
      this.writing = undefined;
    }
  }
}

/** Appends all of chunk to fd, continuing after partial writes. */
async function writeFd(fd: number, chunk: Buffer): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    offset += await new Promise<number>((resolvePromise, reject) =>
      write(fd, chunk, offset, chunk.length - offset, null, (err, written) => (err ? reject(err) : resolvePromise(written))),
    );
  }
}

function writeStream(stream: NodeJS.WritableStream, chunk: Buffer): Promise<void> {
  return new Promise((resolvePromise, reject) => stream.write(chunk, (err) => (err ? reject(err) : resolvePromise())));
}
