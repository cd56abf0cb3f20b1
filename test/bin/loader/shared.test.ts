/**
 * bin/loader/shared.js bundles generated code against the running kgen's namespaces. Each
 * `kgen…` import is bound through a bridge module: it was CommonJS, so esbuild copied the whole
 * namespace into a getter object in every module importing it (the 126 generated modules of a
 * 100-kind server each copied kgen/registry, ~4 ms of every start). The bridge is now an ES
 * module exporting the namespace's names, so a cached bundle is only reused while the running
 * kgen exports the same names.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

const work = mkdtempSync(join(tmpdir(), 'kgen-shared-'));
after(() => rmSync(work, { recursive: true, force: true }));
process.env.KGEN_CACHE_DIR = join(work, 'cache');
mkdirSync(process.env.KGEN_CACHE_DIR, { mode: 0o700 });
type Provide = (specifier: string) => Promise<object | undefined>;
// A non-literal specifier: bin/loader/shared.js is plain JavaScript without declarations.
const SHARED_JS = new URL('../../../bin/loader/shared.js', import.meta.url).href;
const { importShared } = (await import(SHARED_JS)) as { importShared(paths: string[], provide: Provide): Promise<Record<string, any>[]> };

const src = join(work, 'src');
mkdirSync(src);
for (let i = 0; i < 3; i++) {
  writeFileSync(join(src, `m${i}.ts`), `import { one } from 'kgen/thing';\nexport const value${i}: number = one + ${i};\n`);
}
writeFileSync(
  join(src, 'index.ts'),
  [
    "import * as all from 'kgen/thing';",
    "import whole from 'kgen/thing';",
    "import { value0 } from './m0.js';",
    "import { value1 } from './m1.js';",
    "import { value2 } from './m2.js';",
    'export const values = [value0, value1, value2];',
    'export const names = Object.keys(all).filter((n) => n !== "default");',
    'export const wholeIsNamespace = (ns: unknown) => whole === ns;',
  ].join('\n'),
);

const namespace = (body: string): Promise<Record<string, unknown>> => import(`data:text/javascript,${encodeURIComponent(body)}`);
const bundles = () => readdirSync(process.env.KGEN_CACHE_DIR!).filter((f) => f.startsWith('shared-') && f.endsWith('.mjs'));

describe('shared bundle bridges to kgen namespaces', () => {
  it('binds named, namespace and default imports without copying the namespace per importing module', async () => {
    const ns = await namespace('export const one = 1; export const two = 2;');
    const [mod] = await importShared([join(src, 'index.ts')], async (spec: string) => (spec === 'kgen/thing' ? ns : undefined));
    assert.deepEqual(mod!.values, [1, 2, 3]);
    assert.deepEqual(mod!.names, ['one', 'two']);
    assert.equal(mod!.wholeIsNamespace(ns), true, 'the default import is the namespace, as with the CommonJS bridge');
    const [file] = bundles();
    const text = readFileSync(join(process.env.KGEN_CACHE_DIR!, file!), 'utf8');
    assert.doesNotMatch(text, /__toESM\(require_thing/, 'no per-module copy of the namespace');
  });

  it('reuses the cached bundle for the same export names and rebuilds it for others', async () => {
    const before = bundles();
    const same = await namespace('export const one = 10; export const two = 20;');
    const [reused] = await importShared([join(src, 'index.ts')], async () => same);
    assert.deepEqual(bundles(), before, 'no new bundle');
    // A fresh evaluation of the cached bundle is not possible in one process (ESM cache), so the
    // values are those bound first; the point is that no rebuild happened.
    assert.deepEqual(reused!.names, ['one', 'two']);
    const more = await namespace('export const one = 1; export const three = 3; export const two = 2;');
    const [rebuilt] = await importShared([join(src, 'index.ts')], async () => more);
    assert.equal(bundles().length, before.length + 1, 'a new bundle for the new names');
    assert.deepEqual(rebuilt!.names, ['one', 'three', 'two']);
  });

  it('still reports a kgen specifier the running kgen cannot provide', async () => {
    await assert.rejects(importShared([join(src, 'index.ts')], async () => undefined), /kgen\/thing cannot be imported by generated or user code here/);
  });
});
