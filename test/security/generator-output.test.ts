/**
 * The generator as an attack surface (sec11, issue 19), beside test/generator/hostile-apis.test.ts
 * (field names and enum members):
 * - text from apis/ in every other place it reaches (a kind's, a type's and a field's description,
 *   a string default, a pattern, a printer column's description, a CEL rule's message, an enum
 *   member) holding quotes, a backtick, `${…}`, a backslash, `</script>`, a tag, U+2028/U+2029 and
 *   `-->`, and fields named like JavaScript keywords and Object.prototype's members, stays data:
 *   every emitted module parses and imports without running it, and the JSON and YAML hold the
 *   text exactly as written;
 * - a second `generate` into an output where someone replaced folders and a file with symbolic
 *   links to elsewhere never writes or deletes through them: the links are replaced by the
 *   generated folders and files, and what they pointed at is left as it was.
 */
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import ts from 'typescript';
import { parse as parseYAML } from 'yaml';
import { generate } from '../../generator/index.js';
import { listTree, tempDir, writeApis } from '../generator/helpers.js';

declare global {
  // Set by any injected code; the test asserts it stays unset.
  var kgenInjected: string | undefined;
}

const EVIL = "q' d\" b` ${globalThis.kgenInjected='tpl'} \\ </script><img src=x onerror=alert(1)> \u2028ls\u2029ps -->";
const MEMBER = "m`${globalThis.kgenInjected='enum'}'\"\\";
const lit = (s: string) => JSON.stringify(s);

const thing = (note: string) => `/**
 * Thing ${EVIL} ${note}.
 * @kgen:resource
 * @kgen:printcolumn name=Mode type=string jsonPath=.spec.mode description=${lit(EVIL)}
 */
export interface Thing {
  spec: ThingSpec;
}

/**
 * Spec ${EVIL}.
 * @kgen:validation rule="self.mode != 'x'" message=${lit(EVIL)}
 */
export interface ThingSpec {
  /**
   * Mode ${EVIL}.
   * @default ${lit(EVIL)}
   * @pattern ^[^\`]*\`?.*$
   */
  mode?: string;
  /** A choice. */
  choice?: ${lit(MEMBER)} | 'plain';
  /** @default "\${globalThis.kgenInjected='default'}" */
  other?: string;
  /** Keywords and Object.prototype's names as fields. */
  constructor?: string;
  class?: string;
  toString?: string;
  hasOwnProperty?: string;
  valueOf?: string;
}
`;

const dir = tempDir('sec11-generator-output');
after(() => rmSync(dir, { recursive: true, force: true }));
const apis = writeApis(dir, { 'evil.example.com/v1/thing.ts': thing('one') });
const out = join(dir, 'generated');
const first = generate({ apisDir: apis, outDir: out, builtins: false });

describe('generator: text from apis/ stays data in every artifact', () => {
  test('generates', () => assert.equal(first.ok, true, first.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n')));

  test('every emitted module parses and imports without running any of the text', async () => {
    globalThis.kgenInjected = undefined;
    const modules = listTree(out).filter((p) => p.endsWith('.ts'));
    assert.ok(modules.length >= 6, modules.join(' '));
    for (const path of modules) {
      const text = readFileSync(join(out, path), 'utf8');
      const sf = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
      const errors = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
      assert.deepEqual(errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), [], `${path} parses`);
      await import(pathToFileURL(join(out, path)).href);
      assert.equal(globalThis.kgenInjected, undefined, `importing ${path} ran no text`);
    }
  });

  test('OpenAPI and the CRD hold the text exactly as written', () => {
    const doc = JSON.parse(readFileSync(join(out, 'openapi/v3/apis/evil.example.com/v1.json'), 'utf8'));
    const spec = doc.components.schemas['com.example.evil.v1.ThingSpec'];
    assert.equal(spec.properties.mode.default, EVIL);
    assert.equal(spec.properties.mode.description, `Mode ${EVIL}.`);
    assert.deepEqual(spec.properties.choice.enum, [MEMBER, 'plain']);
    assert.equal(spec['x-kubernetes-validations'][0].message, EVIL);
    assert.deepEqual(Object.keys(spec.properties).sort(), ['choice', 'class', 'constructor', 'hasOwnProperty', 'mode', 'other', 'toString', 'valueOf']);
    const crd = parseYAML(readFileSync(join(out, 'crds/evil.example.com_things.yaml'), 'utf8'));
    const version = crd.spec.versions[0];
    assert.equal(version.additionalPrinterColumns.find((c: { name: string }) => c.name === 'Mode').description, EVIL);
    const crdSpec = version.schema.openAPIV3Schema.properties.spec;
    assert.equal(crdSpec.properties.mode.default, EVIL);
    assert.equal(crdSpec.properties.other.default, "${globalThis.kgenInjected='default'}");
    assert.equal(crdSpec['x-kubernetes-validations'][0].message, EVIL);
  });
});

describe('generator: a second generate never writes or deletes through a symbolic link in the output', () => {
  test('links to folders and to a file are replaced; what they point at is untouched', () => {
    const victim = join(dir, 'victim');
    const planted: Record<string, string> = {};
    const plant = (path: string, text: string) => {
      mkdirSync(join(victim, path, '..'), { recursive: true });
      writeFileSync(join(victim, path), text);
      planted[path] = text;
    };
    // A folder of the output as a link to a folder holding files of the same names and others.
    for (const sub of ['models', 'storage', 'docs']) {
      plant(`${sub}/evil.example.com/v1.ts`, `precious ${sub} v1`);
      plant(`${sub}/evil.example.com_v1.html`, `precious ${sub} html`);
      plant(`${sub}/keep.txt`, `precious ${sub}`);
      rmSync(join(out, sub), { recursive: true });
      symlinkSync(join(victim, sub), join(out, sub));
    }
    // A nested folder, and a file.
    plant('apis/evil.example.com/v1.json', 'precious json');
    plant('apis/other.json', 'precious other');
    rmSync(join(out, 'openapi/v3/apis'), { recursive: true });
    symlinkSync(join(victim, 'apis'), join(out, 'openapi/v3/apis'));
    plant('index-target.ts', 'precious index');
    rmSync(join(out, 'index.ts'));
    symlinkSync(join(victim, 'index-target.ts'), join(out, 'index.ts'));

    writeApis(dir, { 'evil.example.com/v1/thing.ts': thing('two') });
    const second = generate({ apisDir: apis, outDir: out, builtins: false });
    assert.equal(second.ok, true, second.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'));

    const left = Object.fromEntries(listTree(victim).map((p) => [p, readFileSync(join(victim, p), 'utf8')]));
    assert.deepEqual(left, planted, 'nothing written into or deleted from what the links named');
    for (const path of ['models', 'storage', 'docs', 'openapi/v3/apis', 'index.ts']) {
      assert.equal(lstatSync(join(out, path)).isSymbolicLink(), false, `${path} is generated in place of the link`);
    }
    assert.ok(readFileSync(join(out, 'models/evil.example.com/v1.ts'), 'utf8').includes('--> two. */'), 'the models are the second generation');
  });
});
