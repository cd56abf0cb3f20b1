/**
 * The webhook dispatchers without an API server: mutating webhooks in order with reinvocation
 * (reinvocationPolicy IfNeeded), the dry-run rule on sideEffects, and failurePolicy on a
 * webhook that cannot be reached.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ANONYMOUS_USER, type AdmissionAttributes } from '../../runtime/api/auth.js';
import { StatusError } from '../../runtime/api/status.js';
import type { AdmissionContext } from '../../runtime/api/admission.js';
import { dispatchMutating } from '../../runtime/admission/webhook/mutating.js';
import { dispatchValidating } from '../../runtime/admission/webhook/validating.js';
import type { Webhook, WebhookAccessor } from '../../runtime/admission/webhook/types.js';
import { startWebhookServer, type WebhookServer } from './webhookserver.js';

const noNamespaces = async () => ({});

function attrs(overrides: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: 'CREATE',
    user: ANONYMOUS_USER,
    namespace: 'default',
    name: 'w1',
    resource: { group: 'widgets.example.com', version: 'v1', resource: 'widgets' },
    subresource: '',
    kind: { group: 'widgets.example.com', version: 'v1', kind: 'Widget' },
    dryRun: false,
    object: { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { replicas: 1 } },
    ...overrides,
  };
}

const ctx = (): AdmissionContext => ({ warnings: [], annotations: {} });
const accessors = (...hooks: Webhook[]): WebhookAccessor[] => hooks.map((webhook, i) => ({ uid: `c/${i}`, configurationName: 'c', webhook }));

describe('webhook dispatch', () => {
  let wh: WebhookServer;
  const hook = (name: string, path: string, extra: Partial<Webhook> = {}): Webhook => ({
    name,
    clientConfig: { url: `${wh.url}${path}`, caBundle: wh.caBundle },
    rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  });
  before(async () => {
    wh = await startWebhookServer();
  });
  after(() => wh.close());

  it('calls mutating webhooks in order and reinvokes IfNeeded ones a later webhook changed the object for', async () => {
    wh.reviews.length = 0;
    const a = attrs();
    const c = ctx();
    await dispatchMutating(accessors(hook('label.example.com', '/mutate', { reinvocationPolicy: 'IfNeeded' }), hook('tag.example.com', '/tag')), a, c, noNamespaces);
    assert.deepEqual(a.object!.metadata.labels, { 'admitted-by': 'webhook', tagged: 'yes' });
    assert.deepEqual(wh.reviews.map((r) => r.path), ['/mutate', '/tag', '/mutate']);
    assert.equal(wh.reviews[2]!.request.object.metadata.labels.tagged, 'yes', 'the reinvocation sees the later change');
    assert.deepEqual(JSON.parse(c.annotations['mutation.webhook.admission.k8s.io/round_0_index_1']!), { configuration: 'c', webhook: 'tag.example.com', mutated: true });
    assert.ok(c.annotations['mutation.webhook.admission.k8s.io/round_1_index_0']);

    wh.reviews.length = 0;
    await dispatchMutating(accessors(hook('label.example.com', '/mutate'), hook('tag.example.com', '/tag')), attrs(), ctx(), noNamespaces);
    assert.deepEqual(wh.reviews.map((r) => r.path), ['/mutate', '/tag'], 'reinvocationPolicy Never (the default) calls once');
  });

  it('a mutating webhook may not patch a DELETE (500)', async () => {
    const del = attrs({ operation: 'DELETE', object: undefined, oldObject: attrs().object });
    await assert.rejects(
      dispatchMutating(accessors(hook('patcher.example.com', '/patch-anyway')), del, ctx(), noNamespaces),
      (err: unknown) =>
        err instanceof StatusError &&
        err.code === 500 &&
        err.message === 'Internal error occurred: admission webhook "patcher.example.com" attempted to modify the object, which is not supported for this operation',
    );
  });

  it('a patch whose result nests deeper than a body may is refused as kube refuses a patched object it cannot decode (500)', async () => {
    const a = attrs();
    const before = structuredClone(a.object);
    await assert.rejects(
      dispatchMutating(accessors(hook('deepen.example.com', '/deepen')), a, ctx(), noNamespaces),
      (err: unknown) =>
        err instanceof StatusError &&
        err.code === 500 &&
        err.status.reason === 'InternalError' &&
        err.message === "Internal error occurred: couldn't get version/kind; json parse error: invalid character '{' exceeded max depth",
    );
    assert.deepEqual(a.object, before, 'the object is left as it was');
  });

  it('a patch nested deeper than a body may is undecodable: a call failure, under failurePolicy', async () => {
    const a = attrs();
    const before = structuredClone(a.object);
    await assert.rejects(
      dispatchMutating(accessors(hook('deep.example.com', '/deep-patch')), a, ctx(), noNamespaces),
      (err: unknown) =>
        err instanceof StatusError &&
        err.code === 500 &&
        err.message ===
          'Internal error occurred: failed calling webhook "deep.example.com": received undecodable patch in webhook response: invalid character \'{\' exceeded max depth',
    );
    const c = ctx();
    await dispatchMutating(accessors(hook('deep.example.com', '/deep-patch', { failurePolicy: 'Ignore' })), a, c, noNamespaces);
    assert.deepEqual(a.object, before, 'Ignore admits the object unchanged');
    assert.equal(c.annotations['failed-open.mutation.webhook.admission.k8s.io/round_0_index_0'], 'deep.example.com');
  });

  it('a patch with an integer a double cannot hold is undecodable, not applied rounded', async () => {
    const a = attrs();
    const before = structuredClone(a.object);
    await assert.rejects(
      dispatchMutating(accessors(hook('big.example.com', '/big-int-patch')), a, ctx(), noNamespaces),
      (err: unknown) =>
        err instanceof StatusError &&
        err.code === 500 &&
        err.message ===
          'Internal error occurred: failed calling webhook "big.example.com": received undecodable patch in webhook response: json: number 9007199254740993 at [0].value cannot be kept exactly: kgen holds numbers as float64, exact for whole numbers up to 2^53 (9007199254740992); it refuses rather than store another number',
    );
    assert.deepEqual(a.object, before, 'the object is left as it was');
  });

  it('dry run: sideEffects None/NoneOnDryRun are called, others refuse the request with 400', async () => {
    wh.reviews.length = 0;
    await dispatchValidating(accessors(hook('none.example.com', '/validate', { sideEffects: 'NoneOnDryRun' })), attrs({ dryRun: true }), ctx(), noNamespaces);
    assert.equal(wh.reviews.length, 1);
    await assert.rejects(
      dispatchValidating(accessors(hook('some.example.com', '/validate', { sideEffects: 'Some' })), attrs({ dryRun: true }), ctx(), noNamespaces),
      (err: unknown) => err instanceof StatusError && err.code === 400 && err.message === 'admission webhook "some.example.com" does not support dry run',
    );
    assert.equal(wh.reviews.length, 1, 'the webhook with side effects was not called');
  });

  it('only caBundle is trusted: a broken bundle or the system roots fail the call', async () => {
    const other = await startWebhookServer();
    try {
      const untrusted = hook('untrusted.example.com', '/validate', { clientConfig: { url: `${other.url}/validate`, caBundle: Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString('base64') } });
      await assert.rejects(dispatchValidating(accessors(untrusted), attrs(), ctx(), noNamespaces), (err: unknown) => err instanceof StatusError && err.code === 500);
      const systemRoots = hook('roots.example.com', '/validate', { clientConfig: { url: `${other.url}/validate` } });
      await assert.rejects(
        dispatchValidating(accessors(systemRoots), attrs(), ctx(), noNamespaces),
        (err: unknown) => err instanceof StatusError && /x509: certificate signed by unknown authority$/.test(err.message),
      );
    } finally {
      await other.close();
    }
  });
});
