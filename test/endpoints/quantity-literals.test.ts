/**
 * A built-in kind's Quantity sent as an unquoted JSON number: resource.Quantity.UnmarshalJSON
 * (apimachinery quantity.go) strips a string's quotes and hands the bytes to ParseQuantity either
 * way, so a number is parsed from its literal's text, and ParseQuantity keeps text that is
 * canonical already (scale%3 == 0, no trailing `000`, not starting with `0`): `1e3` stays `1e3`,
 * where the double's text `1000` is `1k`. Create, update, merge and JSON patches keep the literal
 * (kube's patched JSON keeps the patch's bytes); a strategic merge patch's map holds a float64,
 * which the unstructured converter re-marshals (`1000`), so there `1e3` is `1k`, as in kube, and
 * so it is for server-side apply's configuration.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../server/testserver.js';

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

/** literal sent → what kube stores (ParseQuantity of the literal's text, then MarshalJSON). */
const FORMS: ReadonlyArray<readonly [string, string]> = [
  ['1e3', '1e3'], // DecimalExponent, scale 3: the text is kept
  ['1E3', '1E3'], // suffix `E3` is no SI suffix (Exa is `E` alone): an exponent, kept as sent
  ['1e+3', '1e+3'],
  ['1000', '1k'], // DecimalSI, shifted `1000` ends in 000: canonicalized
  ['0.5', '500m'], // shifted `05` starts with 0
  ['-0', '0'],
  ['1.0', '1'],
  ['1.5e6', '1500e3'], // scale 5: canonicalized in its own (exponent) format
  ['1e-3', '1e-3'],
  ['2.5', '2500m'],
];

/** A Deployment's JSON text whose container's limits.cpu is `cpu` (a literal, spliced as is). */
const deploymentText = (name: string, cpu: string) =>
  `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"${name}"},"spec":{"selector":{"matchLabels":{"app":"q"}},"template":{"metadata":{"labels":{"app":"q"}},"spec":{"containers":[{"name":"c","image":"nginx","resources":{"limits":{"cpu":${cpu}}}}]}}}}`;

const cpuOf = (body: any): unknown => body.spec.template.spec.containers[0].resources.limits.cpu;

describe('a built-in kind\'s Quantity sent as a JSON number is parsed from its literal, as kube does', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
  });
  after(() => t.close());

  it('create, then GET: every form', async () => {
    for (const [i, [literal, stored]] of FORMS.entries()) {
      const created = await t.request('POST', DEPLOYMENTS, { body: deploymentText(`c${i}`, literal) });
      assert.equal(created.status, 201, created.text);
      assert.equal(cpuOf(created.body), stored, `create ${literal}`);
      const read = await t.request('GET', `${DEPLOYMENTS}/c${i}`);
      assert.equal(cpuOf(read.body), stored, `read ${literal}`);
      // The same text quoted is the same Quantity.
      const quoted = await t.request('POST', `${DEPLOYMENTS}?dryRun=All`, { body: deploymentText(`c${i}`, JSON.stringify(literal)).replace(`"name":"c${i}"`, `"name":"q${i}"`) });
      assert.equal(cpuOf(quoted.body), stored, `quoted ${literal}`);
    }
  });

  it('update, merge patch and JSON patch keep the literal; a strategic merge patch reads a float64', async () => {
    const created = await t.request('POST', DEPLOYMENTS, { body: deploymentText('u', '"1"') });
    assert.equal(created.status, 201, created.text);
    const current = created.body as any;
    const put = await t.request('PUT', `${DEPLOYMENTS}/u`, { body: JSON.stringify(current).replace('"cpu":"1"', '"cpu":1e3') });
    assert.equal(put.status, 200, put.text);
    assert.equal(cpuOf(put.body), '1e3');
    // A merge patch replaces the list whole, so its container is complete.
    const limits = (cpu: string) => `{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"nginx","resources":{"limits":{"cpu":${cpu}}}}]}}}}`;
    const merge = await t.request('PATCH', `${DEPLOYMENTS}/u`, { body: limits('2E3'), contentType: 'application/merge-patch+json' });
    assert.equal(merge.status, 200, merge.text);
    assert.equal(cpuOf(merge.body), '2E3');
    const json = await t.request('PATCH', `${DEPLOYMENTS}/u`, {
      body: '[{"op":"replace","path":"/spec/template/spec/containers/0/resources/limits/cpu","value":3e3}]',
      contentType: 'application/json-patch+json',
    });
    assert.equal(json.status, 200, json.text);
    assert.equal(cpuOf(json.body), '3e3');
    const smp = await t.request('PATCH', `${DEPLOYMENTS}/u`, { body: limits('4e3'), contentType: 'application/strategic-merge-patch+json' });
    assert.equal(smp.status, 200, smp.text);
    assert.equal(cpuOf(smp.body), '4k');
    // Server-side apply reads the configuration into a map too (sigs.k8s.io/yaml): `5e3` is 5000.
    const apply = await t.request('PATCH', `${DEPLOYMENTS}/u?fieldManager=m&force=true`, {
      body: `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"u"},${limits('5e3').slice(1, -1)}}`,
      contentType: 'application/apply-patch+yaml',
    });
    assert.equal(apply.status, 200, apply.text);
    assert.equal(cpuOf(apply.body), '5k');
  });

  it('a body that repeats a key keeps the literal of the occurrence Go keeps', async () => {
    const text = deploymentText('r', '5e3').replace('"limits":{"cpu":5e3}', '"limits":{"cpu":1},"limits":{"memory":"1Gi","cpu":5e3}');
    const created = await t.request('POST', DEPLOYMENTS, { body: text });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.spec.template.spec.containers[0].resources.limits, { cpu: '5e3', memory: '1Gi' });
  });
});
