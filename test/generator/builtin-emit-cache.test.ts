/**
 * The TypeScript outputs of kgen's built-in versions are kept in kgen's cache across runs
 * (generator/emit/typescript.ts, keyed with generator/emit/code-key.ts). A run that reads the entry
 * must give exactly what a run that renders gives; the entry must not be used once anything the
 * text depends on changed (the checked version objects, their banners, the rendering code, the
 * templates); and the emitter must not gain an input the key does not cover.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { derivedCache } from '../../generator/cache.js';
import { codeKey, computeCodeKey, importClosure, KEYED_PACKAGES } from '../../generator/emit/code-key.js';
import { emitTypeScript } from '../../generator/emit/typescript.js';
import { compile } from '../../generator/index.js';
import type { ApiVersion } from '../../generator/model.js';
import { writeProposedEntries } from '../../generator/write/cache.js';
import { checkedRepoWithBuiltins, isBuiltinVersion, parsedImportClosure, privateCacheDir, REPO, tempDir } from './helpers.js';

const tmp: string[] = [];
after(() => tmp.forEach((d) => rmSync(d, { recursive: true, force: true })));
const cacheDir = (prefix: string) => privateCacheDir(prefix, tmp);

const PREFIX = 'builtin-emit-ts-';
const entries = (cache: string) => readdirSync(cache).filter((n) => n.startsWith(PREFIX));
const builtin = isBuiltinVersion;
const sourceOf = (v: ApiVersion) => (builtin(v) ? `kgen's built-in ${v.group || 'core'}/${v.name}` : `apis/${v.group}/${v.name}`);
const EMITTER = resolve(REPO, 'generator/emit/typescript.ts');

const checkedRepo = checkedRepoWithBuiltins;
const texts = (files: { path: string; content: string }[]) => files.map((f) => [f.path, f.content]);

/** Emits with `cache` and stores what the run proposed, as generate does. */
function emitWith(cache: string, checked = checkedRepo(), of = sourceOf) {
  const derived = derivedCache(cache);
  const files = emitTypeScript(checked, of, { cache: derived, builtin });
  writeProposedEntries(derived);
  return files;
}

describe('the built-in versions’ TypeScript outputs kept across runs (emit/typescript.ts)', () => {
  test('compile() with a cache gives the same files on a miss, on a hit and without a cache; a hit is really read', () => {
    const cache = cacheDir('builtin-emit');
    const plain = compile({ apisDir: join(REPO, 'apis') });
    const miss = compile({ apisDir: join(REPO, 'apis'), cacheDir: cache });
    assert.equal(entries(cache).length, 0, 'compile() proposes, only write/ stores');
    emitWith(cache);
    assert.equal(entries(cache).length, 1, 'a miss proposes one entry, and write/ stores it');
    const hit = compile({ apisDir: join(REPO, 'apis'), cacheDir: cache });
    assert.deepEqual(texts(miss.files), texts(plain.files));
    assert.deepEqual(texts(hit.files), texts(plain.files));
    // The entry is what a hit prints: a changed text in it shows up (so the test above compared a real hit).
    const file = join(cache, entries(cache)[0]!);
    const entry = readFileSync(file, 'utf8');
    assert.ok(entry.includes('models/core/v1.ts'));
    writeFileSync(file, entry.replace('export interface ConfigMap ', 'export interface ConfigMapX '));
    const tampered = compile({ apisDir: join(REPO, 'apis'), cacheDir: cache });
    assert.match(tampered.files.find((f) => f.path === 'models/core/v1.ts')!.content, /interface ConfigMapX /);
    // A damaged entry is a miss, not an error.
    writeFileSync(file, '{"models": ');
    assert.deepEqual(texts(compile({ apisDir: join(REPO, 'apis'), cacheDir: cache }).files), texts(plain.files));
  });

  test('a changed built-in version (whatever changed it), or a changed banner, is not served from the entry', () => {
    const cache = cacheDir('builtin-emit-stale');
    emitWith(cache);
    assert.equal(entries(cache).length, 1);
    // The checked model differs (as a checker change or a project's other groups could make it).
    const changed = checkedRepo();
    const core = changed.model.groups.find((g) => g.name === '')!.versions.find((v) => v.name === 'v1')!;
    const configMap = core.kinds.find((k) => k.name === 'ConfigMap')!;
    configMap.description = 'A changed description.';
    const expected = emitTypeScript(changed, sourceOf);
    const changedAgain = checkedRepo();
    changedAgain.model.groups.find((g) => g.name === '')!.versions.find((v) => v.name === 'v1')!.kinds.find((k) => k.name === 'ConfigMap')!.description = 'A changed description.';
    const got = emitWith(cache, changedAgain);
    assert.deepEqual(texts(got), texts(expected));
    assert.match(got.find((f) => f.path === 'models/core/v1.ts')!.content, /A changed description\./);
    assert.equal(entries(cache).length, 2, 'the changed state is a new entry');
    // Another banner (the only other input the emitter takes) is another entry too.
    const banner = (v: ApiVersion) => `elsewhere/${sourceOf(v)}`;
    const withBanner = emitWith(cache, checkedRepo(), banner);
    assert.deepEqual(texts(withBanner), texts(emitTypeScript(checkedRepo(), banner)));
    assert.match(withBanner.find((f) => f.path === 'models/core/v1.ts')!.content, /elsewhere\/kgen's built-in/);
  });

  test('the code key changes with any template, and with any module the emitter imports, however deep', () => {
    const d = tempDir('code-key');
    tmp.push(d);
    const templates = join(d, 'templates');
    mkdirSync(templates);
    for (const name of readdirSync(join(REPO, 'templates'))) writeFileSync(join(templates, name), readFileSync(join(REPO, 'templates', name)));
    assert.equal(computeCodeKey(EMITTER, templates), computeCodeKey(EMITTER, join(REPO, 'templates')), 'the key is of the templates’ names and texts');
    const before = computeCodeKey(EMITTER, templates);
    writeFileSync(join(templates, 'models.ts.hbs'), readFileSync(join(templates, 'models.ts.hbs'), 'utf8') + '\n');
    assert.notEqual(computeCodeKey(EMITTER, templates), before, 'an edited template is a new key');
    assert.equal(codeKey(EMITTER), computeCodeKey(EMITTER), 'the process keeps the key it computed');
    // A module chain a → b → c: editing c, two imports away, changes a's key.
    const code = join(d, 'code');
    mkdirSync(code);
    writeFileSync(join(code, 'a.ts'), "import { b } from './b.js';\nexport const a = b;\n");
    writeFileSync(join(code, 'b.ts'), "export { c as b } from './c.js';\nimport type { T } from './t.js';\n");
    writeFileSync(join(code, 'c.ts'), 'export const c = 1;\n');
    writeFileSync(join(code, 't.ts'), 'export type T = 1;\n');
    const first = computeCodeKey(join(code, 'a.ts'), templates);
    writeFileSync(join(code, 'c.ts'), 'export const c = 2;\n');
    const second = computeCodeKey(join(code, 'a.ts'), templates);
    writeFileSync(join(code, 't.ts'), 'export type T = 2;\n');
    assert.notEqual(second, first);
    assert.notEqual(computeCodeKey(join(code, 'a.ts'), templates), second);
  });

  test('the code key follows every module the emitter really imports, and every package it imports is keyed', () => {
    // The closure as TypeScript's own parser sees the imports (the key's reader uses regexps).
    const parsed = parsedImportClosure(EMITTER);
    const closure = importClosure(EMITTER);
    assert.deepEqual(closure.files.map((f) => relative(REPO, f)).sort(), parsed.files);
    assert.deepEqual(closure.packages, parsed.packages);
    for (const name of closure.packages) assert.ok(KEYED_PACKAGES[name], `${name}: an emitter package whose version is not in the key (add it to KEYED_PACKAGES)`);
    // No TypeScript in the rendering code: its version is not part of the key.
    assert.ok(!closure.packages.includes('typescript'));
  });

  test('the built-in versions have no validator modules (so the entry needs none)', () => {
    // If they gain some, keep them in the entry as well (the validators emitter renders them every run).
    const { model, files } = compile({ apisDir: join(REPO, 'apis') });
    const builtinFolders = model.groups.filter((g) => g.versions.some(builtin)).flatMap((g) => g.versions.filter(builtin).map((v) => `validate/${g.name || 'core'}/${v.name}.ts`));
    assert.ok(builtinFolders.length > 5);
    assert.ok(files.some((f) => f.path.startsWith('validate/')), 'the project’s own groups have validators');
    assert.deepEqual(files.filter((f) => builtinFolders.includes(f.path)).map((f) => f.path), []);
  });

  test('emitTypeScript takes only what the key covers: the checked model, the banners and where to keep', () => {
    // A new parameter (an output layout, an import specifier, any CompileOptions) must join the key first.
    assert.equal(emitTypeScript.length, 3);
    const index = readFileSync(join(REPO, 'generator/index.ts'), 'utf8');
    const calls = [...index.matchAll(/emitTypeScript\(([^)]*)\)/g)].map((m) => m[1]);
    assert.deepEqual(calls, ['checked, sourceOf, { cache, builtin }']);
  });
});
