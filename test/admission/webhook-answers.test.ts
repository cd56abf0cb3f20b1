/**
 * A mutating webhook's odd answers get kube-apiserver's status (mutating/dispatcher.go,
 * callAttrMutatingHook and its dispatch loop), never a bare 500 of kgen's own:
 * - an answer that is not a valid AdmissionResponse (uid, patchType, a patch that is not a JSON
 *   array) is ErrCallingWebhook: 500 InternalError `failed calling webhook` under failurePolicy
 *   Fail, ignored under Ignore;
 * - a patch that does not apply or does not decode is apierrors.NewInternalError, whatever the
 *   failure policy (it is not a call failure);
 * - a custom resource patched to another kind of its group decodes (unstructured), and the
 *   custom resource validator refuses it: 422 `kind: Invalid value: "Other": must be Thing`.
 * The webhook here answers whatever the test's `answer` returns.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';
import { startTestServer, widget, WIDGETS, type TestServer } from '../server/testserver.js';

const ca = newCA('answers-webhook-ca');
const serving = newSignedCertificate(ca, { commonName: 'webhook', usage: 'server', hosts: ['127.0.0.1'] });
const THINGS = '/apis/example.com/v1/namespaces/default/things';

type Review = { request: { uid: string } };
let ts: TestServer;
let hook: Server;
/** The webhook's response for the next requests; by default allowed, unchanged. */
let answer: (review: Review) => Record<string, unknown>;
const allowed = (review: Review) => ({ uid: review.request.uid, allowed: true });
const patching = (ops: unknown) => (review: Review) => ({ ...allowed(review), patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });

before(async () => {
  hook = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Review;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: answer(review) }));
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(hook.address() as AddressInfo).port}/`;
  ts = await startTestServer();
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'things.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
    },
  };
  assert.equal((await ts.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd })).status, 201);
  const rule = { operations: ['CREATE', 'UPDATE', 'DELETE'], apiGroups: ['widgets.example.com', 'example.com'], apiVersions: ['v1'], resources: ['widgets', 'things'] };
  const webhook = (policy: string) => ({
    name: `${policy.toLowerCase()}.example.com`,
    clientConfig: { url, caBundle: Buffer.from(ca.cert).toString('base64') },
    rules: [rule],
    failurePolicy: policy,
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    objectSelector: { matchLabels: { hooked: policy } },
  });
  const config = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'answers' }, webhooks: [webhook('Fail'), webhook('Ignore')] };
  assert.equal((await ts.request('POST', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', { body: config })).status, 201);
  answer = patching([{ op: 'add', path: '/metadata/labels/seen', value: 'yes' }]);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const w = await ts.request('POST', `${WIDGETS}?dryRun=All`, { body: widget('probe', { replicas: 1 }, { metadata: { labels: { hooked: 'Fail' } } }) });
    const t = await ts.request('POST', `${THINGS}?dryRun=All`, { body: thing('probe', 'Fail') });
    if (w.body?.metadata?.labels?.seen === 'yes' && t.body?.metadata?.labels?.seen === 'yes') break;
    if (Date.now() > deadline) throw new Error(`the mutating webhook never applied: ${w.status} ${t.status} ${t.text}`);
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
  answer = allowed;
});

function thing(name: string, policy = 'Fail') {
  return { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name, labels: { hooked: policy } }, spec: { size: 1 } };
}

function hookedWidget(name: string, policy = 'Fail') {
  return widget(name, { replicas: 1 }, { metadata: { labels: { hooked: policy } } });
}

/** A 500 InternalError Status whose message matches, and nothing stored under path/name. */
async function internalError(path: string, body: { metadata: { name: string } }, message: RegExp) {
  const res = await ts.request('POST', path, { body });
  assert.equal(res.status, 500, res.text);
  assert.equal(res.body.kind, 'Status');
  assert.equal(res.body.reason, 'InternalError');
  assert.match(res.body.message, message);
  assert.equal((await ts.request('GET', `${path}/${body.metadata.name}`)).status, 404);
}

describe('a patch that changes the kind or apiVersion', () => {
  it('custom resource, another kind of its group: 422 from the custom resource validator, nothing stored', async () => {
    answer = patching([{ op: 'replace', path: '/kind', value: 'Other' }]);
    const res = await ts.request('POST', THINGS, { body: thing('t-kind') });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.reason, 'Invalid');
    // kube's rest.BeforeCreate names the kind its typer reads from the object: the patched one.
    assert.equal(res.body.message, 'Other.example.com "t-kind" is invalid: kind: Invalid value: "Other": must be Thing');
    assert.equal(res.body.details.kind, 'Other');
    assert.deepEqual(res.body.details.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: "Other": must be Thing', field: 'kind' }]);
    assert.equal((await ts.request('GET', `${THINGS}/t-kind`)).status, 404);
  });

  it('custom resource, update to another kind: 422, the object unchanged', async () => {
    assert.equal((await ts.request('POST', THINGS, { body: thing('t-kind-u') })).status, 201);
    answer = patching([{ op: 'replace', path: '/kind', value: 'Other' }]);
    const res = await ts.request('PATCH', `${THINGS}/t-kind-u`, { body: { spec: { size: 2 } }, contentType: 'application/merge-patch+json' });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.message, 'Other.example.com "t-kind-u" is invalid: kind: Invalid value: "Other": must be Thing');
    assert.equal((await ts.request('GET', `${THINGS}/t-kind-u`)).body.spec.size, 1);
  });

  it('custom resource, a delete the webhook sees (no object): deleted', async () => {
    assert.equal((await ts.request('POST', THINGS, { body: thing('t-delete') })).status, 201);
    const res = await ts.request('DELETE', `${THINGS}/t-delete`);
    assert.equal(res.status, 200, res.text);
  });

  it('custom resource, another group: 500 (kube\'s converter cannot convert it back)', async () => {
    answer = patching([{ op: 'replace', path: '/apiVersion', value: 'other.example.com/v1' }]);
    await internalError(THINGS, thing('t-group'), /other\.example\.com\/v1, Kind=Thing is unstructured and is not suitable for converting to "example\.com\/v1"/);
  });

  it('custom resource, kind removed: 500 (the unstructured decoder needs a kind)', async () => {
    answer = patching([{ op: 'remove', path: '/kind' }]);
    await internalError(THINGS, thing('t-nokind'), /Object 'Kind' is missing/);
  });

  it('compiled kind, kind and apiVersion removed: defaulted from the type, as kube\'s typed decode does', async () => {
    answer = patching([{ op: 'remove', path: '/kind' }, { op: 'remove', path: '/apiVersion' }]);
    const res = await ts.request('POST', WIDGETS, { body: hookedWidget('w-nokind') });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.kind, 'Widget');
    assert.equal((await ts.request('GET', `${WIDGETS}/w-nokind`)).body.apiVersion, 'widgets.example.com/v1');
  });

  it('compiled kind, a kind its version does not register: 500 with the decoder\'s message', async () => {
    answer = patching([{ op: 'replace', path: '/kind', value: 'Nothing' }]);
    await internalError(WIDGETS, hookedWidget('w-kind'), /no kind "Nothing" is registered for version "widgets\.example\.com\/v1"/);
  });
});

describe('an answer that is not a valid AdmissionResponse: failed calling webhook', () => {
  const cases: [string, (r: Review) => Record<string, unknown>, RegExp][] = [
    [
      'a patch that is not a JSON array',
      (r) => ({ ...allowed(r), patchType: 'JSONPatch', patch: Buffer.from('{"op":"add"}').toString('base64') }),
      /received undecodable patch in webhook response: json: cannot unmarshal object into Go value of type jsonpatch\.Patch$/,
    ],
    ['patchType missing', (r) => ({ ...allowed(r), patch: Buffer.from('[]').toString('base64') }), /received invalid webhook response: webhook returned response\.patch but not response\.patchType$/],
    ['another uid', (r) => ({ ...allowed(r), uid: 'not-the-uid' }), /received invalid webhook response: expected response\.uid="[-0-9a-f]+", got "not-the-uid"$/],
  ];
  for (const [what, respond, message] of cases) {
    it(`${what}: 500 under Fail, ignored under Ignore`, async () => {
      answer = respond;
      const name = what.replace(/[^a-z]+/g, '-').replace(/-$/, '');
      await internalError(THINGS, thing(`${name}-f`), new RegExp(`failed calling webhook "fail\\.example\\.com": ${message.source}`));
      assert.equal((await ts.request('POST', THINGS, { body: thing(`${name}-i`, 'Ignore') })).status, 201);
    });
  }
});

it('a patch of JSON null is no operations, as jsonpatch.DecodePatch reads it', async () => {
  answer = (r) => ({ ...allowed(r), patchType: 'JSONPatch', patch: Buffer.from('null').toString('base64') });
  const res = await ts.request('POST', THINGS, { body: thing('null-patch') });
  assert.equal(res.status, 201, res.text);
});

describe('a patch that does not apply or does not decode: 500 whatever the failure policy', () => {
  it('an op on a path that does not exist', async () => {
    answer = patching([{ op: 'replace', path: '/spec/nothere', value: 1 }]);
    await internalError(THINGS, thing('p-missing'), /nothere/);
    await internalError(THINGS, thing('p-missing-i', 'Ignore'), /nothere/);
  });

  it('a custom resource patched to a type its schema refuses: 422 from validation', async () => {
    answer = patching([{ op: 'replace', path: '/spec/size', value: 'big' }]);
    const res = await ts.request('POST', THINGS, { body: thing('p-type') });
    assert.equal(res.status, 422, res.text);
    assert.match(res.body.message, /spec\.size: Invalid value: "string": spec\.size in body must be of type integer/);
  });
});
