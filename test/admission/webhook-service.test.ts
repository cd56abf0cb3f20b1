/**
 * Admission webhooks configured by `clientConfig.service`: called at
 * `https://<name>.<namespace>.svc:<port><path>` through an address of the Service's Endpoints,
 * the serving certificate checked for that name, as kube-apiserver with aggregator routing; the
 * reference validated as kube's ValidateWebhookService; failures named with kube's URL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, widget, type TestServer } from '../server/testserver.js';
import { startWebhookServer, type WebhookServer } from './webhookserver.js';

const AR = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
const RULE = { operations: ['CREATE'], apiGroups: ['widgets.example.com'], apiVersions: ['v1'], resources: ['widgets'] };

describe('admission webhooks by clientConfig.service', () => {
  let ts: TestServer;
  let wh: WebhookServer;
  const hook = (name: string, service: Record<string, unknown>, ns: string) => ({
    name,
    clientConfig: { service, caBundle: wh.caBundle },
    rules: [RULE],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    namespaceSelector: { matchLabels: { hooks: ns } },
  });
  const post = async (path: string, body: unknown) => {
    const r = await ts.request('POST', path, { body });
    assert.equal(r.status, 201, `${path}: ${r.text}`);
  };
  /** Configurations reach the dispatcher by watch: retry until the webhook answered. */
  const createWidget = async (ns: string, name: string, done: (status: number, body: { metadata?: { labels?: Record<string, string> }; message?: string }) => boolean) => {
    const deadline = Date.now() + 5000;
    for (let i = 0; ; i++) {
      const r = await ts.request('POST', `/apis/widgets.example.com/v1/namespaces/${ns}/widgets`, { body: widget(`${name}-${i}`, { replicas: 1 }, { metadata: { labels: { app: 'x' } } }) });
      if (done(r.status, r.body) || Date.now() > deadline) return r;
      await new Promise((res) => setTimeout(res, 50));
    }
  };

  before(async () => {
    ts = await startTestServer();
    wh = await startWebhookServer();
    const port = Number(new URL(wh.url).port);
    await post('/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'webhook' }, spec: { ports: [{ name: 'https', port: 443 }] } });
    await post('/api/v1/namespaces/default/endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'webhook' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }] });
    for (const ns of ['svc-ok', 'svc-missing']) await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { hooks: ns } } });
    await post(AR, { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'by-service' }, webhooks: [hook('tag.example.com', { namespace: 'default', name: 'webhook', path: '/tag' }, 'svc-ok')] });
    await post(AR, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'to-nowhere' },
      webhooks: [hook('nowhere.example.com', { namespace: 'default', name: 'missing', path: '/tag' }, 'svc-missing')],
    });
  });
  after(async () => {
    await ts.close();
    await wh.close();
  });

  it('calls the webhook through the Service Endpoints, checking the certificate for <name>.<namespace>.svc', async () => {
    const r = await createWidget('svc-ok', 'w', (status, body) => status === 201 && body.metadata?.labels?.tagged === 'yes');
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.metadata.labels.tagged, 'yes', r.text);
    const review = wh.reviews.find((x) => x.path === '/tag');
    assert.ok(review, 'the webhook was called');
    assert.equal(review.query, '?timeout=10s');
  });

  it('fails with kube URL when the Service does not resolve', async () => {
    const r = await createWidget('svc-missing', 'w', (status) => status !== 201);
    assert.equal(r.status, 500, r.text);
    assert.equal(
      r.body.message,
      'Internal error occurred: failed calling webhook "nowhere.example.com": failed to call webhook: Post "https://missing.default.svc:443/tag?timeout=10s": service/missing in "default" is not present',
    );
  });

  it('validates the reference as kube ValidateWebhookService', async () => {
    const r = await ts.request('POST', AR, {
      body: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'bad-ref' }, webhooks: [hook('bad.example.com', { namespace: '', name: 'x', path: 'tag', port: 70000 }, 'none')] },
    });
    assert.equal(r.status, 422);
    assert.deepEqual(
      r.body.details.causes.map((c: { field: string }) => c.field),
      ['webhooks[0].clientConfig.service.namespace', 'webhooks[0].clientConfig.service.port', 'webhooks[0].clientConfig.service.path'],
    );
  });
});
