/**
 * One fixture per generator diagnostic: every code in generator/diagnostics.ts has at least one
 * tiny apis folder under test/fixtures/generator/diagnostics/KGnnn-<slug>/apis/ that must fail with
 * exactly the diagnostics listed here (code, file, line, column, message), each with a real hint.
 * The fixtures live in an `apis/` subfolder so the repo's tsconfig (which excludes
 * test/fixtures/**\/apis) never type-checks them.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { relative } from 'node:path';
import { after, describe, test } from 'node:test';
import { compile, DIAGNOSTICS, formatDiagnostic, type Diagnostic, type DiagnosticCode } from '../../generator/index.js';
import { FIXTURES, REPO, fixtureApis, tempDir, writeApis } from './helpers.js';

const DIAG_DIR = `${FIXTURES}/diagnostics`;

interface Expected {
  code: DiagnosticCode;
  /** Relative to the fixture's apis folder ('' for the folder itself). */
  file: string;
  line: number;
  col: number;
  message: string | RegExp;
}

const X = 'widgets.example.com/v1/x.ts';
const e = (code: DiagnosticCode, file: string, line: number, col: number, message: string | RegExp): Expected => ({ code, file, line, col, message });

/** Fixture folder → every diagnostic it must produce, in reported (sorted) order. */
const CASES: Record<string, Expected[]> = {
  'KG001-misspelled-subresource': [e('KG001', X, 3, 4, 'unknown marker or tag "@kgen:subresorce"; did you mean "@kgen:subresource"?')],
  'KG001-misspelled-field-tag': [e('KG001', X, 9, 6, 'unknown marker or tag "@minimun"; did you mean "@minimum"?')],
  'KG002-minimum-on-string': [e('KG002', X, 7, 7, '"@minimum" is not allowed on a string')],
  'KG002-printcolumn-on-non-resource': [
    e('KG002', X, 8, 4, '"@kgen:printcolumn" is not allowed on an interface without @kgen:resource'),
  ],
  'KG003-bad-custom-subresource': [
    e('KG003', X, 4, 4, 'invalid argument to "@kgen:subresource": the subresource "logs" is declared twice'),
    e('KG003', X, 5, 4, `invalid argument to "@kgen:subresource": name must be lower-case letters, digits and '-', got "Shell"`),
    e('KG003', X, 6, 4, 'invalid argument to "@kgen:subresource": "status" is a built-in subresource; use @kgen:subresource status'),
    e('KG003', X, 7, 4, 'invalid argument to "@kgen:subresource": verbs must be get, connect or get,connect, got "exec"'),
  ],
  'KG003-bad-scope': [e('KG003', X, 1, 5, 'invalid argument to "@kgen:resource": scope must be Namespaced or Cluster, got "Global"')],
  'KG003-unknown-argument': [
    e('KG003', X, 2, 4, 'invalid argument to "@kgen:resource": unknown argument "shortName"; did you mean "shortNames"?'),
  ],
  'KG004-bad-default-json': [e('KG004', X, 9, 6, 'invalid value for "@default": "{red}" is not valid JSON')],
  'KG004-default-wrong-type': [
    e('KG004', X, 7, 7, 'invalid value for "@default": "purple" does not fit the field\'s type (a string: "red" | "blue")'),
  ],
  'KG005-printcolumn-without-jsonpath': [e('KG005', X, 3, 4, '"@kgen:printcolumn" needs "jsonPath="')],
  'KG010-any': [e('KG010', X, 7, 12, 'type "any" cannot be represented in an API schema')],
  'KG010-function-field': [e('KG010', X, 7, 11, 'type "(rpm: number) => void" cannot be represented in an API schema')],
  'KG010-tuple': [e('KG010', X, 7, 10, 'type "[number, number]" cannot be represented in an API schema')],
  'KG010-class-declaration': [e('KG010', X, 10, 1, 'type "class Color" cannot be represented in an API schema')],
  'KG010-bigint': [e('KG010', X, 7, 9, 'type "bigint" cannot be represented in an API schema')],
  'KG011-unresolved-reference': [e('KG011', X, 7, 9, 'cannot resolve type "Gear"')],
  'KG011-date-instead-of-time': [e('KG011', X, 7, 13, 'cannot resolve type "Date"; use Time from \'kgen\'')],
  'KG012-generic-interface': [
    e('KG012', X, 3, 9, 'generic type "Box<string>" is not supported'),
    e('KG012', X, 6, 1, 'generic type "Box" is not supported'),
  ],
  'KG013-non-literal-union': [e('KG013', X, 7, 9, 'union type "string | number" is not supported')],
  'KG014-unexported-resource': [e('KG014', X, 2, 1, 'resource "Widget" must be exported')],
  'KG015-metadata-not-objectmeta': [
    e('KG015', X, 3, 3, 'field "metadata" of resource "Widget" must have type ObjectMeta (from \'kgen\')'),
  ],
  'KG016-recursive-type': [e('KG016', X, 10, 1, 'type "TreeNode" refers to itself through "TreeNode.children[]"')],
  'KG017-number-map-key': [e('KG017', X, 7, 18, 'map key type "number" is not string')],
  'KG018-duplicate-type-name': [e('KG018', 'widgets.example.com/v1/b.ts', 7, 1, 'type "Spec" clashes with the declaration at a.ts:6')],
  'KG018-kind-list-name': [e('KG018', X, 11, 1, 'type "WidgetList" clashes with the list type kgen generates for kind "Widget"')],
  'KG019-integer-beyond-2-53': [
    e('KG019', X, 8, 10, 'integer 9007199254740993 cannot be kept exactly: as a float64 it is 9007199254740992'),
    e('KG019', X, 12, 7, 'integer 9007199254740993 in "@default" cannot be kept exactly: as a float64 it is 9007199254740992'),
    e('KG019', X, 14, 7, 'integer -9007199254740995 in "@example" at ids[1] cannot be kept exactly: as a float64 it is -9007199254740996'),
    e('KG019', X, 17, 14, 'integer 0x20000000000001 cannot be kept exactly: as a float64 it is 9007199254740992'),
  ],
  'KG020-bad-group-folder': [
    e('KG020', 'widgets/v1/x.ts', 1, 1, 'invalid API group folder "widgets": must contain a dot, like "widgets.example.com"'),
  ],
  'KG021-bad-version-folder': [e('KG021', 'widgets.example.com/version1/x.ts', 1, 1, 'invalid version folder "version1"')],
  'KG022-duplicate-kind': [
    e(
      'KG022',
      'widgets.example.com/v1/b.ts',
      7,
      1,
      /^kind "Widget" is declared more than once in widgets\.example\.com\/v1 \(also at \S*KG022-duplicate-kind\/apis\/widgets\.example\.com\/v1\/a\.ts:2\)$/,
    ),
  ],
  'KG023-duplicate-plural': [
    e('KG023', X, 7, 1, 'plural "gadgets" is used by both "Widget" and "Gadget" in group "widgets.example.com"'),
  ],
  'KG024-printcolumn-missing-field': [
    e('KG024', X, 3, 4, 'printcolumn path ".spec.sise" does not name a field of "Widget" (".spec" has no field "sise")'),
  ],
  'KG025-listtype-map-without-key': [e('KG025', X, 8, 10, '@kgen:listType map needs at least one @kgen:listMapKey')],
  'KG025-status-subresource-without-status': [e('KG025', X, 3, 4, '"Widget" has the status subresource but no "status" field')],
  'KG025-virtual-with-subresource': [
    e('KG025', X, 4, 4, '"WidgetReview" is @kgen:virtual (create-only, not stored) and cannot also have @kgen:subresource, shortNames= or categories='),
  ],
  'KG026-no-storage-version': [
    e('KG026', X, 2, 1, 'kind "Widget" appears in versions v1, v1beta1 of "widgets.example.com" but none is marked @kgen:storageversion'),
  ],
  'KG027-file-outside-version-folder': [
    e('KG027', 'widgets.example.com/x.ts', 1, 1, 'file is neither inside an <apis>/<group>/<version>/ folder nor in a shared folder'),
  ],
  'KG028-syntax-error': [
    // The same positions `tsc` reports for this file.
    e('KG028', X, 4, 3, 'TypeScript syntax error: Property or signature expected.'),
    e('KG028', X, 5, 1, 'TypeScript syntax error: Declaration or statement expected.'),
  ],
  'KG029-empty-apis': [e('KG029', '', 1, 1, /^no API files found under "\S*KG029-empty-apis\/apis"$/)],
  'KG030-union-without-discriminator': [e('KG030', X, 7, 11, 'union "HttpTarget | TcpTarget" of object types has no common discriminator')],
  'KG031-imported-name-clash': [
    e('KG031', 'common/size.ts', 1, 1, 'type "Size" from the shared folder common has the same name as "Size" from widgets.example.com/v1'),
  ],
  'KG032-computed-enum': [e('KG032', X, 12, 3, 'enum "Colour" cannot be represented in an API schema: member Blue has a computed value')],
  'KG033-union-field-types-differ': [
    e('KG033', X, 17, 3, 'discriminated union "HttpTarget | TcpTarget" cannot be one schema: field "port" has one type in HttpTarget and another in TcpTarget'),
  ],
  'KG034-index-signature-beside-fields': [e('KG034', X, 8, 3, 'index signature in "WidgetSpec" beside named fields')],
  'KG035-pick-unknown-field': [
    e('KG035', X, 3, 26, 'utility type "Pick<WidgetSpec, \'size\' | \'colour\'>" cannot be resolved: "colour" is not a field of WidgetSpec'),
  ],
  'KG036-resource-in-shared-folder': [e('KG036', 'common/gadget.ts', 2, 1, 'resource "Gadget" is declared in the shared folder "common"')],
  'KG037-proto-field': [e('KG037', X, 7, 3, 'field name "__proto__" cannot be used')],
  'KG040-field-needs-conversion': [
    e('KG040', 'widgets.example.com/v1/x.ts', 10, 3, 'widgets.example.com/v1 field "WidgetSpec.replicas" has no field of that name in v1beta1: it needs the conversion function Convert_v1_WidgetSpec_To_v1beta1_WidgetSpec'),
    e('KG040', 'widgets.example.com/v1/x.ts', 11, 3, 'widgets.example.com/v1 field "WidgetSpec.color" is a string in v1 but a number in v1beta1: it needs the conversion function Convert_v1_WidgetSpec_To_v1beta1_WidgetSpec'),
    e('KG040', 'widgets.example.com/v1beta1/x.ts', 7, 3, 'widgets.example.com/v1beta1 field "WidgetSpec.size" has no field of that name in v1: it needs the conversion function Convert_v1beta1_WidgetSpec_To_v1_WidgetSpec'),
    e('KG040', 'widgets.example.com/v1beta1/x.ts', 8, 3, 'widgets.example.com/v1beta1 field "WidgetSpec.color" is a number in v1beta1 but a string in v1: it needs the conversion function Convert_v1beta1_WidgetSpec_To_v1_WidgetSpec'),
  ],
  'KG041-unknown-conversion-function': [
    e('KG041', 'widgets.example.com/v1beta1/conversion.ts', 3, 17, 'conversion function "Convert_v1beta1_WidgetSpc_To_v1_WidgetSpec" does not convert any type pair kgen generates; did you mean "Convert_v1beta1_WidgetSpec_To_v1_WidgetSpec"?'),
  ],
  'KG042-version-marker-on-single-version': [
    e('KG042', X, 3, 4, '"@kgen:deprecatedversion" has no effect: kind "Widget" is declared only in widgets.example.com/v1'),
  ],
  'KG043-no-served-version': [
    e('KG043', X, 4, 4, 'kind "Widget" of "widgets.example.com" is not served in any version (every version is marked @kgen:unservedversion)'),
  ],
  'KG044-versions-differ-in-scope': [
    e('KG044', 'widgets.example.com/v1beta1/x.ts', 2, 1, 'kind "Widget" has scope "Cluster" in v1beta1 but "Namespaced" in v1 (its storage version)'),
  ],
  'KG050-rule-does-not-compile': [
    e('KG050', X, 7, 4, 'rule "self.minReplicas <= self.maxReplica" of "@kgen:validation" does not compile: ERROR: <input>:1:25: undefined field \'maxReplica\''),
    e('KG050', X, 8, 4, 'rule "self.minReplicas >" of "@kgen:validation" does not compile: ERROR: <input>:1:19: Syntax error: unexpected token: EOF'),
    e('KG050', X, 13, 7, 'fieldPath ".name" of "@kgen:validation" does not compile: does not refer to a valid field'),
  ],
  'KG080-cel-rule-too-expensive': [
    e('KG081', X, 2, 1, /^widgets\.example\.com\/v1 Widget: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 3\.1x/),
    e('KG080', X, 8, 6, /^widgets\.example\.com\/v1 Widget: rule "self\.all\(x, x\.contains\('a string'\)\)" on \.spec\.foo: estimated rule cost exceeds budget by factor of 31\.5x/),
  ],
  'KG081-cel-rules-too-expensive-together': [
    e('KG081', X, 4, 1, /^widgets\.example\.com\/v1 Widget: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1\.10\d+x .*the most expensive rule is "self\.all\(x, x == 5\)" on \.spec\.f0/),
  ],
  'KG084-nullable-list-map-key': [
    e('KG084', X, 15, 3, 'widgets.example.com/v1 Widget: kube-apiserver refuses the CRD: spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[parts].items.properties[name].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable'),
  ],
  'KG120-bad-protobuf-number': [
    e('KG120', X, 3, 7, 'invalid @kgen:protobuf "two" on "spec": not a field number (N or N.M)'),
    e('KG120', X, 8, 7, 'invalid @kgen:protobuf "19500" on "size": 19500 is reserved by protobuf (19000-19999)'),
  ],
  'KG120-bad-protobuf-word': [
    e('KG120', X, 3, 7, 'invalid @kgen:protobuf "2 pointer" on "spec": "pointer" fits a scalar or an IntOrString field only (a Go *int32, *bool, *string, ...), not a list, map or message'),
    e('KG120', X, 8, 7, 'invalid @kgen:protobuf "1 pointr" on "size": unknown word "pointr" after the number (known: pointer, microtime)'),
    e('KG120', X, 10, 7, 'invalid @kgen:protobuf "2 pointer pointer" on "count": "pointer" is given twice'),
    e('KG120', X, 12, 7, 'invalid @kgen:protobuf "3 microtime" on "replicas": "microtime" fits a date-time string (a metav1.MicroTime) only'),
    e('KG120', X, 14, 7, 'invalid @kgen:protobuf "4 pointer" on "names": "pointer" fits a scalar or an IntOrString field only (a Go *int32, *bool, *string, ...), not a list, map or message'),
  ],
  'KG121-duplicate-protobuf-number': [
    e('KG121', X, 3, 7, 'protobuf field number 1 of "Widget" is given to both "spec" and "metadata"'),
    e('KG121', X, 10, 7, 'protobuf field number 2 of "WidgetSpec" is given to both "color" and "size"'),
    e('KG121', X, 12, 7, 'protobuf field number 3 of "WidgetSpec" is given to both "group" and "rule"'),
  ],
  'KG122-partly-numbered-message': [e('KG122', X, 9, 3, '"WidgetSpec" numbers some fields with @kgen:protobuf but not "color"')],
  'KG051-oldself-in-atomic-list': [
    e('KG051', X, 12, 7, '"@kgen:immutable" uses oldSelf under the items of a list that is not a @kgen:listType map list, where an old value cannot be correlated'),
  ],
};

const fixtureDirs = readdirSync(DIAG_DIR).sort();

/**
 * Codes that are not errors of compiling one apis folder: API evolution findings need a baseline
 * (the before/after corpus, test/generator/evolve/corpus.test.ts), and the CRD size findings need
 * manifests too large for a fixture (test/generator/limits.test.ts).
 */
const EVOLUTION_CORPUS = `${FIXTURES}/../evolution`;
const COVERED_ELSEWHERE: Record<string, string> = {
  ...Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`KG0${60 + i}`, 'test/generator/evolve/corpus.test.ts'])),
  KG082: 'test/generator/limits.test.ts',
  KG083: 'test/generator/limits.test.ts',
};

test('the codes covered elsewhere are covered there', () => {
  const expectations = readdirSync(EVOLUTION_CORPUS).map((c) => readFileSync(`${EVOLUTION_CORPUS}/${c}/expect.txt`, 'utf8')).join('');
  const limits = readFileSync(new URL('./limits.test.ts', import.meta.url), 'utf8');
  for (const [code, where] of Object.entries(COVERED_ELSEWHERE)) {
    assert.ok(code in DIAGNOSTICS, `${code} is in the table`);
    assert.ok((where.includes('corpus') ? expectations : limits).includes(code), `${code} is expected by ${where}`);
  }
});

function assertMatches(actual: Diagnostic, expected: Expected, apisDir: string, where: string): void {
  assert.equal(actual.code, expected.code, `${where}: code`);
  assert.equal(relative(apisDir, actual.loc.file), expected.file, `${where}: file`);
  assert.deepEqual([actual.loc.line, actual.loc.col], [expected.line, expected.col], `${where}: line:col`);
  if (typeof expected.message === 'string') assert.equal(actual.message, expected.message, `${where}: message`);
  else assert.match(actual.message, expected.message, `${where}: message`);
  assert.equal(actual.severity, 'error', `${where}: severity`);
  assert.ok(actual.hint.trim().length > 10, `${where}: hint must say how to fix it, got ${JSON.stringify(actual.hint)}`);
}

describe('diagnostics: one fixture per code', () => {
  test('every code in the DIAGNOSTICS table has a fixture', () => {
    const covered = new Set(fixtureDirs.map((d) => d.slice(0, 5)));
    const missing = Object.keys(DIAGNOSTICS).filter((code) => !covered.has(code) && !(code in COVERED_ELSEWHERE));
    assert.deepEqual(missing, [], `codes without a fixture under ${DIAG_DIR}`);
  });

  test('every fixture folder is named KGnnn-<slug> after a real code and has an expectation', () => {
    for (const dir of fixtureDirs) {
      assert.match(dir, /^KG\d{3}-[a-z0-9-]+$/);
      assert.ok(dir.slice(0, 5) in DIAGNOSTICS, `${dir}: no such code`);
      assert.ok(CASES[dir], `${dir}: no expectation in CASES`);
    }
    assert.deepEqual(Object.keys(CASES).sort(), fixtureDirs, 'every expectation has a fixture folder');
  });

  for (const dir of fixtureDirs) {
    test(dir, () => {
      const apisDir = fixtureApis(`diagnostics/${dir}`);
      const result = compile({ apisDir, builtins: false });
      assert.equal(result.ok, false, 'compile must fail');
      assert.deepEqual(result.files, [], 'nothing is emitted when there are errors');
      const expected = CASES[dir] ?? [];
      const got = result.diagnostics.map((d) => `${d.code} ${relative(apisDir, d.loc.file)}:${d.loc.line}:${d.loc.col} ${d.message}`);
      assert.equal(result.diagnostics.length, expected.length, `all diagnostics of ${dir}:\n  ${got.join('\n  ')}`);
      result.diagnostics.forEach((d, i) => assertMatches(d, expected[i]!, apisDir, `${dir} #${i}`));
      assert.ok(result.diagnostics.some((d) => d.code === dir.slice(0, 5)), `${dir} reports its own code`);
    });
  }
});

describe('diagnostics: reporting', () => {
  test('several errors in one run are all reported, sorted by file, line and column', () => {
    const apisDir = fixtureApis('multiple-errors');
    const result = compile({ apisDir, builtins: false });
    assert.equal(result.ok, false);
    const got = result.diagnostics.map((d) => `${relative(apisDir, d.loc.file)}:${d.loc.line}:${d.loc.col} ${d.code}`);
    assert.deepEqual(got, [
      'widgets.example.com/v1/a.ts:1:5 KG003',
      'widgets.example.com/v1/a.ts:7:10 KG010',
      'widgets.example.com/v1/a.ts:8:9 KG013',
      'widgets.example.com/v1/b.ts:3:4 KG001',
      'widgets.example.com/v1/b.ts:10:12 KG010',
      'widgets.example.com/v1/b.ts:11:7 KG002',
      'widgets.example.com/v1alpha/c.ts:1:1 KG021',
    ]);
  });

  test('formatDiagnostic prints file:line:col - error KGnnn: message, then the hint', () => {
    const apisDir = fixtureApis('diagnostics/KG001-misspelled-subresource');
    const [d] = compile({ apisDir, builtins: false }).diagnostics;
    assert.ok(d);
    assert.equal(
      formatDiagnostic(d, apisDir),
      `widgets.example.com/v1/x.ts:3:4 - error KG001: unknown marker or tag "@kgen:subresorce"; did you mean "@kgen:subresource"?\n  hint: ${DIAGNOSTICS.KG001.hint}`,
    );
  });

  test('a tag far from every known name gets no "did you mean"', () => {
    const dir = tempDir('diag');
    after(() => rmSync(dir, { recursive: true, force: true }));
    const apisDir = writeApis(dir, {
      'widgets.example.com/v1/x.ts': '/**\n * @kgen:resource\n * @frobnicate\n */\nexport interface Widget {\n  size: number;\n}\n',
    });
    const [d, ...rest] = compile({ apisDir, builtins: false }).diagnostics;
    assert.deepEqual(rest, []);
    assert.equal(d?.code, 'KG001');
    assert.equal(d.message, 'unknown marker or tag "@frobnicate"');
    assert.deepEqual([d.loc.line, d.loc.col], [3, 4]);
  });

  test('the bundled examples and the built-in APIs compile without a diagnostic', () => {
    const result = compile({ apisDir: `${REPO}/apis` });
    assert.equal(result.ok, true);
    assert.deepEqual(result.diagnostics, []);
  });
});
