/** Every benchmark, in the order the table lists them. */
import type { Benchmark } from './lib/harness.js';
import type { Profile } from './lib/profile.js';
import { clientBench } from './benchmarks/client.js';
import { codegenBench } from './benchmarks/codegen.js';
import { evolutionBench } from './benchmarks/evolution.js';
import { fanoutBench } from './benchmarks/fanout.js';
import { httpBench } from './benchmarks/http.js';
import { memoryBench } from './benchmarks/memory.js';
import { pagedBench } from './benchmarks/paged.js';
import { startupBench } from './benchmarks/startup.js';
import { workersBench } from './benchmarks/workers.js';
import { writesBench } from './benchmarks/writes.js';

export function allBenchmarks(profile: Profile): Benchmark[] {
  return [codegenBench(profile), httpBench(profile), ...writesBench(profile), workersBench(profile), fanoutBench(profile), memoryBench(profile), pagedBench(profile), startupBench(profile), clientBench(profile), evolutionBench(profile)];
}
