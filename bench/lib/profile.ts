/**
 * Sizes and durations of a run. `full` is what the issue asks for (`npm run bench`); `quick` runs
 * every benchmark with tiny sizes so the reduced test in `npm test` checks the harness end to end.
 */
export interface Profile {
  name: 'full' | 'quick';
  codegen: {
    groups: number;
    kindsPerGroup: number;
    /** The linear-growth set: this many groups of kindsPerGroup (4× the kinds in `full`). */
    largeGroups: number;
    /** The scale set: this many groups of kindsPerGroup (1,000 kinds, 10× the kinds, in `full`). */
    hugeGroups: number;
    reps: number;
    tsoaReps: number;
    watchEdits: number;
    /** One untimed run of kgen and tsoa first (OS file cache, tsx's compile cache). */
    warmup: boolean;
  };
  /** The generated API set the servers serve (startup is measured on it too). */
  server: { groups: number; kindsPerGroup: number };
  load: { connections: number; durationSec: number; warmupSec: number; rounds: number };
  list: { objects: number };
  /** The full paged LIST: objects prefilled, page size, alternating rounds. */
  paged: { objects: number; limit: number; rounds: number };
  etcd: { connections: number; objects: number };
  /** large*: the fan-out at scale (its updates sparser, so one watcher process keeps up). */
  fanout: { watchers: number; updates: number; intervalMs: number; largeWatchers: number; largeUpdates: number; largeIntervalMs: number };
  /**
   * RSS is the lowest of `reads` reads `readIntervalMs` apart once the cache is ready;
   * measureEmpty: also the RSS of the same server with one object (raw JSON only).
   */
  memory: { objects: number; reads: number; readIntervalMs: number; measureEmpty: boolean };
  /** warm: one untimed start first (tsx's compile cache of the generated code). */
  startup: { reps: number; warm: boolean };
  client: { requests: number; blocks: number };
  informer: { objects: number; reps: number };
  /** `kgen validate` of `objects` Widgets (every tenth invalid) against one; `reps` alternating rounds. */
  evolution: { objects: number; reps: number };
}

export const FULL: Profile = {
  name: 'full',
  codegen: { groups: 20, kindsPerGroup: 5, largeGroups: 80, hugeGroups: 200, reps: 3, tsoaReps: 2, watchEdits: 6, warmup: true },
  server: { groups: 20, kindsPerGroup: 5 },
  load: { connections: 16, durationSec: 5, warmupSec: 1, rounds: 2 },
  list: { objects: 500 },
  paged: { objects: 100_000, limit: 500, rounds: 3 },
  etcd: { connections: 16, objects: 200 },
  fanout: { watchers: 1000, updates: 100, intervalMs: 50, largeWatchers: 10_000, largeUpdates: 40, largeIntervalMs: 100 },
  memory: { objects: 100_000, reads: 6, readIntervalMs: 500, measureEmpty: true },
  startup: { reps: 5, warm: true },
  client: { requests: 2000, blocks: 4 },
  informer: { objects: 10_000, reps: 3 },
  evolution: { objects: 1000, reps: 5 },
};

export const QUICK: Profile = {
  name: 'quick',
  codegen: { groups: 2, kindsPerGroup: 2, largeGroups: 8, hugeGroups: 20, reps: 1, tsoaReps: 1, watchEdits: 1, warmup: false },
  server: { groups: 1, kindsPerGroup: 2 },
  load: { connections: 4, durationSec: 0.4, warmupSec: 0, rounds: 1 },
  list: { objects: 20 },
  paged: { objects: 300, limit: 50, rounds: 1 },
  etcd: { connections: 4, objects: 10 },
  fanout: { watchers: 10, updates: 4, intervalMs: 20, largeWatchers: 40, largeUpdates: 3, largeIntervalMs: 20 },
  memory: { objects: 500, reads: 1, readIntervalMs: 100, measureEmpty: false },
  startup: { reps: 1, warm: false },
  client: { requests: 30, blocks: 2 },
  informer: { objects: 200, reps: 1 },
  evolution: { objects: 1000, reps: 1 },
};
