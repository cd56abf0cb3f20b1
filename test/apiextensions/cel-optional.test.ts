/**
 * cel-go's optional library (kube 1.28+, version 2 in 1.33) in a CRD served by the extensions
 * server: a CRD whose rules use optMap, optFlatMap, ofNonZeroValue and first()/last() over fields
 * that may be absent is accepted and its rules run on every write; a rule selecting a field the
 * optMap variable's type lacks is refused when the CRD is written; optional.none().value() is the
 * rule's evaluation error in cel-go's words.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { crontabCRD, specSchemaOf, startChain, type Chain } from './chain.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';

/** The CronTab CRD with an optional object `limits` and a list `ports` in spec, and rules on spec. */
function crdWithRules(rules: unknown[]): Record<string, unknown> {
  const crd = crontabCRD();
  const spec = specSchemaOf(crd);
  spec.properties.limits = { type: 'object', properties: { cpu: { type: 'integer' }, owner: { type: 'string', maxLength: 64 } } };
  spec.properties.ports = { type: 'array', maxItems: 8, items: { type: 'integer' } };
  spec['x-kubernetes-validations'] = rules;
  return crd;
}

const crontab = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec: { cronSpec: 'x', ...spec } });

describe('optional types in CRD rules through the extensions server', () => {
  let c: Chain;
  before(async () => {
    c = await startChain();
  });
  after(async () => {
    await c.close();
  });

  it("refuses a CRD whose optMap expression selects a field the variable's type lacks", async () => {
    const r = await c.request('POST', CRDS, crdWithRules([{ rule: 'self.?limits.optMap(l, l.memory > 0).orValue(true)' }]));
    assert.equal(r.code, 422, JSON.stringify(r.body));
    assert.match(r.body.message, /properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: .*: compilation failed: ERROR: <input>:1:\d+: undefined field 'memory'/);
  });

  it('accepts a CRD using optMap, optFlatMap, ofNonZeroValue, first() and last() and enforces its rules', async () => {
    const created = await c.request(
      'POST',
      CRDS,
      crdWithRules([
        { rule: 'self.?limits.optFlatMap(l, l.?cpu).optMap(n, n <= 8).orValue(true)', message: 'at most 8 cpus' },
        { rule: "self.?limits.optFlatMap(l, optional.ofNonZeroValue(l.?owner.orValue(''))).optMap(o, o.startsWith('team-')).orValue(true)", message: 'an owner is a team' },
        { rule: 'self.?ports.optFlatMap(p, p.first()).orValue(0) <= self.?ports.optFlatMap(p, p.last()).orValue(0)', message: 'the first port is at most the last' },
        { rule: 'self.?limits.optMap(l, l.?cpu.value() > 0).orValue(true)' },
      ]),
    );
    assert.equal(created.code, 201, JSON.stringify(created.body));
    await c.settle();

    const good = await c.request('POST', CRONTABS, crontab('c1', { limits: { cpu: 2, owner: 'team-a' }, ports: [80, 443] }));
    assert.equal(good.code, 201, JSON.stringify(good.body));
    const absent = await c.request('POST', CRONTABS, crontab('c2', { ports: [] }));
    assert.equal(absent.code, 201, JSON.stringify(absent.body));

    const cpus = await c.request('POST', CRONTABS, crontab('c3', { limits: { cpu: 9 } }));
    assert.equal(cpus.code, 422, JSON.stringify(cpus.body));
    assert.equal(cpus.body.message, 'CronTab.stable.example.com "c3" is invalid: spec: Invalid value: "object": at most 8 cpus');

    // An empty owner is a zero value: ofNonZeroValue gives optional.none() and the rule holds.
    const owner = await c.request('POST', CRONTABS, crontab('c4', { limits: { cpu: 1, owner: 'bob' } }));
    assert.equal(owner.code, 422, JSON.stringify(owner.body));
    assert.match(owner.body.message, /spec: Invalid value: "object": an owner is a team/);
    const empty = await c.request('POST', CRONTABS, crontab('c5', { limits: { cpu: 1, owner: '' } }));
    assert.equal(empty.code, 201, JSON.stringify(empty.body));

    const order = await c.request('POST', CRONTABS, crontab('c6', { ports: [443, 80] }));
    assert.equal(order.code, 422, JSON.stringify(order.body));
    assert.match(order.body.message, /spec: Invalid value: "object": the first port is at most the last/);

    const none = await c.request('POST', CRONTABS, crontab('c7', { limits: { owner: 'team-b' } }));
    assert.equal(none.code, 422, JSON.stringify(none.body));
    assert.match(none.body.message, /spec: Invalid value: "object": optional\.none\(\) dereference evaluating rule: self\.\?limits\.optMap\(l, l\.\?cpu\.value\(\) > 0\)\.orValue\(true\)/);
  });
});
