/**
 * kgen's layering, made executable: the README's "Layout" section as data, and the check that
 * reads the import graph (graph.ts) against it. test/architecture/imports.test.ts runs it in
 * `npm test`; `npx tsx tools/imports/layers.ts` prints the same report.
 *
 * Rules (every import counts: static, `import type`, `export … from`, dynamic `import()`):
 *   1. no import cycle between files of bin/, cli/, generator/, runtime/ and the client;
 *   2. no runtime/** file imports generator/**;
 *   3. the client (packages/client/src/**, runtime/client/**) imports only the client and
 *      runtime/api/ (and runtime/types/, the type-only well-known types it re-exports);
 *   4. imports run down LAYERS: a file may import its own layer and any lower rank, never a
 *      higher rank nor another layer of its own rank (peers are independent);
 *   5. every file of those folders belongs to a layer (a new folder must be placed here).
 */
import { fileURLToPath } from 'node:url';
import { readImportGraph, type ImportEdge, type ImportGraph } from './graph.js';

/** One layer: a name and the path prefixes (folders end in `/`) it owns. */
export interface Layer {
  name: string;
  paths: string[];
}

/**
 * Top to bottom. Each inner list is one rank; layers of one rank may not import each other.
 * The order of runtime/ follows k8s.io/apiserver and kube's pkg/: the control plane wires
 * everything; the extension and aggregation servers sit on the generic server; RBAC (authorizer,
 * bootstrap policy, its registry strategies) and the controllers run on stores and informers;
 * the generic server runs the filter chain (audit, authentication) in front of the endpoints;
 * the endpoints call admission and the registry; the registry stores through conversion into
 * storage; validation, the request/credential types and the API types are at the bottom.
 */
export const LAYERS: Layer[][] = [
  [{ name: 'bin', paths: ['bin/'] }],
  [{ name: 'cli', paths: ['cli/'] }],
  // kgen's cache folder (chosen and checked once, issue 12): plain JavaScript that imports only
  // node:, kept in bin/loader/ because the loader needs it before any TypeScript runs; the CLI
  // hands the folder it picks to the generator's writer, so it sits between the two.
  [{ name: 'cache folder', paths: ['bin/loader/cache-dir.js', 'bin/loader/cache-dir.d.ts'] }],
  [{ name: 'generator', paths: ['generator/'] }],
  [{ name: 'controlplane', paths: ['runtime/controlplane/'] }],
  [{ name: 'client', paths: ['packages/client/src/', 'runtime/client/'] }],
  [
    { name: 'apiextensions', paths: ['runtime/apiextensions/'] },
    { name: 'aggregator', paths: ['runtime/aggregator/'] },
  ],
  [{ name: 'authorization', paths: ['runtime/authorization/'] }],
  [{ name: 'controllers', paths: ['runtime/controllers/'] }],
  [{ name: 'server', paths: ['runtime/server/'] }],
  [
    { name: 'audit', paths: ['runtime/audit/'] },
    { name: 'authentication', paths: ['runtime/authentication/'] },
  ],
  [{ name: 'endpoints', paths: ['runtime/endpoints/'] }],
  [{ name: 'admission', paths: ['runtime/admission/'] }],
  [{ name: 'registry', paths: ['runtime/registry/'] }],
  [
    { name: 'conversion', paths: ['runtime/conversion/'] },
    { name: 'metrics', paths: ['runtime/metrics/'] },
  ],
  [{ name: 'storage', paths: ['runtime/storage/'] }],
  [{ name: 'webhook', paths: ['runtime/webhook/'] }],
  [{ name: 'validation', paths: ['runtime/validation/'] }],
  [{ name: 'kgen entry', paths: ['runtime/index.ts'] }],
  [{ name: 'types', paths: ['runtime/types/'] }],
  [{ name: 'api', paths: ['runtime/api/'] }],
];

/** The folders the check reads. */
export const ROOTS = ['bin', 'cli', 'generator', 'runtime', 'packages/client/src'];

/**
 * Violations other branches of issue 14 remove at the same time (the coordinator merges them):
 * each entry names the edge (`from -> to`, repository paths) and the branch expected to remove
 * it. A known violation that no longer occurs is reported (without failing, so the branches can
 * merge in any order) as one to delete from this list.
 */
export const KNOWN: { edge: string; branch: string; why: string }[] = [
  // Empty: the branches of issue 14 that removed the violations listed here are merged.
];

export interface Violation {
  rule: 'cycle' | 'runtime-imports-generator' | 'client-imports' | 'layer-order' | 'unplaced' | 'known-gone';
  /** `file:line imports target`, or the cycle's files. */
  message: string;
  /** The edge, for matching KNOWN. */
  edge?: string;
  /** The branch expected to remove it, when known. */
  knownBy?: string;
}

interface Placed {
  rank: number;
  layer: Layer;
}

export function layerOf(file: string): Placed | undefined {
  let best: { placed: Placed; length: number } | undefined;
  LAYERS.forEach((rank, index) => {
    for (const layer of rank) {
      for (const path of layer.paths) {
        const match = path.endsWith('/') ? file.startsWith(path) : file === path;
        if (match && (!best || path.length > best.length)) best = { placed: { rank: index, layer }, length: path.length };
      }
    }
  });
  return best?.placed;
}

const edgeName = (e: ImportEdge) => `${e.from} -> ${e.to}`;
const describe = (e: ImportEdge) =>
  `${e.from}:${e.line} imports ${e.to} ('${e.specifier}'${e.typeOnly ? ', type only' : ''}${e.dynamic ? ', dynamic' : ''})`;

/** Strongly connected components with more than one file (Tarjan), each sorted. */
export function cycles(graph: ImportGraph): string[][] {
  const adjacent = new Map<string, string[]>();
  for (const e of graph.edges) {
    if (e.from === e.to) continue;
    adjacent.set(e.from, [...(adjacent.get(e.from) ?? []), e.to]);
  }
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of adjacent.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const file of [...graph.files].sort()) if (!index.has(file)) visit(file);
  return out;
}

const isClient = (file: string) => file.startsWith('packages/client/src/') || file.startsWith('runtime/client/');
const clientMayImport = (file: string) => isClient(file) || file.startsWith('runtime/api/') || file.startsWith('runtime/types/');

/** Every violation of the rules, known ones marked with their branch. */
export function checkLayers(graph: ImportGraph, knownList: readonly { edge: string; branch: string }[] = KNOWN): Violation[] {
  const known = new Map(knownList.map((k) => [k.edge, k.branch]));
  const found: Violation[] = [];
  const seenKnown = new Set<string>();
  const mark = (v: Violation): Violation => {
    const branch = v.edge && known.get(v.edge);
    if (branch) {
      seenKnown.add(v.edge!);
      return { ...v, knownBy: branch };
    }
    return v;
  };

  for (const file of graph.files) {
    if (!layerOf(file)) found.push({ rule: 'unplaced', message: `${file} belongs to no layer (add its folder to LAYERS in tools/imports/layers.ts and to the README layout)` });
  }

  // A cycle is reported with every edge inside it, so each can be matched against KNOWN.
  for (const component of cycles(graph)) {
    const members = new Set(component);
    const inside = graph.edges.filter((e) => members.has(e.from) && members.has(e.to) && e.from !== e.to);
    const marked = inside.map((e) => mark({ rule: 'cycle', message: describe(e), edge: edgeName(e) }));
    const branch = marked.every((m) => m.knownBy) ? marked[0]?.knownBy : undefined;
    found.push({
      rule: 'cycle',
      message: `import cycle between ${component.join(', ')}:\n${marked.map((m) => `    ${m.message}`).join('\n')}`,
      knownBy: branch,
    });
  }

  for (const e of graph.edges) {
    if (e.from.startsWith('runtime/') && e.to.startsWith('generator/')) {
      found.push(mark({ rule: 'runtime-imports-generator', message: describe(e), edge: edgeName(e) }));
      continue;
    }
    if (isClient(e.from) && !clientMayImport(e.to)) {
      found.push(mark({ rule: 'client-imports', message: `${describe(e)}: the client depends only on the client and runtime/api`, edge: edgeName(e) }));
      continue;
    }
    const from = layerOf(e.from);
    const to = layerOf(e.to);
    if (!from || !to || from.layer === to.layer) continue;
    if (to.rank > from.rank) continue;
    const why = to.rank === from.rank ? `peers ${from.layer.name} and ${to.layer.name} may not import each other` : `${from.layer.name} is below ${to.layer.name}`;
    found.push(mark({ rule: 'layer-order', message: `${describe(e)}: ${why}`, edge: edgeName(e) }));
  }

  for (const k of knownList) {
    if (!seenKnown.has(k.edge)) {
      found.push({ rule: 'known-gone', message: `known violation ${k.edge} no longer occurs: remove it from KNOWN in tools/imports/layers.ts`, knownBy: k.branch });
    }
  }
  return found;
}

export function report(violations: Violation[]): string {
  const lines: string[] = [];
  for (const v of violations) lines.push(`${v.knownBy ? `[known: ${v.knownBy}] ` : ''}${v.rule}: ${v.message}`);
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const violations = checkLayers(readImportGraph(root, ROOTS));
  const open = violations.filter((v) => !v.knownBy);
  console.log(report(violations) || 'no violations');
  console.log(`\n${open.length} violation(s), ${violations.length - open.length} known (removed by other branches)`);
  process.exit(open.length > 0 ? 1 : 0);
}
