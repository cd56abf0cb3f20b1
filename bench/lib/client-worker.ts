/**
 * The client benchmarks' own process (run with `node --import tsx`), so the server is never in
 * the same event loop. argv[2] is JSON:
 *   { mode: 'overhead', server, resource, namespace, name, requests, blocks }
 *     sequential GETs of one object, in alternating blocks: kgen's typed ResourceClient.get vs a
 *     bare fetch of the same URL (body parsed as JSON in both); µs per request of each block.
 *   { mode: 'informer', server, resource, namespace, expect, reps, pageSize }
 *     initial sync of a SharedIndexInformer (start → waitForSync) vs a bare paged LIST with fetch
 *     (limit + continue, JSON parsed, items kept in a Map) of the same collection; ms of each rep.
 * Prints one JSON line.
 */
import { RestClient } from '../../packages/client/src/rest.js';
import { ResourceClient } from '../../packages/client/src/resource.js';
import { SharedIndexInformer } from '../../packages/client/src/informer.js';
import type { ResourceInfo } from '../../packages/client/src/types.js';
import type { APIObject } from '../../runtime/api/meta.js';

interface Common {
  server: string;
  resource: ResourceInfo;
  namespace?: string;
}
type Config = (Common & { mode: 'overhead'; name: string; requests: number; blocks: number }) | (Common & { mode: 'informer'; expect: number; reps: number; pageSize: number });

const config = JSON.parse(process.argv[2]!) as Config;
// The client-side rate limiter (client-go's 5 qps default) is off: the figure is the client's own cost.
const rest = new RestClient({ server: config.server, qps: 0 });
const client = new ResourceClient<APIObject>(rest, config.resource, config.namespace);

async function overhead(c: Extract<Config, { mode: 'overhead' }>) {
  const url = config.server + client.itemPath(c.name);
  const typed: number[] = [];
  const bare: number[] = [];
  const runBare = async () => {
    const t0 = performance.now();
    for (let i = 0; i < c.requests; i++) {
      const res = await fetch(url, { headers: { accept: 'application/json' } });
      if (res.status !== 200) throw new Error(`fetch ${url}: ${res.status}`);
      await res.json();
    }
    return ((performance.now() - t0) * 1000) / c.requests;
  };
  const runTyped = async () => {
    const t0 = performance.now();
    for (let i = 0; i < c.requests; i++) await client.get(c.name);
    return ((performance.now() - t0) * 1000) / c.requests;
  };
  await runBare();
  await runTyped();
  for (let b = 0; b < c.blocks; b++) {
    if (b % 2 === 0) {
      bare.push(await runBare());
      typed.push(await runTyped());
    } else {
      typed.push(await runTyped());
      bare.push(await runBare());
    }
  }
  return { typedUs: typed, bareUs: bare };
}

async function pagedList(c: Extract<Config, { mode: 'informer' }>): Promise<number> {
  const base = config.server + client.collectionPath(config.namespace);
  const items = new Map<string, unknown>();
  let token: string | undefined;
  do {
    const res = await fetch(`${base}?limit=${c.pageSize}${token ? `&continue=${encodeURIComponent(token)}` : ''}`, { headers: { accept: 'application/json' } });
    if (res.status !== 200) throw new Error(`list: ${res.status}`);
    const page = (await res.json()) as { items: APIObject[]; metadata: { continue?: string } };
    for (const item of page.items) items.set(`${item.metadata?.namespace}/${item.metadata?.name}`, item);
    token = page.metadata.continue || undefined;
  } while (token);
  return items.size;
}

async function informer(c: Extract<Config, { mode: 'informer' }>) {
  const informerMs: number[] = [];
  const bareMs: number[] = [];
  for (let r = 0; r < c.reps; r++) {
    let t0 = performance.now();
    const n = await pagedList(c);
    bareMs.push(performance.now() - t0);
    if (n !== c.expect) throw new Error(`bare list saw ${n} objects, expected ${c.expect}`);
    t0 = performance.now();
    const inf = new SharedIndexInformer<APIObject>(client, { pageSize: c.pageSize, onError: (err) => console.error(err) });
    inf.start();
    await inf.waitForSync();
    informerMs.push(performance.now() - t0);
    const cached = inf.lister().list().length;
    await inf.stop();
    if (cached !== c.expect) throw new Error(`informer cached ${cached} objects, expected ${c.expect}`);
  }
  return { informerMs, bareMs };
}

const result = config.mode === 'overhead' ? await overhead(config) : await informer(config);
console.log(JSON.stringify(result));
process.exit(0);
