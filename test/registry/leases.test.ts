/**
 * coordination.k8s.io/v1 Lease: kube's ValidateLeaseSpec (pkg/apis/coordination/validation) on
 * create and update. A lease whose duration is 0 or negative reads as expired to every
 * leader-election candidate at once (client-go's isLeaseValid), so kube refuses it; so must kgen.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../server/testserver.js';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
const lease = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec });

describe('Lease validation', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
  });
  after(() => t?.close());

  it('refuses what ValidateLeaseSpec refuses, with its messages, on create and update', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ holderIdentity: 'a', leaseDurationSeconds: 0 }, 'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0'],
      [{ holderIdentity: 'a', leaseDurationSeconds: -5 }, 'spec.leaseDurationSeconds: Invalid value: -5: must be greater than 0'],
      [{ leaseTransitions: -1 }, 'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0'],
      [{ preferredHolder: 'b' }, 'spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined'],
      [{ strategy: 'Newest' }, 'spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"'],
    ];
    for (const [i, [spec, message]] of cases.entries()) {
      const r = await t.request('POST', LEASES, { body: lease(`bad${i}`, spec) });
      assert.equal(r.status, 422, `${JSON.stringify(spec)}: ${r.text}`);
      assert.ok(r.body.message.includes(message), `${r.body.message} should include ${message}`);
    }
    for (const [i, spec] of [{ holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 0 }, { strategy: 'OldestEmulationVersion', preferredHolder: 'b' }, { strategy: 'example.com/mine' }].entries()) {
      const r = await t.request('POST', LEASES, { body: lease(`ok${i}`, spec) });
      assert.equal(r.status, 201, `${JSON.stringify(spec)}: ${r.text}`);
    }
    const expired = await t.request('PATCH', `${LEASES}/ok0`, { body: { spec: { leaseDurationSeconds: 0 } }, contentType: 'application/merge-patch+json' });
    assert.equal(expired.status, 422, expired.text);
    assert.equal((await t.request('GET', `${LEASES}/ok0`)).body.spec.leaseDurationSeconds, 15);
  });
});
