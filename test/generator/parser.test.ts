/**
 * The API model the parser builds: group and version order, naming, and every field tag and type
 * form landing where the emitters expect it.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { compile } from '../../generator/index.js';
import type { ApiModel, ApiVersion, Kind, NamedType, Property, Schema } from '../../generator/model.js';
import { compareVersionPriority, pluralize } from '../../generator/names.js';
import { REPO, fixtureApis } from './helpers.js';

function compileOk(apisDir: string, builtins = false): ApiModel {
  const result = compile({ apisDir, builtins });
  assert.deepEqual(result.diagnostics, [], 'fixture must compile cleanly');
  assert.equal(result.ok, true);
  return result.model;
}

/** Drops source locations so models from different folders compare equal. */
function withoutLocations<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (k, v) => (k === 'loc' || (k === 'status' && v && typeof v === 'object' && 'file' in v) ? undefined : v)));
}

const onlyVersion = (model: ApiModel): ApiVersion => {
  assert.equal(model.groups.length, 1);
  assert.equal(model.groups[0]!.versions.length, 1);
  return model.groups[0]!.versions[0]!;
};
const kindOf = (v: ApiVersion, name: string): Kind => v.kinds.find((k) => k.name === name) ?? assert.fail(`no kind ${name}`);
const typeOf = (v: ApiVersion, name: string): NamedType => v.types.find((t) => t.name === name) ?? assert.fail(`no type ${name}`);
function field(schema: Schema, name: string): Property {
  assert.equal(schema.type, 'object');
  if (schema.type !== 'object') throw new Error('unreachable');
  return schema.properties.find((p) => p.name === name) ?? assert.fail(`no field ${name}`);
}

describe('parser: the bundled apis and the built-ins', () => {
  const model = compileOk(join(REPO, 'apis'), true);
  const group = (name: string) => model.groups.find((g) => g.name === name) ?? assert.fail(`no group ${name}`);

  test('groups are sorted with the core group first, then by name', () => {
    assert.deepEqual(model.groups.map((g) => g.name), [
      '',
      'admissionregistration.k8s.io',
      'apiextensions.k8s.io',
      'apiregistration.k8s.io',
      'apps',
      'authentication.k8s.io',
      'authorization.k8s.io',
      'coordination.k8s.io',
      'events.k8s.io',
      'ops.example.org',
      'rbac.authorization.k8s.io',
      'widgets.example.com',
    ]);
  });

  test('each version lists its kinds sorted by name, and the named types they reach', () => {
    const summary = model.groups.flatMap((g) => g.versions.map((v) => `${g.name || 'core'}/${v.name}: ${v.kinds.map((k) => k.name).join(',')}`));
    assert.deepEqual(summary, [
      'core/v1: ConfigMap,Endpoints,Event,Namespace,PersistentVolumeClaim,Secret,Service,ServiceAccount',
      'admissionregistration.k8s.io/v1: MutatingWebhookConfiguration,ValidatingWebhookConfiguration',
      'apiextensions.k8s.io/v1: CustomResourceDefinition',
      'apiregistration.k8s.io/v1: APIService',
      'apps/v1: Deployment',
      'authentication.k8s.io/v1: SelfSubjectReview,TokenReview',
      'authentication.k8s.io/v1beta1: SelfSubjectReview',
      'authorization.k8s.io/v1: LocalSubjectAccessReview,SelfSubjectAccessReview,SelfSubjectRulesReview,SubjectAccessReview',
      'coordination.k8s.io/v1: Lease',
      'events.k8s.io/v1: Event',
      'ops.example.org/v1beta1: Policy,Runbook',
      'rbac.authorization.k8s.io/v1: ClusterRole,ClusterRoleBinding,Role,RoleBinding',
      'widgets.example.com/v1: Widget,WidgetClass',
      'widgets.example.com/v1beta1: Widget',
    ]);
    const widgets = group('widgets.example.com').versions[0]!;
    assert.deepEqual(widgets.types.map((t) => t.name), ['Color', 'Part', 'WidgetSpec', 'WidgetStatus']);
  });

  test('resource markers land on the kind', () => {
    const widget = kindOf(group('widgets.example.com').versions[0]!, 'Widget');
    assert.equal(widget.plural, 'widgets');
    assert.equal(widget.singular, 'widget');
    assert.equal(widget.scope, 'Namespaced');
    assert.deepEqual(widget.shortNames, ['wd']);
    assert.deepEqual(widget.categories, ['all']);
    assert.ok(widget.subresources.status);
    assert.deepEqual(withoutLocations(widget.subresources.scale), {
      specReplicasPath: '.spec.replicas',
      statusReplicasPath: '.status.replicas',
      labelSelectorPath: '.status.selector',
    });
    assert.deepEqual(withoutLocations(widget.printColumns), [
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas', priority: 0, description: 'Desired number of spinners' },
      { name: 'Color', type: 'string', jsonPath: '.spec.color', priority: 0 },
      { name: 'Phase', type: 'string', jsonPath: '.status.phase', priority: 1 },
    ]);
    assert.deepEqual(widget.selectableFields.map((f) => f.jsonPath), ['.spec.color']);
    assert.equal(widget.storageVersion, true, 'the only version of a kind is its storage version');
    assert.match(widget.description ?? '', /^Widget is a thing that spins\./);
    const policy = kindOf(group('ops.example.org').versions[0]!, 'Policy');
    assert.equal(policy.scope, 'Cluster');
    assert.equal(policy.plural, 'policies');
    assert.deepEqual(policy.categories, ['ops']);
  });

  test('the built-in Namespace is cluster-scoped core/v1 with short name ns', () => {
    const ns = kindOf(model.groups[0]!.versions[0]!, 'Namespace');
    assert.deepEqual([ns.group, ns.version, ns.plural, ns.scope, ns.shortNames], ['', 'v1', 'namespaces', 'Cluster', ['ns']]);
  });
});

describe('parser: version priority', () => {
  test('versions of a group are ordered as kube orders them: GA, beta, alpha; higher first', () => {
    const model = compileOk(fixtureApis('versions'));
    assert.deepEqual(model.groups[0]!.versions.map((v) => v.name), ['v2', 'v1', 'v2beta1', 'v1beta1', 'v1alpha1']);
    assert.deepEqual(
      model.groups[0]!.versions.filter((v) => v.kinds[0]!.storageVersion).map((v) => v.name),
      ['v2'],
      'the version marked @kgen:storageversion is the only storage version',
    );
  });

  test('compareVersionPriority matches k8s CompareKubeAwareVersionStrings', () => {
    // The example list from k8s.io/apimachinery/pkg/version/helpers.go.
    const kube = ['v10', 'v2', 'v1', 'v11beta2', 'v10beta3', 'v3beta1', 'v12alpha1', 'v11alpha2', 'foo1', 'foo10'];
    const shuffled = [...kube].reverse();
    assert.deepEqual(shuffled.sort(compareVersionPriority), kube);
  });
});

describe('parser: names', () => {
  const version = onlyVersion(compileOk(fixtureApis('names')));

  test('plurals and singulars are derived as kube does for CRDs', () => {
    const names = Object.fromEntries(version.kinds.map((k) => [k.name, [k.plural, k.singular]]));
    assert.deepEqual(names, {
      Box: ['boxes', 'box'],
      Class: ['classes', 'class'],
      Gateway: ['gateways', 'gateway'],
      Mesh: ['meshes', 'mesh'],
      Person: ['people', 'human'],
      Policy: ['policies', 'policy'],
    });
    assert.deepEqual(['policy', 'class', 'gateway', 'index', 'buzz', 'key'].map(pluralize), ['policies', 'classes', 'gateways', 'indexes', 'buzzes', 'keys']);
  });

  test('plural=, singular=, shortNames=, categories= and scope= override the defaults', () => {
    const person = kindOf(version, 'Person');
    assert.deepEqual(
      [person.plural, person.singular, person.shortNames, person.categories, person.scope],
      ['people', 'human', ['ppl', 'hu'], ['all', 'humans'], 'Cluster'],
    );
    assert.equal(kindOf(version, 'Box').scope, 'Namespaced', 'Namespaced is the default scope');
  });
});

describe('parser: field tags and types', () => {
  const version = onlyVersion(compileOk(fixtureApis('model')));
  const spec = typeOf(version, 'ShapeSpec').schema;
  const f = (name: string) => withoutLocations(field(spec, name).schema);

  test('numeric tags', () => {
    assert.deepEqual(f('replicas'), { type: 'integer', format: 'int32', minimum: 0, maximum: 10, multipleOf: 2, default: 2, example: 4, description: 'Replicas.' });
    assert.deepEqual(f('ratio'), { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, description: 'Ratio, strictly between 0 and 1.' });
  });

  test('string tags', () => {
    assert.deepEqual(f('name'), { type: 'string', minLength: 1, maxLength: 63, pattern: '^[a-z0-9-]+$', description: 'A DNS label.' });
    assert.deepEqual(f('id'), { type: 'string', format: 'uuid' });
    assert.deepEqual(f('oldName'), { type: 'string', deprecated: true, description: 'Old name.' });
    assert.equal(field(spec, 'name').optional, false);
    assert.equal(field(spec, 'id').optional, true);
  });

  test('list and map tags', () => {
    assert.deepEqual(f('tags'), { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 8, uniqueItems: true, listType: 'set', description: 'Tags.' });
    assert.deepEqual(f('notes'), { type: 'map', values: { type: 'string' }, minProperties: 1, maxProperties: 5, description: 'Annotations.' });
    assert.deepEqual(f('ports'), {
      type: 'array',
      items: { type: 'ref', name: 'NamedPort' },
      listType: 'map',
      listMapKeys: ['name', 'protocol'],
      description: 'Ports by name.',
    });
    assert.deepEqual(withoutLocations(field(typeOf(version, 'ShapeStatus').schema, 'conditions').schema), {
      type: 'array',
      items: { type: 'wellKnown', name: 'Condition' },
      listType: 'map',
      listMapKeys: ['type'],
    });
  });

  test('@kgen:preserveUnknownFields turns unknown and Record<string, unknown> into free-form JSON', () => {
    assert.deepEqual(f('extra'), { type: 'unknown', preserveUnknownFields: true });
    assert.deepEqual(f('settings'), { type: 'unknown', preserveUnknownFields: true });
  });

  test('enums: string-literal unions, inline or named', () => {
    assert.deepEqual(f('inlineEnum'), { type: 'string', enum: ['a', 'b'] });
    assert.deepEqual(f('color'), { type: 'ref', name: 'Color' });
    assert.deepEqual(withoutLocations(typeOf(version, 'Color')), { name: 'Color', description: 'The colour.', schema: { type: 'string', enum: ['red', 'green', 'blue'] } });
  });

  test('T | null is nullable', () => {
    assert.deepEqual(f('nullableName'), { type: 'string', nullable: true });
    assert.deepEqual(f('nullableColor'), { type: 'ref', name: 'Color', nullable: true });
  });

  test('maps, nested arrays and Array<T>', () => {
    assert.deepEqual(f('matrix'), { type: 'array', items: { type: 'array', items: { type: 'integer', format: 'int64' } }, listType: 'atomic' });
    assert.deepEqual(f('flags'), { type: 'array', items: { type: 'boolean' } });
    assert.deepEqual(withoutLocations(typeOf(version, 'Labels')), {
      name: 'Labels',
      description: 'Labels are free-form.',
      schema: { type: 'map', values: { type: 'string' }, maxProperties: 64 },
    });
  });

  test('aliases become named types, also across files of the version', () => {
    assert.deepEqual(f('port'), { type: 'ref', name: 'Port' });
    assert.deepEqual(withoutLocations(typeOf(version, 'Port').schema), { type: 'integer', format: 'int32' });
    assert.deepEqual(f('labels'), { type: 'ref', name: 'Labels' });
  });

  test('A & B merges the fields of both', () => {
    const merged = field(spec, 'merged').schema;
    assert.equal(merged.type, 'object');
    if (merged.type !== 'object') return;
    assert.deepEqual(merged.properties.map((p) => [p.name, p.optional, p.schema.type]), [
      ['a', false, 'string'],
      ['b', true, 'number'],
      ['c', false, 'boolean'],
    ]);
  });

  test('extends copies the base fields; a redeclared field overrides the base', () => {
    const derived = typeOf(version, 'Derived');
    assert.equal(derived.description, 'Derived extends Base and overrides b.');
    assert.equal(derived.schema.type, 'object');
    if (derived.schema.type !== 'object') return;
    assert.deepEqual(derived.schema.properties.map((p) => [p.name, p.optional, p.schema.type]), [
      ['a', false, 'string'],
      ['c', false, 'boolean'],
      ['b', false, 'string'],
      ['d', true, 'integer'],
    ]);
    assert.equal(field(derived.schema, 'a').schema.description, 'From Base.');
  });

  test('inline object types', () => {
    assert.deepEqual(f('inline'), {
      type: 'object',
      properties: [
        { name: 'a', optional: false, schema: { type: 'string' } },
        { name: 'b', optional: true, schema: { type: 'boolean' } },
      ],
    });
  });

  test("types from 'kgen'", () => {
    assert.deepEqual(f('ratioOrName'), { type: 'intOrString' });
    assert.deepEqual(f('size'), { type: 'quantity' });
    assert.deepEqual(f('startAt'), { type: 'time' });
    assert.deepEqual(f('timeout'), { type: 'duration' });
    assert.deepEqual(f('selector'), { type: 'wellKnown', name: 'LabelSelector' });
    assert.deepEqual(f('owner'), { type: 'wellKnown', name: 'ObjectReference' });
  });

  test('the kind: apiVersion, kind and metadata are implied; descriptions keep their lines', () => {
    const shape = kindOf(version, 'Shape');
    assert.deepEqual(shape.schema.properties.map((p) => p.name), ['spec', 'status']);
    assert.equal(shape.description, 'Shape exercises every field tag and every kind of type.\nSecond line of the description.');
    assert.equal(field(shape.schema, 'spec').schema.description, 'Spec is the desired state.');
    assert.deepEqual(withoutLocations(shape.printColumns), [
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas', priority: 1, description: 'Desired replicas', format: 'int32' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', priority: 0 },
    ]);
    assert.equal(shape.storageVersion, true);
  });

  test('only types reachable from a kind are in the model', () => {
    assert.deepEqual(version.types.map((t) => t.name), ['Color', 'Derived', 'Labels', 'NamedPort', 'Port', 'ShapeSpec', 'ShapeStatus']);
  });
});

describe("parser: 'kgen' without node_modules", () => {
  // A folder outside the repo: no node_modules and no package named kgen anywhere above it.
  const outside = mkdtempSync(join(tmpdir(), 'kgen-parser-'));
  after(() => rmSync(outside, { recursive: true, force: true }));

  test("imports from 'kgen' are recognised by name, not by module resolution", () => {
    const apis = join(outside, 'apis');
    cpSync(fixtureApis('model'), apis, { recursive: true });
    const copied = compileOk(apis);
    const inRepo = compileOk(fixtureApis('model'));
    assert.deepEqual(withoutLocations(copied), withoutLocations(inRepo));
    const spec = typeOf(onlyVersion(copied), 'ShapeSpec').schema;
    assert.deepEqual(withoutLocations(field(spec, 'startAt').schema), { type: 'time' });
    assert.ok(field(spec, 'startAt').loc.file.startsWith(outside), 'locations point into the copied folder');
  });
});

describe('parser: doc comments', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kgen-doc-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a line terminator other than \\n inside a doc comment line (U+2028, U+2029, a lone \\r) is text, not a crash', () => {
    const apis = join(dir, 'apis');
    mkdirSync(join(apis, 'things.example.com', 'v1'), { recursive: true });
    writeFileSync(
      join(apis, 'things.example.com', 'v1', 'thing.ts'),
      '/**\n * Thing\u2028one.\n * @kgen:resource\n */\nexport interface Thing {\n  /** Size\rtwo\u2029three. */\n  spec: { size: number };\n}\n',
    );
    const thing = kindOf(onlyVersion(compileOk(apis)), 'Thing');
    assert.equal(thing.description, 'Thing\u2028one.');
    assert.equal(field(thing.schema, 'spec').schema.description, 'Size\rtwo\u2029three.');
  });
});
