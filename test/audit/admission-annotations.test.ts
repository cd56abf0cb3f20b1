/**
 * Admission's audit annotations reach the audit event with kube's levels
 * (admission/plugin/webhook/mutating/dispatcher.go, validating/dispatcher.go, admission/audit.go):
 *
 *   mutation.webhook.admission.k8s.io/round_N_index_M         Metadata and above
 *   patch.webhook.admission.k8s.io/round_N_index_M            Request and above only (AddAnnotationWithLevel)
 *   failed-open.mutation.webhook.admission.k8s.io/…           Metadata and above
 *   failed-open.validating.webhook.admission.k8s.io/…         Metadata and above
 *   <webhook name>/<key>                                      a webhook's own auditAnnotations
 *
 * A patch a webhook makes to a Secret is recorded with its values redacted (kgen's promise that
 * Secret data never reaches the audit log).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AuditEvent } from '../../runtime/audit/index.js';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';
import { startTestServer, widget, type TestServer } from '../server/testserver.js';

const SECRET_VALUE = 'c2VjcmV0LWZyb20td2ViaG9vaw=='; // base64 of secret-from-webhook
const POLICY = `
apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: Metadata
    namespaces: [meta]
  - level: Request
    namespaces: [req]
  - level: RequestResponse
    namespaces: [full]
  - level: None
`;

/** Webhook audit annotation keys kube's checkKeyFormat refuses once prefixed with the webhook's name. */
const BAD_KEYS: Record<string, string> = {
  '': 'empty',
  'has space': 'x',
  'a/b': 'a second slash',
  '../authorization.k8s.io/reason': 'climbs',
  'line\nbreak': 'x',
  ['k'.repeat(64)]: 'too long',
  '-dash': 'x',
};

const ca = newCA('annotations-webhook-ca');
const serving = newSignedCertificate(ca, { commonName: 'webhook', usage: 'server', hosts: ['127.0.0.1'] });
const caBundle = Buffer.from(ca.cert).toString('base64');

describe('audit: admission annotations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kgen-audit-admission-'));
  const logPath = join(dir, 'audit.log');
  let ts: TestServer;
  let hook: Server;
  let events: AuditEvent[] = [];
  const ids: Record<string, string> = {};

  before(async () => {
    hook = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const secret = review.request.resource.resource === 'secrets';
        const patch = secret ? [{ op: 'add', path: '/data/token', value: SECRET_VALUE }] : [{ op: 'add', path: '/metadata/labels', value: { seen: 'yes' } }];
        // The webhook named authorization.k8s.io tries to plant the authorizer's annotations.
        // The patching webhook also sends keys that are not qualified names once prefixed: kube drops them.
        const auditAnnotations = req.url?.startsWith('/plant') ? { decision: 'forbid', reason: 'planted by a webhook' } : { checked: 'yes', ...BAD_KEYS };
        const response = req.url?.startsWith('/plant') ? { uid: review.request.uid, allowed: true, auditAnnotations } : { uid: review.request.uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64'), auditAnnotations };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(hook.address() as AddressInfo).port}/`;
    const policyFile = join(dir, 'policy.yaml');
    writeFileSync(policyFile, POLICY);
    ts = await startTestServer({ dataDir: join(dir, 'data'), audit: { policyFile, logPath } });
    const rules = [
      { operations: ['CREATE'], apiGroups: ['widgets.example.com'], apiVersions: ['v1'], resources: ['widgets'] },
      { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] },
    ];
    const common = { rules, sideEffects: 'None', admissionReviewVersions: ['v1'], namespaceSelector: { matchLabels: { audited: 'yes' } } };
    const closed = { url: 'https://127.0.0.1:1/', caBundle };
    const mutating = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'annotate' },
      webhooks: [
        { ...common, name: 'patch.example.com', clientConfig: { url, caBundle } },
        { ...common, name: 'gone.example.com', clientConfig: closed, failurePolicy: 'Ignore' },
      ],
    };
    const validating = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'annotate' },
      webhooks: [
        { ...common, name: 'gone-too.example.com', clientConfig: closed, failurePolicy: 'Ignore' },
        { ...common, name: 'authorization.k8s.io', clientConfig: { url: `${url}plant`, caBundle } },
      ],
    };
    assert.equal((await ts.request('POST', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', { body: mutating })).status, 201);
    assert.equal((await ts.request('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', { body: validating })).status, 201);
    for (const ns of ['meta', 'req', 'full', 'probe']) {
      const created = await ts.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { audited: 'yes' } } } });
      assert.equal(created.status, 201, created.text);
    }
    // The webhook configuration reaches admission shortly after it is stored.
    const deadline = Date.now() + 5000;
    for (;;) {
      const probe = await ts.request('POST', '/apis/widgets.example.com/v1/namespaces/probe/widgets?dryRun=All', { body: widget('probe') });
      if (probe.body?.metadata?.labels?.seen === 'yes') break;
      if (Date.now() > deadline) throw new Error(`the mutating webhook never applied: ${probe.text}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const ns of ['meta', 'req', 'full']) {
      const w = await ts.request('POST', `/apis/widgets.example.com/v1/namespaces/${ns}/widgets`, { body: widget('w1') });
      assert.equal(w.status, 201, w.text);
      ids[`widget-${ns}`] = w.headers.get('audit-id') ?? '';
      const s = await ts.request('POST', `/api/v1/namespaces/${ns}/secrets`, { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, data: {} } });
      assert.equal(s.status, 201, s.text);
      assert.equal(s.body.data.token, SECRET_VALUE);
      ids[`secret-${ns}`] = s.headers.get('audit-id') ?? '';
    }
    await ts.close();
    events = readFileSync(logPath, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditEvent);
  });

  after(async () => {
    await ts?.close();
    await new Promise<void>((resolve) => {
      hook?.close(() => resolve());
      hook?.closeAllConnections();
    });
    rmSync(dir, { recursive: true, force: true });
  });

  const completed = (name: string): AuditEvent => {
    assert.match(ids[name], /^[0-9a-f-]{36}$/);
    const event = events.find((e) => e.auditID === ids[name] && e.stage === 'ResponseComplete');
    assert.ok(event, `${name}: no ResponseComplete event`);
    return event;
  };

  const MUTATION = 'mutation.webhook.admission.k8s.io/round_0_index_0';
  const PATCH = 'patch.webhook.admission.k8s.io/round_0_index_0';

  it('Metadata: the mutation, failed-open and webhook annotations, never the patch', () => {
    const a = completed('widget-meta').annotations ?? {};
    assert.deepEqual(JSON.parse(a[MUTATION]!), { configuration: 'annotate', webhook: 'patch.example.com', mutated: true });
    assert.deepEqual(JSON.parse(a['mutation.webhook.admission.k8s.io/round_0_index_1']!), { configuration: 'annotate', webhook: 'gone.example.com', mutated: false });
    assert.equal(a['failed-open.mutation.webhook.admission.k8s.io/round_0_index_1'], 'gone.example.com');
    assert.equal(a['failed-open.validating.webhook.admission.k8s.io/round_0_index_0'], 'gone-too.example.com');
    assert.equal(a['patch.example.com/checked'], 'yes');
    assert.equal(a[PATCH], undefined);
    assert.equal(a['authorization.k8s.io/decision'], 'allow');
  });

  it("a webhook's audit annotation keys must be qualified names once prefixed with its name (kube's checkKeyFormat)", () => {
    for (const name of ['widget-meta', 'widget-full']) {
      const a = completed(name).annotations ?? {};
      assert.equal(a['patch.example.com/checked'], 'yes', name);
      const dropped = Object.keys(a).filter((k) => k.startsWith('patch.example.com/') && k !== 'patch.example.com/checked');
      assert.deepEqual(dropped, [], `${name}: no key that is not a qualified name`);
    }
  });

  it('a webhook\'s audit annotations never replace one already recorded (kube keeps the first value)', () => {
    for (const name of ['widget-meta', 'secret-req']) {
      const a = completed(name).annotations ?? {};
      assert.equal(a['authorization.k8s.io/decision'], 'allow');
      assert.notEqual(a['authorization.k8s.io/reason'], 'planted by a webhook', name);
    }
  });

  for (const level of ['req', 'full']) {
    it(`${level === 'req' ? 'Request' : 'RequestResponse'}: the patch too, as the webhook sent it`, () => {
      const a = completed(`widget-${level}`).annotations ?? {};
      assert.deepEqual(JSON.parse(a[PATCH]!), { configuration: 'annotate', webhook: 'patch.example.com', patch: [{ op: 'add', path: '/metadata/labels', value: { seen: 'yes' } }], patchType: 'JSONPatch' });
      assert.ok(a[MUTATION]);
    });

    it(`${level === 'req' ? 'Request' : 'RequestResponse'}: a Secret's patch with its values redacted`, () => {
      const event = completed(`secret-${level}`);
      const a = event.annotations ?? {};
      assert.deepEqual(JSON.parse(a[PATCH]!).patch, [{ op: 'add', path: '/data/token', value: '[REDACTED]' }]);
      assert.ok(!JSON.stringify(events.filter((e) => e.auditID === ids[`secret-${level}`])).includes(SECRET_VALUE));
    });
  }

  it('Metadata: a Secret gets the mutation annotation only', () => {
    const a = completed('secret-meta').annotations ?? {};
    assert.ok(a[MUTATION]);
    assert.equal(a[PATCH], undefined);
  });
});
