/**
 * ext.Strings' format() in a CRD served by the extensions server: a messageExpression built with
 * it gives kube's formatted message when a rule fails, and a literal format call kube's compile-time
 * check refuses (stringFormatValidator) makes the CRD itself invalid when it is written.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { crontabCRD, specSchemaOf, startChain, type Chain } from './chain.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';

/** The CronTab CRD with `validations` on spec. */
function crdWithRules(validations: unknown[]): Record<string, unknown> {
  const crd = crontabCRD();
  specSchemaOf(crd)['x-kubernetes-validations'] = validations;
  return crd;
}

describe('format() in CRD rules through the extensions server', () => {
  let c: Chain;
  before(async () => {
    c = await startChain();
  });
  after(async () => {
    await c.close();
  });

  it('refuses a CRD whose literal format call kube refuses when it is compiled', async () => {
    const r = await c.request('POST', CRDS, crdWithRules([{ rule: "'%s has %d replicas'.format([self.cronSpec]) != ''" }]));
    assert.equal(r.code, 422, JSON.stringify(r.body));
    assert.equal(
      r.body.message,
      'CustomResourceDefinition.apiextensions.k8s.io "crontabs.stable.example.com" is invalid: spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: map[string]interface {}{"rule":"\'%s has %d replicas\'.format([self.cronSpec]) != \'\'"}: compilation failed: ERROR: <input>:1:28: index 1 out of range',
    );
    const typed = await c.request('POST', CRDS, crdWithRules([{ rule: 'self.replicas <= 5', messageExpression: "'%d replicas'.format([self.cronSpec])" }]));
    assert.equal(typed.code, 422, JSON.stringify(typed.body));
    assert.match(typed.body.message, /x-kubernetes-validations\[0\]\.messageExpression: Invalid value: .*: messageExpression compilation failed: ERROR: <input>:1:27: error during formatting: decimal clause can only be used on integers, was given string/);
  });

  it('formats the messageExpression of a failing rule; a runtime format error is the rule\'s error', async () => {
    const created = await c.request(
      'POST',
      CRDS,
      crdWithRules([
        { rule: 'self.replicas <= 5', messageExpression: "'%s runs %d replicas, more than %d (%.1f%%)'.format([self.cronSpec, self.replicas, 5, double(self.replicas) / 5.0 * 100.0])" },
        { rule: "!has(self.image) || self.image == 'ok' || ('%' + self.image).format([self.replicas]) != ''" },
      ]),
    );
    assert.equal(created.code, 201, JSON.stringify(created.body));
    await c.settle();
    const bad = await c.request('POST', CRONTABS, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'f1' }, spec: { cronSpec: '*/5 * * * *', replicas: 7 } });
    assert.equal(bad.code, 422, JSON.stringify(bad.body));
    assert.equal(bad.body.message, 'CronTab.stable.example.com "f1" is invalid: spec: Invalid value: "object": */5 * * * * runs 7 replicas, more than 5 (140.0%)');
    const clause = await c.request('POST', CRONTABS, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'f2' }, spec: { cronSpec: 'x', replicas: 1, image: 'z' } });
    assert.equal(clause.code, 422, JSON.stringify(clause.body));
    assert.match(clause.body.message, /spec: Invalid value: "object": could not parse formatting clause: unrecognized formatting clause "z" evaluating rule: !has\(self\.image\)/);
    const good = await c.request('POST', CRONTABS, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'f3' }, spec: { cronSpec: 'x', replicas: 3, image: 'ok' } });
    assert.equal(good.code, 201, JSON.stringify(good.body));
  });
});
