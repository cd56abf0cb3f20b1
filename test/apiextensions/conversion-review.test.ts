/**
 * The conversion webhook's review: the version kgen speaks, and each malformed answer mapped to
 * kube's message in a 500 Status (webhook_converter.go), with a substituted HTTP call.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../runtime/api/meta.js';
import { StatusError } from '../../runtime/api/status.js';
import { reviewVersionFor, gvkString } from '../../runtime/apiextensions/conversion-review.js';
import { WebhookConverter } from '../../runtime/apiextensions/webhook-converter.js';
import type { WebhookCall } from '../../runtime/admission/webhook/client.js';
import { startConversionWebhook } from './conversion-webhook-server.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Review = { apiVersion: string; request: { uid: string; desiredAPIVersion: string; objects: any[] } };

const W1: KubeObject = { apiVersion: 'ex.com/v1', kind: 'W', metadata: { name: 'a', namespace: 'ns', uid: 'u1', resourceVersion: '5', labels: { x: '1' } } };
const INPUT = { gvk: gvkString('ex.com/v1', 'W'), list: false };

/** A converter whose webhook answers `answer(review)`; `calls` records the reviews sent. */
function converterAnswering(answer: (review: Review) => unknown, versions = ['v1']) {
  const calls: Review[] = [];
  const call = async (c: WebhookCall) => {
    calls.push(c.body as Review);
    return answer(c.body as Review);
  };
  return { calls, converter: new WebhookConverter({ clientConfig: { url: 'https://127.0.0.1:1/convert' }, conversionReviewVersions: versions }, { call }) };
}

/** The converted objects of a correct webhook: apiVersion set, everything else kept. */
function converted(review: Review) {
  return review.request.objects.map((o) => ({ ...o, apiVersion: review.request.desiredAPIVersion }));
}

function ok(review: Review, objects: unknown[] = converted(review)) {
  return { apiVersion: review.apiVersion, kind: 'ConversionReview', response: { uid: review.request.uid, result: { status: 'Success' }, convertedObjects: objects } };
}

async function failure(converter: WebhookConverter, objects: KubeObject[] = [W1], input = INPUT): Promise<StatusError> {
  try {
    await converter.convert(objects, 'ex.com/v2', input);
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    assert.equal(err.status.code, 500);
    assert.equal(err.status.reason, undefined);
    return err;
  }
  assert.fail('conversion succeeded');
}

describe('conversion review', () => {
  it('speaks the first review version kube supports, else fails', async () => {
    assert.equal(reviewVersionFor(['v2', 'v1beta1', 'v1']), 'v1beta1');
    assert.equal(reviewVersionFor(['v1', 'v1beta1']), 'v1');
    assert.throws(() => reviewVersionFor(['v2']), /no supported conversion review versions/);
    const { calls, converter } = converterAnswering(ok, ['v1beta1']);
    await converter.convert([W1], 'ex.com/v2', INPUT);
    assert.equal(calls[0]!.apiVersion, 'apiextensions.k8s.io/v1beta1');
    const none = converterAnswering(ok, ['v3']);
    assert.equal((await failure(none.converter)).message, 'no supported conversion review versions');
    assert.equal(none.calls.length, 0);
  });

  it('does not call the webhook for objects already in the desired version', async () => {
    const { calls, converter } = converterAnswering(ok);
    const inV2 = { ...W1, apiVersion: 'ex.com/v2' };
    assert.equal((await converter.convert([inV2], 'ex.com/v2', INPUT))[0], inV2);
    assert.equal(calls.length, 0);
    const mixed = await converter.convert([inV2, W1], 'ex.com/v2', { ...INPUT, list: true });
    assert.equal(calls[0]!.request.objects.length, 1);
    assert.deepEqual(mixed.map((o) => o.apiVersion), ['ex.com/v2', 'ex.com/v2']);
    assert.equal(mixed[0], inV2);
  });

  it('maps a uid mismatch to kube message', async () => {
    const { converter } = converterAnswering((r) => ({ ...ok(r), response: { ...ok(r).response, uid: 'other' } }));
    const err = await failure(converter);
    assert.match(err.message, /^conversion webhook for ex\.com\/v1, Kind=W failed: expected response\.uid="[0-9a-f-]{36}", got "other"$/);
  });

  it('maps a response of another kind to kube message', async () => {
    const { converter } = converterAnswering(() => ({ apiVersion: 'v1', kind: 'Status' }));
    assert.equal((await failure(converter)).message, 'conversion webhook for ex.com/v1, Kind=W failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /v1, Kind=Status');
  });

  it('maps a Failure result to its message', async () => {
    const { converter } = converterAnswering((r) => ({ ...ok(r), response: { uid: r.request.uid, result: { status: 'Failure', message: 'nope' } } }));
    assert.equal((await failure(converter)).message, 'conversion webhook for ex.com/v1, Kind=W failed: nope');
    const silent = converterAnswering((r) => ({ ...ok(r), response: { uid: r.request.uid, result: { status: 'Failure' } } }));
    assert.equal((await failure(silent.converter)).message, "conversion webhook for ex.com/v1, Kind=W failed: response.result.status was 'Failure', not 'Success'");
  });

  it('maps a wrong apiVersion or kind to kube message', async () => {
    const wrongVersion = converterAnswering((r) => ok(r, converted(r).map((o) => ({ ...o, apiVersion: 'ex.com/v3' }))));
    assert.equal((await failure(wrongVersion.converter)).message, 'conversion webhook for ex.com/v1, Kind=W returned invalid object at index 0: invalid groupVersion (expected ex.com/v2, received ex.com/v3)');
    const wrongKind = converterAnswering((r) => ok(r, converted(r).map((o) => ({ ...o, kind: 'Other' }))));
    assert.equal((await failure(wrongKind.converter)).message, 'conversion webhook for ex.com/v1, Kind=W returned invalid object at index 0: invalid kind (expected W, received Other)');
    const listInput = { gvk: gvkString('ex.com/v1', 'WList'), list: true };
    assert.equal(
      (await failure(wrongVersion.converter, [W1], listInput)).message,
      'conversion webhook for ex.com/v1, Kind=WList returned invalid converted object at index 1: invalid groupVersion (expected ex.com/v2, received ex.com/v3)',
    );
  });

  it('maps a changed name, namespace or uid to kube message', async () => {
    const renamed = converterAnswering((r) => ok(r, converted(r).map((o) => ({ ...o, metadata: { ...o.metadata, name: 'b' } }))));
    assert.equal((await failure(renamed.converter)).message, 'conversion webhook for ex.com/v1, Kind=W returned invalid object: must have the same name: a != b');
    const moved = converterAnswering((r) => ok(r, converted(r).map((o) => ({ ...o, metadata: { ...o.metadata, namespace: 'other' } }))));
    assert.equal((await failure(moved.converter)).message, 'conversion webhook for ex.com/v1, Kind=W returned invalid object: must have the same namespace: ns != other');
    const listInput = { gvk: gvkString('ex.com/v1', 'WList'), list: true };
    assert.equal((await failure(renamed.converter, [W1], listInput)).message, 'conversion webhook for ex.com/v1, Kind=WList returned invalid converted object at index 1: must have the same name: a != b');
  });

  it('maps a count mismatch to kube message', async () => {
    const { converter } = converterAnswering((r) => ok(r, []));
    assert.equal((await failure(converter)).message, 'conversion webhook for ex.com/v1, Kind=W returned 0 objects, expected 1');
  });

  it('keeps the webhook labels and annotations, restores the rest of metadata', async () => {
    const { converter } = converterAnswering((r) =>
      ok(
        r,
        converted(r).map((o) => ({ ...o, metadata: { ...o.metadata, resourceVersion: '99', generation: 7, labels: { y: '2' }, annotations: { note: 'n' } }, spec: { s: 1 } })),
      ),
    );
    const [out] = await converter.convert([W1], 'ex.com/v2', INPUT);
    assert.deepEqual(out, { apiVersion: 'ex.com/v2', kind: 'W', metadata: { name: 'a', namespace: 'ns', uid: 'u1', resourceVersion: '5', labels: { y: '2' }, annotations: { note: 'n' } }, spec: { s: 1 } });
    assert.deepEqual(W1.metadata.labels, { x: '1' });
    const badLabel = converterAnswering((r) => ok(r, converted(r).map((o) => ({ ...o, metadata: { ...o.metadata, labels: { x: 'not valid!' } } }))));
    assert.match((await failure(badLabel.converter)).message, /^conversion webhook for ex\.com\/v1, Kind=W returned invalid metadata: metadata\.labels: Invalid value: "not valid!"/);
    // Without metadata the name differs first, as in kube.
    const noMeta = converterAnswering((r) => ok(r, converted(r).map(({ metadata: _m, ...o }) => o)));
    assert.equal((await failure(noMeta.converter)).message, 'conversion webhook for ex.com/v1, Kind=W returned invalid object: must have the same name: a != ');
  });

  it('reports a call failure without the admission wording', async () => {
    const converter = new WebhookConverter(
      { clientConfig: { url: 'https://127.0.0.1:1/convert' }, conversionReviewVersions: ['v1'] },
      {
        call: async () => {
          throw new Error('failed to call webhook: Post "https://127.0.0.1:1/convert?timeout=30s": context deadline exceeded');
        },
      },
    );
    assert.equal((await failure(converter)).message, 'conversion webhook for ex.com/v1, Kind=W failed: Post "https://127.0.0.1:1/convert?timeout=30s": context deadline exceeded');
    const service = new WebhookConverter(
      { clientConfig: { service: { namespace: 'ns', name: 'conv', path: '/convert' } }, conversionReviewVersions: ['v1'] },
      { resolveService: async () => Promise.reject(new Error('service/conv in "ns" is not present')) },
    );
    assert.equal(
      (await failure(service)).message,
      'conversion webhook for ex.com/v1, Kind=W failed: Post "https://conv.ns.svc:443/convert?timeout=30s": service/conv in "ns" is not present',
    );
  });

  it('refuses a converted object with an integer a double cannot hold, rather than round it', async () => {
    const wh = await startConversionWebhook();
    try {
      const converter = new WebhookConverter({ clientConfig: { url: `${wh.url}/big-int`, caBundle: wh.caBundle }, conversionReviewVersions: ['v1'] }, {});
      assert.equal(
        (await failure(converter, [{ ...W1, spec: { size: 1 } } as KubeObject])).message,
        'conversion webhook for ex.com/v1, Kind=W failed: received invalid webhook response: json: number 9007199254740993 at response.convertedObjects[0].spec.big cannot be kept exactly: kgen holds numbers as float64, exact for whole numbers up to 2^53 (9007199254740992); it refuses rather than store another number',
      );
    } finally {
      await wh.close();
    }
  });

  it('calls clientConfig.service at an address of its Endpoints, checking the certificate for <name>.<namespace>.svc', async () => {
    const wh = await startConversionWebhook();
    try {
      const port = Number(new URL(wh.url).port);
      const asked: unknown[] = [];
      const converter = new WebhookConverter(
        { clientConfig: { service: { namespace: 'ns', name: 'conv', path: '/convert', port: 8443 }, caBundle: wh.caBundle }, conversionReviewVersions: ['v1'] },
        {
          resolveService: async (ref) => {
            asked.push(ref);
            return new URL(`https://127.0.0.1:${port}`);
          },
        },
      );
      const [out] = await converter.convert([W1], 'ex.com/v2', INPUT);
      assert.equal(out!.apiVersion, 'ex.com/v2');
      assert.deepEqual(asked, [{ namespace: 'ns', name: 'conv', port: 8443 }]);
      assert.equal(wh.reviews[0]!.path, '/convert');
    } finally {
      await wh.close();
    }
  });
});
