/**
 * A mutating webhook's patch that sets apiVersion to another version of the same group: kube's
 * dispatcher (admission/plugin/webhook/mutating/dispatcher.go) decodes the patched JSON with the
 * request's scheme and the generic dispatcher converts it back (runtime.Convert), so the write
 * succeeds in the request's version:
 * - a compiled kind: any version that registers the kind (the bundled Widget: v1 and v1beta1,
 *   whose spec.size is v1's spec.replicas);
 * - a custom resource: any version the CRD lists (crConverter's validVersions), through its
 *   conversion, None (apiVersion only) or Webhook.
 * The patched object is defaulted in the version the patch gave it before it is converted back
 * (kube's Default(newVersionedObject)). A version the kind does not have stays kube's 500. One server over generated/ (the bundled
 * two-version Widget), two CRDs, one admission webhook, one conversion webhook.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';
import { startServer, type RunningServer } from '../../runtime/controlplane/index.js';
import { loadGenerated } from '../../runtime/controlplane/load-generated.js';
import { APIEnablement, parseRuntimeConfig } from '../../runtime/server/api-enablement.js';
import { APIInstaller } from '../../runtime/server/installer.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { startConversionWebhook, type ConversionWebhookServer } from '../apiextensions/conversion-webhook-server.js';

const GENERATED = join(import.meta.dirname, '../../generated');
const ca = newCA('versions-webhook-ca');
const serving = newSignedCertificate(ca, { commonName: 'webhook', usage: 'server', hosts: ['127.0.0.1'] });
const WIDGETS = (v: string) => `/apis/widgets.example.com/${v}/namespaces/default/widgets`;
const THINGS = (v: string) => `/apis/multi.example.com/${v}/namespaces/default/things`;
const GIZMOS = (v: string) => `/apis/conv.example.com/${v}/namespaces/default/gizmos`;

type Review = { request: { uid: string } };
let server: RunningServer;
let hook: Server;
let conversion: ConversionWebhookServer;
let answer: (review: Review) => Record<string, unknown>;
const allowed = (review: Review) => ({ uid: review.request.uid, allowed: true });
const patching = (ops: unknown) => (review: Review) => ({ ...allowed(review), patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });
const toVersion = (apiVersion: string, spec: unknown) =>
  patching([
    { op: 'replace', path: '/apiVersion', value: apiVersion },
    { op: 'replace', path: '/spec', value: spec },
  ]);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; text: string }> {
  const res = await fetch(server.url + path, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}

/** Two versions, v1 storing: spec's integer field of each, and spec.color whose default each version names (none when absent). */
function crd(group: string, plural: string, kind: string, fields: [string, string], strategy: Record<string, unknown>, colors: [string?, string?] = []) {
  const color = (c?: string) => ({ type: 'string', ...(c ? { default: c } : {}) });
  const schema = (field: string, c?: string) => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { [field]: { type: 'integer' }, color: color(c) } } } } });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind },
      versions: [
        { name: 'v1', served: true, storage: true, schema: schema(fields[0], colors[0]) },
        { name: 'v2', served: true, storage: false, schema: schema(fields[1], colors[1]) },
      ],
      conversion: strategy,
    },
  };
}

const object = (apiVersion: string, kind: string, name: string, spec: Record<string, unknown>) => ({ apiVersion, kind, metadata: { name, labels: { hooked: 'yes' } }, spec });

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
  conversion = await startConversionWebhook();
  server = await startServer({ generatedDir: GENERATED, storage: 'memory:', port: 0, insecureDevMode: true });
  const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
  assert.equal((await request('POST', crds, crd('multi.example.com', 'things', 'Thing', ['size', 'size'], { strategy: 'None' }, ['red', 'blue']))).status, 201);
  const webhookConversion = { strategy: 'Webhook', webhook: { clientConfig: { url: `${conversion.url}/convert`, caBundle: conversion.caBundle }, conversionReviewVersions: ['v1'] } };
  assert.equal((await request('POST', crds, crd('conv.example.com', 'gizmos', 'Gizmo', ['size', 'replicas'], webhookConversion))).status, 201);
  const webhook = {
    name: 'versions.example.com',
    clientConfig: { url: `https://127.0.0.1:${(hook.address() as AddressInfo).port}/`, caBundle: Buffer.from(ca.cert).toString('base64') },
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['widgets.example.com', 'multi.example.com', 'conv.example.com'], apiVersions: ['*'], resources: ['widgets', 'things', 'gizmos'] }],
    failurePolicy: 'Fail',
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    objectSelector: { matchLabels: { hooked: 'yes' } },
  };
  const config = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'versions' }, webhooks: [webhook] };
  assert.equal((await request('POST', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', config)).status, 201);
  // The webhook and both CRDs are in effect once a dry run of each comes back labelled.
  answer = patching([{ op: 'add', path: '/metadata/labels/seen', value: 'yes' }]);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const replies = await Promise.all([
      request('POST', `${WIDGETS('v1')}?dryRun=All`, object('widgets.example.com/v1', 'Widget', 'probe', { replicas: 1 })),
      request('POST', `${THINGS('v1')}?dryRun=All`, object('multi.example.com/v1', 'Thing', 'probe', { size: 1 })),
      request('POST', `${GIZMOS('v1')}?dryRun=All`, object('conv.example.com/v1', 'Gizmo', 'probe', { size: 1 })),
    ]);
    if (replies.every((r) => r.body?.metadata?.labels?.seen === 'yes')) break;
    if (Date.now() > deadline) throw new Error(`the mutating webhook never applied: ${replies.map((r) => `${r.status} ${r.text}`).join('; ')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
});

after(async () => {
  await server?.close();
  await conversion?.close();
  await new Promise<void>((resolve) => {
    hook?.close(() => resolve());
    hook?.closeAllConnections();
  });
});

beforeEach(() => {
  answer = allowed;
});

/** A 500 InternalError Status whose message matches, and nothing stored. */
async function internalError(path: string, body: { metadata: { name: string } }, message: RegExp) {
  const res = await request('POST', path, body);
  assert.equal(res.status, 500, res.text);
  assert.equal(res.body.kind, 'Status');
  assert.equal(res.body.reason, 'InternalError');
  assert.match(res.body.message, message);
  assert.equal((await request('GET', `${path}/${body.metadata.name}`)).status, 404);
}

describe('compiled kind', () => {
  it('a v1 create patched to v1beta1 is converted back to v1', async () => {
    answer = toVersion('widgets.example.com/v1beta1', { size: 4, color: 'green' });
    const res = await request('POST', WIDGETS('v1'), object('widgets.example.com/v1', 'Widget', 'w-beta', { replicas: 1 }));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.apiVersion, 'widgets.example.com/v1');
    assert.equal(res.body.spec.replicas, 4);
    assert.equal(res.body.spec.color, 'green');
    assert.equal((await request('GET', `${WIDGETS('v1beta1')}/w-beta`)).body.spec.size, 4);
  });

  it('a v1beta1 update patched to v1 is converted back to v1beta1', async () => {
    assert.equal((await request('POST', WIDGETS('v1beta1'), object('widgets.example.com/v1beta1', 'Widget', 'w-v1', { size: 1 }))).status, 201);
    answer = toVersion('widgets.example.com/v1', { replicas: 6 });
    const current = (await request('GET', `${WIDGETS('v1beta1')}/w-v1`)).body;
    const res = await request('PUT', `${WIDGETS('v1beta1')}/w-v1`, { ...current, spec: { size: 2 } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.apiVersion, 'widgets.example.com/v1beta1');
    assert.equal(res.body.spec.size, 6);
  });

  it('the scheme\'s defaulter defaults an object in its own version of the kind, a disabled version too', async () => {
    // kube's ObjectDefaulter behind Default(newVersionedObject): v1beta1 names v1's replicas `size`.
    const installer = new APIInstaller({ generatedDir: GENERATED, storage: new MemoryStorage(), watchCache: false, enablement: new APIEnablement(parseRuntimeConfig(['widgets.example.com/v1beta1=false'])) });
    (await loadGenerated(GENERATED)).installAll(installer);
    const defaulter = installer.lookup('widgets.example.com', 'v1', 'widgets')?.versionDefaulter;
    assert.ok(defaulter, 'the compiled kind has a defaulter');
    const beta = { apiVersion: 'widgets.example.com/v1beta1', kind: 'Widget', metadata: { name: 'b' }, spec: {} as Record<string, unknown> };
    defaulter(beta);
    assert.deepEqual(beta.spec, { size: 1, color: 'red' });
    const v1 = { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'a' }, spec: {} as Record<string, unknown> };
    defaulter(v1);
    assert.deepEqual(v1.spec, { replicas: 1, color: 'red' });
    const other = { apiVersion: 'widgets.example.com/v9', kind: 'Widget', metadata: { name: 'c' }, spec: {} };
    defaulter(other);
    assert.deepEqual(other.spec, {}, 'a version that does not register the kind is left alone');
  });

  it('a version that does not register the kind: 500 with the decoder\'s message', async () => {
    answer = toVersion('widgets.example.com/v9', { replicas: 1 });
    await internalError(WIDGETS('v1'), object('widgets.example.com/v1', 'Widget', 'w-v9', { replicas: 1 }), /no kind "Widget" is registered for version "widgets\.example\.com\/v9"/);
  });
});

describe('custom resource', () => {
  it('None: a v1 create patched to v2 is stored and answered in v1', async () => {
    answer = toVersion('multi.example.com/v2', { size: 3 });
    const res = await request('POST', THINGS('v1'), object('multi.example.com/v1', 'Thing', 't-v2', { size: 1 }));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.apiVersion, 'multi.example.com/v1');
    assert.equal(res.body.spec.size, 3);
    assert.equal((await request('GET', `${THINGS('v2')}/t-v2`)).body.spec.size, 3);
  });

  it('None: the patched object gets the defaults of the version the patch gave it, before it is converted back', async () => {
    // kube's callAttrMutatingHook: Default(newVersionedObject) in v2 (color blue), then the conversion to v1.
    answer = toVersion('multi.example.com/v2', { size: 2 });
    const res = await request('POST', THINGS('v1'), object('multi.example.com/v1', 'Thing', 't-default-v2', { size: 1 }));
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.spec, { size: 2, color: 'blue' });
    answer = toVersion('multi.example.com/v1', { size: 2 });
    const back = await request('POST', THINGS('v2'), object('multi.example.com/v2', 'Thing', 't-default-v1', { size: 1 }));
    assert.equal(back.status, 201, back.text);
    assert.deepEqual(back.body.spec, { size: 2, color: 'red' });
  });

  it('None: a version the CRD does not list: 500 from the CR converter', async () => {
    answer = toVersion('multi.example.com/v3', { size: 1 });
    await internalError(THINGS('v1'), object('multi.example.com/v1', 'Thing', 't-v3', { size: 1 }), /request to convert CR from an invalid group\/version: multi\.example\.com\/v3/);
  });

  it('None: another version and another kind: converted, then refused by the custom resource validator (422)', async () => {
    answer = patching([
      { op: 'replace', path: '/apiVersion', value: 'multi.example.com/v2' },
      { op: 'replace', path: '/kind', value: 'Other' },
    ]);
    const res = await request('POST', THINGS('v1'), object('multi.example.com/v1', 'Thing', 't-other', { size: 1 }));
    assert.equal(res.status, 422, res.text);
    assert.match(res.body.message, /kind: Invalid value: "Other": must be Thing/);
  });

  it('Webhook: a v2 create patched to v1 goes through the conversion webhook back to v2', async () => {
    answer = toVersion('conv.example.com/v1', { size: 7 });
    const res = await request('POST', GIZMOS('v2'), object('conv.example.com/v2', 'Gizmo', 'g-v1', { replicas: 1 }));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.apiVersion, 'conv.example.com/v2');
    assert.equal(res.body.spec.replicas, 7);
    assert.equal((await request('GET', `${GIZMOS('v1')}/g-v1`)).body.spec.size, 7);
  });
});
