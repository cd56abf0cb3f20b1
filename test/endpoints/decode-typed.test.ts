/**
 * A built-in kind's body with a wrongly typed field anywhere (not only metadata) does not decode
 * into its Go type: kube's 400 from transformDecodeError around sigs.k8s.io/json's error, naming
 * the innermost Go struct and the field path from the root (no map keys, no list indexes). Custom
 * resources and kgen's own kinds decode into unstructured in kube, so they keep the schema's 422.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectBadRequest, startTestServer, WIDGETS, type TestServer } from '../server/testserver.js';

const NS = '/api/v1/namespaces/default';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

export const deployment = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    ...spec,
  },
});

describe('a built-in kind\'s field of the wrong JSON type is the decoder\'s 400', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
  });
  after(() => t.close());

  const badRequest = (method: string, path: string, body: unknown, message: string) => expectBadRequest(t, method, path, message, body);

  const dep = 'Deployment in version "v1" cannot be handled as a Deployment: ';
  it('create: scalars, lists, maps and structs, named from the root', async () => {
    await badRequest('POST', DEPLOYMENTS, deployment('a', { replicas: '3' }), `${dep}json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`);
    await badRequest('POST', DEPLOYMENTS, deployment('a', { replicas: 1.5 }), `${dep}json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32`);
    await badRequest('POST', DEPLOYMENTS, deployment('a', { replicas: 3000000000 }), `${dep}json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32`);
    await badRequest('POST', DEPLOYMENTS, deployment('a', { paused: 'yes' }), `${dep}json: cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type bool`);
    await badRequest('POST', DEPLOYMENTS, deployment('a', { template: 'x' }), `${dep}json: cannot unmarshal string into Go struct field DeploymentSpec.spec.template of type v1.PodTemplateSpec`);
    await badRequest('POST', DEPLOYMENTS, { ...deployment('a'), spec: [] }, `${dep}json: cannot unmarshal array into Go struct field Deployment.spec of type v1.DeploymentSpec`);
    // List elements and map values keep the path of their field; the struct is the innermost.
    const containers = [{ name: 'c', image: 'nginx', ports: [{ containerPort: '80' }] }];
    await badRequest(
      'POST',
      DEPLOYMENTS,
      deployment('a', { template: { metadata: { labels: { app: 'a' } }, spec: { containers } } }),
      `${dep}json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32`,
    );
    await badRequest(
      'POST',
      DEPLOYMENTS,
      deployment('a', { template: { metadata: { labels: { app: 1 } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } }),
      `${dep}json: cannot unmarshal number into Go struct field ObjectMeta.spec.template.metadata.labels of type string`,
    );
    await badRequest('POST', DEPLOYMENTS, deployment('a', { selector: { matchLabels: 'x' } }), `${dep}json: cannot unmarshal string into Go struct field LabelSelector.spec.selector.matchLabels of type map[string]string`);
    await badRequest('POST', `${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { a: 1 } }, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string');
    await badRequest(
      'POST',
      `${NS}/services`,
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'a' }, spec: { ports: {} } },
      'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal object into Go struct field ServiceSpec.spec.ports of type []v1.ServicePort',
    );
    await badRequest(
      'POST',
      `${NS}/secrets`,
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'a' }, data: { a: true } },
      'Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal bool into Go struct field Secret.data of type []uint8',
    );
  });

  it('the first remembered error wins; a type\'s own UnmarshalJSON error ends decoding at once', async () => {
    // spec comes first in the body, so its error is the one remembered, before metadata's.
    await badRequest(
      'POST',
      DEPLOYMENTS,
      { apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: '3' }, metadata: { name: 5 } },
      `${dep}json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`,
    );
    // intstr.IntOrString.UnmarshalJSON, after a remembered error: its error is the answer.
    await badRequest(
      'POST',
      DEPLOYMENTS,
      deployment('a', { replicas: '3', strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: true } } }),
      `${dep}json: cannot unmarshal bool into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32`,
    );
    // resource.Quantity.UnmarshalJSON.
    const containers = [{ name: 'c', image: 'nginx', resources: { limits: { cpu: { a: 1 } } } }];
    await badRequest('POST', DEPLOYMENTS, deployment('a', { template: { metadata: { labels: { app: 'a' } }, spec: { containers } } }), `${dep}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
    // A string (or number) is ParseQuantity'd by UnmarshalJSON: its error ends decoding too, with
    // apimachinery's text (ErrFormatWrong, ErrSuffix), whatever the field.
    const withLimits = (limits: Record<string, unknown>) => deployment('a', { template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { limits } }] } } });
    await badRequest('POST', DEPLOYMENTS, withLimits({ cpu: 'abc' }), `${dep}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
    await badRequest('POST', DEPLOYMENTS, withLimits({ memory: '1Gm' }), `${dep}unable to parse quantity's suffix`);
    await badRequest('POST', DEPLOYMENTS, withLimits({ memory: '1.2.3' }), `${dep}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
    await badRequest('POST', DEPLOYMENTS, withLimits({ memory: '' }), `${dep}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
    const created = await t.request('POST', DEPLOYMENTS, { body: withLimits({ cpu: ' 500m ', memory: 1.5e3 }) });
    assert.equal(created.status === 400, false, created.text);
    // metav1.Time.UnmarshalJSON.
    await badRequest(
      'POST',
      `${NS}/events`,
      { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, involvedObject: { kind: 'Pod', name: 'p' }, lastTimestamp: 5 },
      'Event in version "v1" cannot be handled as a Event: json: cannot unmarshal number into Go struct field Event.lastTimestamp of type string',
    );
  });

  // kube validates a built-in kind's Go value, not its OpenAPI schema, and
  // resource.Quantity.UnmarshalJSON takes any JSON number: `cpu: 0.5` in a manifest, which kubectl
  // sends as the JSON number 0.5, is a quantity. kgen's own kinds keep int-or-string, as CRDs do
  // (test/validation/schema-validator.test.ts).
  it('a Quantity of a built-in kind takes a fractional JSON number', async () => {
    const withLimits = (name: string, limits: Record<string, unknown>) =>
      deployment(name, { template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { limits } }] } } });
    const created = await t.request('POST', DEPLOYMENTS, { body: withLimits('half-cpu', { cpu: 0.5, memory: 1.5e9 }) });
    assert.equal(created.status, 201, created.text);
    // Written back canonically, as kube's MarshalJSON writes a Quantity (test/endpoints/quantity-canonical.test.ts).
    assert.deepEqual(created.body.spec.template.spec.containers[0].resources.limits, { cpu: '500m', memory: '1500M' });
    const negative = await t.request('POST', DEPLOYMENTS, { body: withLimits('minus-cpu', { cpu: -0.5 }) });
    assert.equal(negative.status, 422, negative.text);
  });

  it('an integer field judges the number literal\'s text as strconv.ParseInt does (JSON; YAML reaches Go re-encoded)', async () => {
    // JSON.stringify writes 1.0 as 1: the bodies are written as text.
    const text = (spec: string, podSpec = '"containers":[{"name":"c","image":"nginx"}]') =>
      `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"lit","annotations":{"note":"a:1.0,"}},"spec":{${spec}"selector":{"matchLabels":{"app":"lit"}},"template":{"metadata":{"labels":{"app":"lit"}},"spec":{${podSpec}}}}}`;
    const field = (f: string, type = 'int32') => `${dep}json: cannot unmarshal number %s into Go struct field ${f} of type ${type}`;
    const replicas = field('DeploymentSpec.spec.replicas');
    for (const literal of ['1.0', '1e3', '1E+2', '1.50', '-0.0', '3.0e0']) {
      await badRequest('POST', DEPLOYMENTS, text(`"replicas":${literal},`), replicas.replace('%s', literal));
    }
    // Through a list, by the element's own path (the first container's port is fine).
    const ports = '"containers":[{"name":"a","image":"nginx","ports":[{"containerPort":80}]},{"name":"b","image":"nginx","ports":[{"containerPort":81},{"containerPort":8.2e1}]}]';
    await badRequest('POST', DEPLOYMENTS, text('', ports), field('ContainerPort.spec.template.spec.containers.ports.containerPort').replace('%s', '8.2e1'));
    // ObjectMeta's int64s too.
    await badRequest('POST', DEPLOYMENTS, text('').replace('"name":"lit"', '"name":"lit","generation":2.0'), `${dep}json: cannot unmarshal number 2.0 into Go struct field ObjectMeta.metadata.generation of type int64`);
    // intstr.IntOrString's int32: its own UnmarshalJSON error.
    await badRequest('POST', DEPLOYMENTS, text('"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1.0}},'), `${dep}json: cannot unmarshal number 1.0 into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32`);
    // int64 bounds are the literal's, not its double's (both ends of int64 round to ±2^63).
    const grace = (n: string) => text('', `"terminationGracePeriodSeconds":${n},"containers":[{"name":"c","image":"nginx"}]`);
    const graceField = field('PodSpec.spec.template.spec.terminationGracePeriodSeconds', 'int64');
    await badRequest('POST', DEPLOYMENTS, grace('9223372036854775808'), graceField.replace('%s', '9223372036854775808'));
    await badRequest('POST', DEPLOYMENTS, grace('-9223372036854775809'), graceField.replace('%s', '-9223372036854775809'));
    // In int64 but not a double: kube keeps it exactly; kgen, holding numbers as doubles, would
    // store another number (2^63 - 1 becomes 2^63, which no Go client can read back): refused, as
    // for every kind (test/endpoints/inexact-integers.test.ts).
    await badRequest(
      'POST',
      DEPLOYMENTS,
      grace('9223372036854775807'),
      'json: number 9223372036854775807 at spec.template.spec.terminationGracePeriodSeconds cannot be kept exactly: kgen holds numbers as float64, exact for whole numbers up to 2^53 (9007199254740992); it refuses rather than store another number',
    );
    // A whole number of 16 digits that is a double is kept as sent.
    const exact = await t.request('POST', DEPLOYMENTS, { body: grace('9007199254740992').replace('"lit"', '"exact"') });
    assert.equal(exact.status, 201, exact.text);
    assert.match(exact.text, /"terminationGracePeriodSeconds":9007199254740992[,}]/);
    // Plain integers, and the literal text in a string, decode.
    const plain = await t.request('POST', DEPLOYMENTS, { body: text('"replicas":2,').replace('"lit"', '"plain"') });
    assert.equal(plain.status, 201, plain.text);
    // YAML is converted to JSON from its values before Go decodes it: 1.0 is 1, as in kube.
    const yaml = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: yaml\nspec:\n  replicas: 1.0\n  selector:\n    matchLabels: {app: yaml}\n  template:\n    metadata:\n      labels: {app: yaml}\n    spec:\n      containers: [{name: c, image: nginx}]\n';
    const fromYAML = await t.request('POST', DEPLOYMENTS, { body: yaml, contentType: 'application/yaml' });
    assert.equal(fromYAML.status, 201, fromYAML.text);
    assert.equal(fromYAML.body.spec.replicas, 1);
    // An update is judged the same way.
    const put = text(`"replicas":2.0,`).replace('"name":"plain"', '').replace('"name":"lit"', `"name":"plain","resourceVersion":"${plain.body.metadata.resourceVersion}"`);
    await badRequest('PUT', `${DEPLOYMENTS}/plain`, put, replicas.replace('%s', '2.0'));
  });

  it('nulls, unknown fields and right types decode; an update (PUT, also status) is checked the same way', async () => {
    const ok = deployment('ok', { paused: null, unknownField: 'x' });
    const created = await t.request('POST', DEPLOYMENTS, { body: ok });
    assert.equal(created.status, 201, created.text);
    const rv = created.body.metadata.resourceVersion;
    const put = { ...deployment('ok', { replicas: '2' }), metadata: { name: 'ok', resourceVersion: rv } };
    await badRequest('PUT', `${DEPLOYMENTS}/ok`, put, `${dep}json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`);
    const status = { ...deployment('ok'), metadata: { name: 'ok', resourceVersion: rv }, status: { replicas: 'x' } };
    await badRequest('PUT', `${DEPLOYMENTS}/ok/status`, status, `${dep}json: cannot unmarshal string into Go struct field DeploymentStatus.status.replicas of type int32`);
    const get = await t.request('GET', `${DEPLOYMENTS}/ok`);
    assert.equal(get.body.spec.replicas, 1);
  });

  it('a compiled kind of yours is served as kube serves custom resources: the schema\'s 422', async () => {
    const r = await t.request('POST', WIDGETS, { body: { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { replicas: 'x' } } });
    assert.equal(r.status, 422, r.text);
  });
});

describe('a patch of a built-in kind whose result has a wrong type: kube\'s patchers\' 422 on the field `patch`', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
    const r = await t.request('POST', DEPLOYMENTS, { body: deployment('p') });
    assert.equal(r.status, 201, r.text);
  });
  after(() => t.close());

  async function invalidPatch(contentType: string, body: unknown, value: (v: string) => void, err: string) {
    const r = await t.request('PATCH', `${DEPLOYMENTS}/p`, { body, contentType });
    assert.equal(r.status, 422, r.text);
    const cause = r.body.details.causes[0];
    assert.deepEqual(Object.keys(r.body.details), ['causes']);
    assert.equal(r.body.details.causes.length, 1);
    assert.equal(cause.reason, 'FieldValueInvalid');
    assert.equal(cause.field, 'patch');
    assert.equal(r.body.message, ` "" is invalid: patch: ${cause.message}`);
    const m = /^Invalid value: ("(?:[^"\\]|\\.)*"): (.*)$/s.exec(cause.message);
    assert.ok(m, cause.message);
    value(JSON.parse(m[1]!) as string);
    assert.equal(m[2], err);
  }

  it('merge and JSON patch: the patched JSON decoded by the codec', async () => {
    const patchedJSON = (replicas: unknown) => (v: string) => assert.equal(JSON.parse(v).spec.replicas, replicas);
    await invalidPatch('application/merge-patch+json', { spec: { replicas: '3' } }, patchedJSON('3'), 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
    await invalidPatch('application/json-patch+json', [{ op: 'replace', path: '/spec/replicas', value: 2.5 }], patchedJSON(2.5), 'json: cannot unmarshal number 2.5 into Go struct field DeploymentSpec.spec.replicas of type int32');
    // A merge patch's number text reaches the decoder (the patched JSON shown is kgen's, 2).
    await invalidPatch('application/merge-patch+json', '{"spec":{"replicas":2.0}}', patchedJSON(2), 'json: cannot unmarshal number 2.0 into Go struct field DeploymentSpec.spec.replicas of type int32');
    // A JSON patch's too, followed through its operations (here a move).
    await invalidPatch('application/json-patch+json', '[{"op":"replace","path":"/spec/replicas","value":2.0}]', patchedJSON(2), 'json: cannot unmarshal number 2.0 into Go struct field DeploymentSpec.spec.replicas of type int32');
    await invalidPatch(
      'application/json-patch+json',
      '[{"op":"add","path":"/spec/parked","value":{"n":3e0}},{"op":"test","path":"/spec/parked/n","value":3.0},{"op":"move","from":"/spec/parked/n","path":"/spec/replicas"}]',
      patchedJSON(3),
      'json: cannot unmarshal number 3e0 into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    await invalidPatch('application/merge-patch+json', { metadata: { labels: 'x' } }, (v) => assert.equal(JSON.parse(v).metadata.labels, 'x'), 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string');
    // Fields the update would carry over from the stored object are decoded first all the same.
    await invalidPatch('application/merge-patch+json', { metadata: { resourceVersion: 5 } }, (v) => assert.equal(JSON.parse(v).metadata.resourceVersion, 5), 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.resourceVersion of type string');
    await invalidPatch('application/merge-patch+json', { metadata: { creationTimestamp: 5 } }, (v) => assert.equal(JSON.parse(v).metadata.creationTimestamp, 5), 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string');
    await invalidPatch(
      'application/json-patch+json',
      [{ op: 'replace', path: '/metadata/creationTimestamp', value: '2024-01-01' }],
      (v) => assert.equal(JSON.parse(v).metadata.creationTimestamp, '2024-01-01'),
      'parsing time "2024-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"',
    );
  });

  it('strategic merge patch: the patch printed by fmt, the unstructured converter\'s error', async () => {
    const printed = (text: string) => (v: string) => assert.equal(v, text);
    await invalidPatch('application/strategic-merge-patch+json', { spec: { replicas: '3' } }, printed('map[spec:map[replicas:3]]'), 'unrecognized type: int32');
    await invalidPatch('application/strategic-merge-patch+json', { spec: { replicas: 1.5, paused: false } }, printed('map[spec:map[paused:false replicas:1.5]]'), 'cannot convert float64 to int32');
    await invalidPatch('application/strategic-merge-patch+json', { metadata: { labels: 'x' } }, printed('map[metadata:map[labels:x]]'), 'cannot restore map from string');
    await invalidPatch('application/strategic-merge-patch+json', { metadata: { name: 'p', uid: 5 } }, printed('map[metadata:map[name:p uid:5]]'), 'cannot convert int64 to string');
    await invalidPatch(
      'application/strategic-merge-patch+json',
      { spec: { template: { spec: { containers: {} } } } },
      printed('map[spec:map[template:map[spec:map[containers:map[]]]]]'),
      'cannot restore slice from map',
    );
    await invalidPatch('application/strategic-merge-patch+json', { spec: { strategy: 'x' } }, printed('map[spec:map[strategy:x]]'), 'cannot restore struct from: string');
  });

  it('nothing was written', async () => {
    const r = await t.request('GET', `${DEPLOYMENTS}/p`);
    assert.equal(r.body.spec.replicas, 1);
    assert.equal(r.body.metadata.generation, 1);
    assert.equal(r.body.metadata.labels, undefined);
  });
});

describe('the review kinds (created, never stored) decode into their Go types too', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
  });
  after(() => t.close());

  it('a SelfSubjectAccessReview with a wrongly typed spec field is the decoder\'s 400', async () => {
    const path = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
    const review = (resourceAttributes: Record<string, unknown>) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes } });
    const bad = await t.request('POST', path, { body: review({ verb: 'get', resource: 'pods', namespace: 5 }) });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(
      bad.body.message,
      'SelfSubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: json: cannot unmarshal number into Go struct field ResourceAttributes.spec.resourceAttributes.namespace of type string',
    );
    const ok = await t.request('POST', path, { body: review({ verb: 'get', resource: 'pods', namespace: 'default' }) });
    assert.equal(ok.status, 201, ok.text);
  });
});
