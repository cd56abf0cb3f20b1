/**
 * Giving memory back after a bulk load (the watch cache's initial list, an informer's relist of
 * a large resource). Loading allocates far more than it keeps: each page's decoded objects,
 * grown and dropped tables, and V8's young generation grown to its maximum by a high survival
 * rate. V8 keeps those pages until a full collection at a quiet moment, which an idle server may
 * never get (measured: RSS flat for minutes after loading 100,000 objects). So once a load of at
 * least RELEASE_THRESHOLD_BYTES is done and the process has been quiet for a moment, a full
 * collection is run: it frees the garbage pages and, with little allocation going on, shrinks
 * the young generation. A second one follows after another quiet moment: the old-generation
 * pages the first left partly used (its sweeping runs concurrently, after it returns) are only
 * given back then (measured with 100,000 objects: RSS 296 -> 287-289 MB, old space 169.5 -> 164 MB
 * committed for the same 156 MB used).
 *
 * The young generation: a load grows it to its maximum (32 MB committed, all of it resident),
 * and V8 shrinks it only at a collection that finds the allocation rate low (below ~1 MB/s)
 * over its recent samples: one sample per collection, the last ten or last five seconds of
 * them. Right after a load those samples are the load's, and an idle process collects nothing,
 * so the 32 MB stay (measured: for minutes). So between the two full collections, minor ones
 * run YOUNG_INTERVAL_MS apart (up to YOUNG_SAMPLES, stopping once the young generation has
 * shrunk): each samples the rate of the quiet process, and once they outnumber the load's
 * samples V8 shrinks the young generation to 1-2 MB (measured with 100,000 objects: RSS
 * 283 -> ~253 MB). A busy process allocates fast enough that V8 keeps it as it is; traffic
 * later grows it again as V8 sees fit.
 *
 * Contracts: at most COLLECTIONS full and YOUNG_SAMPLES minor collections per burst of loads
 * (debounced: a load during them starts the burst again), never for small loads, never keeping the process alive (unref'd
 * timers); a no-op where V8 offers no collection function.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Loads smaller than this (in total, per burst) leave V8 to itself. */
export const RELEASE_THRESHOLD_BYTES = 32 * 1024 * 1024;
/** Quiet time after the last load of a burst before collecting, and between the collections. */
export const QUIET_MS = 1000;
/** Full collections run after a burst (see above for why two). */
export const COLLECTIONS = 2;
/** At most this many minor collections after the first full one (V8 keeps ten samples). */
export const YOUNG_SAMPLES = 14;
/** Time between them: long enough that an idle process's allocations sample as a low rate. */
export const YOUNG_INTERVAL_MS = 40;

let pending = 0;
let remaining = 0;
let timer: NodeJS.Timeout | undefined;
let collect: ((options?: { type: 'minor' }) => void) | null | undefined;
/** Minor collections left in this burst, and the young generation's committed size before them. */
let youngLeft = 0;
let youngBefore = 0;

/** Reports a finished bulk load of about `bytes` (JSON) of objects. */
export function loaded(bytes: number): void {
  pending += bytes;
  if (pending < RELEASE_THRESHOLD_BYTES) return;
  remaining = COLLECTIONS;
  schedule();
}

function schedule(): void {
  if (timer) clearTimeout(timer);
  youngLeft = 0;
  timer = setTimeout(release, QUIET_MS);
  timer.unref();
}

/** Reports a finished bulk read of `count` objects (their JSON taken as about 1 KiB each). */
export function loadedObjects(count: number): void {
  loaded(count * 1024);
}

function release(): void {
  timer = undefined;
  pending = 0;
  const gc = gcFunction();
  if (!gc) return;
  gc();
  if (--remaining <= 0) return;
  schedule();
  if (remaining === COLLECTIONS - 1) {
    youngLeft = YOUNG_SAMPLES;
    youngBefore = youngCommitted();
    nextYoung();
  }
}

/** The next minor collection of the burst, unless the young generation has shrunk or they ran out. */
function nextYoung(): void {
  const young = setTimeout(() => {
    if (youngLeft <= 0) return;
    youngLeft--;
    collect?.({ type: 'minor' });
    if (youngCommitted() < youngBefore) youngLeft = 0;
    else if (youngLeft > 0) nextYoung();
  }, YOUNG_INTERVAL_MS);
  young.unref();
}

/** Bytes committed for V8's young generation (its new space). */
function youngCommitted(): number {
  for (const space of getHeapSpaceStatistics()) if (space.space_name === 'new_space') return space.space_size;
  return 0;
}

/**
 * V8's collection function: global.gc when node runs with --expose-gc, else the one a new
 * context gets once the flag is set (the way jest's leak detector obtains it).
 */
function gcFunction(): (() => void) | null {
  if (collect !== undefined) return collect;
  const global = (globalThis as { gc?: (options?: { type: 'minor' }) => void }).gc;
  if (typeof global === 'function') return (collect = global);
  try {
    setFlagsFromString('--expose-gc');
    const fn = runInNewContext('gc') as unknown;
    collect = typeof fn === 'function' ? (fn as (options?: { type: 'minor' }) => void) : null;
  } catch {
    collect = null;
  }
  return collect;
}
