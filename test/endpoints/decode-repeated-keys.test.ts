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

  it('a repeated object is decoded into what the earlier one filled (Go\'s decode.go object())', async () => {
    const created = async (name: string, text: string, path = DEPLOYMENTS) => {
      const res = await t.request('POST', path, { body: text });
      assert.equal(res.status, 201, res.text);
      return res.body as Record<string, any>;
    };
    const template = (containers: string) => `"template":{"metadata":{"labels":{"app":"m"}},"spec":{"containers":[${containers}]}}`;
    // A struct: a field only in the first object survives, a field in both takes the later value.
    const spec = await created('m1', `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"m1"},"spec":{"replicas":3,"minReadySeconds":5},"spec":{"minReadySeconds":7,"paused":true,"selector":{"matchLabels":{"app":"m"}},${template('{"name":"c","image":"nginx"}')}}}`);
    assert.equal(spec.spec.replicas, 3);
    assert.equal(spec.spec.minReadySeconds, 7);
    assert.equal(spec.spec.paused, true);
    // A map (labels, a ResourceList): the later object's keys are added to the first map.
    const maps = await created(
      'm2',
      deploymentText('m2', '', '"name":"m2","labels":{"a":"1","b":"1"},"labels":{"b":"2","c":"2"},"annotations":{"x":"1"}').replace(
        '"containers":[{"name":"c","image":"nginx"}]',
        '"containers":[{"name":"c","image":"nginx","resources":{"limits":{"cpu":"1"},"limits":{"memory":"1Gi"}}}]',
      ),
    );
    assert.deepEqual(maps.metadata.labels, { a: '1', b: '2', c: '2' });
    assert.deepEqual(maps.spec.template.spec.containers[0].resources.limits, { cpu: '1', memory: '1Gi' });
    // A slice: element i of the later list is decoded into element i of the earlier one (a
    // container keeps the image the first list gave it), and the slice takes the later length.
    const list = await created(
      'm3',
      `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"m3"},"spec":{"selector":{"matchLabels":{"app":"m"}},"template":{"metadata":{"labels":{"app":"m"}},"spec":{"containers":[{"name":"a","image":"nginx","workingDir":"/w"},{"name":"b","image":"busybox"}],"containers":[{"name":"c","workingDir":"/v"}]}}}}`,
    );
    assert.deepEqual(
      list.spec.template.spec.containers.map((c: Record<string, unknown>) => [c.name, c.image, c.workingDir]),
      [['c', 'nginx', '/v']],
    );
    // null: a pointer (replicas, *int32) becomes nil and is defaulted; a plain field (paused,
    // bool; metadata.name) keeps its earlier value; a map becomes nil.
    const nulls = await created('m4', deploymentText('m4', '"replicas":5,"replicas":null,"paused":true,"paused":null', '"name":"m4","name":null,"labels":{"a":"1"},"labels":null'));
    assert.equal(nulls.metadata.name, 'm4');
    // (nil, kept as a body's single `labels: null` is.)
    assert.ok(nulls.metadata.labels === null || nulls.metadata.labels === undefined, JSON.stringify(nulls.metadata));
    assert.equal(nulls.spec.replicas, 1);
    assert.equal(nulls.spec.paused, true);
    // A type with its own UnmarshalJSON takes the later value whole (a Quantity's text, an IntOrString).
    // The root's spec is a plain struct: a later null leaves it as it was.
    const root = await created('m6', deploymentText('m6', '"replicas":2').replace(/}$/, ',"spec":null}'));
    assert.equal(root.spec.replicas, 2);
    // A plain IntOrString (a port's targetPort) given null keeps its number (UnmarshalJSON sets
    // Type Int and leaves IntVal), here in element 0 of a later ports list decoded into the first.
    const service = await created(
      'm7',
      '{"apiVersion":"v1","kind":"Service","metadata":{"name":"m7"},"spec":{"ports":[{"port":80,"targetPort":8080}],"ports":[{"port":81,"targetPort":null}]}}',
      '/api/v1/namespaces/default/services',
    );
    assert.deepEqual(
      service.spec.ports.map((p: Record<string, unknown>) => [p.port, p.targetPort]),
      [[81, 8080]],
    );
    const whole = await created('m5', deploymentText('m5', '"strategy":{"rollingUpdate":{"maxSurge":"50%"}},"strategy":{"rollingUpdate":{"maxSurge":2}}'));
    assert.equal(whole.spec.strategy.rollingUpdate.maxSurge, 2);
    assert.equal(whole.spec.strategy.rollingUpdate.maxUnavailable, '25%');
  });

  it('a field only in an earlier object is seen by strict decoding, as Go decodes every occurrence', async () => {
    const body = deploymentText('s', '"bogus":1').replace('"spec":{"bogus":1,', '"spec":{"bogus":1},"spec":{');
    const strict = await t.request('POST', `${DEPLOYMENTS}?fieldValidation=Strict`, { body });
    assert.equal(strict.status, 400, strict.text);
    assert.match((strict.body as { message: string }).message, /unknown field "spec\.bogus"/);
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
