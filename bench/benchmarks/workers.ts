/**
 * `kgen serve --workers 2` against `--workers 1`, both on the same etcd (started by
 * test/support/etcd.ts on tmpfs), in alternating rounds: GET of one object (served from each
 * worker's watch cache) and CREATE (each a write to etcd), at the same concurrency. The ratio is
 * the scaling: 2.0 would be perfect use of a second core. On a 2-core machine the load generator
 * and etcd need a core too, so the ratio says what a second worker buys there, not what it buys
 * on a larger machine.
 */
import type { Benchmark, BenchContext, Outcome } from '../lib/harness.js';
import { serveKgen, serverFixture, type KgenServer } from '../lib/fixture.js';
import { createObjects } from '../lib/kube.js';
import { runLoad, type LoadResult } from '../lib/load.js';
import { collectionPath, sampleObject } from '../lib/objects.js';
import type { Profile } from '../lib/profile.js';
import { mean } from '../lib/stats.js';
import { startEtcd, type EtcdCluster } from '../../test/support/etcd.js';

export function workersBench(profile: Profile): Benchmark {
  return {
    name: 'workers',
    figures: [
      { id: 'workers.get', title: 'GET one object on etcd, --workers 2', unit: 'req/s', baselineLabel: '--workers 1, same rounds', target: { kind: 'none' } },
      { id: 'workers.create', title: `CREATE on etcd (${profile.etcd.connections} conns), --workers 2`, unit: 'req/s', baselineLabel: '--workers 1, same rounds', target: { kind: 'none' } },
    ],
    async run(ctx: BenchContext): Promise<Record<string, Outcome>> {
      const fx = await serverFixture(ctx);
      const l = ctx.profile.load;
      let cluster: EtcdCluster;
      try {
        cluster = await startEtcd();
      } catch (err) {
        const na = { na: `etcd not available: ${(err as Error).message.split('\n')[0]}` };
        return { 'workers.get': na, 'workers.create': na };
      }
      const servers: KgenServer[] = [];
      try {
        // Two installations side by side on one etcd (their own key prefixes).
        servers.push(await serveKgen(fx, cluster.storageUrl, {}, [], ['--storage-prefix', '/one']));
        servers.push(await serveKgen(fx, cluster.storageUrl, {}, [], ['--storage-prefix', '/two', '--workers', '2']));
        const headers = { accept: 'application/json', 'content-type': 'application/json' };
        for (const s of servers) await createObjects(s.url, fx.kind, 'obj', 1);
        const runs = { get: [[], []] as LoadResult[][], create: [[], []] as LoadResult[][] };
        for (let r = 0; r < l.rounds; r++) {
          for (const [i, s] of servers.entries()) {
            const collection = s.url + collectionPath(fx.kind);
            runs.get[i]!.push(await runLoad({ url: `${collection}/obj-0`, connections: l.connections, durationSec: l.durationSec, warmupSec: l.warmupSec, headers }));
            runs.create[i]!.push(
              await runLoad({ url: collection, method: 'POST', connections: profile.etcd.connections, durationSec: l.durationSec, warmupSec: l.warmupSec, headers, template: { prefix: `w${i}r${r}`, body: JSON.stringify(sampleObject(fx.kind, '__NAME__', 1)) } }),
            );
          }
          ctx.log(`workers: round ${r + 1}: GET ${Math.round(runs.get[0]![r]!.rps)}/s vs ${Math.round(runs.get[1]![r]!.rps)}/s, CREATE ${Math.round(runs.create[0]![r]!.rps)}/s vs ${Math.round(runs.create[1]![r]!.rps)}/s (1 vs 2 workers)`);
        }
        ctx.writeRaw('workers', runs);
        const rate = (xs: LoadResult[]) => mean(xs.map((x) => x.rps));
        return {
          'workers.get': { value: rate(runs.get[1]!), baseline: rate(runs.get[0]!) },
          'workers.create': { value: rate(runs.create[1]!), baseline: rate(runs.create[0]!) },
        };
      } finally {
        for (const s of servers) await s.stop();
        await cluster.stop();
      }
    },
  };
}
