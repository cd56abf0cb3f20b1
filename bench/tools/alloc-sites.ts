/**
 * Bytes allocated per request by site, from V8's sampling heap profiler: the shared half of
 * chain-allocs.ts (GET, LIST) and chain-create.ts (create). A built-in (sort, keys, a Map's
 * iterator) has no URL and is named with the function that called it.
 */
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

/** Runs `run` under the sampling heap profiler and returns bytes per site and in all. */
export async function allocationSites(run: () => Promise<void>): Promise<{ sites: Map<string, number>; total: number }> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', { samplingInterval: 128, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  await run();
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: ProfileNode } };
  session.disconnect();
  const sites = new Map<string, number>();
  let total = 0;
  const name = (f: ProfileNode['callFrame']) =>
    `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(runtime|node_modules|test|bench)\//, '$1/')}${f.url ? `:${f.lineNumber + 1}` : ''}`;
  const walk = (node: ProfileNode, caller: string) => {
    const here = name(node.callFrame);
    if (node.selfSize > 0) {
      const key = node.callFrame.url === '' ? `${here}< ${caller}` : here;
      sites.set(key, (sites.get(key) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) walk(child, node.callFrame.url === '' ? caller : here);
  };
  walk(profile.head, '');
  return { sites, total };
}

/** Prints bytes per request in all and for the `top` largest sites. */
export function printSites(label: string, requests: number, top: number, { sites, total }: { sites: Map<string, number>; total: number }): void {
  console.log(`${label}: ${Math.round(total / requests)} bytes per request (${requests} requests)`);
  for (const [site, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${String(Math.round(bytes / requests)).padStart(7)}  ${site}`);
  }
}
