/**
 * Limits a cluster enforces on CRDs, refused by `kgen generate` (generator/check/limits.ts):
 * CEL cost with Kubernetes' documented examples ("Resource use by validation functions" in the
 * CRD docs: the rules there that kube-apiserver refuses are refused here, the ones it accepts are
 * accepted), the CRD size limits, and the server's structural rules.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compile, newGenerateSession, type Diagnostic } from '../../generator/index.js';
import { cleanedTempDirs, writeApis } from './helpers.js';

/** Temp dirs under test/.tmp, removed when this file's tests are done. */
const tempDir = cleanedTempDirs();

function generateWith(spec: string, extra = ''): { diagnostics: Diagnostic[]; ok: boolean; source: string } {
  const source = `import type { int32 } from 'kgen';

/**
 * Gadget has the fields of one of kube's examples.
 * @kgen:resource
 */
export interface Gadget {
  spec?: GadgetSpec;
}

export interface GadgetSpec {
${spec}
}
${extra}`;
  const apis = writeApis(tempDir('limits'), { 'widgets.example.com/v1/gadget.ts': source });
  const result = compile({ apisDir: apis, builtins: false });
  return { diagnostics: result.diagnostics, ok: result.ok, source };
}

const lineOf = (source: string, text: string) => source.split('\n').findIndex((l) => l.includes(text)) + 1;
const codes = (ds: Diagnostic[]) => ds.map((d) => d.code).sort();
const find = (ds: Diagnostic[], code: string) => ds.find((d) => d.code === code)!;

describe('CEL cost: the examples of the Kubernetes documentation', () => {
  test('self.all(x, x.contains(...)) over an unbounded list of unbounded strings is refused at the rule, naming what to bound', () => {
    const r = generateWith(`  /**
   * @kgen:validation rule="self.all(x, x.contains('a string'))"
   */
  foo?: string[];`);
    assert.equal(r.ok, false);
    assert.deepEqual(codes(r.diagnostics), ['KG080', 'KG081']);
    const d = find(r.diagnostics, 'KG080');
    assert.equal(d.loc.line, lineOf(r.source, '@kgen:validation'));
    assert.match(d.message, /rule "self\.all\(x, x\.contains\('a string'\)\)" on \.spec\.foo: estimated rule cost exceeds budget by factor of more than 100x \(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared\)/);
    assert.match(d.hint, /add @maxItems to \.spec\.foo, @maxLength to \.spec\.foo\[\*\]/);
  });

  test('the same rule with maxItems 25 and maxLength 10 is accepted', () => {
    const r = generateWith(`  /**
   * @kgen:validation rule="self.all(x, x.contains('a string'))"
   * @maxItems 25
   */
  foo?: Short[];`, `
/** @maxLength 10 */
export type Short = string;
`);
    assert.equal(r.ok, true, r.diagnostics.map((d) => d.message).join('\n'));
  });

  test('self.contains(...) on the items costs as much: refused for the times it runs (cardinality)', () => {
    const r = generateWith('  foo?: Word[];', `
/** @kgen:validation rule="self.contains('a string')" */
export type Word = string;
`);
    assert.equal(r.ok, false);
    assert.deepEqual(codes(r.diagnostics), ['KG080', 'KG081']);
    assert.match(find(r.diagnostics, 'KG080').message, /on \.spec\.foo\[\*\]: .*× 1,048,576 evaluations/);
    assert.match(find(r.diagnostics, 'KG080').hint, /@maxItems to \.spec\.foo/);
  });

  test('self.all(x, x == 5) on an unbounded list of integers is accepted', () => {
    const r = generateWith(`  /** @kgen:validation rule="self.all(x, x == 5)" */
  foo?: int32[];`);
    assert.equal(r.ok, true, r.diagnostics.map((d) => d.message).join('\n'));
  });

  test('the same rule on the inner lists of a nested list is refused', () => {
    const r = generateWith('  foo?: Row[];', `
/** @kgen:validation rule="self.all(x, x == 5)" */
export type Row = int32[];
`);
    assert.equal(r.ok, false);
    assert.deepEqual(codes(r.diagnostics), ['KG080', 'KG081']);
    assert.equal(find(r.diagnostics, 'KG080').loc.line, lineOf(r.source, 'rule="self.all(x, x == 5)"'));
  });

  test('rules each within the per-rule limit but over 100,000,000 together are refused for the CRD (KG081)', () => {
    const fields = Array.from({ length: 14 }, (_, i) => `  /** @kgen:validation rule="self.all(x, x == 5)" */\n  f${i}?: int32[];`).join('\n');
    const r = generateWith(fields);
    assert.deepEqual(codes(r.diagnostics), ['KG081']);
    assert.match(r.diagnostics[0]!.message, /x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1\.\d+x/);
    assert.equal(r.diagnostics[0]!.loc.line, lineOf(r.source, 'export interface Gadget'));
  });
});

describe('CRD size', () => {
  test('a manifest over 262,144 bytes is a warning (kubectl apply), over 1.5 MiB an error (etcd)', () => {
    const big = (n: number) => `  /** ${'word '.repeat(n / 5)} */\n  a?: string;`;
    const warned = generateWith(big(300_000));
    assert.equal(warned.ok, true);
    assert.deepEqual(codes(warned.diagnostics), ['KG082']);
    assert.match(warned.diagnostics[0]!.message, /crds\/widgets\.example\.com_gadgets\.yaml is 3\d\d,\d{3} bytes/);
    assert.match(warned.diagnostics[0]!.hint, /--server-side.*--crd-max-description-length/);
    const refused = generateWith(big(1_700_000));
    assert.equal(refused.ok, false);
    assert.deepEqual(codes(refused.diagnostics), ['KG083']);
  });
});

describe('structural rules kube-apiserver enforces, checked with the server\'s own CRD validation', () => {
  test('a nullable key of a map list is refused at the key (validateMapListKeysMapSet)', () => {
    const r = generateWith(`  /**
   * @kgen:listType map
   * @kgen:listMapKey name
   */
  items?: Item[];`, `
export interface Item {
  name: string | null;
}
`);
    assert.equal(r.ok, false);
    assert.deepEqual(codes(r.diagnostics), ['KG084']);
    assert.equal(r.diagnostics[0]!.loc.line, lineOf(r.source, 'name: string | null'));
    assert.match(r.diagnostics[0]!.message, /properties\[items\]\.items\.properties\[name\]\.nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable/);
  });

  test('nullable items of a set list are refused at the list', () => {
    const r = generateWith(`  /** @kgen:listType set */
  tags?: (string | null)[];`);
    assert.deepEqual(codes(r.diagnostics), ['KG084']);
    assert.equal(r.diagnostics[0]!.loc.line, lineOf(r.source, 'tags?:'));
    assert.match(r.diagnostics[0]!.message, /items\.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set/);
  });
});

describe('limits in a --watch session', () => {
  test('an unchanged CRD manifest is not checked again, and its findings move with the source lines', () => {
    const source = (pad: string) => `${pad}/**
 * Gadget.
 * @kgen:resource
 */
export interface Gadget {
  spec?: GadgetSpec;
}

export interface GadgetSpec {
  /**
   * @kgen:listType map
   * @kgen:listMapKey name
   */
  items?: Item[];
}

export interface Item {
  name: string | null;
}
`;
    const dir = tempDir('limits-session');
    const apis = writeApis(dir, { 'widgets.example.com/v1/gadget.ts': source('') });
    const session = newGenerateSession();
    const first = compile({ apisDir: apis, builtins: false }, session);
    assert.deepEqual(codes(first.diagnostics), ['KG084']);
    assert.equal(first.diagnostics[0]!.loc.line, lineOf(source(''), 'name: string | null'));
    const [[text, findings]] = [...session.limits];
    // Lines added above the kind move every location but leave the manifest as it was.
    const moved = source('// a comment\n// another\n\n');
    writeApis(dir, { 'widgets.example.com/v1/gadget.ts': moved });
    const second = compile({ apisDir: apis, builtins: false }, session);
    assert.deepEqual(codes(second.diagnostics), ['KG084']);
    assert.equal(second.diagnostics[0]!.loc.line, lineOf(moved, 'name: string | null'));
    assert.equal(session.limits.get(text!), findings, 'the findings of the unchanged manifest were reused');
    assert.deepEqual(second.diagnostics.map((d) => d.message), first.diagnostics.map((d) => d.message));
    // A changed manifest is checked again; only the current manifests are kept.
    writeApis(dir, { 'widgets.example.com/v1/gadget.ts': moved.replace('name: string | null;', 'name: string;') });
    const third = compile({ apisDir: apis, builtins: false }, session);
    assert.deepEqual(codes(third.diagnostics), []);
    assert.equal(session.limits.size, 1);
    assert.ok(!session.limits.has(text!));
  });
});
