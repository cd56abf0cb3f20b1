/**
 * A built-in kind's JSON body that repeats a key: Go's decoder (sigs.k8s.io/json, a fork of
 * encoding/json) decodes every occurrence in turn into the same field, so a wrongly typed earlier
 * value is the decoder's 400 though JSON.parse keeps only the later, right one; the first error in
 * the text's order wins, a type's own UnmarshalJSON error (Quantity, Time) ends decoding at once,
 * and under fieldValidation=Strict the type error is the answer (UnmarshalStrict returns the
 * decode error, dropping the strict ones); only a body that decodes gets `duplicate field`.
 * Custom resources decode into unstructured maps, where the last value wins (the schema's 422).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectBadRequest, startTestServer, WIDGETS, type TestServer } from '../server/testserver.js';
import { parseEveryOccurrence, RepeatedKeys } from '../../runtime/validation/json-occurrences.js';

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const dep = 'Deployment in version "v1" cannot be handled as a Deployment: ';

/** A Deployment's JSON text with `spec` (text) spliced in before the selector and template. */
const deploymentText = (name: string, spec: string, metadata = `"name":"${name}"`) =>
  `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{${metadata}},"spec":{${spec}${spec === '' ? '' : ','}"selector":{"matchLabels":{"app":"${name}"}},"template":{"metadata":{"labels":{"app":"${name}"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`;

describe('parseEveryOccurrence', () => {
  it('keeps every occurrence of a repeated key in order, and plain objects as JSON.parse makes them', () => {
    const parsed = parseEveryOccurrence('{"a":{"b":1.0,"b":2},"c":[{"d":1e3}],"__proto__":{"x":1}}')!;
    const root = parsed.value as Record<string, unknown>;
    assert.ok(root.a instanceof RepeatedKeys);
    assert.deepEqual((root.a as RepeatedKeys).pairs, [
      ['b', 1],
      ['b', 2],
    ]);
    assert.deepEqual(root.c, [{ d: 1000 }]);
    assert.ok(Object.hasOwn(root, '__proto__'));
    assert.equal(Object.getPrototypeOf(root), Object.prototype);
    // Literals: by pair index in a RepeatedKeys, by key or index elsewhere.
    assert.equal(parsed.literals?.children?.get('a')?.children?.get(0)?.literal, '1.0');
    assert.equal(parsed.literals?.children?.get('a')?.children?.get(1), undefined);
    assert.equal(parsed.literals?.children?.get('c')?.children?.get(0)?.children?.get('d')?.literal, '1e3');
  });

  it('reads strings with escapes, nested lists and every scalar', () => {
    const text = ' { "k\\"ey" : [ true , false , null , -1.5e-3 , "x\\u0041" , [ ] , { } ] } ';
    assert.deepEqual(parseEveryOccurrence(text)!.value, JSON.parse(text));
  });
});

describe('a built-in kind\'s body that repeats a key is decoded occurrence by occurrence', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
  });
  after(() => t.close());

  const badRequest = (path: string, body: string, message: string) => expectBadRequest(t, 'POST', path, message, body);

  it('a bad earlier value and a good later one: the earlier one\'s error', async () => {
    const replicas = `${dep}json: cannot unmarshal number 1.0 into Go struct field DeploymentSpec.spec.replicas of type int32`;
    await badRequest(DEPLOYMENTS, deploymentText('a', '"replicas":1.0,"replicas":2'), replicas);
    await badRequest(DEPLOYMENTS, deploymentText('a', '"replicas":"3","replicas":2'), `${dep}json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`);
    // Under every fieldValidation directive: the decode error, not `duplicate field`.
    for (const directive of ['Ignore', 'Warn', 'Strict']) {
      await badRequest(`${DEPLOYMENTS}?fieldValidation=${directive}`, deploymentText('a', '"replicas":1.0,"replicas":2'), replicas);
    }
  });

  it('a good earlier value and a bad later one: the later one\'s error (as before)', async () => {
    await badRequest(DEPLOYMENTS, deploymentText('a', '"replicas":2,"replicas":1.0'), `${dep}json: cannot unmarshal number 1.0 into Go struct field DeploymentSpec.spec.replicas of type int32`);
  });

  it('the first error in the text\'s order wins across keys', async () => {
    // replicas(bad) paused(bad) replicas(good): replicas' error is first.
    await badRequest(DEPLOYMENTS, deploymentText('a', '"replicas":1.5,"paused":"x","replicas":2'), `${dep}json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32`);
    // paused(good) replicas(bad) paused(bad): replicas' error comes before the second paused.
    await badRequest(DEPLOYMENTS, deploymentText('a', '"paused":true,"replicas":1.5,"paused":"x"'), `${dep}json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32`);
  });

  it('a repeated object, a repeated key in a list\'s element, in a map and at the root', async () => {
    // spec twice: the first spec's replicas.
    const twice = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a"},"spec":{"replicas":"1"},"spec":${JSON.stringify(JSON.parse(deploymentText('a', '')).spec)}}`;
    await badRequest(DEPLOYMENTS, twice, `${dep}json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`);
    const pod = (containers: string) =>
      `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"p"},"spec":{"selector":{"matchLabels":{"app":"p"}},"template":{"metadata":{"labels":{"app":"p"}},"spec":{"containers":[${containers}]}}}}`;
    await badRequest(
      DEPLOYMENTS,
      pod('{"name":"c","image":"nginx","ports":[{"containerPort":80.0,"containerPort":80}]}'),
      `${dep}json: cannot unmarshal number 80.0 into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32`,
    );
    await badRequest(
      DEPLOYMENTS,
      pod('{"name":"c","image":"nginx"}],"nodeSelector":{"a":1,"a":"x"},"containers":[{"name":"c","image":"nginx"}'),
      `${dep}json: cannot unmarshal number into Go struct field PodSpec.spec.template.spec.nodeSelector of type string`,
    );
    // A Quantity's own error ends decoding at once: it wins over an earlier remembered one.
    await badRequest(
      DEPLOYMENTS,
      pod('{"name":"c","image":"nginx","ports":[{"containerPort":"x"}],"resources":{"limits":{"cpu":"bad","cpu":"1"}}}'),
      `${dep}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    );
  });

  it('metadata that repeats a key', async () => {
    await badRequest(DEPLOYMENTS, deploymentText('a', '', '"name":"a","generation":1.0,"generation":2'), `${dep}json: cannot unmarshal number 1.0 into Go struct field ObjectMeta.metadata.generation of type int64`);
    await badRequest(DEPLOYMENTS, deploymentText('a', '', '"name":"a","labels":"x","labels":{}'), `${dep}json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string`);
    await badRequest(DEPLOYMENTS, deploymentText('a', '', '"name":"a","labels":{"app":1,"app":"a"}'), `${dep}json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string`);
    // A Time's error ends decoding: it wins over an earlier field's.
    await badRequest(DEPLOYMENTS, deploymentText('a', '', '"name":"a","generation":1.5,"creationTimestamp":"x","creationTimestamp":null'), `${dep}parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`);
  });

  it('a body that decodes: Strict reports the repeated key, Warn warns, and the last value is kept', async () => {
    const body = deploymentText('ok', '"replicas":1,"replicas":2');
    const strict = await t.request('POST', `${DEPLOYMENTS}?fieldValidation=Strict`, { body });
    assert.equal(strict.status, 400, strict.text);
    assert.match((strict.body as { message: string }).message, /strict decoding error: duplicate field "spec\.replicas"/);
    const created = await t.request('POST', DEPLOYMENTS, { body });
    assert.equal(created.status, 201, created.text);
    assert.equal((created.body as { spec: { replicas: number } }).spec.replicas, 2);
    assert.match(created.headers.get('warning') ?? '', /duplicate field \\?"spec\.replicas\\?"/);
  });

  it('a custom resource decodes into a map: the last value wins', async () => {
    // A wrongly typed earlier value is no 400 (the map keeps the last), and a wrongly typed last
    // one is the schema's 422.
    const body = (first: string, last: string) => `{"apiVersion":"widgets.example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":${first},"replicas":${last}}}`;
    const wrongLast = await t.request('POST', WIDGETS, { body: body('1', '"x"') });
    assert.equal(wrongLast.status, 422, wrongLast.text);
    const wrongFirst = await t.request('POST', WIDGETS, { body: body('"x"', '1') });
    assert.notEqual(wrongFirst.status, 400, wrongFirst.text);
    assert.notEqual(wrongFirst.status, 422, wrongFirst.text);
  });
});
