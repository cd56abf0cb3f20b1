/**
 * Schema patterns in CRDs are Go regular expressions: prometheus-operator's `^(?i)(abort|warn)?$`
 * validates objects, and a pattern Go cannot compile refuses the CRD when it is written (kube's
 * "must be a valid regular expression"), not every object later.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { crontabCRD, startChain, type Chain } from './chain.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const RULES = '/apis/monitoring.example.com/v1/namespaces/default/rules';

function rulesCRD(modeSchema: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const spec = { type: 'object', properties: { mode: { type: 'string', ...modeSchema } }, ...extra };
  const schema = { openAPIV3Schema: { type: 'object', properties: { spec } } };
  return crontabCRD({ group: 'monitoring.example.com', plural: 'rules', kind: 'Rule', shortNames: [], versions: [{ name: 'v1', served: true, storage: true, schema }] });
}

describe('CRD schema patterns (Go RE2 syntax)', () => {
  let c: Chain;
  before(async () => {
    c = await startChain();
  });
  after(async () => {
    await c.close();
  });

  it('validates objects against a pattern with Go flags', async () => {
    assert.equal((await c.request('POST', CRDS, rulesCRD({ pattern: '^(?i)(abort|warn)?$' }))).code, 201);
    await c.settle();
    const ok = await c.request('POST', RULES, { apiVersion: 'monitoring.example.com/v1', kind: 'Rule', metadata: { name: 'r1' }, spec: { mode: 'Abort' } });
    assert.equal(ok.code, 201, JSON.stringify(ok.body));
    const bad = await c.request('POST', RULES, { apiVersion: 'monitoring.example.com/v1', kind: 'Rule', metadata: { name: 'r2' }, spec: { mode: 'stop' } });
    assert.equal(bad.code, 422);
    assert.equal(bad.body.message, `Rule.monitoring.example.com "r2" is invalid: spec.mode: Invalid value: "stop": spec.mode in body should match '^(?i)(abort|warn)?$'`);
    assert.equal((await c.request('DELETE', `${CRDS}/rules.monitoring.example.com`)).code, 200);
    await c.settle();
  });

  it('refuses a CRD whose pattern Go cannot compile', async () => {
    const res = await c.request('POST', CRDS, rulesCRD({ pattern: '^(?=a)b$' }));
    assert.equal(res.code, 422);
    assert.equal(
      res.body.message,
      'CustomResourceDefinition.apiextensions.k8s.io "rules.monitoring.example.com" is invalid: ' +
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[mode].pattern: Invalid value: "^(?=a)b$": ' +
        "must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
    );
  });

  it('checks patterns under allOf/anyOf/oneOf/not too', async () => {
    const res = await c.request('POST', CRDS, rulesCRD({}, { anyOf: [{ properties: { mode: { pattern: 'a**' } } }] }));
    assert.equal(res.code, 422);
    assert.match(res.body.message, /spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[spec\]\.anyOf\[0\]\.properties\[mode\]\.pattern: Invalid value: "a\*\*": must be a valid regular expression, but isn't: error parsing regexp: invalid nested repetition operator: `\*\*`/);
  });
});
