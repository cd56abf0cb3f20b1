/**
 * One writer at a time per output directory, as git's `index.lock`: a write first creates
 * `.<out>.kgen-lock` beside the output (O_CREAT|O_EXCL, holding `<pid> <host>`) and removes it when
 * done. Two kgen processes writing one output at once (a `generate --watch` and a one-shot
 * `generate`, or two one-shots) would otherwise roll each other's journals forward or remove each
 * other's staging folders, and one of them would fail after the other's files had landed.
 *
 * A second writer waits a bounded time for the lock, then fails before it has written anything,
 * naming the lock file and its holder. A lock whose holder is not running any more (its pid is dead
 * on this host, or is this process's own: a container's pid 1 run again) is taken over at once,
 * with a message; a lock whose holder cannot be shown dead (another host, a pid reused, no pid
 * written yet) is taken over once it is older than STALE_AFTER_MS, far longer than any write holds
 * it: the lock is held for the write only (the recovery, the diff and the commit), not for a
 * `--watch` session. Waiters take a stale lock over one at a time (takeOver's guard), and only the
 * lock they judged stale. Cost per write: one open, write and close, one fstat, one stat and one unlink.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { lockName } from './journal.js';

/** How long a second writer waits for the first before it gives up (default). */
export const LOCK_WAIT_MS = 10_000;
/** A lock older than this is stale even when its holder cannot be shown dead. */
export const STALE_AFTER_MS = 2 * 60_000;

export interface LockOptions {
  /** How long to wait for another writer's lock (LOCK_WAIT_MS). */
  waitMs?: number;
  /** Told when a stale lock is taken over (default: a warning on stderr). */
  onTakeOver?: (message: string) => void;
}

/** What a lock file says of its holder. */
export interface LockHolder {
  pid?: number;
  host?: string;
  ino: number;
  mtimeMs: number;
}

/** Another writer holds the output's lock and kept it past the wait. Nothing was written. */
export class OutputLockedError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: LockHolder,
    waitedMs: number,
    outDir: string,
  ) {
    super(
      `${lockPath} is held by ${describeHolder(holder)}, another kgen writing ${outDir}/; waited ${(waitedMs / 1000).toFixed(1)} s and wrote nothing. ` +
        'Run again when it is done (if no kgen is running, remove the lock file).',
    );
    this.name = 'OutputLockedError';
  }
}

/** `.<out>.kgen-lock` beside the output (journal.ts's recovery leaves names starting so alone). */
export function lockPathOf(outDir: string): string {
  return join(dirname(outDir), lockName(outDir));
}

export interface OutputLock {
  path: string;
  release(): void;
}

/** Takes the lock of `outDir` (a physical path), waiting for another writer up to `waitMs`. */
export function lockOutput(outDir: string, options: LockOptions = {}): OutputLock {
  const path = lockPathOf(outDir);
  const waitMs = options.waitMs ?? LOCK_WAIT_MS;
  const started = Date.now();
  let pause = 2;
  for (;;) {
    const ino = tryCreate(path);
    if (ino !== undefined) return { path, release: () => release(path, ino) };
    const holder = readLockHolder(path);
    if (!holder) continue; // Released between the open and the read.
    const stale = staleReason(holder);
    if (stale && takeOver(path, holder)) {
      (options.onTakeOver ?? warn)(`took over the stale lock ${path} (${stale})`);
      continue;
    }
    const waited = Date.now() - started;
    if (waited >= waitMs) throw new OutputLockedError(path, holder, waited, outDir);
    sleep(Math.min(pause, waitMs - waited));
    pause = Math.min(pause * 2, 50);
  }
}

/** The lock's inode when this call created it, undefined when another holds it. */
function tryCreate(path: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return undefined;
    if (code !== 'ENOENT') throw err;
    // The output's parent folder does not exist yet (a new output): make it, as the write would.
    mkdirSync(dirname(path), { recursive: true });
    fd = openSync(path, 'wx');
  }
  try {
    writeSync(fd, `${process.pid} ${hostname()}\n`);
    return fstatSync(fd).ino;
  } finally {
    closeSync(fd);
  }
}

/** Removes the lock if it is still the one this writer made (not one taken over from it since). */
function release(path: string, ino: number): void {
  try {
    if (statSync(path).ino === ino) rmSync(path);
  } catch {
    // Gone already.
  }
}

/** The holder named in the lock at `path`, or undefined when there is no lock. */
export function readLockHolder(path: string): LockHolder | undefined {
  try {
    const st = statSync(path);
    const [pid, host] = readFileSync(path, 'utf8').trim().split(' ');
    const n = Number(pid);
    return { pid: Number.isSafeInteger(n) && n > 0 ? n : undefined, host: host || undefined, ino: st.ino, mtimeMs: st.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The holder of a lock is a process running on this host (false when it cannot be told). */
export function holderRunning(holder: LockHolder): boolean {
  if (holder.pid === undefined || holder.host !== hostname() || holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Why the lock is stale, or undefined when its holder may still be writing. */
function staleReason(holder: LockHolder): string | undefined {
  if (holder.pid !== undefined && holder.host === hostname()) {
    if (holder.pid === process.pid) return `pid ${holder.pid} is this process, which holds no lock`;
    if (!holderRunning(holder)) return `pid ${holder.pid} is not running`;
  }
  const age = Date.now() - holder.mtimeMs;
  if (age > STALE_AFTER_MS) return `${describeHolder(holder)}, ${Math.round(age / 60_000)} minutes old`;
  return undefined;
}

/** A takeover guard older than this was left by a waiter that died holding it (it is held for microseconds). */
const GUARD_STALE_MS = 5_000;

/**
 * Removes a stale lock, making sure it is the one judged stale: under a guard (`<lock>.takeover`,
 * O_CREAT|O_EXCL) that one waiter at a time holds, the lock is read again and removed only if it
 * is still the same file with the same holder line and mtime. The inode alone does not tell: ext4
 * gives a file just created the inode of the one just removed, so the lock another waiter made
 * after taking the stale one over usually has the stale one's inode. (Renaming the lock aside and
 * putting it back when it was a newer one, as before, left a moment without a lock, in which a
 * third waiter took one: two writers.) false when another waiter holds the guard or the lock is
 * not the one judged stale any more: the caller looks again. Exported for tests.
 */
export function takeOver(path: string, holder: LockHolder): boolean {
  const guard = `${path}.takeover`;
  if (!takeGuard(guard)) return false;
  try {
    let now: LockHolder | undefined;
    try {
      now = readLockHolder(path);
    } catch {
      return false;
    }
    if (!now || now.ino !== holder.ino || now.pid !== holder.pid || now.host !== holder.host || now.mtimeMs !== holder.mtimeMs) return false;
    rmSync(path, { force: true });
    return true;
  } finally {
    rmSync(guard, { force: true });
  }
}

/** Creates the takeover guard; false when another waiter holds it (a guard left by a dead waiter is removed once old). */
function takeGuard(guard: string): boolean {
  try {
    closeSync(openSync(guard, 'wx'));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  try {
    if (Date.now() - statSync(guard).mtimeMs > GUARD_STALE_MS) rmSync(guard, { force: true });
  } catch {
    // Released meanwhile.
  }
  return false;
}

function describeHolder(holder: LockHolder): string {
  if (holder.pid === undefined) return 'a writer that has not written its pid';
  return holder.host && holder.host !== hostname() ? `pid ${holder.pid} on ${holder.host}` : `pid ${holder.pid}`;
}

function warn(message: string): void {
  console.error(`warning: ${message}`);
}

const pauseCell = new Int32Array(new SharedArrayBuffer(4));
function sleep(ms: number): void {
  Atomics.wait(pauseCell, 0, 0, ms);
}
