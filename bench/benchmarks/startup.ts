/**
 * Start-up: wall time from spawning `kgen serve` (memory storage) on the server fixture (100 kinds
 * in `full`) to its "kgen API server: <url>" line, when it listens with every API installed and
 * the system namespaces made (then /readyz is checked); against spawning a bare node:http server
 * to its listening line. Runs alternate; one untimed start warms tsx's compile cache first.
 *
 * A second, informational figure is measured in the same rounds: both sides started with
 * NODE_EXTRA_CA_CERTS removed from their environment. Node reads and parses the CA bundle that
 * variable names before any JavaScript runs (~30 ms of CPU for every process on the machines
 * these benches ran on), so that figure shows what kgen itself costs. The first figure, with the
 * environment as given, is the one compared with the target.
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import type { Benchmark, BenchContext, Outcome } from '../lib/harness.js';
import { serveKgen, serverFixture, type ServerFixture } from '../lib/fixture.js';
import { mustSend } from '../lib/kube.js';
import { startBareServer } from '../lib/load.js';
import { workDir } from '../lib/paths.js';
import type { Profile } from '../lib/profile.js';
import { median } from '../lib/stats.js';

/** An environment override that removes the variable (spawn leaves out undefined values). */
const WITHOUT_CA_CERTS: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: undefined };

interface Round {
  kgenMs: number[];
  bareMs: number[];
}

/** One bare start, then one kgen start (checked ready through /readyz), in the given environment. */
async function startPair(fx: ServerFixture, file: string, env: NodeJS.ProcessEnv, into: Round): Promise<void> {
  const t0 = performance.now();
  const bare = await startBareServer(file, undefined, undefined, env);
  into.bareMs.push(performance.now() - t0);
  await bare.stop();
  const server = await serveKgen(fx, 'memory:', env);
  into.kgenMs.push(server.readyMs);
  await mustSend(`${server.url}/readyz`, 'GET');
  await server.stop();
}

export function startupBench(profile: Profile): Benchmark {
  const kinds = profile.server.groups * profile.server.kindsPerGroup;
  return {
    name: 'startup',
    figures: [
      { id: 'startup', title: `kgen serve to ready, ${kinds} kinds`, unit: 'ms', baselineLabel: 'bare node:http process', target: { kind: 'value-max', limit: 150 } },
      { id: 'startup.no-extra-ca', title: `kgen serve to ready, ${kinds} kinds, without NODE_EXTRA_CA_CERTS (informational)`, unit: 'ms', baselineLabel: 'bare node:http process, same environment', target: { kind: 'none' } },
    ],
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
      const given: Round = { kgenMs: [], bareMs: [] };
      const noCa: Round = { kgenMs: [], bareMs: [] };
      for (let i = 0; i < profile.startup.reps; i++) {
        await startPair(fx, file, {}, given);
        await startPair(fx, file, WITHOUT_CA_CERTS, noCa);
      }
      ctx.writeRaw('startup', {
        kinds,
        firstStartMs: firstMs,
        kgenMs: given.kgenMs,
        bareMs: given.bareMs,
        extraCaCerts: process.env.NODE_EXTRA_CA_CERTS ?? null,
        withoutExtraCaCerts: noCa,
      });
      return {
        startup: { value: median(given.kgenMs), baseline: median(given.bareMs) },
        'startup.no-extra-ca': { value: median(noCa.kgenMs), baseline: median(noCa.bareMs) },
      };
    },
  };
}
