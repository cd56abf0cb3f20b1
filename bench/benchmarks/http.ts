/**
 * Reads over HTTP: GET of one object and LIST of N objects from the watch cache
 * (`?resourceVersion=0`), each against a bare node:http server answering the same bytes. The
 * load (autocannon) runs in its own process; kgen and the bare server are measured in
 * alternating rounds.
 */
import { join } from 'node:path';
import type { Benchmark, BenchContext, Outcome } from '../lib/harness.js';
import { serveKgen, serverFixture } from '../lib/fixture.js';
import { captureBytes, createObjects } from '../lib/kube.js';
import { runLoad, startBareServer, type LoadResult } from '../lib/load.js';
import { collectionPath } from '../lib/objects.js';
import type { Profile } from '../lib/profile.js';
import { workDir } from '../lib/paths.js';
import { mean } from '../lib/stats.js';

async function compare(ctx: BenchContext, kgenUrl: string, bareUrl: string, label: string): Promise<{ kgen: LoadResult[]; bare: LoadResult[] }> {
  const l = ctx.profile.load;
  const out = { kgen: [] as LoadResult[], bare: [] as LoadResult[] };
  for (let r = 0; r < l.rounds; r++) {
    for (const [which, url] of [['bare', bareUrl], ['kgen', kgenUrl]] as const) {
      const res = await runLoad({ url, connections: l.connections, durationSec: l.durationSec, warmupSec: l.warmupSec, headers: { accept: 'application/json' } });
      if (res.non2xx > 0 || res.errors > 0) throw new Error(`${label} ${which}: ${res.non2xx} non-2xx, ${res.errors} errors`);
      out[which].push(res);
      ctx.log(`${label}: round ${r + 1} ${which} ${Math.round(res.rps)}/s`);
    }
  }
  return out;
}

export function httpBench(profile: Profile): Benchmark {
  const n = profile.list.objects;
  return {
    name: 'http',
    figures: [
      { id: 'http.get', title: 'GET one object', unit: 'req/s', baselineLabel: 'bare node:http, same bytes', target: { kind: 'ratio-min', limit: 0.8 } },
      { id: 'http.list', title: `LIST ${n} objects from the watch cache`, unit: 'req/s', baselineLabel: 'bare node:http, same bytes', target: { kind: 'ratio-min', limit: 0.9 } },
    ],
    async run(ctx: BenchContext): Promise<Record<string, Outcome>> {
      const fx = await serverFixture(ctx);
      const dir = workDir('http');
      const server = await serveKgen(fx, 'memory:');
      try {
        await createObjects(server.url, fx.kind, 'obj', n);
        const getUrl = `${server.url}${collectionPath(fx.kind)}/obj-0`;
        const listUrl = `${server.url}${collectionPath(fx.kind)}?resourceVersion=0`;
        const getBytes = await captureBytes(getUrl, join(dir, 'get.json'));
        const listBytes = await captureBytes(listUrl, join(dir, 'list.json'));
        const items = (JSON.parse(listBytes.toString()) as { items: unknown[] }).items.length;
        if (items !== n) throw new Error(`LIST returned ${items} items, expected ${n}`);
        const bareGet = await startBareServer(join(dir, 'get.json'));
        const bareList = await startBareServer(join(dir, 'list.json'));
        const get = await compare(ctx, getUrl, bareGet.url, 'GET');
        const list = await compare(ctx, listUrl, bareList.url, 'LIST');
        await bareGet.stop();
        await bareList.stop();
        ctx.writeRaw('http', { objects: n, getBytes: getBytes.length, listBytes: listBytes.length, load: profile.load, get, list });
        const rps = (rs: LoadResult[]) => mean(rs.map((r) => r.rps));
        return {
          'http.get': { value: rps(get.kgen), baseline: rps(get.bare) },
          'http.list': { value: rps(list.kgen), baseline: rps(list.bare) },
        };
      } finally {
        await server.stop();
      }
    },
  };
}
