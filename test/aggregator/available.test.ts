/**
 * The availability controller's reasons as kube's (Local, ServiceNotFound, ServicePortError,
 * EndpointsNotFound, MissingEndpoints, FailedDiscoveryCheck), the condition's transition time,
 * and kube's 503 for requests to an unavailable APIService.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { withAvailability } from '../../runtime/aggregator/available.js';
import { startTestServer, type TestServer } from '../server/testserver.js';

const APISERVICES = '/apis/apiregistration.k8s.io/v1/apiservices';
const SERVICES = '/api/v1/namespaces/default/services';
const ENDPOINTS = '/api/v1/namespaces/default/endpoints';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('withAvailability', () => {
  it('keeps lastTransitionTime while the status stays, and moves it when the status changes', () => {
    const t0 = new Date('2026-01-01T00:00:00Z');
    const first = withAvailability(undefined, { status: 'False', reason: 'ServiceNotFound', message: 'm1' }, t0);
    assert.deepEqual(first.conditions, [{ type: 'Available', status: 'False', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'ServiceNotFound', message: 'm1' }]);
    const same = withAvailability(first, { status: 'False', reason: 'EndpointsNotFound', message: 'm2' }, new Date('2026-01-01T00:01:00Z'));
    assert.equal(same.conditions[0]!.lastTransitionTime, '2026-01-01T00:00:00Z');
    assert.equal(same.conditions[0]!.reason, 'EndpointsNotFound');
    const flipped = withAvailability(same, { status: 'True', reason: 'Passed', message: 'all checks passed' }, new Date('2026-01-01T00:02:00Z'));
    assert.equal(flipped.conditions[0]!.lastTransitionTime, '2026-01-01T00:02:00Z');
  });
});

describe('APIService availability', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ aggregator: { availabilityIntervalMs: 100, discoveryTimeoutMs: 1_000 } });
  });
  after(() => t.close());

  async function condition(name: string, reason: string): Promise<{ status: string; reason: string; message: string }> {
    const deadline = Date.now() + 10_000;
    let last: unknown;
    while (Date.now() < deadline) {
      const res = await t.request('GET', `${APISERVICES}/${name}`);
      last = res.body?.status?.conditions?.find((c: { type: string }) => c.type === 'Available');
      if ((last as { reason?: string } | undefined)?.reason === reason) return last as { status: string; reason: string; message: string };
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.fail(`APIService ${name} never had reason ${reason}; last ${JSON.stringify(last)}`);
  }

  it('marks local APIServices Available (Local)', async () => {
    const created = await t.request('POST', APISERVICES, {
      body: { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1.widgets.example.com' }, spec: { group: 'widgets.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100 } },
    });
    assert.equal(created.status, 201, created.text);
    const local = await condition('v1.widgets.example.com', 'Local');
    assert.deepEqual([local.status, local.message], ['True', 'Local APIServices are always available']);
  });

  it('validates APIServices as kube does', async () => {
    const res = await t.request('POST', APISERVICES, {
      body: { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1.wrong.example.com' }, spec: { group: 'remote.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100, insecureSkipTLSVerify: true, caBundle: 'Zm9v' } },
    });
    assert.equal(res.status, 422, res.text);
    assert.equal(
      res.body.message,
      'APIService.apiregistration.k8s.io "v1.wrong.example.com" is invalid: [metadata.name: Invalid value: "v1.wrong.example.com": must be `spec.version+"."+spec.group`: "v1.remote.example.com", spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present]',
    );
  });

  it('follows the Service and Endpoints through every failure reason, and answers 503 meanwhile', async () => {
    const created = await t.request('POST', APISERVICES, {
      body: {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: 'v1.remote.example.com' },
        spec: { group: 'remote.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100, insecureSkipTLSVerify: true, service: { namespace: 'default', name: 'remote' } },
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.spec.service.port, 443, 'port defaults to 443');
    const missing = await condition('v1.remote.example.com', 'ServiceNotFound');
    assert.deepEqual([missing.status, missing.message], ['False', 'service/remote in "default" is not present']);

    const service = await t.request('POST', SERVICES, { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'remote' }, spec: { ports: [{ name: 'https', port: 8443 }] } } });
    assert.equal(service.status, 201, service.text);
    assert.equal((await condition('v1.remote.example.com', 'ServicePortError')).message, 'service/remote in "default" is not listening on port 443');

    const patched = await t.request('PATCH', `${SERVICES}/remote`, { body: { spec: { ports: [{ name: 'https', port: 443 }] } }, contentType: 'application/merge-patch+json' });
    assert.equal(patched.status, 200, patched.text);
    assert.equal((await condition('v1.remote.example.com', 'EndpointsNotFound')).message, 'cannot find endpoints for service/remote in "default"');

    const port = await closedPort();
    const endpoints = await t.request('POST', ENDPOINTS, {
      body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'remote' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'metrics', port }] }] },
    });
    assert.equal(endpoints.status, 201, endpoints.text);
    assert.equal((await condition('v1.remote.example.com', 'MissingEndpoints')).message, 'endpoints for service/remote in "default" have no addresses with port name "https"');

    const fixed = await t.request('PATCH', `${ENDPOINTS}/remote`, { body: { subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }] }, contentType: 'application/merge-patch+json' });
    assert.equal(fixed.status, 200, fixed.text);
    const failed = await condition('v1.remote.example.com', 'FailedDiscoveryCheck');
    assert.equal(failed.status, 'False');
    assert.ok(failed.message.startsWith(`failing or missing response from https://127.0.0.1:${port}/apis/remote.example.com/v1: `), failed.message);
    assert.match(failed.message, /ECONNREFUSED/);

    // The group is listed, but its resources are unavailable (kube's proxy answer).
    const apis = await t.request('GET', '/apis');
    assert.ok(apis.body.groups.some((g: { name: string }) => g.name === 'remote.example.com'));
    for (const path of ['/apis/remote.example.com/v1/things', '/apis/remote.example.com/v1']) {
      const res = await t.request('GET', path);
      assert.equal(res.status, 503);
      assert.equal(res.text, 'service unavailable\n');
      assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    }
  });
});
