/**
 * Start-up: wall time from spawning `kgen serve` (memory storage) on the server fixture (100 kinds
 * in `full`) to its "kgen API server: <url>" line, when it listens with every API installed and
 * the system namespaces made (then /readyz is checked); against spawning a bare node:http server
 * to its listening line. Runs alternate; one untimed start warms tsx's compile cache first.
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import type { Benchmark, BenchContext, Outcome } from '../lib/harness.js';
import { serveKgen, serverFixture } from '../lib/fixture.js';
import { mustSend } from '../lib/kube.js';
import { startBareServer } from '../lib/load.js';
import { workDir } from '../lib/paths.js';
import type { Profile } from '../lib/profile.js';
import { median } from '../lib/stats.js';

export function startupBench(profile: Profile): Benchmark {
  const kinds = profile.server.groups * profile.server.kindsPerGroup;
  return {
    name: 'startup',
    figures: [{ id: 'startup', title: `kgen serve to ready, ${kinds} kinds`, unit: 'ms', baselineLabel: 'bare node:http process', target: { kind: 'value-max', limit: 150 } }],
    async run(ctx: BenchContext): Promise<Record<string, Outcome>> {
      const fx = await serverFixture(ctx);
      const file = join(workDir('startup'), 'body.json');
      writeFileSync(file, '{}');
      let firstMs: number | undefined;
      if (profile.startup.warm) {
        const warm = await serveKgen(fx, 'memory:');
        firstMs = warm.readyMs;
        await warm.stop();
      }
      const kgenMs: number[] = [];
      const bareMs: number[] = [];
      for (let i = 0; i < profile.startup.reps; i++) {
        const t0 = performance.now();
        const bare = await startBareServer(file);
        bareMs.push(performance.now() - t0);
        await bare.stop();
        const server = await serveKgen(fx, 'memory:');
        kgenMs.push(server.readyMs);
        await mustSend(`${server.url}/readyz`, 'GET');
        await server.stop();
      }
      ctx.writeRaw('startup', { kinds, firstStartMs: firstMs, kgenMs, bareMs });
      return { startup: { value: median(kgenMs), baseline: median(bareMs) } };
    },
  };
}
