/**
 * The OpenAPI outputs of kgen's built-in versions (their OpenAPI 3 documents, their Swagger paths
 * and definitions) are kept in kgen's cache across runs (generator/emit/openapi.ts, keyed with
 * generator/emit/code-key.ts). A run that reads the entry must give exactly what a run that prints
 * gives; the entry must not be used once anything the text depends on changed (the checked version
 * objects, the emit options, the printing code); and the emitter must not gain an input the key
 * does not cover.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import ts from 'typescript';
import { derivedCache } from '../../generator/cache.js';
import { importClosure, KEYED_PACKAGES } from '../../generator/emit/code-key.js';
import type { EmitOptions } from '../../generator/emit/emitted.js';
import { emitOpenAPI, KEYED_OPTIONS } from '../../generator/emit/openapi.js';
import { compile } from '../../generator/index.js';
import { writeProposedEntries } from '../../generator/write/cache.js';
import { checkedRepoWithBuiltins, isBuiltinVersion, parsedImportClosure, privateCacheDir, REPO } from './helpers.js';

const tmp: string[] = [];
after(() => tmp.forEach((d) => rmSync(d, { recursive: true, force: true })));
const cacheDir = (prefix: string) => privateCacheDir(prefix, tmp);

const PREFIX = 'builtin-openapi-';
const entries = (cache: string) => readdirSync(cache).filter((n) => n.startsWith(PREFIX));
const builtin = isBuiltinVersion;
const EMITTER = resolve(REPO, 'generator/emit/openapi.ts');
const APIS = join(REPO, 'apis');

const checkedRepo = checkedRepoWithBuiltins;
const texts = (files: { path: string; content: string }[]) => files.map((f) => [f.path, f.content]);
const openapiTexts = (files: { path: string; content: string }[]) => texts(files.filter((f) => f.path.startsWith('openapi/')));

/** Emits with `cache` and stores what the run proposed, as generate does. */
function emitWith(cache: string, checked = checkedRepo(), options: EmitOptions = {}) {
  const derived = derivedCache(cache);
  const files = emitOpenAPI(checked, options, { cache: derived, builtin });
  writeProposedEntries(derived);
  return files;
}

describe('the built-in versions’ OpenAPI outputs kept across runs (emit/openapi.ts)', () => {
  test('compile() with a cache gives the same files on a miss, on a hit and without a cache; a hit is really read', () => {
    const cache = cacheDir('builtin-openapi');
    const plain = compile({ apisDir: APIS });
    const miss = compile({ apisDir: APIS, cacheDir: cache });
    assert.equal(entries(cache).length, 0, 'compile() proposes, only write/ stores');
    emitWith(cache);
    assert.equal(entries(cache).length, 1, 'a miss proposes one entry, and write/ stores it');
    const hit = compile({ apisDir: APIS, cacheDir: cache });
    assert.deepEqual(texts(miss.files), texts(plain.files));
    assert.deepEqual(texts(hit.files), texts(plain.files));
    // The entry is what a hit prints: a changed text in it shows up in the OpenAPI 3 document and
    // in swagger.json (so the test above compared a real hit). Same length: the header holds byte ranges.
    const file = join(cache, entries(cache)[0]!);
    const entry = readFileSync(file, 'utf8');
    assert.ok(entry.includes('openapi/v3/api/v1.json'));
    assert.ok(entry.includes('ConfigMap holds configuration data'));
    writeFileSync(file, entry.replaceAll('ConfigMap holds configuration data', 'ConfigMap holds TAMPEREDation data'));
    const tampered = compile({ apisDir: APIS, cacheDir: cache });
    assert.match(tampered.files.find((f) => f.path === 'openapi/v3/api/v1.json')!.content, /ConfigMap holds TAMPEREDation data/);
    assert.match(tampered.files.find((f) => f.path === 'openapi/v2/swagger.json')!.content, /ConfigMap holds TAMPEREDation data/);
    // A damaged entry (cut short, or with no header line) is a miss, not an error.
    writeFileSync(file, entry.slice(0, entry.length / 2));
    assert.deepEqual(texts(compile({ apisDir: APIS, cacheDir: cache }).files), texts(plain.files));
    writeFileSync(file, '{"versions": ');
    assert.deepEqual(texts(compile({ apisDir: APIS, cacheDir: cache }).files), texts(plain.files));
  });

  test('texts with non-ASCII characters come back whole (the entry holds byte ranges of UTF-8)', () => {
    const cache = cacheDir('builtin-openapi-utf8');
    const plain = emitOpenAPI(checkedRepo());
    const swagger = plain.find((f) => f.path === 'openapi/v2/swagger.json')!.content;
    assert.match(swagger, /[^\x00-\x7f]/, 'some built-in description holds a non-ASCII character');
    emitWith(cache);
    assert.deepEqual(openapiTexts(emitWith(cache)), openapiTexts(plain));
  });

  test('a changed built-in version (whatever changed it), or other emit options, is not served from the entry', () => {
    const cache = cacheDir('builtin-openapi-stale');
    emitWith(cache);
    assert.equal(entries(cache).length, 1);
    // The checked model differs (as a checker change or a project's other groups could make it).
    const change = (checked: ReturnType<typeof checkedRepo>) => {
      const core = checked.served.groups.find((g) => g.name === '')!.versions.find((v) => v.name === 'v1')!;
      core.kinds.find((k) => k.name === 'ConfigMap')!.description = 'A changed description.';
      return checked;
    };
    const expected = emitOpenAPI(change(checkedRepo()));
    const got = emitWith(cache, change(checkedRepo()));
    assert.deepEqual(openapiTexts(got), openapiTexts(expected));
    assert.match(got.find((f) => f.path === 'openapi/v3/api/v1.json')!.content, /A changed description\./);
    assert.equal(entries(cache).length, 2, 'the changed state is a new entry');
    // Other options (descriptions cut at 40 characters) are another entry too.
    const short = emitWith(cache, checkedRepo(), { maxDescriptionLength: 40 });
    assert.deepEqual(openapiTexts(short), openapiTexts(emitOpenAPI(checkedRepo(), { maxDescriptionLength: 40 })));
    assert.doesNotMatch(short.find((f) => f.path === 'openapi/v3/api/v1.json')!.content, /ConfigMap holds configuration data for pods to consume/);
    assert.equal(entries(cache).length, 3);
    assert.deepEqual(openapiTexts(emitWith(cache, checkedRepo(), { maxDescriptionLength: 40 })), openapiTexts(short), 'and a hit of its own');
  });

  test('the code key follows every module the emitter really imports, and every package it imports is keyed', () => {
    // The closure as TypeScript's own parser sees the imports (the key's reader uses regexps).
    const parsed = parsedImportClosure(EMITTER);
    const closure = importClosure(EMITTER);
    assert.deepEqual(closure.files.map((f) => relative(REPO, f)).sort(), parsed.files);
    assert.deepEqual(closure.packages, parsed.packages);
    for (const name of closure.packages) assert.ok(KEYED_PACKAGES[name], `${name}: an emitter package whose version is not in the key (add it to KEYED_PACKAGES)`);
    // The runtime's OpenAPI builders and meta schemas print most of the text: they are in the key.
    assert.ok(closure.files.some((f) => f.endsWith(join('runtime', 'endpoints', 'openapi', 'meta-schemas.ts'))));
    assert.ok(closure.files.some((f) => f.endsWith(join('runtime', 'endpoints', 'openapi', 'operations.ts'))));
  });

  test('emitOpenAPI takes only what the key covers: the checked model, the emit options (all of them) and where to keep', () => {
    assert.equal(emitOpenAPI.length, 1, 'options and kept are optional');
    const index = readFileSync(join(REPO, 'generator/index.ts'), 'utf8');
    const calls = [...index.matchAll(/emitOpenAPI\(([^)]*)\)/g)].map((m) => m[1]);
    assert.deepEqual(calls, ['checked, options, { cache, builtin }']);
    // Every member of EmitOptions is in the key: a new one (whatever emitter it is for) must join KEYED_OPTIONS.
    const text = readFileSync(join(REPO, 'generator/emit/emitted.ts'), 'utf8');
    const source = ts.createSourceFile('emitted.ts', text, ts.ScriptTarget.ES2022);
    const members: string[] = [];
    ts.forEachChild(source, (node) => {
      if (ts.isInterfaceDeclaration(node) && node.name.text === 'EmitOptions') for (const m of node.members) members.push((m.name as ts.Identifier).text);
    });
    assert.deepEqual([...KEYED_OPTIONS].sort(), members.sort());
  });
});
