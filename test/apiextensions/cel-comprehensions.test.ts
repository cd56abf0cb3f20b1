/**
 * cel-go's two-variable comprehensions (kube 1.32+) in a CRD served by the extensions server: a
 * CRD whose rules use them is accepted and its rules run on every write (over a map's keys and
 * values, over a list's indexes and items); a rule selecting a field of a value variable whose
 * type has none is refused when the CRD is written; transformMapEntry's duplicate key is the rule's
 * evaluation error.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { crontabCRD, specSchemaOf, startChain, type Chain } from './chain.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';

/** The CronTab CRD with a map `limits` and a list `ports` in spec, carrying the given rules. */
function crdWithRules(limitsRules: unknown[], portsRules: unknown[]): Record<string, unknown> {
  const crd = crontabCRD();
  const spec = specSchemaOf(crd);
  spec.properties.limits = { type: 'object', maxProperties: 16, additionalProperties: { type: 'integer' }, 'x-kubernetes-validations': limitsRules };
  spec.properties.ports = { type: 'array', maxItems: 8, items: { type: 'integer' }, 'x-kubernetes-validations': portsRules };
  return crd;
}

const crontab = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec: { cronSpec: 'x', ...spec } });

describe('two-variable comprehensions in CRD rules through the extensions server', () => {
  let c: Chain;
  before(async () => {
    c = await startChain();
  });
  after(async () => {
    await c.close();
  });

  it('refuses a CRD whose rule selects a field of an int value variable, as cel-go\'s checker does', async () => {
    const r = await c.request('POST', CRDS, crdWithRules([], [{ rule: 'self.all(i, v, v.foo == 1)' }]));
    assert.equal(r.code, 422, JSON.stringify(r.body));
    assert.match(r.body.message, /properties\[spec\]\.properties\[ports\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: .*: compilation failed: ERROR: <input>:1:17: type 'int' does not support field selection/);
  });

  it('accepts a CRD using all, transformMap and transformMapEntry and enforces its rules', async () => {
    const created = await c.request(
      'POST',
      CRDS,
      crdWithRules(
        [
          { rule: 'self.all(k, v, v > 0)', message: 'every limit must be positive' },
          { rule: "self.transformMap(k, v, v * 2).all(k, v, v <= 100)", message: 'a limit doubled must stay within 100' },
          { rule: 'self.transformMapEntry(k, v, {string(v): k}).size() == self.size()' },
        ],
        [{ rule: 'self.all(i, v, i == 0 || self[i - 1] < v)', message: 'ports must ascend' }],
      ),
    );
    assert.equal(created.code, 201, JSON.stringify(created.body));
    await c.settle();

    const good = await c.request('POST', CRONTABS, crontab('c1', { limits: { cpu: 2, memory: 50 }, ports: [80, 443, 8080] }));
    assert.equal(good.code, 201, JSON.stringify(good.body));

    const zero = await c.request('POST', CRONTABS, crontab('c2', { limits: { cpu: 0 } }));
    assert.equal(zero.code, 422, JSON.stringify(zero.body));
    assert.equal(zero.body.message, 'CronTab.stable.example.com "c2" is invalid: spec.limits: Invalid value: "object": every limit must be positive');

    const doubled = await c.request('POST', CRONTABS, crontab('c3', { limits: { cpu: 51 } }));
    assert.equal(doubled.code, 422, JSON.stringify(doubled.body));
    assert.match(doubled.body.message, /spec\.limits: Invalid value: "object": a limit doubled must stay within 100/);

    const order = await c.request('POST', CRONTABS, crontab('c4', { ports: [443, 80] }));
    assert.equal(order.code, 422, JSON.stringify(order.body));
    assert.match(order.body.message, /spec\.ports: Invalid value: "array": ports must ascend/);

    const duplicate = await c.request('POST', CRONTABS, crontab('c5', { limits: { cpu: 2, memory: 2 } }));
    assert.equal(duplicate.code, 422, JSON.stringify(duplicate.body));
    assert.match(duplicate.body.message, /spec\.limits: Invalid value: "object": insert failed: key 2 already exists evaluating rule: self\.transformMapEntry/);
  });
});
