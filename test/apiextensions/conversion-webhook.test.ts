/**
 * A CRD with conversion strategy Webhook, served through the server chain: v1 (storage) has
 * spec.size, v2 spec.replicas, and a real HTTPS conversion webhook renames the field. Every read
 * and write of v2 goes through the webhook (get, list in one review per page, selectors on the
 * converted objects, watch, create, merge patch); objects already in the requested version are not
 * sent; a webhook that is down makes the API call answer kube's 500 Status, not hang.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startChain, type Chain } from './chain.js';
import { startConversionWebhook, type ConversionWebhookServer } from './conversion-webhook-server.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const V1 = '/apis/conv.example.com/v1/namespaces/default/widgets';
const V2 = '/apis/conv.example.com/v2/namespaces/default/widgets';

function widgetCRD(webhook: ConversionWebhookServer, path = '/convert', name = 'widgets', kind = 'Widget'): Record<string, unknown> {
  const schema = (field: string) => ({
    openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { [field]: { type: 'integer' } } } } },
  });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${name}.conv.example.com` },
    spec: {
      group: 'conv.example.com',
      scope: 'Namespaced',
      names: { plural: name, singular: kind.toLowerCase(), kind },
      versions: [
        // v2 first: the version the CRD finalizer must not use while the webhook is down.
        { name: 'v2', served: true, storage: false, schema: schema('replicas') },
        { name: 'v1', served: true, storage: true, schema: schema('size') },
      ],
      conversion: {
        strategy: 'Webhook',
        webhook: { clientConfig: { url: `${webhook.url}${path}`, caBundle: webhook.caBundle }, conversionReviewVersions: ['v9', 'v1'] },
      },
    },
  };
}

describe('conversion webhook', () => {
  let c: Chain;
  let webhook: ConversionWebhookServer;
  before(async () => {
    c = await startChain();
    webhook = await startConversionWebhook();
    const created = await c.request('POST', CRDS, widgetCRD(webhook));
    assert.equal(created.code, 201, JSON.stringify(created.body));
    await c.settle();
  });
  after(async () => {
    await webhook.close();
    await c.close();
  });

  it('creates through the storage version without calling the webhook', async () => {
    const created = await c.request('POST', V1, { apiVersion: 'conv.example.com/v1', kind: 'Widget', metadata: { name: 'w1', labels: { tier: 'a' } }, spec: { size: 3 } });
    assert.equal(created.code, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.spec, { size: 3 });
    assert.equal(webhook.reviews.length, 0);
  });

  it('gets through v2 with the renamed field, one ConversionReview v1 at ?timeout=30s', async () => {
    const got = await c.request('GET', `${V2}/w1`);
    assert.equal(got.code, 200, JSON.stringify(got.body));
    assert.equal(got.body.apiVersion, 'conv.example.com/v2');
    assert.deepEqual(got.body.spec, { replicas: 3 });
    assert.equal(got.body.metadata.name, 'w1');
    assert.equal(webhook.reviews.length, 1);
    const review = webhook.reviews[0]!;
    assert.equal(review.apiVersion, 'apiextensions.k8s.io/v1');
    assert.equal(review.query, '?timeout=30s');
    assert.equal(review.request.desiredAPIVersion, 'conv.example.com/v2');
    assert.deepEqual(review.request.objects.map((o) => [o.apiVersion, o.spec]), [['conv.example.com/v1', { size: 3 }]]);
  });

  it('creates through v2: stored in v1, answered in v2', async () => {
    const created = await c.request('POST', V2, { apiVersion: 'conv.example.com/v2', kind: 'Widget', metadata: { name: 'w2', labels: { tier: 'b' } }, spec: { replicas: 5 } });
    assert.equal(created.code, 201, JSON.stringify(created.body));
    assert.equal(created.body.apiVersion, 'conv.example.com/v2');
    assert.deepEqual(created.body.spec, { replicas: 5 });
    assert.deepEqual(created.body.metadata.labels, { tier: 'b', 'served-as': 'v2' });
    const v1 = await c.request('GET', `${V1}/w2`);
    assert.deepEqual([v1.body.apiVersion, v1.body.spec, v1.body.metadata.labels], ['conv.example.com/v1', { size: 5 }, { tier: 'b' }]);
  });

  it('lists through v2 converting the whole page in one review', async () => {
    const before = webhook.reviews.length;
    const list = await c.request('GET', V2);
    assert.equal(list.code, 200, JSON.stringify(list.body));
    assert.deepEqual(
      list.body.items.map((i: { apiVersion: string; metadata: { name: string }; spec: unknown }) => [i.apiVersion, i.metadata.name, i.spec]),
      [
        ['conv.example.com/v2', 'w1', { replicas: 3 }],
        ['conv.example.com/v2', 'w2', { replicas: 5 }],
      ],
    );
    assert.equal(webhook.reviews.length, before + 1);
    assert.equal(webhook.reviews.at(-1)!.request.objects.length, 2);
  });

  it('applies label and field selectors to the converted objects, with limit and continue', async () => {
    const byLabel = await c.request('GET', `${V2}?labelSelector=tier%3Db`);
    assert.deepEqual(byLabel.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['w2']);
    const byField = await c.request('GET', `${V2}?fieldSelector=metadata.name%3Dw1`);
    assert.deepEqual(byField.body.items.map((i: { spec: unknown }) => i.spec), [{ replicas: 3 }]);
    const first = await c.request('GET', `${V2}?limit=1`);
    assert.equal(first.body.items.length, 1);
    assert.ok(first.body.metadata.continue);
    const second = await c.request('GET', `${V2}?limit=1&continue=${encodeURIComponent(first.body.metadata.continue)}`);
    assert.deepEqual(second.body.items.map((i: { metadata: { name: string }; spec: unknown }) => [i.metadata.name, i.spec]), [['w2', { replicas: 5 }]]);
    const selected = await c.request('GET', `${V2}?limit=1&labelSelector=tier%3Db`);
    assert.deepEqual(selected.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['w2']);
    // The label only the converted objects carry: the selector sees them, not the stored ones.
    const converted = await c.request('GET', `${V2}?labelSelector=served-as%3Dv2`);
    assert.deepEqual(converted.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['w1', 'w2']);
    const stored = await c.request('GET', `${V1}?labelSelector=served-as%3Dv2`);
    assert.deepEqual(stored.body.items, []);
  });

  it('watches through v2 (a selector on the converted labels) and round-trips a merge patch through v2', async () => {
    const res = await c.chain.handler.handle(
      { method: 'GET', url: `${V2}?watch=true&resourceVersion=0&labelSelector=served-as%3Dv2`, headers: {}, signal: new AbortController().signal },
      { user: { name: 'admin', groups: ['system:masters'] } } as never,
    );
    assert.equal(res.kind, 'stream');
    if (res.kind !== 'stream') return;
    const it = res.chunks[Symbol.asyncIterator]();
    const next = async () => JSON.parse(String((await it.next()).value).trim());
    const initial = [await next(), await next()];
    assert.deepEqual(
      initial.map((e) => [e.type, e.object.apiVersion, e.object.metadata.name, e.object.spec]),
      [
        ['ADDED', 'conv.example.com/v2', 'w1', { replicas: 3 }],
        ['ADDED', 'conv.example.com/v2', 'w2', { replicas: 5 }],
      ],
    );
    const patched = await c.request('PATCH', `${V2}/w1`, { spec: { replicas: 7 } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal(patched.code, 200, JSON.stringify(patched.body));
    assert.deepEqual([patched.body.apiVersion, patched.body.spec], ['conv.example.com/v2', { replicas: 7 }]);
    const event = await next();
    assert.deepEqual([event.type, event.object.apiVersion, event.object.spec], ['MODIFIED', 'conv.example.com/v2', { replicas: 7 }]);
    res.close();
    const stored = await c.request('GET', `${V1}/w1`);
    assert.deepEqual(stored.body.spec, { size: 7 });
  });

  it('refuses a webhook conversion without a usable clientConfig or review version', async () => {
    const bad = widgetCRD(webhook, '/convert', 'bads', 'Bad') as { spec: { conversion: { webhook: Record<string, unknown> } } };
    bad.spec.conversion.webhook = { clientConfig: { url: 'http://127.0.0.1/convert?x=1' }, conversionReviewVersions: ['v3'] };
    const refused = await c.request('POST', CRDS, bad);
    assert.equal(refused.code, 422);
    assert.deepEqual(
      refused.body.details.causes.map((cause: { field: string }) => cause.field),
      ['spec.conversion.webhookClientConfig.url', 'spec.conversion.webhookClientConfig.url', 'spec.conversion.conversionReviewVersions'],
    );
    assert.match(refused.body.message, /'https' is the only allowed URL scheme/);
    assert.match(refused.body.message, /must include at least one of v1, v1beta1/);
    bad.spec.conversion.webhook = { clientConfig: {}, conversionReviewVersions: [] };
    const empty = await c.request('POST', CRDS, bad);
    assert.equal(empty.code, 422);
    assert.match(empty.body.message, /spec\.conversion\.webhookClientConfig: Required value: exactly one of url or service is required/);
    assert.match(empty.body.message, /spec\.conversion\.conversionReviewVersions: Required value/);
  });

  it('answers a failed conversion with kube Status messages', async () => {
    const failing = widgetCRD(webhook, '/fail', 'gadgets', 'Gadget');
    assert.equal((await c.request('POST', CRDS, failing)).code, 201);
    await c.settle();
    const gadgets = '/apis/conv.example.com/v2/namespaces/default/gadgets';
    const created = await c.request('POST', gadgets, { apiVersion: 'conv.example.com/v2', kind: 'Gadget', metadata: { name: 'g1' }, spec: { replicas: 1 } });
    assert.equal(created.code, 500);
    assert.deepEqual(created.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'conversion webhook for conv.example.com/v2, Kind=Gadget failed: cannot convert today',
      code: 500,
    });
  });

  it('answers 500 with kube message, not a hang, when the webhook is down', async () => {
    const port = new URL(webhook.url).port;
    await webhook.close();
    const got = await c.request('GET', `${V2}/w1`);
    assert.equal(got.code, 500);
    assert.equal(got.body.reason, undefined);
    assert.equal(got.body.message, `conversion webhook for conv.example.com/v1, Kind=Widget failed: Post "https://127.0.0.1:${port}/convert?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused`);
    const list = await c.request('GET', V2);
    assert.equal(list.code, 500);
    assert.match(list.body.message, /^conversion webhook for conv\.example\.com\/v1, Kind=WidgetList failed: Post /);
    // The storage version needs no conversion.
    const v1 = await c.request('GET', `${V1}/w1`);
    assert.equal(v1.code, 200);
    // Nor does deleting the CRD: its objects are deleted through the storage version.
    assert.equal((await c.request('DELETE', `${CRDS}/widgets.conv.example.com`)).code, 200);
    await c.settle();
    assert.equal((await c.request('GET', `${CRDS}/widgets.conv.example.com`)).code, 404);
  });
});
