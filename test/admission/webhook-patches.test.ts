/**
 * What a mutating webhook's JSONPatch may change, as kube-apiserver decides it: the patched
 * object goes through the strategy (PrepareForCreate/PrepareForUpdate), validation and validating
 * admission again, so a patch cannot store what the client could not (a value the schema
 * refuses, a new name, namespace, uid or kind (webhook-answers.test.ts has the rest of kind), a status through the main resource or a spec
 * through …/status). The webhook here answers whatever patch the test sets.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';
import { startTestServer, widget, WIDGETS, type TestServer } from '../server/testserver.js';

const ca = newCA('patch-webhook-ca');
const serving = newSignedCertificate(ca, { commonName: 'webhook', usage: 'server', hosts: ['127.0.0.1'] });

let ts: TestServer;
let hook: Server;
/** The JSONPatch the webhook answers for the next requests (none: allowed unchanged). */
let patch: unknown[] | undefined;
let port = 0;

before(async () => {
  hook = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const response: Record<string, unknown> = { uid: review.request.uid, allowed: true };
      if (patch) Object.assign(response, { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  port = (hook.address() as AddressInfo).port;
  ts = await startTestServer();
  const rule = { operations: ['CREATE', 'UPDATE'], apiGroups: ['widgets.example.com'], apiVersions: ['v1'], resources: ['widgets', 'widgets/status'] };
  const webhooks = [{ name: 'patch.example.com', clientConfig: { url: `https://127.0.0.1:${port}/`, caBundle: Buffer.from(ca.cert).toString('base64') }, rules: [rule], sideEffects: 'None', admissionReviewVersions: ['v1'], objectSelector: { matchLabels: { hooked: 'yes' } } }];
  const config = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'patches' }, webhooks };
  assert.equal((await ts.request('POST', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', { body: config })).status, 201);
  patch = [{ op: 'add', path: '/metadata/labels/seen', value: 'yes' }];
  const deadline = Date.now() + 5000;
  for (;;) {
    const probe = await ts.request('POST', `${WIDGETS}?dryRun=All`, { body: hooked('probe') });
    if (probe.body?.metadata?.labels?.seen === 'yes') break;
    if (Date.now() > deadline) throw new Error('the mutating webhook never applied');
    await new Promise((r) => setTimeout(r, 20));
  }
});

after(async () => {
  await ts?.close();
  await new Promise<void>((resolve) => {
    hook?.close(() => resolve());
    hook?.closeAllConnections();
  });
});

beforeEach(() => {
  patch = undefined;
});

function hooked(name: string, spec: Record<string, unknown> = { replicas: 1 }) {
  return widget(name, spec, { metadata: { labels: { hooked: 'yes' } } });
}

async function stored(name: string) {
  return ts.request('GET', `${WIDGETS}/${name}`);
}

describe('a mutating webhook\'s patch is validated as the client\'s body is', () => {
  it('create: a value the schema refuses is 422, nothing stored', async () => {
    patch = [{ op: 'replace', path: '/spec/replicas', value: 500 }];
    const res = await ts.request('POST', WIDGETS, { body: hooked('c-invalid') });
    assert.equal(res.status, 422, res.text);
    assert.equal((await stored('c-invalid')).status, 404);
  });

  it('update: a value the schema refuses is 422, the object unchanged', async () => {
    assert.equal((await ts.request('POST', WIDGETS, { body: hooked('u-invalid') })).status, 201);
    patch = [{ op: 'replace', path: '/spec/replicas', value: 500 }];
    const res = await ts.request('PATCH', `${WIDGETS}/u-invalid`, { body: { spec: { replicas: 2 } }, contentType: 'application/merge-patch+json' });
    assert.equal(res.status, 422, res.text);
    assert.equal((await stored('u-invalid')).body.spec.replicas, 1);
  });

  it('create: another namespace is refused, nothing stored in either', async () => {
    await ts.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'elsewhere' } } });
    patch = [{ op: 'replace', path: '/metadata/namespace', value: 'elsewhere' }];
    const res = await ts.request('POST', WIDGETS, { body: hooked('c-ns') });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.message, 'the namespace of the provided object does not match the namespace sent on the request');
    assert.equal((await stored('c-ns')).status, 404);
    assert.equal((await ts.request('GET', '/apis/widgets.example.com/v1/namespaces/elsewhere/widgets/c-ns')).status, 404);
  });

  it('create: another kind is refused (500, as kube\'s typed decode and conversion back refuse it), nothing stored', async () => {
    patch = [{ op: 'replace', path: '/kind', value: 'Gadget' }];
    const res = await ts.request('POST', WIDGETS, { body: hooked('c-kind') });
    assert.equal(res.status, 500, res.text);
    assert.equal(res.body.reason, 'InternalError');
    assert.equal((await stored('c-kind')).status, 404);
  });

  it('update: a new name is 422 (immutable), neither object written', async () => {
    assert.equal((await ts.request('POST', WIDGETS, { body: hooked('u-name') })).status, 201);
    assert.equal((await ts.request('POST', WIDGETS, { body: widget('u-victim', { replicas: 7 }) })).status, 201);
    patch = [{ op: 'replace', path: '/metadata/name', value: 'u-victim' }];
    const res = await ts.request('PATCH', `${WIDGETS}/u-name`, { body: { spec: { replicas: 3 } }, contentType: 'application/merge-patch+json' });
    assert.equal(res.status, 422, res.text);
    assert.match(res.body.message, /metadata\.name: Invalid value: "u-victim": field is immutable/);
    assert.equal((await stored('u-name')).body.spec.replicas, 1);
    assert.equal((await stored('u-victim')).body.spec.replicas, 7);
  });

  it('update: a new uid is 422 (immutable)', async () => {
    assert.equal((await ts.request('POST', WIDGETS, { body: hooked('u-uid') })).status, 201);
    patch = [{ op: 'replace', path: '/metadata/uid', value: '00000000-0000-0000-0000-000000000000' }];
    const res = await ts.request('PATCH', `${WIDGETS}/u-uid`, { body: { spec: { replicas: 3 } }, contentType: 'application/merge-patch+json' });
    assert.equal(res.status, 422, res.text);
    assert.match(res.body.message, /metadata\.uid: Invalid value: "00000000-0000-0000-0000-000000000000": field is immutable/);
  });

  it('update: another namespace is refused', async () => {
    assert.equal((await ts.request('POST', WIDGETS, { body: hooked('u-ns') })).status, 201);
    patch = [{ op: 'replace', path: '/metadata/namespace', value: 'elsewhere' }];
    const res = await ts.request('PATCH', `${WIDGETS}/u-ns`, { body: { spec: { replicas: 3 } }, contentType: 'application/merge-patch+json' });
    assert.equal(res.status, 400, res.text);
    assert.equal((await ts.request('GET', '/apis/widgets.example.com/v1/namespaces/elsewhere/widgets/u-ns')).status, 404);
  });

  it('update of the main resource: a status the patch sets is dropped', async () => {
    assert.equal((await ts.request('POST', WIDGETS, { body: hooked('u-status') })).status, 201);
    patch = [{ op: 'add', path: '/status', value: { replicas: 42 } }];
    const res = await ts.request('PATCH', `${WIDGETS}/u-status`, { body: { spec: { replicas: 3 } }, contentType: 'application/merge-patch+json' });
    assert.equal(res.status, 200, res.text);
    const now = (await stored('u-status')).body;
    assert.equal(now.spec.replicas, 3);
    assert.equal(now.status, undefined);
  });

  it('create: a status the patch sets is dropped', async () => {
    patch = [{ op: 'add', path: '/status', value: { replicas: 42 } }];
    const res = await ts.request('POST', WIDGETS, { body: hooked('c-status') });
    assert.equal(res.status, 201, res.text);
    assert.equal((await stored('c-status')).body.status, undefined);
  });

  it('update of …/status: a spec the patch sets is dropped', async () => {
    assert.equal((await ts.request('POST', WIDGETS, { body: hooked('s-spec') })).status, 201);
    patch = [{ op: 'replace', path: '/spec/replicas', value: 9 }];
    const res = await ts.request('PATCH', `${WIDGETS}/s-spec/status`, { body: { status: { replicas: 2 } }, contentType: 'application/merge-patch+json' });
    assert.equal(res.status, 200, res.text);
    const now = (await stored('s-spec')).body;
    assert.equal(now.spec.replicas, 1);
    assert.equal(now.status.replicas, 2);
  });
});
