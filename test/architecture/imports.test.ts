/**
 * The layout made executable (README "Layout"): the import graph of bin/, cli/, generator/,
 * runtime/ and the client, read with the TypeScript parser, checked against the layer order in
 * tools/imports/layers.ts. Known violations other branches of issue 14 remove are listed there
 * with their branch; anything else fails here, printed as `file:line imports target`.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { readImportGraph, type ImportEdge, type ImportGraph } from '../../tools/imports/graph.js';
import { checkLayers, layerOf, report, ROOTS } from '../../tools/imports/layers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function graphOf(edges: [string, string, Partial<ImportEdge>?][]): ImportGraph {
  const files = [...new Set(edges.flatMap(([from, to]) => [from, to]))];
  return { files, edges: edges.map(([from, to, extra]) => ({ from, to, specifier: to, line: 1, typeOnly: false, dynamic: false, ...extra })) };
}

describe('the layer check', () => {
  it('finds no violation in the tree besides the known ones', () => {
    const violations = checkLayers(readImportGraph(ROOT, ROOTS));
    const open = violations.filter((v) => !v.knownBy);
    const known = violations.filter((v) => v.knownBy);
    if (known.length > 0) console.log(`known violations, removed by other branches:\n${report(known)}`);
    assert.equal(open.length, 0, `layer violations:\n${report(open)}`);
  });

  it('reads static, type-only, re-exported and dynamic imports', () => {
    const graph = readImportGraph(ROOT, ['runtime/controlplane']);
    const from = (file: string) => graph.edges.filter((e) => e.from === file);
    const load = from('runtime/controlplane/load-generated.ts');
    assert.ok(load.some((e) => e.to === 'runtime/server/installer.ts' && e.typeOnly), 'import type');
    assert.ok(load.some((e) => e.to === 'runtime/storage/index.ts' && e.dynamic), "import('…')");
    assert.ok(from('runtime/controlplane/index.ts').some((e) => e.to === 'runtime/server/index.ts' && !e.typeOnly), 'export * from');
  });

  it('fails on a cycle, even through type-only and dynamic imports, naming each import', () => {
    const violations = checkLayers(
      graphOf([
        ['runtime/server/a.ts', 'runtime/server/b.ts', { typeOnly: true }],
        ['runtime/server/b.ts', 'runtime/server/a.ts', { dynamic: true, line: 7 }],
      ]),
      [],
    );
    const cycle = violations.find((v) => v.rule === 'cycle');
    assert.ok(cycle && !cycle.knownBy);
    assert.match(cycle.message, /runtime\/server\/b\.ts:7 imports runtime\/server\/a\.ts/);
  });

  it('fails on the runtime importing the generator', () => {
    const violations = checkLayers(graphOf([['runtime/registry/x.ts', 'generator/model.ts']]), []);
    assert.deepEqual(
      violations.map((v) => v.rule),
      ['runtime-imports-generator'],
    );
  });

  it('fails on the client importing anything but the client and runtime/api', () => {
    const violations = checkLayers(
      graphOf([
        ['packages/client/src/x.ts', 'runtime/api/meta.ts'],
        ['packages/client/src/x.ts', 'runtime/storage/keys.ts'],
      ]),
      [],
    );
    assert.deepEqual(
      violations.map((v) => [v.rule, v.message.split(' ')[2]]),
      [['client-imports', 'runtime/storage/keys.ts']],
    );
  });

  it('fails on an import up the order and between peers, not down it', () => {
    const violations = checkLayers(
      graphOf([
        ['runtime/server/installer.ts', 'runtime/apiextensions/strategy.ts'],
        ['runtime/aggregator/x.ts', 'runtime/apiextensions/y.ts'],
        ['runtime/controlplane/server.ts', 'runtime/server/http.ts'],
        ['cli/serve.ts', 'runtime/controlplane/server.ts'],
      ]),
      [],
    );
    assert.deepEqual(
      violations.map((v) => v.message),
      [
        "runtime/server/installer.ts:1 imports runtime/apiextensions/strategy.ts ('runtime/apiextensions/strategy.ts'): server is below apiextensions",
        "runtime/aggregator/x.ts:1 imports runtime/apiextensions/y.ts ('runtime/apiextensions/y.ts'): peers aggregator and apiextensions may not import each other",
      ],
    );
  });

  it('places every folder of the tree, and reports a file outside every layer', () => {
    assert.equal(layerOf('runtime/controlplane/server.ts')?.layer.name, 'controlplane');
    assert.equal(layerOf('runtime/index.ts')?.layer.name, 'kgen entry');
    const violations = checkLayers(graphOf([['runtime/newfolder/x.ts', 'runtime/api/meta.ts']]), []);
    assert.deepEqual(
      violations.map((v) => v.rule),
      ['unplaced'],
    );
  });
});
