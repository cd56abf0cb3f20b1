/**
 * What the generator emits for the bundled examples (plus the built-in core/v1): OpenAPI v3 and
 * Swagger 2.0 documents that are structurally valid and named as kube-apiserver names things,
 * discovery documents, TypeScript that type-checks, and output that is deterministic.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { compile, generate, type EmittedFile } from '../../generator/index.js';
import { checkOpenAPIv3, checkSwagger2, collectRefs, operations } from './openapi-check.js';
import { REPO, copyTree, listTree, cleanedTempDirs } from './helpers.js';
import { QUANTITY_PATTERN } from '../../runtime/endpoints/openapi/quantity.js';
import { isShared, shareParameters } from '../../runtime/endpoints/openapi/v2-parameters.js';

const APIS = join(REPO, 'apis');
const result = compile({ apisDir: APIS });
assert.equal(result.ok, true, 'the bundled examples compile');
const files = new Map(result.files.map((f: EmittedFile) => [f.path, f.content]));
const json = (path: string): any => {
  const content = files.get(path);
  assert.ok(content !== undefined, `${path} is emitted`);
  return JSON.parse(content);
};

/** kgen's built-in API groups besides core/v1 (admission, CRDs, APIServices, Deployments, authorization and RBAC); every generation holds them. */
const BUILTIN_GROUPS = ['admissionregistration.k8s.io', 'apiextensions.k8s.io', 'apiregistration.k8s.io', 'apps', 'authentication.k8s.io', 'authorization.k8s.io', 'coordination.k8s.io', 'events.k8s.io', 'rbac.authorization.k8s.io'];
const V3_DOCS = [
  'openapi/v3/api/v1.json',
  ...BUILTIN_GROUPS.map((g) => `openapi/v3/apis/${g}/v1.json`),
  // SelfSubjectReview is also served in v1beta1, for kubectl 1.27's `auth whoami`.
  'openapi/v3/apis/authentication.k8s.io/v1beta1.json',
  'openapi/v3/apis/ops.example.org/v1beta1.json',
  'openapi/v3/apis/widgets.example.com/v1.json',
  'openapi/v3/apis/widgets.example.com/v1beta1.json',
];
/** The compact file of a v3 document's component schemas alone (what the server reads at start). */
const schemasOf = (doc: string) => doc.replace('openapi/v3/', 'openapi/schemas/');
const widgetsDoc = () => json('openapi/v3/apis/widgets.example.com/v1.json');
const coreDoc = () => json('openapi/v3/api/v1.json');
const allOps = () => V3_DOCS.flatMap((p) => operations(json(p)).map((o) => ({ ...o, doc: p })));
const opById = (id: string) => allOps().find((o) => o.op.operationId === id) ?? assert.fail(`no operation ${id}`);

const tmp = cleanedTempDirs();

describe('emit: the file set', () => {
  test('every document and TypeScript module of the contract is emitted, and nothing else', () => {
    assert.deepEqual([...files.keys()], [
      'client/core/v1.ts',
      'client/index.ts',
      'client/ops.example.org/v1beta1.ts',
      'client/widgets.example.com/v1.ts',
      'discovery/aggregated.json',
      'discovery/api.json',
      'discovery/api/v1.json',
      'discovery/apis.json',
      'discovery/apis/ops.example.org/v1beta1.json',
      'discovery/apis/widgets.example.com/v1.json',
      'index.ts',
      'models/core/v1.ts',
      'models/ops.example.org/v1beta1.ts',
      'models/widgets.example.com/v1.ts',
      'openapi/v2/swagger.json',
      ...V3_DOCS.map(schemasOf),
      ...V3_DOCS,
      'routes/core/v1.ts',
      'routes/ops.example.org/v1beta1.ts',
      'routes/widgets.example.com/v1.ts',
      'storage/core/v1/configmaps.ts',
      'storage/core/v1/endpoints.ts',
      'storage/core/v1/events.ts',
      'storage/core/v1/namespaces.ts',
      'storage/core/v1/persistentvolumeclaims.ts',
      'storage/core/v1/secrets.ts',
      'storage/core/v1/serviceaccounts.ts',
      'storage/core/v1/services.ts',
      'storage/ops.example.org/v1beta1/policies.ts',
      'storage/ops.example.org/v1beta1/runbooks.ts',
      'storage/widgets.example.com/v1/widgetclasses.ts',
      'storage/widgets.example.com/v1/widgets.ts',
      // Widget is also served in v1beta1 (deprecated), converted through v1 (its storage version).
      'client/widgets.example.com/v1beta1.ts',
      'conversion/widgets.example.com/widgets.ts',
      'discovery/apis/widgets.example.com/v1beta1.json',
      'models/widgets.example.com/v1beta1.ts',
      'routes/widgets.example.com/v1beta1.ts',
      'storage/widgets.example.com/v1beta1/widgets.ts',
      // CustomResourceDefinitions of the user's kinds (not of the built-in groups).
      'crds/ops.example.org_policies.yaml',
      'crds/ops.example.org_runbooks.yaml',
      'crds/widgets.example.com_widgetclasses.yaml',
      'crds/widgets.example.com_widgets.yaml',
      // The API snapshot breaking changes are found against (generator/evolve).
      'api-snapshot.json',
      // Validators of the user's kinds (beside the clients, not in them).
      'validate/ops.example.org/v1beta1.ts',
      // The Go facts of the kinds that have them, for `kgen validate`.
      'validate/go-fields.json',
      'validate/widgets.example.com/v1.ts',
      'validate/widgets.example.com/v1beta1.ts',
      // The HTML reference of the user's groups (kgen docs).
      'docs/index.html',
      'docs/ops.example.org_v1beta1.html',
      'docs/search.js',
      'docs/style.css',
      'docs/widgets.example.com_v1.html',
      'docs/widgets.example.com_v1beta1.html',
      ...BUILTIN_GROUPS.flatMap((g) => [`client/${g}/v1.ts`, `discovery/apis/${g}/v1.json`, `models/${g}/v1.ts`, `routes/${g}/v1.ts`]),
      'storage/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations.ts',
      'storage/admissionregistration.k8s.io/v1/validatingwebhookconfigurations.ts',
      'storage/apiextensions.k8s.io/v1/customresourcedefinitions.ts',
      'storage/apiregistration.k8s.io/v1/apiservices.ts',
      'storage/apps/v1/deployments.ts',
      'storage/authentication.k8s.io/v1/selfsubjectreviews.ts',
      'client/authentication.k8s.io/v1beta1.ts',
      'conversion/authentication.k8s.io/selfsubjectreviews.ts',
      'discovery/apis/authentication.k8s.io/v1beta1.json',
      'models/authentication.k8s.io/v1beta1.ts',
      'routes/authentication.k8s.io/v1beta1.ts',
      'storage/authentication.k8s.io/v1beta1/selfsubjectreviews.ts',
      'storage/authentication.k8s.io/v1/tokenreviews.ts',
      'storage/authorization.k8s.io/v1/localsubjectaccessreviews.ts',
      'storage/authorization.k8s.io/v1/selfsubjectaccessreviews.ts',
      'storage/authorization.k8s.io/v1/selfsubjectrulesreviews.ts',
      'storage/coordination.k8s.io/v1/leases.ts',
      'storage/events.k8s.io/v1/events.ts',
      'storage/authorization.k8s.io/v1/subjectaccessreviews.ts',
      'storage/rbac.authorization.k8s.io/v1/clusterrolebindings.ts',
      'storage/rbac.authorization.k8s.io/v1/clusterroles.ts',
      'storage/rbac.authorization.k8s.io/v1/rolebindings.ts',
      'storage/rbac.authorization.k8s.io/v1/roles.ts',
    ].sort((a, b) => a.localeCompare(b)));
  });

  test('JSON documents are pretty-printed with a trailing newline', () => {
    for (const [path, content] of files) {
      if (!path.endsWith('.json') || path.startsWith('openapi/schemas/')) continue;
      assert.equal(content, JSON.stringify(JSON.parse(content), null, 2) + '\n', path);
    }
  });

  test("each v3 document's component schemas are also written alone, as one line of JSON", () => {
    for (const doc of V3_DOCS) {
      const expected = { components: { schemas: json(doc).components.schemas } };
      assert.equal(files.get(schemasOf(doc)), JSON.stringify(expected) + '\n', schemasOf(doc));
    }
  });
});

describe('emit: OpenAPI v3', () => {
  for (const path of V3_DOCS) {
    test(`${path} is a structurally valid OpenAPI 3.0 document`, () => {
      const doc = json(path);
      assert.deepEqual(checkOpenAPIv3(doc), []);
      assert.ok(collectRefs(doc).length > 10, 'the document uses references');
    });
  }

  test('operation ids are unique across all documents', () => {
    const ids = allOps().map((o) => o.op.operationId as string);
    const dupes = ids.filter((id, i) => ids.indexOf(id) !== i);
    assert.deepEqual(dupes, []);
    assert.ok(ids.length >= 40);
  });

  test("operation ids are kube-apiserver's", () => {
    const ids = new Set(allOps().map((o) => o.op.operationId));
    for (const id of [
      'listWidgetsExampleComV1NamespacedWidget',
      'listWidgetsExampleComV1WidgetForAllNamespaces',
      'createWidgetsExampleComV1NamespacedWidget',
      'readWidgetsExampleComV1NamespacedWidget',
      'replaceWidgetsExampleComV1NamespacedWidget',
      'patchWidgetsExampleComV1NamespacedWidget',
      'deleteWidgetsExampleComV1NamespacedWidget',
      'deletecollectionWidgetsExampleComV1NamespacedWidget',
      'readWidgetsExampleComV1NamespacedWidgetStatus',
      'replaceWidgetsExampleComV1NamespacedWidgetStatus',
      'patchWidgetsExampleComV1NamespacedWidgetStatus',
      'readWidgetsExampleComV1NamespacedWidgetScale',
      'replaceWidgetsExampleComV1NamespacedWidgetScale',
      'patchWidgetsExampleComV1NamespacedWidgetScale',
      'listWidgetsExampleComV1WidgetClass',
      'readWidgetsExampleComV1WidgetClass',
      'listOpsExampleOrgV1beta1Policy',
      'listOpsExampleOrgV1beta1NamespacedRunbook',
      'createCoreV1Namespace',
      'listCoreV1Namespace',
      'readCoreV1Namespace',
      'patchCoreV1NamespaceStatus',
    ]) {
      assert.ok(ids.has(id), `missing operation ${id}`);
    }
    assert.ok(!ids.has('listWidgetsExampleComV1WidgetClassForAllNamespaces'), 'cluster-scoped kinds have no ForAllNamespaces list');
  });

  test('operations sit on the paths and methods kube serves', () => {
    const at = (id: string) => `${opById(id).method.toUpperCase()} ${opById(id).path}`;
    assert.equal(at('listWidgetsExampleComV1NamespacedWidget'), 'GET /apis/widgets.example.com/v1/namespaces/{namespace}/widgets');
    assert.equal(at('listWidgetsExampleComV1WidgetForAllNamespaces'), 'GET /apis/widgets.example.com/v1/widgets');
    assert.equal(at('patchWidgetsExampleComV1NamespacedWidgetStatus'), 'PATCH /apis/widgets.example.com/v1/namespaces/{namespace}/widgets/{name}/status');
    assert.equal(at('readWidgetsExampleComV1NamespacedWidgetScale'), 'GET /apis/widgets.example.com/v1/namespaces/{namespace}/widgets/{name}/scale');
    assert.equal(at('replaceWidgetsExampleComV1WidgetClass'), 'PUT /apis/widgets.example.com/v1/widgetclasses/{name}');
    assert.equal(at('createCoreV1Namespace'), 'POST /api/v1/namespaces');
  });

  test('x-kubernetes-group-version-kind is an object on operations and a list on kind schemas', () => {
    for (const { op, path, method } of allOps()) {
      const gvk = op['x-kubernetes-group-version-kind'];
      assert.ok(gvk && !Array.isArray(gvk) && typeof gvk.kind === 'string' && typeof gvk.version === 'string' && typeof gvk.group === 'string', `${method} ${path}`);
      assert.equal(typeof op['x-kubernetes-action'], 'string');
    }
    assert.deepEqual(opById('readWidgetsExampleComV1NamespacedWidgetScale').op['x-kubernetes-group-version-kind'], { group: 'autoscaling', version: 'v1', kind: 'Scale' });
    assert.deepEqual(opById('createCoreV1Namespace').op['x-kubernetes-group-version-kind'], { group: '', version: 'v1', kind: 'Namespace' });
    const schemas = widgetsDoc().components.schemas;
    assert.deepEqual(schemas['com.example.widgets.v1.Widget']['x-kubernetes-group-version-kind'], [{ group: 'widgets.example.com', kind: 'Widget', version: 'v1' }]);
    assert.deepEqual(schemas['com.example.widgets.v1.WidgetList']['x-kubernetes-group-version-kind'], [{ group: 'widgets.example.com', kind: 'WidgetList', version: 'v1' }]);
    assert.deepEqual(coreDoc().components.schemas['io.k8s.api.core.v1.Namespace']['x-kubernetes-group-version-kind'], [{ group: '', kind: 'Namespace', version: 'v1' }]);
    for (const doc of V3_DOCS.map(json)) {
      for (const [name, schema] of Object.entries<any>(doc.components.schemas)) {
        const gvk = schema['x-kubernetes-group-version-kind'];
        if (gvk !== undefined) assert.ok(Array.isArray(gvk) && gvk.length > 0, `${name}: gvk must be a list`);
      }
    }
  });

  test('patch operations take fieldValidation; strategic merge patch is offered for every compiled kind', () => {
    const patches = allOps().filter((o) => o.method === 'patch');
    assert.ok(patches.length >= 8);
    for (const { op, doc, path } of patches) {
      const params = op.parameters.map((p: any) => p.name);
      for (const name of ['dryRun', 'fieldManager', 'fieldValidation', 'force']) assert.ok(params.includes(name), `${path}: ${name}`);
      const types = Object.keys(op.requestBody.content);
      for (const t of ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']) assert.ok(types.includes(t), `${path}: ${t}`);
      assert.ok(types.includes('application/strategic-merge-patch+json'), `${path}: strategic-merge-patch+json (${doc})`);
      assert.equal(op.requestBody.content['application/merge-patch+json'].schema.$ref, '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Patch');
    }
  });

  test('create and replace take dryRun, fieldManager and fieldValidation; lists take watch and selectors', () => {
    // Custom CONNECT subresources (connectPost…) take no write options, as kube's connectPost…PodExec.
    for (const { op, path } of allOps().filter((o) => (o.method === 'post' || o.method === 'put') && o.op['x-kubernetes-action'] !== 'connect')) {
      const params = op.parameters.map((p: any) => p.name);
      for (const name of ['dryRun', 'fieldManager', 'fieldValidation']) assert.ok(params.includes(name), `${op.operationId} ${path}: ${name}`);
    }
    const list = opById('listWidgetsExampleComV1NamespacedWidget').op.parameters.map((p: any) => p.name);
    for (const name of ['watch', 'labelSelector', 'fieldSelector', 'limit', 'continue', 'resourceVersion', 'allowWatchBookmarks', 'timeoutSeconds']) assert.ok(list.includes(name), name);
    const del = opById('deleteWidgetsExampleComV1NamespacedWidget').op.parameters.map((p: any) => p.name);
    for (const name of ['dryRun', 'gracePeriodSeconds', 'propagationPolicy']) assert.ok(del.includes(name), name);
  });

  test('responses reference the kind, its list, Status and Scale', () => {
    const ref = (id: string, code: string) => opById(id).op.responses[code].content['application/json'].schema.$ref;
    assert.equal(ref('readWidgetsExampleComV1NamespacedWidget', '200'), '#/components/schemas/com.example.widgets.v1.Widget');
    assert.equal(ref('listWidgetsExampleComV1NamespacedWidget', '200'), '#/components/schemas/com.example.widgets.v1.WidgetList');
    assert.equal(ref('createWidgetsExampleComV1NamespacedWidget', '201'), '#/components/schemas/com.example.widgets.v1.Widget');
    assert.equal(ref('deletecollectionWidgetsExampleComV1NamespacedWidget', '200'), '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Status');
    assert.equal(ref('readWidgetsExampleComV1NamespacedWidgetScale', '200'), '#/components/schemas/io.k8s.api.autoscaling.v1.Scale');
  });

  test('schemas carry the doc comments, validations and x-kubernetes extensions', () => {
    const s = widgetsDoc().components.schemas;
    assert.match(s['com.example.widgets.v1.Widget'].description, /^Widget is a thing that spins\./);
    assert.equal(s['com.example.widgets.v1.WidgetSpec'].description, 'WidgetSpec is the desired state of a Widget.');
    const spec = s['com.example.widgets.v1.WidgetSpec'].properties;
    assert.deepEqual(spec.replicas, { description: 'Number of spinners to run.', default: 1, format: 'int32', maximum: 100, minimum: 0, type: 'integer' });
    assert.equal(spec.parts['x-kubernetes-list-type'], 'map');
    assert.deepEqual(spec.parts['x-kubernetes-list-map-keys'], ['name']);
    // IntOrString and Quantity are references, as kube publishes them (kubectl explain prints
    // `<IntOrString>`, `<map[string]Quantity>`), to components without a type.
    assert.deepEqual(spec.port.allOf, [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString' }]);
    assert.deepEqual(spec.limits.additionalProperties, { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity' });
    const { description: intOrStringText, ...intOrString } = s['io.k8s.apimachinery.pkg.util.intstr.IntOrString'];
    assert.match(intOrStringText, /^IntOrString is a type that can hold an int32 or a string\./);
    assert.deepEqual(intOrString, { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true });
    const { description: quantityText, ...quantity } = s['io.k8s.apimachinery.pkg.api.resource.Quantity'];
    assert.match(quantityText, /^Quantity is a fixed-point representation of a number\./);
    assert.deepEqual(quantity, { anyOf: [{ type: 'integer' }, { type: 'string' }], pattern: QUANTITY_PATTERN, 'x-kubernetes-int-or-string': true });
    assert.equal(spec.stopAfter.nullable, true);
    assert.deepEqual(spec.selector.allOf, [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector' }]);
    assert.deepEqual(s['com.example.widgets.v1.Color'], { description: 'The colour a widget is painted.', enum: ['red', 'green', 'blue'], type: 'string' });
    assert.equal(s['com.example.widgets.v1.Part'].properties.name.pattern, '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$');
    assert.deepEqual(s['com.example.widgets.v1.Part'].required, ['name', 'count']);
    assert.deepEqual(s['com.example.widgets.v1.Widget'].required, ['spec']);
    const step = json('openapi/v3/apis/ops.example.org/v1beta1.json').components.schemas['org.example.ops.v1beta1.Step'];
    assert.equal(step.properties.inputs['x-kubernetes-preserve-unknown-fields'], true);
    for (const meta of ['ObjectMeta', 'ListMeta', 'Status', 'DeleteOptions', 'Patch', 'Condition']) {
      assert.ok(`io.k8s.apimachinery.pkg.apis.meta.v1.${meta}` in s, meta);
    }
  });
});

describe('emit: Swagger 2.0', () => {
  const swagger = () => json('openapi/v2/swagger.json');

  test('swagger.json is a structurally valid Swagger 2.0 document with #/definitions/ refs only', () => {
    const doc = swagger();
    assert.deepEqual(checkSwagger2(doc), []);
    assert.ok(!files.get('openapi/v2/swagger.json')!.includes('#/components/'));
  });

  test('it holds every group/version: all paths and operation ids of the v3 documents, each once', () => {
    const v2 = operations(swagger()).map((o) => o.op.operationId as string);
    assert.equal(new Set(v2).size, v2.length, 'operation ids are unique');
    assert.deepEqual([...v2].sort(), allOps().map((o) => o.op.operationId as string).sort());
    const defs = Object.keys(swagger().definitions);
    for (const name of ['io.k8s.api.core.v1.Namespace', 'com.example.widgets.v1.Widget', 'org.example.ops.v1beta1.Runbook', 'io.k8s.api.autoscaling.v1.Scale']) {
      assert.ok(defs.includes(name), name);
    }
  });

  test('parameters are declared once under parameters and referred to, as kube-openapi declares them', () => {
    const doc = swagger();
    const lists = Object.values<any>(doc.paths).flatMap((item) => [item.parameters ?? [], ...['get', 'put', 'post', 'delete', 'patch'].map((m) => item[m]?.parameters ?? [])]);
    const refs = new Set<string>();
    let inPlace = 0;
    for (const p of lists.flat()) {
      if (typeof p.$ref === 'string') refs.add(p.$ref);
      else {
        inPlace++;
        // What kube keeps in place: name, dryRun and fieldValidation, a kind's body.
        assert.ok(!isShared(p), `in place: ${JSON.stringify(p).slice(0, 120)}`);
        if (p.in === 'query') assert.ok(['dryRun', 'fieldValidation'].includes(p.name), `query parameter ${p.name} in place`);
      }
    }
    assert.ok(inPlace > 0 && refs.size > 10);
    // Every reference resolves (checkSwagger2 above) and every declaration is referred to.
    assert.deepEqual([...refs].sort(), Object.keys(doc.parameters).map((k) => `#/parameters/${k}`).sort());
    for (const key of ['namespace-vgWSWtn3', 'body-2Y1dVQaQ', 'body-78PwaGsr']) assert.ok(key in doc.parameters, key);
    // The same document as kube's algorithm makes of it with every parameter in place.
    const inlined = JSON.parse(JSON.stringify(doc.paths), (_k, v) => (v && typeof v.$ref === 'string' && v.$ref.startsWith('#/parameters/') ? doc.parameters[v.$ref.slice(13)] : v));
    assert.deepEqual(shareParameters(inlined), { paths: doc.paths, parameters: doc.parameters });
    // OpenAPI v3 documents keep their parameters in place, as kube's (no components.parameters).
    for (const path of V3_DOCS) {
      const v3 = json(path);
      assert.equal(v3.components.parameters, undefined, path);
      for (const { parameters } of operations(v3)) for (const p of parameters) assert.equal(p.$ref, undefined, path);
    }
  });

  test('IntOrString and Quantity are printed as kube prints them in Swagger 2.0', () => {
    const defs = swagger().definitions;
    const spec = defs['com.example.widgets.v1.WidgetSpec'].properties;
    assert.deepEqual(spec.port, { $ref: '#/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString', description: 'Port the widget listens on, by number or name.' });
    assert.deepEqual(spec.limits.additionalProperties, { $ref: '#/definitions/io.k8s.apimachinery.pkg.api.resource.Quantity' });
    const { description: _i, ...intOrString } = defs['io.k8s.apimachinery.pkg.util.intstr.IntOrString'];
    assert.deepEqual(intOrString, { format: 'int-or-string', type: 'string' });
    const { description: _q, ...quantity } = defs['io.k8s.apimachinery.pkg.api.resource.Quantity'];
    assert.deepEqual(quantity, { type: 'string' });
  });
});

describe('emit: discovery', () => {
  test('APIVersions and APIGroupList', () => {
    assert.deepEqual(json('discovery/api.json'), { kind: 'APIVersions', apiVersion: 'v1', versions: ['v1'], serverAddressByClientCIDRs: [] });
    const groups = json('discovery/apis.json');
    assert.equal(groups.kind, 'APIGroupList');
    const builtin = (name: string) => ({ name, versions: [{ groupVersion: `${name}/v1`, version: 'v1' }], preferredVersion: { groupVersion: `${name}/v1`, version: 'v1' } });
    assert.deepEqual(groups.groups, [
      builtin('admissionregistration.k8s.io'),
      builtin('apiextensions.k8s.io'),
      builtin('apiregistration.k8s.io'),
      builtin('apps'),
      {
        name: 'authentication.k8s.io',
        versions: [
          { groupVersion: 'authentication.k8s.io/v1', version: 'v1' },
          { groupVersion: 'authentication.k8s.io/v1beta1', version: 'v1beta1' },
        ],
        preferredVersion: { groupVersion: 'authentication.k8s.io/v1', version: 'v1' },
      },
      builtin('authorization.k8s.io'),
      builtin('coordination.k8s.io'),
      builtin('events.k8s.io'),
      { name: 'ops.example.org', versions: [{ groupVersion: 'ops.example.org/v1beta1', version: 'v1beta1' }], preferredVersion: { groupVersion: 'ops.example.org/v1beta1', version: 'v1beta1' } },
      builtin('rbac.authorization.k8s.io'),
      {
        name: 'widgets.example.com',
        versions: [
          { groupVersion: 'widgets.example.com/v1', version: 'v1' },
          { groupVersion: 'widgets.example.com/v1beta1', version: 'v1beta1' },
        ],
        preferredVersion: { groupVersion: 'widgets.example.com/v1', version: 'v1' },
      },
    ]);
  });

  test('APIResourceList with subresources, short names, categories, singular names and verbs', () => {
    const list = json('discovery/apis/widgets.example.com/v1.json');
    assert.equal(list.kind, 'APIResourceList');
    assert.equal(list.groupVersion, 'widgets.example.com/v1');
    const byName = Object.fromEntries(list.resources.map((r: any) => [r.name, r]));
    // Subresources sorted by path, custom ones among them, as kube's installer registers pods/exec, pods/log, pods/status.
    assert.deepEqual(Object.keys(byName), ['widgetclasses', 'widgets', 'widgets/console', 'widgets/logs', 'widgets/scale', 'widgets/status']);
    // Custom subresources: GET is `get`; CONNECT is `create` and `get`, as kube lists pods/exec.
    assert.deepEqual(byName['widgets/logs'].verbs, ['get']);
    assert.deepEqual(byName['widgets/console'].verbs, ['create', 'get']);
    const widgets = byName.widgets;
    assert.equal(widgets.singularName, 'widget');
    assert.equal(widgets.namespaced, true);
    assert.equal(widgets.kind, 'Widget');
    assert.deepEqual(widgets.shortNames, ['wd']);
    assert.deepEqual(widgets.categories, ['all']);
    assert.deepEqual(widgets.verbs, ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    assert.equal(typeof widgets.storageVersionHash, 'string');
    assert.deepEqual(byName['widgets/status'].verbs, ['get', 'patch', 'update']);
    assert.equal(byName['widgets/status'].kind, 'Widget');
    assert.deepEqual([byName['widgets/scale'].group, byName['widgets/scale'].version, byName['widgets/scale'].kind], ['autoscaling', 'v1', 'Scale']);
    assert.equal(byName.widgetclasses.namespaced, false);
    const core = json('discovery/api/v1.json');
    assert.equal(core.groupVersion, 'v1');
    const ns = core.resources.find((r: any) => r.name === 'namespaces');
    assert.deepEqual(ns.shortNames, ['ns']);
    assert.ok(!ns.verbs.includes('deletecollection'), 'kube serves no deletecollection for namespaces');
    assert.ok(core.resources.some((r: any) => r.name === 'namespaces/status'));
  });

  test('aggregated discovery (apidiscovery.k8s.io/v2) holds every group, the core group named ""', () => {
    const agg = json('discovery/aggregated.json');
    assert.equal(agg.kind, 'APIGroupDiscoveryList');
    assert.equal(agg.apiVersion, 'apidiscovery.k8s.io/v2');
    assert.deepEqual(agg.items.map((g: any) => g.metadata.name), ['', ...BUILTIN_GROUPS.slice(0, 8), 'ops.example.org', BUILTIN_GROUPS[8], 'widgets.example.com']);
    const widgets = agg.items.find((g: any) => g.metadata.name === 'widgets.example.com').versions[0].resources.find((r: any) => r.resource === 'widgets');
    assert.deepEqual(widgets.responseKind, { group: 'widgets.example.com', version: 'v1', kind: 'Widget' });
    assert.equal(widgets.scope, 'Namespaced');
    assert.equal(widgets.singularResource, 'widget');
    assert.deepEqual(widgets.shortNames, ['wd']);
    assert.deepEqual(widgets.categories, ['all']);
    assert.ok(widgets.verbs.includes('watch'));
    assert.deepEqual(widgets.subresources.map((s: any) => s.subresource).sort(), ['console', 'logs', 'scale', 'status']);
    assert.deepEqual(widgets.subresources.find((s: any) => s.subresource === 'scale').responseKind, { group: 'autoscaling', version: 'v1', kind: 'Scale' });
    for (const group of agg.items) for (const v of group.versions) assert.equal(v.freshness, 'Current');
  });
});

/** tsconfig `paths` from each `kgen…` specifier to the source its package export names for `kgen:source`. */
function kgenSourcePaths(): Record<string, string[]> {
  const exports = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).exports as Record<string, string | Record<string, string>>;
  const paths: Record<string, string[]> = {};
  for (const [key, target] of Object.entries(exports)) {
    const source = typeof target === 'object' ? target['kgen:source'] : undefined;
    if (source) paths[`kgen${key.slice(1)}`] = [join(REPO, source)];
  }
  return paths;
}

describe('emit: TypeScript', () => {
  test('the generated TypeScript type-checks (tsc --noEmit) against kgen/* through the package exports', () => {
    const dir = tmp('emit-tsc');
    const gen = generate({ apisDir: APIS, outDir: join(dir, 'generated') });
    assert.equal(gen.ok, true);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          // kgen/* to kgen's sources (the exports' kgen:source targets), as the repository's own
          // typecheck: its built dist/ is not in a checkout. @kgen/client stays its built .d.ts.
          // test/e2e/pack.test.ts compiles generated code against kgen's dist/.
          paths: kgenSourcePaths(),
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
        },
        include: ['generated/**/*.ts'],
      }),
    );
    // One tsc run both checks the program and lists its files (--listFiles; --listFilesOnly was a
    // second run that parsed and resolved the same program again).
    const check = spawnSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json'), '--listFiles'], { encoding: 'utf8' });
    assert.equal(check.status, 0, `tsc reported errors:\n${check.stdout}${check.stderr}`);
    const listed = check.stdout.split('\n').filter((l) => l.startsWith(join(dir, 'generated')));
    assert.equal(listed.length, listTree(join(dir, 'generated')).filter((f) => f.endsWith('.ts')).length, 'every generated .ts file is in the program');
  });

  test('models declare each kind with its fields, docs and kgen types', () => {
    const model = files.get('models/widgets.example.com/v1.ts')!;
    assert.match(model, /^\/\/ Code generated by kgen from apis\/widgets\.example\.com\/v1\. DO NOT EDIT\./);
    assert.match(model, /import type \{ [^}]*\bint32\b[^}]*\} from '@kgen\/client';/);
    assert.match(model, /export interface Widget \{\n[\s\S]*?  apiVersion\?: 'widgets\.example\.com\/v1';[\s\S]*?  kind\?: 'Widget';[\s\S]*?  metadata: ObjectMeta;[\s\S]*?  spec: WidgetSpec;[\s\S]*?  status\?: WidgetStatus;\n\}/);
    assert.match(model, /export type Color = 'red' \| 'green' \| 'blue';/);
    assert.match(model, /\/\*\* Number of spinners to run\. \*\/\n  replicas\?: int32;/);
    assert.match(model, /stopAfter\?: Time \| null;/);
    assert.match(model, /schedule\?: string\[\]\[\];/);
    assert.match(model, /export interface WidgetList \{[\s\S]*?items: Widget\[\];/);
  });

  test('storage modules hold the ResourceDefinition of their kind', () => {
    const storage = files.get('storage/widgets.example.com/v1/widgets.ts')!;
    assert.match(storage, /import \{ defineResource \} from 'kgen\/registry';/);
    assert.match(storage, /export const widgets = defineResource<Widget, 'logs' \| 'console'>\(\{/);
    for (const line of ["group: 'widgets.example.com',", "plural: 'widgets',", "scope: 'Namespaced',", "schemaName: 'com.example.widgets.v1.Widget',", "specReplicasPath: '.spec.replicas',", "selectableFields: ['.spec.color'],"]) {
      assert.ok(storage.includes(line), line);
    }
    // Both versions of the two-version Widget are served through its conversion.
    assert.match(storage, /\}, widgetsConversion\);\n$/);
    assert.match(files.get('storage/widgets.example.com/v1beta1/widgets.ts')!, /deprecationWarning: 'widgets\.example\.com\/v1beta1 Widget is deprecated; use widgets\.example\.com\/v1 Widget',\n\}, widgetsConversion\);/);
    assert.match(files.get('routes/core/v1.ts')!, /openapiPath: 'openapi\/v3\/api\/v1\.json'/);
    assert.match(
      files.get('index.ts')!,
      /export const groupVersions: GroupVersionDefinition\[\] = \[\n  coreV1\.groupVersion,\n  admissionregistrationK8sIoV1\.groupVersion,\n  apiextensionsK8sIoV1\.groupVersion,\n  apiregistrationK8sIoV1\.groupVersion,\n  appsV1\.groupVersion,\n  authenticationK8sIoV1\.groupVersion,\n  authenticationK8sIoV1beta1\.groupVersion,\n  authorizationK8sIoV1\.groupVersion,\n  coordinationK8sIoV1\.groupVersion,\n  eventsK8sIoV1\.groupVersion,\n  opsExampleOrgV1beta1\.groupVersion,\n  rbacAuthorizationK8sIoV1\.groupVersion,\n  widgetsExampleComV1\.groupVersion,\n  widgetsExampleComV1beta1\.groupVersion,\n\];/,
    );
  });
});

describe('emit: determinism', () => {
  test('two compilations produce byte-identical files', () => {
    const again = compile({ apisDir: APIS });
    assert.deepEqual(again.files, result.files);
  });

  test('two generations into different folders produce byte-identical trees', () => {
    const a = join(tmp('emit-det'), 'generated');
    const b = join(tmp('emit-det'), 'generated');
    generate({ apisDir: APIS, outDir: a });
    generate({ apisDir: APIS, outDir: b });
    const treeA = listTree(a);
    assert.deepEqual(listTree(b), treeA);
    for (const f of treeA) assert.ok(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), f);
    assert.deepEqual(treeA, [...files.keys()].sort());
  });

  test('changing one field changes only the model, the OpenAPI documents of its version, its CRD, its client validator, the API snapshot and its reference page', () => {
    const dir = tmp('emit-diff');
    const apis = copyTree(APIS, join(dir, 'apis'));
    const out = join(dir, 'generated');
    const first = generate({ apisDir: apis, outDir: out });
    assert.equal(first.diff?.missing.length, first.files.length);
    const runbook = join(apis, 'ops.example.org/v1beta1/runbook.ts');
    const source = readFileSync(runbook, 'utf8');
    assert.ok(source.includes('  title: string;'));
    writeFileSync(runbook, source.replace('  title: string;', '  title: int32;'));
    const second = generate({ apisDir: apis, outDir: out });
    assert.equal(second.ok, true);
    assert.deepEqual(second.diff?.stale, [
      'api-snapshot.json',
      'crds/ops.example.org_runbooks.yaml',
      'docs/ops.example.org_v1beta1.html',
      'docs/search.js',
      'models/ops.example.org/v1beta1.ts',
      'openapi/schemas/apis/ops.example.org/v1beta1.json',
      'openapi/v2/swagger.json',
      'openapi/v3/apis/ops.example.org/v1beta1.json',
      'validate/ops.example.org/v1beta1.ts',
    ]);
    assert.deepEqual(second.diff?.missing, []);
    assert.deepEqual(second.diff?.extra, []);
    assert.match(readFileSync(join(out, 'models/ops.example.org/v1beta1.ts'), 'utf8'), /  title: int32;/);
    const third = generate({ apisDir: apis, outDir: out });
    assert.deepEqual([third.diff?.stale, third.diff?.missing, third.diff?.extra], [[], [], []], 'a third run changes nothing');
  });
});

describe('virtual kinds (@kgen:virtual): the access reviews', () => {
  test('are create-only in discovery, with no storage version hash', () => {
    const list = json('discovery/apis/authorization.k8s.io/v1.json');
    assert.deepEqual(
      list.resources.map((r: { name: string; verbs: string[]; storageVersionHash?: string }) => [r.name, r.verbs, r.storageVersionHash]),
      [
        ['localsubjectaccessreviews', ['create'], undefined],
        ['selfsubjectaccessreviews', ['create'], undefined],
        ['selfsubjectrulesreviews', ['create'], undefined],
        ['subjectaccessreviews', ['create'], undefined],
      ],
    );
    const group = json('discovery/aggregated.json').items.find((g: { metadata: { name: string } }) => g.metadata.name === 'authorization.k8s.io');
    assert.deepEqual(group.versions[0].resources.map((r: { resource: string; verbs: string[] }) => [r.resource, r.verbs]), [
      ['localsubjectaccessreviews', ['create']],
      ['selfsubjectaccessreviews', ['create']],
      ['selfsubjectrulesreviews', ['create']],
      ['subjectaccessreviews', ['create']],
    ]);
  });

  test('have only the POST operation and no list schema in OpenAPI', () => {
    const doc = json('openapi/v3/apis/authorization.k8s.io/v1.json');
    assert.deepEqual(Object.keys(doc.paths), [
      '/apis/authorization.k8s.io/v1/namespaces/{namespace}/localsubjectaccessreviews',
      '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
      '/apis/authorization.k8s.io/v1/subjectaccessreviews',
    ]);
    const post = doc.paths['/apis/authorization.k8s.io/v1/selfsubjectaccessreviews'];
    assert.deepEqual(Object.keys(post).filter((k) => k !== 'parameters'), ['post']);
    assert.equal(post.post.operationId, 'createAuthorizationV1SelfSubjectAccessReview');
    assert.ok('io.k8s.api.authorization.v1.SelfSubjectAccessReview' in doc.components.schemas);
    assert.ok(!('io.k8s.api.authorization.v1.SelfSubjectAccessReviewList' in doc.components.schemas));
  });

  test('are marked virtual in their resource definition', () => {
    assert.match(files.get('storage/authorization.k8s.io/v1/selfsubjectaccessreviews.ts')!, /verbs: \['create'\],\n  virtual: true,/);
    assert.doesNotMatch(files.get('storage/rbac.authorization.k8s.io/v1/roles.ts')!, /virtual/);
  });
});
