/**
 * kgen's built-in APIs are parsed once and kept in kgen's cache (generator/parse/builtin-cache.ts).
 * A run that reads the entry must give exactly what a run that parses every root together gives,
 * the entry must change whenever the parse could, and a project that shares a group with the
 * built-ins (or imports from them) is parsed together with them.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { derivedCache } from '../../generator/cache.js';
import { BUILTIN_APIS, compile, formatDiagnostic } from '../../generator/index.js';
import { builtinParse, PARSE_IMPORTS } from '../../generator/parse/builtin-cache.js';
import { parseApis, parseRoot } from '../../generator/parse/parser.js';
import { writeProposedEntries } from '../../generator/write/cache.js';
import { REPO, parsedImportClosure, tempDir, writeApis } from './helpers.js';

const tmp: string[] = [];
after(() => tmp.forEach((d) => rmSync(d, { recursive: true, force: true })));
function dir(prefix: string): string {
  const d = tempDir(prefix);
  tmp.push(d);
  return d;
}

/** A parse as comparable data: the model, the diagnostics as printed, the files read. */
function parsed(r: ReturnType<typeof parseApis>) {
  return { model: JSON.parse(JSON.stringify(r.model)), diagnostics: r.diagnostics.sorted().map((d) => formatDiagnostic(d)), files: r.files };
}

/** The built-in root holds kube's own groups (`apps`), as compile() says. */
const KUBE = new Set([resolve(BUILTIN_APIS)]);

const entries = (cache: string) => readdirSync(cache).filter((n) => n.startsWith('builtin-parse-'));

describe('the built-in APIs parsed once (parse/builtin-cache.ts)', () => {
  test('merged with a project, the cached parse gives what parsing every root together gives', () => {
    const apis = join(REPO, 'apis');
    const together = parsed(parseApis([BUILTIN_APIS, apis], undefined, KUBE));
    const cache = join(dir('builtin-cache'), 'cache');
    mkdirSync(cache, { mode: 0o700 });
    const derived = derivedCache(cache);
    const miss = parsed(parseApis([BUILTIN_APIS, apis], undefined, KUBE, builtinParse(BUILTIN_APIS, derived)));
    writeProposedEntries(derived);
    assert.equal(entries(cache).length, 1, 'a miss proposes the entry, and write/ stores it');
    const hit = parsed(parseApis([BUILTIN_APIS, apis], undefined, KUBE, builtinParse(BUILTIN_APIS, derivedCache(cache))));
    assert.deepEqual(miss, together);
    assert.deepEqual(hit, together);
    // The entry really is what the next run reads: a damaged one is a miss, not an error.
    writeFileSync(join(cache, entries(cache)[0]!), '{"root": ');
    assert.deepEqual(parsed(parseApis([BUILTIN_APIS, apis], undefined, KUBE, builtinParse(BUILTIN_APIS, derivedCache(cache)))), together);
  });

  test('compile() with a cache directory emits the same files and diagnostics as without one', () => {
    const cache = join(dir('builtin-compile'), 'cache');
    mkdirSync(cache, { mode: 0o700 });
    const plain = compile({ apisDir: join(REPO, 'apis') });
    const derived = derivedCache(cache);
    builtinParse(BUILTIN_APIS, derived);
    writeProposedEntries(derived);
    const cached = compile({ apisDir: join(REPO, 'apis'), cacheDir: cache });
    assert.equal(cached.ok, true);
    assert.deepEqual(cached.diagnostics.map((d) => formatDiagnostic(d)), plain.diagnostics.map((d) => formatDiagnostic(d)));
    assert.deepEqual(cached.files.map((f) => [f.path, f.content]), plain.files.map((f) => [f.path, f.content]));
  });

  test('an edited source of the cached root is a new entry: the edit is seen', () => {
    const d = dir('builtin-edit');
    const root = writeApis(d, {
      'things.example.com/v1/thing.ts': '/**\n * Thing.\n * @kgen:resource\n */\nexport interface Thing {\n  spec: { size: number };\n}\n',
    });
    const cache = join(d, 'cache');
    mkdirSync(cache, { mode: 0o700 });
    const derived = derivedCache(cache);
    const first = builtinParse(root, derived);
    writeProposedEntries(derived);
    const file = join(root, 'things.example.com/v1/thing.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace('size: number', 'size: number; color?: string'));
    const second = builtinParse(root, derivedCache(cache));
    const fields = (p: typeof first) => JSON.stringify(p.groups[0]!.versions[0]!.kinds[0]!.schema).includes('"color"');
    assert.equal(fields(first), false);
    assert.equal(fields(second), true);
    assert.deepEqual(second, JSON.parse(JSON.stringify(parseRoot(root, new Set([resolve(root)])))));
  });

  test('a project sharing a group with the cached root, or importing from it, is parsed together with it', () => {
    const d = dir('builtin-shared');
    const root = writeApis(join(d, 'kgen'), {
      'core/v1/base.ts': '/** Base. */\nexport interface Base {\n  name: string;\n}\n',
    });
    const resource = (body: string) => `/**\n * Pod2.\n * @kgen:resource\n */\nexport interface Pod2 {\n  spec: ${body};\n}\n`;
    const sameGroup = writeApis(join(d, 'same'), { 'core/v1/pod2.ts': resource('Base') });
    const importer = join(d, 'importing', 'apis', 'things.example.com', 'v1');
    const from = relative(importer, join(root, 'core/v1/base.js'));
    const importing = writeApis(join(d, 'importing'), { 'things.example.com/v1/pod2.ts': `import type { Base } from '${from}';\n${resource('Base')}` });
    for (const apis of [sameGroup, importing]) {
      const kube = new Set([resolve(root)]);
      const together = parsed(parseApis([root, apis], undefined, kube));
      assert.deepEqual(parsed(parseApis([root, apis], undefined, kube, builtinParse(root))), together, apis);
    }
    // Same group: Base resolves from the sibling file, which only a parse of both roots sees.
    assert.equal(parsed(parseApis([root, sameGroup], undefined, new Set([resolve(root)]), builtinParse(root))).diagnostics.length, 0);
  });

  test('PARSE_IMPORTS lists every module outside generator/parse/ that the parse stage imports', () => {
    const parseDir = resolve(REPO, 'generator/parse');
    const outside = new Set<string>();
    for (const name of readdirSync(parseDir).filter((n) => n.endsWith('.ts'))) {
      for (const file of parsedImportClosure(join(parseDir, name)).files) {
        const target = resolve(REPO, file);
        if (dirname(target) !== parseDir) outside.add(relative(parseDir, target).replace(/\.ts$/, ''));
      }
    }
    // The derived cache (which names entries) and this folder's own files are not parse inputs.
    outside.delete('../cache');
    assert.deepEqual([...outside].sort(), [...PARSE_IMPORTS].sort());
  });
});
