/**
 * The generator's shape (issue 14): the check stage returns the checked model the emitters
 * consume (conversion plans and the served subset computed once), and no emitter imports another.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { checkModel } from '../../generator/check/checker.js';
import { emitConversions } from '../../generator/emit/conversion.js';
import { emitDiscovery } from '../../generator/emit/discovery.js';
import { emitOpenAPI } from '../../generator/emit/openapi.js';
import { emitTypeScript } from '../../generator/emit/typescript.js';
import { parseApis } from '../../generator/parse/parser.js';
import { REPO, tempDir, writeApis } from './helpers.js';

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
