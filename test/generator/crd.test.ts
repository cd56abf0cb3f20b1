/**
 * CRD manifests (crds/<group>_<plural>.yaml): the bundled examples' CRDs pass the independent
 * apiextensions checker (crd-rules.ts), carry what a real cluster needs (versions, subresources,
 * columns, names, rules), leave kgen's built-in groups out, are deterministic, and honour
 * --crd-max-description-length.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parse } from 'yaml';
import { compile, type EmittedFile } from '../../generator/index.js';
import { checkCRD } from './crd-rules.js';
import { REPO, tempDir, writeApis } from './helpers.js';

type Json = Record<string, any>;

const crdFiles = (files: EmittedFile[]) => files.filter((f) => f.path.startsWith('crds/'));
const load = (f: EmittedFile): Json => parse(f.content) as Json;

/** Every schema node of a CRD version, with its path. */
function nodes(schema: Json, at = 'openAPIV3Schema'): [string, Json][] {
  const out: [string, Json][] = [[at, schema]];
  for (const [k, v] of Object.entries(schema.properties ?? {})) out.push(...nodes(v as Json, `${at}.properties[${k}]`));
  if (schema.items) out.push(...nodes(schema.items, `${at}.items`));
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') out.push(...nodes(schema.additionalProperties, `${at}.additionalProperties`));
  return out;
}

describe('CRD manifests of the bundled examples', () => {
  const result = compile({ apisDir: `${REPO}/apis` });
  const files = crdFiles(result.files);
  const byPath = new Map(files.map((f) => [f.path, load(f)]));

  test('one CRD per kind of the user groups, none for the built-in groups', () => {
    assert.equal(result.ok, true);
    assert.deepEqual([...byPath.keys()], [
      'crds/ops.example.org_policies.yaml',
      'crds/ops.example.org_runbooks.yaml',
      'crds/widgets.example.com_widgetclasses.yaml',
      'crds/widgets.example.com_widgets.yaml',
    ]);
  });

  test('every CRD passes the independent apiextensions checks', () => {
    for (const [path, crd] of byPath) assert.deepEqual(checkCRD(crd), [], path);
  });

  test('the committed generated/crds are what kgen generates', () => {
    for (const f of files) assert.equal(readFileSync(join(REPO, 'generated', f.path), 'utf8'), f.content, f.path);
  });

  test('schemas are inlined: no $ref, no allOf, metadata a bare object', () => {
    for (const [path, crd] of byPath) {
      const text = JSON.stringify(crd);
      assert.doesNotMatch(text, /"\$ref"|"allOf"|x-kubernetes-group-version-kind|"deprecated":true,"description"/, path);
      for (const v of crd.spec.versions) assert.deepEqual(v.schema.openAPIV3Schema.properties.metadata, { type: 'object' }, path);
    }
  });

  test('Widget: both versions, the storage one, the deprecated one, subresources, columns, names', () => {
    const crd = byPath.get('crds/widgets.example.com_widgets.yaml')!;
    assert.equal(crd.metadata.name, 'widgets.widgets.example.com');
    assert.deepEqual(crd.spec.names, { categories: ['all'], kind: 'Widget', listKind: 'WidgetList', plural: 'widgets', shortNames: ['wd'], singular: 'widget' });
    assert.equal(crd.spec.scope, 'Namespaced');
    const [v1, v1beta1] = crd.spec.versions;
    assert.deepEqual([v1.name, v1.served, v1.storage, v1.deprecated], ['v1', true, true, undefined]);
    assert.deepEqual([v1beta1.name, v1beta1.served, v1beta1.storage, v1beta1.deprecated], ['v1beta1', true, false, true]);
    assert.deepEqual(v1.subresources, {
      scale: { labelSelectorPath: '.status.selector', specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
      status: {},
    });
    assert.equal(v1beta1.subresources.scale.specReplicasPath, '.spec.size');
    assert.deepEqual(v1.additionalPrinterColumns, [
      { description: 'Desired number of spinners', jsonPath: '.spec.replicas', name: 'Replicas', type: 'integer' },
      { jsonPath: '.spec.color', name: 'Color', type: 'string' },
      { jsonPath: '.status.phase', name: 'Phase', priority: 1, type: 'string' },
    ]);
    assert.deepEqual(v1.selectableFields, [{ jsonPath: '.spec.color' }]);
    const spec = v1.schema.openAPIV3Schema.properties.spec;
    assert.deepEqual(spec.properties.replicas, { default: 1, description: 'Number of spinners to run.', format: 'int32', maximum: 100, minimum: 0, type: 'integer' });
    assert.equal(spec.properties.port['x-kubernetes-int-or-string'], true);
    assert.deepEqual(spec.properties.parts['x-kubernetes-list-map-keys'], ['name']);
    assert.deepEqual(spec.properties.parts.items['x-kubernetes-validations'], [
      { fieldPath: '.count', message: 'a wooden part has a count of at most 10', rule: "!has(self.material) || self.material != 'wood' || self.count <= 10" },
    ]);
    // apimachinery schemas keep their shape without kube's Go zero-value defaults.
    const condition = v1.schema.openAPIV3Schema.properties.status.properties.conditions.items;
    assert.deepEqual(condition.properties.status, { description: 'status of the condition, one of True, False, Unknown.', enum: ['True', 'False', 'Unknown'], type: 'string' });
    assert.deepEqual(condition.required, ['type', 'status', 'lastTransitionTime', 'reason', 'message']);
  });

  test('validation rules reach the CRDs: Policy min/max on its spec, WidgetClass immutable provisioner', () => {
    const policy = byPath.get('crds/ops.example.org_policies.yaml')!.spec.versions[0].schema.openAPIV3Schema;
    assert.deepEqual(policy.properties.spec['x-kubernetes-validations'], [
      { message: 'minReplicas must not exceed maxReplicas', rule: '!has(self.minReplicas) || self.minReplicas <= self.maxReplicas' },
    ]);
    const wdc = byPath.get('crds/widgets.example.com_widgetclasses.yaml')!.spec.versions[0].schema.openAPIV3Schema;
    assert.deepEqual(wdc.properties.provisioner['x-kubernetes-validations'], [{ message: 'Value is immutable', rule: 'self == oldSelf' }]);
  });

  test('output is deterministic and starts with the generated-code banner', () => {
    const again = crdFiles(compile({ apisDir: `${REPO}/apis` }).files);
    assert.deepEqual(again, files);
    for (const f of files) assert.match(f.content, /^# Code generated by kgen generate\. DO NOT EDIT\.\n---\napiVersion: apiextensions\.k8s\.io\/v1\n/);
  });
});

describe('the independent checker is not vacuous', () => {
  const widget = load(crdFiles(compile({ apisDir: `${REPO}/apis` }).files).find((f) => f.path.endsWith('_widgets.yaml'))!);
  const mutate = (change: (crd: Json) => void): string[] => {
    const crd = structuredClone(widget);
    change(crd);
    return checkCRD(crd);
  };
  const spec = (crd: Json) => crd.spec.versions[0].schema.openAPIV3Schema.properties.spec;

  test('each broken rule is reported', () => {
    const cases: [string, (crd: Json) => void, RegExp][] = [
      ['$ref', (c) => (spec(c).properties.selector = { $ref: '#/definitions/x' }), /\$ref is not supported/],
      ['missing type', (c) => delete spec(c).properties.rpm.type, /type: Required value/],
      ['uniqueItems', (c) => (spec(c).properties.schedule.uniqueItems = true), /uniqueItems cannot be set to true/],
      ['properties + additionalProperties', (c) => (spec(c).additionalProperties = { type: 'string' }), /mutual exclusive/],
      ['list-map key neither required nor defaulted', (c) => (spec(c).properties.parts.items.required = ['count']), /must have a default or be a required property/],
      ['bad default', (c) => (spec(c).properties.color.default = 'purple'), /Unsupported value "purple"/],
      ['metadata restricted', (c) => (c.spec.versions[0].schema.openAPIV3Schema.properties.metadata = { type: 'object', properties: { labels: { type: 'object' } } }), /only name and generateName/],
      ['two storage versions', (c) => (c.spec.versions[1].storage = true), /exactly one version marked as storage/],
      ['wrong name', (c) => (c.metadata.name = 'widgets'), /spec\.names\.plural\+"\."\+spec\.group/],
      ['unknown JSONSchemaProps key', (c) => (spec(c).deprecated = true), /unknown field in JSONSchemaProps/],
      ['type inside anyOf', (c) => (spec(c).properties.port.anyOf = [{ type: 'integer', description: 'x' }, { type: 'string' }]), /must not be set inside allOf, anyOf/],
      ['oldSelf under an atomic list', (c) => (spec(c).properties.schedule.items.items['x-kubernetes-validations'] = [{ rule: 'self == oldSelf' }]), /oldSelf cannot be used/],
      ['scale path outside .spec', (c) => (c.spec.versions[0].subresources.scale.specReplicasPath = '.status.replicas'), /should be a json path under \.spec\./],
    ];
    for (const [name, change, want] of cases) {
      const errs = mutate(change);
      assert.ok(errs.some((e) => want.test(e)), `${name}: expected ${want}, got ${JSON.stringify(errs)}`);
    }
  });
});

describe('CRD options and edge cases', () => {
  const dir = tempDir('crd');
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A kind with `count` fields of long descriptions (about 1 KiB each). */
  function bigApis(count: number): string {
    const long = 'This field is documented at length so that the CRD grows. '.repeat(17).trim();
    const fields = Array.from({ length: count }, (_, i) => `  /** ${long} */\n  field${i}?: string;`).join('\n');
    return writeApis(join(dir, `big${count}`), {
      'big.example.com/v1/thing.ts': `/**\n * Thing has many documented fields.\n * @kgen:resource\n */\nexport interface Thing {\n  spec: ThingSpec;\n}\n\n/** ThingSpec is the desired state. */\nexport interface ThingSpec {\n${fields}\n}\n`,
    });
  }

  test('--crd-max-description-length keeps a large CRD under the 256 KiB last-applied annotation', () => {
    const apisDir = bigApis(300);
    const whole = crdFiles(compile({ apisDir, builtins: false }).files)[0]!;
    const bounded = crdFiles(compile({ apisDir, builtins: false, crdMaxDescriptionLength: 0 }).files)[0]!;
    const size = (f: EmittedFile) => Buffer.byteLength(JSON.stringify(load(f)));
    assert.ok(size(whole) > 256 * 1024, `the unbounded CRD is ${size(whole)} bytes`);
    assert.ok(size(bounded) < 64 * 1024, `the bounded CRD is ${size(bounded)} bytes`);
    assert.deepEqual(checkCRD(load(bounded)), []);
    for (const [at, node] of nodes(load(bounded).spec.versions[0].schema.openAPIV3Schema)) assert.equal(node.description, undefined, at);
  });

  test('a positive bound cuts at a word and ends in "...", leaving short descriptions and the OpenAPI alone', () => {
    const apisDir = bigApis(2);
    const plain = compile({ apisDir, builtins: false });
    const result = compile({ apisDir, builtins: false, crdMaxDescriptionLength: 40 });
    const schema = load(crdFiles(result.files)[0]!).spec.versions[0].schema.openAPIV3Schema;
    const field = schema.properties.spec.properties.field0.description as string;
    assert.equal(field, 'This field is documented at length so...');
    assert.equal(schema.properties.spec.description, 'ThingSpec is the desired state.');
    for (const [at, node] of nodes(schema)) if (node.description) assert.ok(node.description.length <= 43, at);
    const openapi = (r: typeof result) => r.files.find((f) => f.path === 'openapi/v3/apis/big.example.com/v1.json')!.content;
    assert.equal(openapi(result), openapi(plain));
  });

  test('the CLI passes --crd-max-description-length through and refuses a bad value', () => {
    const apisDir = bigApis(3);
    const out = join(dir, 'cli-out');
    const ok = spawnSync(process.execPath, [join(REPO, 'bin/kgen.js'), 'generate', apisDir, '--out', out, '--no-builtins', '--crd-max-description-length', '0'], { encoding: 'utf8' });
    assert.equal(ok.status, 0, ok.stderr);
    const crd = parse(readFileSync(join(out, 'crds/big.example.com_things.yaml'), 'utf8')) as Json;
    assert.equal(crd.spec.versions[0].schema.openAPIV3Schema.description, undefined);
    const bad = spawnSync(process.execPath, [join(REPO, 'bin/kgen.js'), 'generate', apisDir, '--out', out, '--crd-max-description-length', '-1'], { encoding: 'utf8' });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /--crd-max-description-length must be a non-negative integer, got "-1"/);
  });

  test('an unserved version is served: false; a deprecation warning is kept', () => {
    const widget = (version: string, markers: string) =>
      `/**\n * @kgen:resource\n${markers}\n */\nexport interface Gizmo {\n  spec: GizmoSpec;\n}\n\nexport interface GizmoSpec {\n  /** @kgen:immutable */\n  size?: number;\n}\n`;
    const apisDir = writeApis(join(dir, 'versions'), {
      'gizmos.example.com/v1/gizmo.ts': widget('v1', ' * @kgen:storageversion'),
      'gizmos.example.com/v1beta1/gizmo.ts': widget('v1beta1', ' * @kgen:deprecatedversion warning="gizmos.example.com/v1beta1 Gizmo is deprecated; use v1"'),
      'gizmos.example.com/v1alpha1/gizmo.ts': widget('v1alpha1', ' * @kgen:unservedversion'),
    });
    const result = compile({ apisDir, builtins: false });
    assert.equal(result.ok, true, JSON.stringify(result.diagnostics.map((d) => d.message)));
    const crd = load(crdFiles(result.files)[0]!);
    assert.deepEqual(checkCRD(crd), []);
    const summary = crd.spec.versions.map((v: Json) => [v.name, v.served, v.storage, v.deprecated ?? false, v.deprecationWarning ?? '']);
    assert.deepEqual(summary, [
      ['v1', true, true, false, ''],
      ['v1beta1', true, false, true, 'gizmos.example.com/v1beta1 Gizmo is deprecated; use v1'],
      ['v1alpha1', false, false, false, ''],
    ]);
  });
});

describe('CRD schemas: merges and rewrites', () => {
  const dir = tempDir('crd-merge');
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("a field's own rules follow its type's; @uniqueItems becomes a set list; the result passes the checker", () => {
    const apisDir = writeApis(dir, {
      'merge.example.com/v1/box.ts': [
        '/** @kgen:resource */',
        'export interface Box {',
        '  /**',
        '   * The spec.',
        '   * @kgen:validation rule="self.size > 0" message="size is positive"',
        '   */',
        '  spec: BoxSpec;',
        '}',
        '',
        '/**',
        ' * BoxSpec describes a box.',
        ' * @kgen:validation rule="self.size <= 10" message="size is at most 10"',
        ' */',
        'export interface BoxSpec {',
        '  size: number;',
        '  /**',
        '   * Tags, each once.',
        '   * @uniqueItems',
        '   */',
        '  tags?: string[];',
        '}',
        '',
      ].join('\n'),
    });
    const result = compile({ apisDir, builtins: false });
    assert.equal(result.ok, true, JSON.stringify(result.diagnostics.map((d) => d.message)));
    const crd = load(crdFiles(result.files)[0]!);
    assert.deepEqual(checkCRD(crd), []);
    const spec = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec;
    assert.equal(spec.description, 'The spec.');
    assert.deepEqual(spec['x-kubernetes-validations'], [
      { message: 'size is at most 10', rule: 'self.size <= 10' },
      { message: 'size is positive', rule: 'self.size > 0' },
    ]);
    assert.deepEqual(spec.properties.tags, { description: 'Tags, each once.', items: { type: 'string' }, type: 'array', 'x-kubernetes-list-type': 'set' });
  });
});
