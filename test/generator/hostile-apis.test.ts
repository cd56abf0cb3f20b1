/**
 * apis/ folders are input from elsewhere (pulled, vendored, contributed) and the generated code is
 * committed and run by the server: no string in apis/ (a field name, an enum member, a doc comment)
 * may become code in what `kgen generate` emits, or break a module it emits.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import ts from 'typescript';
import { generate } from '../../generator/index.js';
import type { KindConversion } from '../../runtime/conversion/index.js';
import { listTree, tempDir, writeApis } from './helpers.js';

const tmp: string[] = [];
after(() => tmp.forEach((d) => rmSync(d, { recursive: true, force: true })));

declare global {
  // Set by any injected code; the test asserts it stays unset.
  var kgenInjected: string | undefined;
}

/** Field names that would be code if printed without escaping, in the models, in conversion code and in its notes. */
const CONVERSION_FIELD = "a'+(globalThis.kgenInjected='conversion')+'";
const MODELS_FIELD = "x'?: string; }; globalThis.kgenInjected = 'models'; export interface Z { 'z";
const NOTE_FIELD = "n*/ globalThis.kgenInjected = 'note'; /*";
/** Enum members with a quote, a backslash, line terminators and a control character. */
const MEMBERS = ["q'uote\\", 'line\nbreak', 'cr\rlf', 'ls\u2028ps\u2029', 'nul\u0000tab\t'];

const lit = (s: string) => JSON.stringify(s);
const spec = (extra: string) => `export interface ThingSpec {
  ${lit(CONVERSION_FIELD)}?: string;
  ${lit(MODELS_FIELD)}?: string;
  mode?: ${MEMBERS.map(lit).join(' | ')};
  inner?: { ${lit(CONVERSION_FIELD)}?: string };
  'it\\'s\\u0041'?: string;
${extra}}
`;
const thing = (version: string, marker: string, extra: string) =>
  `/**\n * Thing ${version}.\n * @kgen:resource\n${marker}\n */\nexport interface Thing {\n  spec: ThingSpec;\n}\n\n${spec(extra)}`;

function generateHostile(): string {
  const dir = tempDir('hostile-apis');
  tmp.push(dir);
  const apis = writeApis(dir, {
    'things.example.com/v1/thing.ts': thing('v1', ' * @kgen:storageversion', `  ${lit(NOTE_FIELD)}?: string;\n`),
    'things.example.com/v1beta1/thing.ts': thing('v1beta1', ' *', ''),
  });
  const out = join(dir, 'generated');
  const result = generate({ apisDir: apis, outDir: out, builtins: false });
  assert.equal(result.ok, true, result.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'));
  return out;
}

describe('generator: strings from apis/ are data in the emitted TypeScript', () => {
  const out = generateHostile();
  globalThis.kgenInjected = undefined;

  test('every emitted module parses; the models hold only imports, interfaces and type aliases', () => {
    for (const path of listTree(out).filter((p) => p.endsWith('.ts'))) {
      const text = readFileSync(join(out, path), 'utf8');
      const sf = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
      const errors = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
      assert.deepEqual(errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), [], `${path} parses`);
      if (path.startsWith('models/')) {
        const other = sf.statements.filter((s) => !ts.isImportDeclaration(s) && !ts.isInterfaceDeclaration(s) && !ts.isTypeAliasDeclaration(s));
        assert.deepEqual(other.map((s) => s.getText(sf)), [], `${path} holds only types`);
      }
    }
  });

  test('the models name the fields and enum members exactly as written', () => {
    const text = readFileSync(join(out, 'models/things.example.com/v1.ts'), 'utf8');
    const sf = ts.createSourceFile('v1.ts', text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
    const spec = sf.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'ThingSpec')!;
    const names = spec.members.map((m) => (m.name as ts.Identifier | ts.StringLiteral).text);
    assert.deepEqual(names, [CONVERSION_FIELD, MODELS_FIELD, 'mode', 'inner', "it'sA", NOTE_FIELD]);
    const mode = spec.members.find((m) => (m.name as ts.Identifier).text === 'mode') as ts.PropertySignature;
    const members = (mode.type as ts.UnionTypeNode).types.map((t) => ((t as ts.LiteralTypeNode).literal as ts.StringLiteral).text);
    assert.deepEqual(members, MEMBERS);
  });

  test("a quoted field name is its value: 'it\\'s\\u0041' is the field it'sA in OpenAPI, the CRD and the model", () => {
    const doc = JSON.parse(readFileSync(join(out, 'openapi/v3/apis/things.example.com/v1.json'), 'utf8'));
    const props = Object.keys(doc.components.schemas['com.example.things.v1.ThingSpec'].properties);
    assert.ok(props.includes("it'sA"), props.join(', '));
    assert.ok(!props.some((p) => p.includes('\\')), 'no escape is part of a name');
    assert.match(readFileSync(join(out, 'crds/things.example.com_things.yaml'), 'utf8'), /^ {16}it'sA:$/m);
  });

  test('the conversion module runs no field name and converts those fields', async () => {
    const path = join(out, 'conversion/things.example.com/things.ts');
    const { thingsConversion: c } = (await import(pathToFileURL(path).href)) as { thingsConversion: KindConversion };
    assert.equal(globalThis.kgenInjected, undefined, 'importing the module ran no injected code');
    const v1 = {
      apiVersion: 'things.example.com/v1',
      kind: 'Thing',
      metadata: { name: 't' },
      spec: { [CONVERSION_FIELD]: 'c', [MODELS_FIELD]: 'm', mode: MEMBERS[1], inner: { [CONVERSION_FIELD]: 'i' }, [NOTE_FIELD]: 'kept' },
    };
    const beta = c.convert(v1 as never, 'v1', 'v1beta1') as typeof v1;
    assert.equal(globalThis.kgenInjected, undefined, 'converting ran no injected code');
    assert.deepEqual(beta.spec, { [CONVERSION_FIELD]: 'c', [MODELS_FIELD]: 'm', mode: MEMBERS[1], inner: { [CONVERSION_FIELD]: 'i' } });
    assert.deepEqual(c.convert(beta as never, 'v1beta1', 'v1').spec, v1.spec, 'the field v1beta1 lacks comes back from the annotation');
  });
});

describe('generator: strings from apis/ are data in the storage module the server loads', () => {
  test('a protobuf-numbered field name stays a key of the definition', async () => {
    // Printed unescaped as a key of the definition's protobuf numbers, this ran when the server
    // loaded the storage module.
    const name = "x': 1, [(globalThis.kgenInjected = 'storage')]: 2, 'y";
    const dir = tempDir('hostile-storage');
    tmp.push(dir);
    const apis = writeApis(dir, {
      'protos.example.com/v1/proto.ts': `/**\n * Proto.\n * @kgen:resource\n */\nexport interface Proto {\n  /** @kgen:protobuf 2 */\n  ${lit(name)}?: string;\n}\n`,
    });
    const out = join(dir, 'generated');
    const result = generate({ apisDir: apis, outDir: out, builtins: false });
    assert.equal(result.ok, true, result.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'));
    globalThis.kgenInjected = undefined;
    const mod = (await import(pathToFileURL(join(out, 'storage/protos.example.com/v1/protos.ts')).href)) as Record<string, { definition: { protobuf?: Record<string, Record<string, unknown>> } }>;
    assert.equal(globalThis.kgenInjected, undefined, 'loading the storage module ran no injected code');
    const numbers = Object.values(mod)[0]!.definition.protobuf!;
    assert.deepEqual(Object.values(numbers).map((fields) => Object.keys(fields)), [['metadata', name]]);
  });
});

describe('generator: names that are not identifiers', () => {
  test('3scale.example.com (a valid DNS subdomain) makes identifiers that parse', () => {
    const dir = tempDir('hostile-digit-group');
    tmp.push(dir);
    const apis = writeApis(dir, { '3scale.example.com/v1/thing.ts': `/**\n * Thing.\n * @kgen:resource\n */\nexport interface Thing {\n  spec: { a?: string };\n}\n` });
    const out = join(dir, 'generated');
    const result = generate({ apisDir: apis, outDir: out, builtins: false });
    assert.equal(result.ok, true, result.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'));
    for (const path of listTree(out).filter((p) => p.endsWith('.ts'))) {
      const sf = ts.createSourceFile(path, readFileSync(join(out, path), 'utf8'), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
      const errors = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
      assert.deepEqual(errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), [], `${path} parses`);
    }
    assert.match(readFileSync(join(out, 'client/index.ts'), 'utf8'), /readonly _3scaleExampleComV1: _3scaleExampleComV1Client;/);
  });

  test("a custom subresource named a- (a '-' the method keeps) makes a client that parses", () => {
    const dir = tempDir('hostile-subresource');
    tmp.push(dir);
    const apis = writeApis(dir, { 'x.example.com/v1/thing.ts': `/**\n * Thing.\n * @kgen:resource\n * @kgen:subresource custom name=a- verbs=get\n * @kgen:subresource custom name=b--c verbs=connect\n */\nexport interface Thing {\n  spec: { a?: string };\n}\n` });
    const out = join(dir, 'generated');
    const result = generate({ apisDir: apis, outDir: out, builtins: false });
    assert.equal(result.ok, true, result.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'));
    const text = readFileSync(join(out, 'client/x.example.com/v1.ts'), 'utf8');
    const sf = ts.createSourceFile('v1.ts', text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
    assert.deepEqual((sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), []);
    assert.match(text, /\{ 'a-': 'a-' \}, \{ 'b-C': 'b--c' \}/);
  });
});

describe('generator: names JavaScript reads otherwise', () => {
  test('a field named __proto__ is refused (KG037), in an interface and in an inline object type', () => {
    const dir = tempDir('hostile-proto');
    tmp.push(dir);
    const apis = writeApis(dir, {
      'things.example.com/v1/thing.ts': `/**\n * Thing.\n * @kgen:resource\n */\nexport interface Thing {\n  spec: ThingSpec;\n}\n\nexport interface ThingSpec {\n  '__proto__'?: string;\n  inner?: { __proto__?: { a?: string } };\n}\n`,
    });
    const result = generate({ apisDir: apis, outDir: join(dir, 'generated'), builtins: false });
    assert.equal(result.ok, false);
    const found = result.diagnostics.filter((d) => d.code === 'KG037').map((d) => `${d.loc?.line}: ${d.message}`);
    assert.deepEqual(found, ['10: field name "__proto__" cannot be used', '11: field name "__proto__" cannot be used']);
  });
});
