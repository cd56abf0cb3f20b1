/**
 * The generator's shape (issue 14): the check stage returns the checked model the emitters
 * consume (conversion plans and the served subset computed once), no emitter imports another, and
 * write/ is the only stage that writes files (kgen's template cache included).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { checkModel } from '../../generator/check/checker.js';
import { compile } from '../../generator/index.js';
import { emitConversions } from '../../generator/emit/conversion.js';
import { emitDiscovery } from '../../generator/emit/discovery.js';
import { emitOpenAPI } from '../../generator/emit/openapi.js';
import { resourceDefinition } from '../../generator/definitions.js';
import { protobufNumbers } from '../../generator/emit/protobuf-numbers.js';
import { emitTypeScript } from '../../generator/emit/typescript.js';
import { groupFolder } from '../../generator/names.js';
import { deprecationWarning } from '../../generator/versions.js';
import { parseApis } from '../../generator/parse/parser.js';
import { REPO, listTree, tempDir, writeApis } from './helpers.js';

const snapshot = (dir: string) => listTree(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]);

const tmp: string[] = [];
after(() => tmp.forEach((d) => rmSync(d, { recursive: true, force: true })));

const thing = (version: string, markers: string[]) =>
  `/**\n * Thing ${version}.\n * @kgen:resource\n${markers.map((m) => ` * ${m}\n`).join('')} */\nexport interface Thing {\n  spec: ThingSpec;\n}\n\nexport interface ThingSpec {\n  size: number;\n}\n`;

function checked() {
  const dir = tempDir('shape');
  tmp.push(dir);
  const apis = writeApis(dir, {
    'things.example.com/v1/thing.ts': thing('v1', ['@kgen:storageversion']),
    'things.example.com/v1beta1/thing.ts': thing('v1beta1', ['@kgen:unservedversion']),
  });
  const { model, diagnostics } = parseApis([apis]);
  const result = checkModel(model, diagnostics);
  assert.equal(diagnostics.hasErrors, false);
  return result;
}

describe('shape: checkModel returns the checked model', () => {
  test('the conversion plans and the served subset are computed once, by the check stage', () => {
    const c = checked();
    assert.deepEqual(c.conversions.map((p) => `${p.group}/${p.kind} hub ${p.hub.version}`), ['things.example.com/Thing hub v1']);
    assert.deepEqual(c.served.groups.flatMap((g) => g.versions.map((v) => v.name)), ['v1']);
    assert.deepEqual(c.model.groups.flatMap((g) => g.versions.map((v) => v.name)).sort(), ['v1', 'v1beta1']);
  });

  test('emitters print what the checked model holds, without recomputing it', () => {
    const c = checked();
    // No plans in the checked model: no conversion module, although the model has a multi-version kind.
    assert.deepEqual(emitConversions({ ...c, conversions: [] }, { outDir: '/nowhere' }), []);
    assert.equal(emitConversions(c, { outDir: '/nowhere' }).length, 1);
    // Nothing served: no discovery of the group, no OpenAPI document, no routes; models of every version still.
    const none = { ...c, served: { ...c.served, groups: [] } };
    const discovery = emitDiscovery(none).find((f) => f.path === 'discovery/apis.json')!;
    assert.deepEqual(JSON.parse(discovery.content).groups, []);
    assert.deepEqual(emitOpenAPI(none).filter((f) => f.path.startsWith('openapi/v3/')), []);
    const ts = emitTypeScript(none, () => 'test').map((f) => f.path);
    assert.ok(!ts.some((p) => p.startsWith('routes/')), ts.join(' '));
    assert.ok(ts.includes('models/things.example.com/v1beta1.ts'));
  });
});

/** The relative imports of a module, as paths relative to its folder. */
function relativeImports(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(/^(?:import|export)\b[^;]*?from\s+'(\.[^']+)'/gms)].map((m) => m[1]!);
}

describe('shape: emitters', () => {
  test('no emitter imports another (shared pieces live in modules that emit nothing)', () => {
    const dir = join(REPO, 'generator/emit');
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    const emitters = new Set(files.filter((f) => /^export function emit[A-Z]/m.test(readFileSync(join(dir, f), 'utf8'))));
    assert.ok(emitters.size >= 8, [...emitters].join(' '));
    const offending: string[] = [];
    for (const f of emitters) {
      for (const spec of relativeImports(join(dir, f))) {
        const target = spec.replace(/^\.\//, '').replace(/\.js$/, '.ts');
        if (!spec.startsWith('./')) continue;
        if (emitters.has(target)) offending.push(`${f} imports ${target}`);
      }
    }
    assert.deepEqual(offending, []);
  });
});

/** Every .ts file under dir, relative to it. */
function sources(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix)).flatMap((name) => {
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(join(dir, rel)).isDirectory()) return name === 'builtin' ? [] : sources(dir, rel);
    return rel.endsWith('.ts') ? [rel] : [];
  });
}

describe('shape: write/ is the only stage that writes', () => {
  test('no generator module outside write/ writes, renames or removes files, or imports bin/', () => {
    const dir = join(REPO, 'generator');
    const offending: string[] = [];
    for (const rel of sources(dir)) {
      if (rel.startsWith('write/')) continue;
      const text = readFileSync(join(dir, rel), 'utf8');
      const writes = text.match(/\b(writeFileSync|writeFile|appendFileSync|renameSync|rmSync|unlinkSync|mkdirSync|copyFileSync|linkSync|createWriteStream|writeAtomic)\b/g);
      if (writes) offending.push(`${rel}: ${[...new Set(writes)].join(', ')}`);
      if (/from '(\.\.\/)+bin\//.test(text)) offending.push(`${rel}: imports bin/`);
    }
    assert.deepEqual(offending, []);
  });

  test('kgen generate stores the precompiled templates in its cache directory through write/, and reuses them', () => {
    const dir = tempDir('shape-cache');
    tmp.push(dir);
    const apis = writeApis(dir, { 'things.example.com/v1/thing.ts': thing('v1', []) });
    const cache = join(dir, 'cache');
    mkdirSync(cache, { mode: 0o700 });
    const run = (out: string) => {
      const r = spawnSync(process.execPath, [join(REPO, 'bin/kgen.js'), 'generate', apis, '--out', out, '--no-builtins'], {
        cwd: REPO,
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, KGEN_CACHE_DIR: cache },
      });
      assert.equal(r.status, 0, r.stderr);
    };
    const entries = () => readdirSync(cache).filter((n) => n.startsWith('hbs-'));
    run(join(dir, 'out1'));
    assert.equal(entries().length, 1, readdirSync(cache).join(' '));
    const entry = join(cache, entries()[0]!);
    const written = statSync(entry).mtimeMs;
    run(join(dir, 'out2'));
    assert.equal(statSync(entry).mtimeMs, written, 'the second run reads the entry, it does not write it again');
    assert.deepEqual(snapshot(join(dir, 'out2')), snapshot(join(dir, 'out1')));
    // compile() alone only reads: with an empty cache directory it proposes, and nothing is written.
    const empty = join(dir, 'empty-cache');
    mkdirSync(empty, { mode: 0o700 });
    assert.equal(compile({ apisDir: apis, builtins: false, cacheDir: empty }).ok, true);
    assert.deepEqual(readdirSync(empty), []);
  });
});

describe('shape: templates carry the shape of emitted files', () => {
  test("a storage module's definition is exactly the kind's ResourceDefinition, member by member", () => {
    const result = compile({ apisDir: join(REPO, 'apis') });
    assert.equal(result.ok, true);
    const byPath = new Map(result.files.map((f) => [f.path, f.content]));
    let seen = 0;
    const features = new Set<string>();
    for (const group of result.model.groups) {
      for (const version of group.versions) {
        for (const kind of version.kinds) {
          if (kind.unserved) continue;
          const content = byPath.get(`storage/${groupFolder(kind.group)}/${kind.version}/${kind.plural}.ts`);
          assert.ok(content, `${kind.group}/${kind.version} ${kind.name}`);
          const literal = content.slice(content.indexOf('>({') + 2, content.lastIndexOf('}') + 1);
          const printed = new Function(`return (${literal});`)() as Record<string, unknown>;
          const expected: Record<string, unknown> = { ...resourceDefinition(kind) };
          const protobuf = protobufNumbers(kind, version);
          if (protobuf) expected.protobuf = protobuf;
          const warning = deprecationWarning(group, kind);
          if (warning !== undefined) expected.deprecationWarning = warning;
          assert.deepEqual(printed, expected, `${kind.group}/${kind.version} ${kind.name}`);
          for (const [key, value] of Object.entries(expected)) if (value !== undefined) features.add(key);
          if (kind.subresources.scale) features.add('scale');
          if (kind.subresources.custom?.length) features.add('custom');
          if (kind.printColumns.some((c) => c.description)) features.add('column description');
          seen++;
        }
      }
    }
    assert.ok(seen > 20);
    // The repository's APIs exercise every optional member the template prints.
    for (const f of ['virtual', 'protobuf', 'deprecationWarning', 'scale', 'custom', 'column description']) assert.ok(features.has(f), f);
  });
});
