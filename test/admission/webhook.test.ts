/**
 * Admission webhooks end to end: admissionregistration.k8s.io/v1 configurations created through
 * the API, a real HTTPS webhook server started here (its CA in caBundle), AdmissionReview v1 on
 * the wire, a JSONPatch from the mutating webhook, kube's denial message from the validating one,
 * rules, namespaceSelector and objectSelector, failurePolicy Fail and Ignore when the webhook is
 * stopped, and timeoutSeconds.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { INSECURE_DEV_USER } from '../../runtime/authentication/insecure.js';
import { startTestServer, widget, type Reply, type TestServer } from '../server/testserver.js';
import { startWebhookServer, type WebhookServer } from './webhookserver.js';

const AR = '/apis/admissionregistration.k8s.io/v1';
const widgetsIn = (ns: string) => `/apis/widgets.example.com/v1/namespaces/${ns}/widgets`;
const WIDGET_RULE = { operations: ['CREATE', 'UPDATE'], apiGroups: ['widgets.example.com'], apiVersions: ['v1'], resources: ['widgets'] };

function hook(name: string, url: string, caBundle: string, extra: Record<string, unknown> = {}) {
  return { name, clientConfig: { url, caBundle }, rules: [WIDGET_RULE], sideEffects: 'None', admissionReviewVersions: ['v1'], ...extra };
}

async function createOk(ts: TestServer, path: string, body: unknown): Promise<Reply> {
  const res = await ts.request('POST', path, { body });
  assert.equal(res.status, 201, `POST ${path}: ${res.text}`);
  return res;
}

async function namespace(ts: TestServer, name: string, labels: Record<string, string> = {}): Promise<void> {
  await createOk(ts, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
}

async function configuration(ts: TestServer, kind: 'Mutating' | 'Validating', name: string, webhooks: unknown[]): Promise<void> {
  const resource = `${kind.toLowerCase()}webhookconfigurations`;
  await createOk(ts, `${AR}/${resource}`, { apiVersion: 'admissionregistration.k8s.io/v1', kind: `${kind}WebhookConfiguration`, metadata: { name }, webhooks });
}

/** Polls until check passes: configurations reach the server's in-memory list by watch. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('admission webhooks over HTTPS', () => {
  let ts: TestServer;
  let wh: WebhookServer;
  before(async () => {
    ts = await startTestServer();
    wh = await startWebhookServer();
    await namespace(ts, 'hooked', { webhooks: 'on' });
    await namespace(ts, 'plain');
    await configuration(ts, 'Mutating', 'label-widgets', [
      hook('add-label.example.com', `${wh.url}/mutate`, wh.caBundle, { namespaceSelector: { matchLabels: { webhooks: 'on' } } }),
    ]);
    await configuration(ts, 'Validating', 'max-replicas', [
      hook('max-replicas.example.com', `${wh.url}/validate`, wh.caBundle, {
        rules: [{ ...WIDGET_RULE, resources: ['widgets', 'widgets/scale'], scope: 'Namespaced' }],
        objectSelector: { matchExpressions: [{ key: 'skip-validation', operator: 'DoesNotExist' }] },
      }),
    ]);
    await eventually(async () => {
      const probe = await ts.request('POST', `${widgetsIn('hooked')}?dryRun=All`, { body: widget('probe', { replicas: 11 }) });
      return probe.status === 403;
    }, 'the validating webhook');
    await eventually(async () => {
      const probe = await ts.request('POST', `${widgetsIn('hooked')}?dryRun=All`, { body: widget('probe', { replicas: 1 }) });
      return probe.body?.metadata?.labels?.['admitted-by'] === 'webhook';
    }, 'the mutating webhook');
  });
  after(async () => {
    await ts?.close();
    await wh?.close();
  });

  it('sends AdmissionReview v1 and applies the mutating webhook\'s JSONPatch', async () => {
    wh.reviews.length = 0;
    const res = await createOk(ts, widgetsIn('hooked'), widget('w1', { replicas: 3 }));
    assert.equal(res.body.metadata.labels['admitted-by'], 'webhook');
    const stored = await ts.request('GET', `${widgetsIn('hooked')}/w1`);
    assert.equal(stored.body.metadata.labels['admitted-by'], 'webhook', 'the patched object is what is stored');

    const mutate = wh.reviews.find((r) => r.path === '/mutate')!;
    assert.equal(mutate.query, '?timeout=10s');
    const r = mutate.request;
    assert.match(r.uid, /^[0-9a-f-]{36}$/);
    assert.deepEqual(r.kind, { group: 'widgets.example.com', version: 'v1', kind: 'Widget' });
    assert.deepEqual(r.resource, { group: 'widgets.example.com', version: 'v1', resource: 'widgets' });
    assert.deepEqual(r.requestKind, r.kind);
    assert.deepEqual(r.requestResource, r.resource);
    assert.equal(r.subResource, undefined);
    assert.equal(r.name, 'w1');
    assert.equal(r.namespace, 'hooked');
    assert.equal(r.operation, 'CREATE');
    assert.deepEqual(r.userInfo, { username: INSECURE_DEV_USER.username, groups: INSECURE_DEV_USER.groups });
    assert.equal(r.object.metadata.name, 'w1');
    assert.equal(r.oldObject, null);
    assert.equal(r.dryRun, false);
    assert.deepEqual(r.options, { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' });
    // The validating webhook sees the mutated object.
    const validate = wh.reviews.find((rv) => rv.path === '/validate')!;
    assert.equal(validate.request.object.metadata.labels['admitted-by'], 'webhook');
  });

  it('namespaceSelector: namespaces without the label are not sent to the webhook', async () => {
    const res = await createOk(ts, widgetsIn('plain'), widget('w-plain', { replicas: 1 }));
    assert.equal(res.body.metadata.labels?.['admitted-by'], undefined);
  });

  it('denies with kube\'s message; the webhook\'s warnings reach the client', async () => {
    const denied = await ts.request('POST', widgetsIn('plain'), { body: widget('big', { replicas: 20 }) });
    assert.equal(denied.status, 403);
    assert.equal(denied.headers.get('warning'), '299 - "spec.replicas 20 is above 10"', 'a denial\'s warnings too, as kube\'s');
    assert.equal(denied.body.reason, 'Forbidden');
    assert.equal(
      denied.body.message,
      'widgets.widgets.example.com "big" is forbidden: admission webhook "max-replicas.example.com" denied the request: spec.replicas must be at most 10, got 20',
    );
    assert.deepEqual(denied.body.details, { group: 'widgets.example.com', kind: 'widgets', name: 'big' });
    assert.equal((await ts.request('GET', `${widgetsIn('plain')}/big`)).status, 404);

    const coded = await ts.request('POST', widgetsIn('plain'), { body: widget('coded', { replicas: 20 }, { metadata: { labels: { 'deny-code': '422' } } }) });
    assert.equal(coded.status, 422, 'a code in the webhook\'s status is kept');
    assert.equal(coded.body.reason, 'Invalid');

    const warned = await createOk(ts, widgetsIn('plain'), widget('warned', { replicas: 7 }));
    assert.equal(warned.headers.get('warning'), '299 - "spec.replicas 7 is above 5"');
  });

  it('objectSelector: objects labelled skip-validation are not sent', async () => {
    await createOk(ts, widgetsIn('plain'), widget('skipped', { replicas: 20 }, { metadata: { labels: { 'skip-validation': 'true' } } }));
  });

  it('update, patch and scale are admitted with the old object', async () => {
    const created = await createOk(ts, widgetsIn('plain'), widget('grow', { replicas: 2 }));
    wh.reviews.length = 0;
    const put = await ts.request('PUT', `${widgetsIn('plain')}/grow`, { body: { ...created.body, spec: { replicas: 11 } } });
    assert.equal(put.status, 403, put.text);
    const review = wh.reviews.find((r) => r.path === '/validate')!.request;
    assert.equal(review.operation, 'UPDATE');
    assert.equal(review.oldObject.spec.replicas, 2);
    assert.equal(review.object.spec.replicas, 11);
    assert.equal(review.options.kind, 'UpdateOptions');

    const patch = await ts.request('PATCH', `${widgetsIn('plain')}/grow`, { body: { spec: { replicas: 12 } }, contentType: 'application/merge-patch+json' });
    assert.equal(patch.status, 403);
    assert.match(patch.body.message, /denied the request: spec\.replicas must be at most 10, got 12$/);

    wh.reviews.length = 0;
    const scale = await ts.request('PUT', `${widgetsIn('plain')}/grow/scale`, {
      body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'grow', namespace: 'plain' }, spec: { replicas: 15 } },
    });
    assert.equal(scale.status, 403, scale.text);
    const scaleReview = wh.reviews.find((r) => r.path === '/validate')!.request;
    assert.deepEqual(scaleReview.kind, { group: 'autoscaling', version: 'v1', kind: 'Scale' });
    assert.equal(scaleReview.subResource, 'scale');
    assert.equal(scaleReview.oldObject.spec.replicas, 2);
    assert.equal((await ts.request('GET', `${widgetsIn('plain')}/grow`)).body.spec.replicas, 2);
  });

  it('dryRun requests reach webhooks with sideEffects None, flagged dryRun', async () => {
    wh.reviews.length = 0;
    const res = await createOk(ts, `${widgetsIn('hooked')}?dryRun=All`, widget('dry', { replicas: 1 }));
    assert.equal(res.body.metadata.labels['admitted-by'], 'webhook');
    assert.ok(wh.reviews.length >= 2 && wh.reviews.every((r) => r.request.dryRun === true));
    assert.deepEqual(wh.reviews[0]!.request.options.dryRun, ['All']);
  });

  it('a mutating webhook whose patch nests the object too deep: 500, nothing stored (dispatch.test.ts has the message)', async () => {
    await namespace(ts, 'deepened', { deepen: 'on' });
    await configuration(ts, 'Mutating', 'deepen-widgets', [hook('deepen.example.com', `${wh.url}/deepen`, wh.caBundle, { namespaceSelector: { matchLabels: { deepen: 'on' } } })]);
    await eventually(async () => (await ts.request('POST', `${widgetsIn('deepened')}?dryRun=All`, { body: widget('probe', { replicas: 1 }) })).status === 500, 'the deepening webhook');
    const res = await ts.request('POST', widgetsIn('deepened'), { body: widget('deep', { replicas: 1 }) });
    assert.equal(res.status, 500, res.text);
    assert.equal(res.body.reason, 'InternalError');
    assert.match(res.body.message, /exceeded max depth$/);
    assert.equal((await ts.request('GET', `${widgetsIn('deepened')}/deep`)).status, 404, 'nothing was stored');
  });

  it('refuses invalid configurations (422); service references: test/admission/webhook-service.test.ts', async () => {
    const bad = (webhook: Record<string, unknown>) =>
      ts.request('POST', `${AR}/validatingwebhookconfigurations`, {
        body: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'bad' }, webhooks: [webhook] },
      });
    const both = await bad({ ...hook('svc.example.com', '', ''), clientConfig: { url: `${wh.url}/validate`, service: { namespace: 'default', name: 'hooks' } } });
    assert.equal(both.status, 422);
    assert.match(both.body.message, /webhooks\[0\]\.clientConfig: Required value: exactly one of url or service is required/);
    const slow = await bad(hook('slow.example.com', `${wh.url}/validate`, wh.caBundle, { timeoutSeconds: 31 }));
    assert.equal(slow.status, 422);
    assert.match(slow.body.message, /webhooks\[0\]\.timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds/);
    const http = await bad(hook('plain-http.example.com', 'http://127.0.0.1:1/validate', ''));
    assert.equal(http.status, 422);
    assert.match(http.body.message, /'https' is the only allowed URL scheme/);
    // What the matcher's LabelSelectorAsSelector would refuse (a 500 on every matching request) is refused here.
    const selectors = await bad({
      ...hook('selectors.example.com', `${wh.url}/validate`, wh.caBundle),
      namespaceSelector: { matchLabels: { '-bad': 'x' } },
      objectSelector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['-v-'] }] },
    });
    assert.equal(selectors.status, 422);
    assert.match(selectors.body.message, /webhooks\[0\]\.namespaceSelector\.matchLabels: Invalid value: "-bad": name part must consist of/);
    assert.match(selectors.body.message, /webhooks\[0\]\.objectSelector\.matchExpressions\[0\]\.values\[0\]: Invalid value: "-v-": a valid label must be/);
    const defaulted = await createOk(ts, `${AR}/validatingwebhookconfigurations?dryRun=All`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'defaults' },
      webhooks: [hook('defaults.example.com', `${wh.url}/validate`, wh.caBundle)],
    });
    const w = defaulted.body.webhooks[0];
    assert.deepEqual([w.failurePolicy, w.matchPolicy, w.timeoutSeconds, w.namespaceSelector, w.objectSelector, w.rules[0].scope], ['Fail', 'Equivalent', 10, {}, {}, '*']);
  });
});

describe('failurePolicy and timeoutSeconds', () => {
  let ts: TestServer;
  let live: WebhookServer;
  let down: WebhookServer;
  before(async () => {
    ts = await startTestServer();
    live = await startWebhookServer();
    down = await startWebhookServer();
    for (const policy of ['Fail', 'Ignore']) {
      const p = policy.toLowerCase();
      await namespace(ts, `mutating-${p}`, { down: `mutating-${p}` });
      await namespace(ts, `validating-${p}`, { down: `validating-${p}` });
      await namespace(ts, `slow-${p}`, { slow: p });
      await namespace(ts, `garbage-${p}`, { garbage: p });
      await configuration(ts, 'Mutating', `down-${p}`, [
        hook(`mutating-${p}.example.com`, `${down.url}/mutate`, down.caBundle, { failurePolicy: policy, namespaceSelector: { matchLabels: { down: `mutating-${p}` } } }),
      ]);
      await configuration(ts, 'Validating', `down-${p}`, [
        hook(`validating-${p}.example.com`, `${down.url}/validate`, down.caBundle, { failurePolicy: policy, namespaceSelector: { matchLabels: { down: `validating-${p}` } } }),
        hook(`slow-${p}.example.com`, `${live.url}/slow`, live.caBundle, { failurePolicy: policy, timeoutSeconds: 1, namespaceSelector: { matchLabels: { slow: p } } }),
        hook(`garbage-${p}.example.com`, `${live.url}/garbage`, live.caBundle, { failurePolicy: policy, namespaceSelector: { matchLabels: { garbage: p } } }),
      ]);
    }
    // While the webhook runs, every namespace is served by it.
    await eventually(async () => {
      const res = await ts.request('POST', `${widgetsIn('mutating-ignore')}?dryRun=All`, { body: widget('probe') });
      return res.body?.metadata?.labels?.['admitted-by'] === 'webhook';
    }, 'the mutating webhooks');
    await eventually(async () => (await ts.request('POST', `${widgetsIn('validating-fail')}?dryRun=All`, { body: widget('probe', { replicas: 11 }) })).status === 403, 'the validating webhooks');
    await down.close();
  });
  after(async () => {
    await ts?.close();
    await live?.close();
  });

  const refused = (name: string, path: string) =>
    new RegExp(`^Internal error occurred: failed calling webhook "${name}": failed to call webhook: Post "https://127\\.0\\.0\\.1:\\d+${path}\\?timeout=10s": dial tcp 127\\.0\\.0\\.1:\\d+: connect: connection refused$`);

  it('a stopped mutating webhook: Fail refuses the request (500), Ignore admits it unchanged', async () => {
    const failed = await ts.request('POST', widgetsIn('mutating-fail'), { body: widget('w') });
    assert.equal(failed.status, 500);
    assert.equal(failed.body.reason, 'InternalError');
    assert.match(failed.body.message, refused('mutating-fail.example.com', '/mutate'));
    assert.equal((await ts.request('GET', `${widgetsIn('mutating-fail')}/w`)).status, 404);

    const ignored = await createOk(ts, widgetsIn('mutating-ignore'), widget('w'));
    assert.equal(ignored.body.metadata.labels?.['admitted-by'], undefined);
  });

  it('a stopped validating webhook: Fail refuses the request (500), Ignore admits it', async () => {
    const failed = await ts.request('POST', widgetsIn('validating-fail'), { body: widget('w', { replicas: 20 }) });
    assert.equal(failed.status, 500);
    assert.match(failed.body.message, refused('validating-fail.example.com', '/validate'));
    await createOk(ts, widgetsIn('validating-ignore'), widget('w', { replicas: 20 }));
  });

  it('timeoutSeconds: a webhook slower than its timeout fails (Fail) or is skipped (Ignore) after 1 s', async () => {
    const started = Date.now();
    const [failed, ignored] = await Promise.all([
      ts.request('POST', widgetsIn('slow-fail'), { body: widget('w') }),
      ts.request('POST', widgetsIn('slow-ignore'), { body: widget('w') }),
    ]);
    const elapsed = Date.now() - started;
    assert.equal(failed.status, 500);
    assert.match(failed.body.message, /^Internal error occurred: failed calling webhook "slow-fail\.example\.com": failed to call webhook: Post "https:\/\/127\.0\.0\.1:\d+\/slow\?timeout=1s": context deadline exceeded$/);
    assert.equal(ignored.status, 201, ignored.text);
    // Both ended at the 1 s deadline, not by the webhook's answer (3 s): it never answered (its
    // caller had gone). Proved by the event, not by an upper bound on elapsed time (which fails on
    // a loaded machine); a lower bound holds on any machine.
    assert.equal(live.reviews.filter((r) => r.path === '/slow').length, 2);
    assert.deepEqual(live.answered.filter((path) => path === '/slow'), []);
    assert.ok(elapsed >= 900, `answered after ${elapsed} ms`);
  });

  it('an answer that is not an AdmissionReview is a call failure', async () => {
    const failed = await ts.request('POST', widgetsIn('garbage-fail'), { body: widget('w') });
    assert.equal(failed.status, 500);
    assert.equal(
      failed.body.message,
      'Internal error occurred: failed calling webhook "garbage-fail.example.com": received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got , Kind=Nonsense',
    );
    await createOk(ts, widgetsIn('garbage-ignore'), widget('w'));
  });
});
