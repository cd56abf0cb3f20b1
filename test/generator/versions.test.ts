/**
 * Multi-version kinds in the generator: version priority in discovery and OpenAPI, the version
 * markers (@kgen:unservedversion, @kgen:deprecatedversion), and generated conversion (fields that
 * correspond are converted, the user's functions convert the rest, and the result round-trips).
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { compile, generate } from '../../generator/index.js';
import type { KindConversion } from '../../runtime/conversion/index.js';
import { fixtureApis, listTree, tempDir, writeApis } from './helpers.js';

const tmp: string[] = [];
after(() => tmp.forEach((d) => rmSync(d, { recursive: true, force: true })));

function generateOk(files: Record<string, string>): { out: string; apis: string } {
  const dir = tempDir('versions');
  tmp.push(dir);
  const apis = writeApis(dir, files);
  const out = join(dir, 'generated');
  const result = generate({ apisDir: apis, outDir: out, builtins: false });
  assert.equal(result.ok, true, result.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'));
  return { out, apis };
}

const json = (out: string, path: string) => JSON.parse(readFileSync(join(out, path), 'utf8'));

const thing = (version: string, markers: string[], spec: string, extra = '') =>
  `/**\n * Thing ${version}.\n * @kgen:resource\n${markers.map((m) => ` * ${m}\n`).join('')} */\nexport interface Thing {\n  spec: ThingSpec;\n}\n\nexport interface ThingSpec {\n${spec}\n}\n${extra}`;

describe('versions: priority order', () => {
  test('discovery and OpenAPI list versions GA > beta > alpha, higher first, the preferred first', () => {
    const dir = tempDir('versions-priority');
    tmp.push(dir);
    const result = generate({ apisDir: fixtureApis('versions'), outDir: join(dir, 'generated'), builtins: false });
    assert.equal(result.ok, true);
    const out = join(dir, 'generated');
    const order = ['v2', 'v1', 'v2beta1', 'v1beta1', 'v1alpha1'];
    const group = json(out, 'discovery/apis.json').groups[0];
    assert.deepEqual(group.versions.map((v: { version: string }) => v.version), order);
    assert.equal(group.preferredVersion.version, 'v2');
    assert.deepEqual(json(out, 'discovery/aggregated.json').items[0].versions.map((v: { version: string }) => v.version), order);
    for (const v of order) assert.ok(listTree(out).includes(`openapi/v3/apis/things.example.com/${v}.json`), v);
    // One storage version hash, the storage version's (v2), for every version of the resource.
    const hashes = order.map((v) => json(out, `discovery/apis/things.example.com/${v}.json`).resources[0].storageVersionHash);
    assert.equal(new Set(hashes).size, 1);
    const storage = order.map((v) => readFileSync(join(out, `storage/things.example.com/${v}/things.ts`), 'utf8').includes('storageVersion: true'));
    assert.deepEqual(storage, [true, false, false, false, false]);
  });
});

describe('versions: markers', () => {
  test('@kgen:unservedversion: no discovery, OpenAPI, routes or client; still a model and a conversion', () => {
    const { out } = generateOk({
      'things.example.com/v1/thing.ts': thing('v1', ['@kgen:storageversion'], '  size: number;'),
      'things.example.com/v1beta1/thing.ts': thing('v1beta1', ['@kgen:unservedversion'], '  size: number;'),
    });
    const files = listTree(out);
    assert.deepEqual(json(out, 'discovery/apis.json').groups[0].versions.map((v: { version: string }) => v.version), ['v1']);
    for (const f of ['openapi/v3/apis/things.example.com/v1beta1.json', 'routes/things.example.com/v1beta1.ts', 'client/things.example.com/v1beta1.ts', 'discovery/apis/things.example.com/v1beta1.json']) {
      assert.ok(!files.includes(f), `${f} must not be emitted`);
    }
    assert.ok(files.includes('models/things.example.com/v1beta1.ts'));
    assert.match(readFileSync(join(out, 'conversion/things.example.com/things.ts'), 'utf8'), /v1beta1: spoke<v1beta1\.Thing, v1\.Thing>/);
    assert.doesNotMatch(readFileSync(join(out, 'index.ts'), 'utf8'), /v1beta1/);
  });

  test("@kgen:deprecatedversion: kube's default warning names the newest served, non-deprecated version; warning= replaces it", () => {
    const { out } = generateOk({
      'things.example.com/v1/thing.ts': thing('v1', ['@kgen:storageversion'], '  size: number;'),
      'things.example.com/v2alpha1/thing.ts': thing('v2alpha1', [], '  size: number;'),
      'things.example.com/v1beta2/thing.ts': thing('v1beta2', ['@kgen:deprecatedversion'], '  size: number;'),
      'things.example.com/v1beta1/thing.ts': thing('v1beta1', ['@kgen:deprecatedversion warning="v1beta1 things are going away"'], '  size: number;'),
    });
    const definition = (v: string) => readFileSync(join(out, `storage/things.example.com/${v}/things.ts`), 'utf8');
    assert.match(definition('v1beta2'), /deprecationWarning: 'things\.example\.com\/v1beta2 Thing is deprecated; use things\.example\.com\/v1 Thing'/);
    assert.match(definition('v1beta1'), /deprecationWarning: 'v1beta1 things are going away'/);
    assert.doesNotMatch(definition('v1'), /deprecationWarning/);
    assert.doesNotMatch(definition('v2alpha1'), /deprecationWarning/);
  });

  test('misplaced version markers are diagnostics (KG002), as are unknown arguments (KG003)', () => {
    const dir = tempDir('versions-misplaced');
    tmp.push(dir);
    const apis = writeApis(dir, {
      'things.example.com/v1/thing.ts': thing('v1', ['@kgen:storageversion'], '  /** @kgen:unservedversion */\n  size: number;'),
      'things.example.com/v1beta1/thing.ts': thing('v1beta1', ['@kgen:deprecatedversion message="x"'], '  size: number;'),
    });
    const result = compile({ apisDir: apis, builtins: false });
    assert.deepEqual(
      result.diagnostics.map((d) => [d.code, d.message]),
      [
        ['KG002', '"@kgen:unservedversion" is not allowed on a field'],
        ['KG003', 'invalid argument to "@kgen:deprecatedversion": unknown argument "message"'],
      ],
    );
  });
});

describe('versions: generated conversion', () => {
  const hub = thing(
    'v2',
    ['@kgen:storageversion'],
    [
      '  replicas?: number;',
      "  color?: 'red' | 'blue' | 'green';",
      '  parts?: Part[];',
      '  labels?: Record<string, string>;',
      '  window?: { start: string; days?: string[] };',
      '  /** @kgen:preserveUnknownFields */\n  extra?: unknown;',
    ].join('\n'),
    '\nexport interface Part {\n  name: string;\n  count: number;\n}\n',
  );
  const spokeTypes = thing(
    'v1',
    [],
    ['  size?: number;', "  color?: 'red' | 'blue';", '  parts?: Part[];', '  labels?: Record<string, string>;', '  window?: { start: string; days?: string[] };', '  /** @kgen:preserveUnknownFields */\n  extra?: unknown;'].join('\n'),
    '\nexport interface Part {\n  name: string;\n  count: number;\n}\n',
  );

  test('each field without a counterpart (or with another type) is named, once, with its function', () => {
    const dir = tempDir('versions-unmatched');
    tmp.push(dir);
    const apis = writeApis(dir, { 'things.example.com/v2/thing.ts': hub, 'things.example.com/v1/thing.ts': spokeTypes });
    const result = compile({ apisDir: apis, builtins: false });
    assert.equal(result.ok, false);
    assert.deepEqual(
      result.diagnostics.map((d) => `${d.code} ${d.message}`),
      [
        'KG040 things.example.com/v1 field "ThingSpec.size" has no field of that name in v2: it needs the conversion function Convert_v1_ThingSpec_To_v2_ThingSpec',
        // v2 colours include green, which v1 does not allow; v1's all fit v2.
        'KG040 things.example.com/v2 field "ThingSpec.replicas" has no field of that name in v1: it needs the conversion function Convert_v2_ThingSpec_To_v1_ThingSpec',
        'KG040 things.example.com/v2 field "ThingSpec.color" allows values in v2 that v1 does not (one of "red", "blue", "green" → one of "red", "blue"): it needs the conversion function Convert_v2_ThingSpec_To_v1_ThingSpec',
      ],
    );
  });

  test('the generated module copies what corresponds, calls the user functions, and round-trips', async () => {
    const conversion = [
      "import type { ThingSpec } from './thing.js';",
      "import type { ThingSpec as HubSpec } from '../v2/thing.js';",
      'export function Convert_v1_ThingSpec_To_v2_ThingSpec(src: ThingSpec, out: HubSpec): void {',
      '  if (src.size !== undefined) out.replicas = src.size;',
      '}',
      'export function Convert_v2_ThingSpec_To_v1_ThingSpec(src: HubSpec, out: ThingSpec): void {',
      '  if (src.replicas !== undefined) out.size = src.replicas;',
      "  if (src.color === 'green') out.color = 'blue';",
      "  else if (src.color !== undefined) out.color = src.color;",
      '}',
      '',
    ].join('\n');
    const { out } = generateOk({ 'things.example.com/v2/thing.ts': hub, 'things.example.com/v1/thing.ts': spokeTypes, 'things.example.com/v1/conversion.ts': conversion });
    const source = readFileSync(join(out, 'conversion/things.example.com/things.ts'), 'utf8');
    assert.match(source, /import \{ Convert_v1_ThingSpec_To_v2_ThingSpec, Convert_v2_ThingSpec_To_v1_ThingSpec \} from '\.\.\/\.\.\/\.\.\/apis\/things\.example\.com\/v1\/conversion\.js';/);
    assert.match(readFileSync(join(out, 'storage/things.example.com/v1/things.ts'), 'utf8'), /, thingsConversion\);/);
    const mod = (await import(pathToFileURL(join(out, 'conversion/things.example.com/things.ts')).href)) as { thingsConversion: KindConversion };
    const c = mod.thingsConversion;
    assert.deepEqual([c.storageVersion, [...c.versions]], ['v2', ['v2', 'v1']]);
    const v1 = Object.freeze({
      apiVersion: 'things.example.com/v1',
      kind: 'Thing',
      metadata: Object.freeze({ name: 't', labels: Object.freeze({ a: 'b' }) }),
      spec: Object.freeze({ size: 3, color: 'red', parts: [{ name: 'p', count: 2 }], labels: { x: 'y' }, window: { start: 'mon', days: ['tue'] }, extra: { any: [1, { deep: true }] } }),
    });
    const v2 = c.convert(v1 as never, 'v1', 'v2');
    assert.deepEqual(v2, {
      apiVersion: 'things.example.com/v2',
      kind: 'Thing',
      metadata: { name: 't', labels: { a: 'b' } },
      spec: { color: 'red', parts: [{ name: 'p', count: 2 }], labels: { x: 'y' }, window: { start: 'mon', days: ['tue'] }, extra: { any: [1, { deep: true }] }, replicas: 3 },
    });
    assert.notEqual(v2.metadata, v1.metadata, 'nothing is shared with the input');
    assert.notEqual((v2.spec as { parts: unknown }).parts, v1.spec.parts);
    assert.deepEqual(c.convert(v2, 'v2', 'v1'), { ...v1, spec: { color: 'red', parts: [{ name: 'p', count: 2 }], labels: { x: 'y' }, window: { start: 'mon', days: ['tue'] }, extra: { any: [1, { deep: true }] }, size: 3 } });
    assert.equal(c.convert(v1 as never, 'v1', 'v1'), v1, 'the same version is the same object');
    assert.equal(c.versionOf(v1 as never), 'v1');
    assert.throws(() => c.convert(v1 as never, 'v1', 'v3'), /no conversion of Thing for version "things\.example\.com\/v3"/);
  });
});

describe("versions: fields a version cannot hold survive in the annotation (kube's conversion convention)", () => {
  const ANNOTATION = 'things.example.com/conversion-data';
  const part = (extra: string) => `\nexport interface Part {\n  name: string;\n${extra}}\n`;
  const files = {
    // v2 (storage) added spec.priority and spec.parts[].weight; no conversion function is needed.
    // v1's anonymous window type has a note v2's lacks: kept the other way round.
    'things.example.com/v2/thing.ts': thing('v2', ['@kgen:storageversion'], '  size?: number;\n  parts?: Part[];\n  priority?: number;\n  window?: { start?: string };', part('  weight?: number;\n')),
    'things.example.com/v1/thing.ts': thing('v1', [], '  size?: number;\n  parts?: Part[];\n  window?: { start?: string; note?: string };', part('')),
  };

  test('no diagnostics: the generated code keeps and restores what the other version lacks', () => {
    const { out } = generateOk(files);
    const source = readFileSync(join(out, 'conversion/things.example.com/things.ts'), 'utf8');
    assert.match(source, /v1 has no `priority`: kept in the things\.example\.com\/conversion-data annotation\./);
    assert.match(source, /scope\.keep\('priority', src\.priority\);/);
    assert.match(source, /scope\.restore\(out, 'weight'\);/);
    assert.match(source, /c0\.keep\('note', s0\.note\);/);
    assert.match(source, /src\.parts\.map\(\(e0, i0\) => autoConvert_v2_Part_To_v1_Part\(e0, scope\.field\('parts'\)\.item\(i0\)\)\)/);
  });

  test('hub → spoke keeps them in the annotation; spoke → hub restores them and removes it; edits through the spoke are kept', async () => {
    const { out } = generateOk(files);
    const { thingsConversion: c } = (await import(pathToFileURL(join(out, 'conversion/things.example.com/things.ts')).href)) as { thingsConversion: KindConversion };
    const hub = deepFreeze({
      apiVersion: 'things.example.com/v2',
      kind: 'Thing',
      metadata: { name: 't', annotations: { mine: 'stays' } },
      spec: { size: 1, priority: 5, parts: [{ name: 'a', weight: 2 }, { name: 'b' }] },
    });
    const spoke = c.convert(hub as never, 'v2', 'v1') as any;
    assert.deepEqual(spoke.spec, { size: 1, parts: [{ name: 'a' }, { name: 'b' }] });
    assert.deepEqual(spoke.metadata.annotations, { mine: 'stays', [ANNOTATION]: '{"v2":{"spec":{"parts":{"0":{"weight":2}},"priority":5}}}' });
    assert.deepEqual(c.convert(spoke, 'v1', 'v2'), hub, 'hub → spoke → hub is the identity');

    // An anonymous type's field, the other way: spoke → hub → spoke.
    const v1 = deepFreeze({ apiVersion: 'things.example.com/v1', kind: 'Thing', metadata: { name: 'w' }, spec: { window: { start: 'mon', note: 'n' } } });
    const stored = c.convert(v1 as never, 'v1', 'v2') as any;
    assert.deepEqual(stored.spec, { window: { start: 'mon' } });
    assert.deepEqual(stored.metadata.annotations, { [ANNOTATION]: '{"v1":{"spec":{"window":{"note":"n"}}}}' });
    assert.deepEqual(c.convert(stored, 'v2', 'v1'), v1);

    // Edited through the spoke: what the spoke holds is taken from it, the rest from the annotation.
    const edited = structuredClone(spoke);
    edited.spec.size = 7;
    edited.spec.parts[0].name = 'a2';
    const back = c.convert(edited, 'v1', 'v2') as any;
    assert.deepEqual(back.spec, { size: 7, priority: 5, parts: [{ name: 'a2', weight: 2 }, { name: 'b' }] });
    assert.deepEqual(back.metadata.annotations, { mine: 'stays' });

    // Nothing to keep: no annotation, and no empty annotations map either.
    const plain = c.convert({ apiVersion: 'things.example.com/v2', kind: 'Thing', metadata: { name: 'p' }, spec: { size: 1 } } as never, 'v2', 'v1');
    assert.deepEqual(plain.metadata, { name: 'p' });
  });

  test('a rename (fields missing on both sides of a type pair) still needs its function (KG040)', () => {
    const dir = tempDir('versions-rename');
    tmp.push(dir);
    const apis = writeApis(dir, {
      'things.example.com/v2/thing.ts': thing('v2', ['@kgen:storageversion'], '  replicas?: number;'),
      'things.example.com/v1/thing.ts': thing('v1', [], '  size?: number;'),
    });
    const result = compile({ apisDir: apis, builtins: false });
    assert.deepEqual(
      result.diagnostics.map((d) => `${d.code} ${d.message}`),
      [
        'KG040 things.example.com/v1 field "ThingSpec.size" has no field of that name in v2: it needs the conversion function Convert_v1_ThingSpec_To_v2_ThingSpec',
        'KG040 things.example.com/v2 field "ThingSpec.replicas" has no field of that name in v1: it needs the conversion function Convert_v2_ThingSpec_To_v1_ThingSpec',
      ],
    );
  });
});

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
