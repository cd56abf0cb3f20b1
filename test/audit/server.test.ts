/**
 * The audit log of a real server: HTTPS with the full chain, token-file users, a policy with
 * mixed levels. Checks the exact events of a create, a get, a list the policy silences, a watch
 * and a forbidden request, and that no token appears anywhere in the log: not even a valid one
 * that also appears in a request path or body at RequestResponse (the authenticator removes the
 * Authorization header before audit sees the request; issue 12 item 7).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AuditEvent } from '../../runtime/audit/index.js';
import type { Fetch } from '../support/https.js';
import { startTestServer, widget, WIDGETS, type TestServer } from '../server/testserver.js';

const ADMIN_TOKEN = 'audit-admin-token-5f1c9e0d7b2a4c68';
const VIEWER_TOKEN = 'audit-viewer-token-8e3d6a2b9c1f4071';
const WRONG_TOKEN = 'audit-wrong-token-0c7e51d2a9b84f36';
const MICRO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

const POLICY = `
apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: RequestResponse
    namespaces: [leaky]
  - level: None
    namespaces: [quiet]
  - level: None
    nonResourceURLs: ["/healthz*", "/readyz*", "/livez*"]
  - level: RequestResponse
    verbs: [create]
    resources:
      - group: widgets.example.com
        resources: [widgets]
  - level: Metadata
    resources:
      - group: widgets.example.com
  - level: Metadata
    omitStages: [RequestReceived]
`;

describe('audit log of a running server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kgen-audit-server-'));
  const logPath = join(dir, 'log', 'audit.log');
  let ts: TestServer;
  let admin: Fetch;
  let viewer: Fetch;
  let events: AuditEvent[] = [];
  const ids: Record<string, string> = {};

  before(async () => {
    const policyFile = join(dir, 'policy.yaml');
    writeFileSync(policyFile, POLICY);
    const tokenFile = join(dir, 'tokens.csv');
    writeFileSync(tokenFile, `${ADMIN_TOKEN},alice,uid-alice,"system:masters,devs"\n${VIEWER_TOKEN},bob,uid-bob\n`);
    ts = await startTestServer({ tls: true, dataDir: join(dir, 'data'), tokenAuthFile: tokenFile, audit: { policyFile, logPath } });
    admin = ts.fetchAs({ token: ADMIN_TOKEN });
    viewer = ts.fetchAs({ token: VIEWER_TOKEN });

    const call = async (name: string, who: Fetch, method: string, path: string, body?: unknown) => {
      const res = await who(ts.url + path, {
        method,
        headers: { 'content-type': 'application/json', 'user-agent': 'audit-test/1.0' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      ids[name] = res.headers.get('audit-id') ?? '';
      return { status: res.status, body: await res.json() };
    };
    assert.equal((await call('create', admin, 'POST', WIDGETS, widget('w1'))).status, 201);
    assert.equal((await call('get', admin, 'GET', `${WIDGETS}/w1`)).status, 200);
    assert.equal((await call('quiet', admin, 'GET', '/apis/widgets.example.com/v1/namespaces/quiet/widgets')).status, 200);
    assert.equal((await call('forbidden', viewer, 'GET', `${WIDGETS}/w1`)).status, 403);
    assert.equal((await call('version', admin, 'GET', `/version?access_token=${ADMIN_TOKEN}`)).status, 200);
    // Valid tokens in paths and bodies, at RequestResponse: the caller's own, and another user's.
    const LEAKY = '/apis/widgets.example.com/v1/namespaces/leaky/widgets';
    assert.equal((await call('leaky-ns', admin, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'leaky' } })).status, 201);
    const annotations = { mine: `token ${ADMIN_TOKEN}`, theirs: VIEWER_TOKEN, encoded: encodeURIComponent(`${VIEWER_TOKEN}/x`) };
    assert.equal((await call('leaky-create', admin, 'POST', LEAKY, widget(ADMIN_TOKEN, { replicas: 1 }, { metadata: { annotations } }))).status, 201);
    assert.equal((await call('leaky-get', admin, 'GET', `${LEAKY}/${ADMIN_TOKEN}`)).status, 200);
    assert.equal((await call('leaky-patch', admin, 'PATCH', `${LEAKY}/${ADMIN_TOKEN}?fieldManager=${VIEWER_TOKEN}`, { spec: { replicas: 2 } })).status, 415);
    assert.equal((await call('viewer-leaky', viewer, 'GET', `${LEAKY}/${VIEWER_TOKEN}`)).status, 403);
    assert.equal((await call('unauthenticated', ts.fetchAs({ token: WRONG_TOKEN }), 'GET', `${WIDGETS}/w1`)).status, 401);
    // A watch: read the ADDED event, then hang up.
    const abort = new AbortController();
    const watch = await admin(`${ts.url}${WIDGETS}?watch=true`, { signal: abort.signal });
    ids.watch = watch.headers.get('audit-id') ?? '';
    const reader = watch.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    assert.match(first, /"type":"ADDED"/);
    abort.abort();
    await reader.cancel().catch(() => undefined);
    // Closing the server ends every stream and flushes the audit log.
    await ts.close();
    events = readFileSync(logPath, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditEvent);
  });
  after(async () => {
    await ts?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const of = (name: string) => {
    assert.match(ids[name], /^[0-9a-f-]{36}$/, `${name} got an Audit-Id header`);
    return events.filter((e) => e.auditID === ids[name]);
  };

  it('writes well-formed audit.k8s.io/v1 events, one per line', () => {
    assert.ok(events.length > 0);
    for (const e of events) {
      assert.equal(e.kind, 'Event');
      assert.equal(e.apiVersion, 'audit.k8s.io/v1');
      assert.match(e.requestReceivedTimestamp, MICRO_TIME);
      assert.match(e.stageTimestamp, MICRO_TIME);
      assert.deepEqual(e.sourceIPs, ['127.0.0.1']);
    }
  });

  it('records a create at RequestResponse with the request and response objects', () => {
    const [received, complete, ...rest] = of('create');
    assert.deepEqual(rest, []);
    assert.equal(received.stage, 'RequestReceived');
    assert.equal(received.requestObject, undefined);
    assert.equal(complete.stage, 'ResponseComplete');
    assert.equal(complete.level, 'RequestResponse');
    assert.equal(complete.verb, 'create');
    assert.equal(complete.requestURI, WIDGETS);
    assert.equal(complete.userAgent, 'audit-test/1.0');
    assert.deepEqual(complete.user, { username: 'alice', uid: 'uid-alice', groups: ['system:masters', 'devs', 'system:authenticated'] });
    assert.deepEqual(complete.objectRef, { resource: 'widgets', namespace: 'default', name: 'w1', apiGroup: 'widgets.example.com', apiVersion: 'v1' });
    assert.deepEqual(complete.responseStatus, { metadata: {}, code: 201 });
    assert.deepEqual(complete.requestObject, widget('w1'));
    const created = complete.responseObject as { metadata: { name: string; uid: string; namespace: string } };
    assert.equal(created.metadata.name, 'w1');
    assert.equal(created.metadata.namespace, 'default');
    assert.ok(created.metadata.uid);
    assert.equal(complete.annotations?.['authorization.k8s.io/decision'], 'allow');
  });

  it('records a get at Metadata, without bodies', () => {
    const stages = of('get');
    assert.deepEqual(stages.map((e) => e.stage), ['RequestReceived', 'ResponseComplete']);
    const complete = stages[1];
    assert.equal(complete.level, 'Metadata');
    assert.equal(complete.verb, 'get');
    assert.deepEqual(complete.objectRef, { resource: 'widgets', namespace: 'default', name: 'w1', apiGroup: 'widgets.example.com', apiVersion: 'v1' });
    assert.deepEqual(complete.responseStatus, { metadata: {}, code: 200 });
    assert.equal(complete.requestObject, undefined);
    assert.equal(complete.responseObject, undefined);
  });

  it('records nothing for a list in a None namespace', () => {
    assert.deepEqual(of('quiet'), []);
    assert.ok(!events.some((e) => e.requestURI.includes('/namespaces/quiet/')));
  });

  it('records a watch: RequestReceived, ResponseStarted, then ResponseComplete when it ends', () => {
    const stages = of('watch');
    assert.deepEqual(stages.map((e) => e.stage), ['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    assert.equal(stages[1].verb, 'watch');
    assert.deepEqual(stages[1].responseStatus, { metadata: {}, code: 200 });
    assert.ok(stages[2].stageTimestamp >= stages[1].stageTimestamp);
  });

  it('records a forbidden request with the authorizer’s decision', () => {
    const complete = of('forbidden').find((e) => e.stage === 'ResponseComplete')!;
    assert.deepEqual(complete.user, { username: 'bob', uid: 'uid-bob', groups: ['system:authenticated'] });
    assert.equal(complete.responseStatus?.code, 403);
    assert.equal(complete.responseStatus?.reason, 'Forbidden');
    assert.equal(complete.annotations?.['authorization.k8s.io/decision'], 'forbid');
  });

  it('records a request authentication refused: one ResponseStarted event with the 401, naming the kind of credential tried (kube’s WithFailedAuthenticationAudit)', () => {
    const got = of('unauthenticated');
    assert.deepEqual(
      got.map((e) => [e.stage, e.verb, e.requestURI, e.responseStatus?.code, e.responseStatus?.message]),
      [['ResponseStarted', 'get', `${WIDGETS}/w1`, 401, 'Authentication failed, attempted: bearer']],
    );
    assert.equal(got[0]!.user.username, undefined);
    assert.ok(!readFileSync(logPath, 'utf8').includes(WRONG_TOKEN));
  });

  it('applies per-rule omitStages and redacts tokens in the URI', () => {
    const stages = of('version');
    assert.deepEqual(stages.map((e) => e.stage), ['ResponseComplete']);
    assert.equal(stages[0].requestURI, '/version?access_token=%5BREDACTED%5D');
    assert.equal(stages[0].objectRef, undefined);
  });

  it('scrubs valid tokens from paths, objectRef and bodies at RequestResponse, keeping the rest', () => {
    const created = of('leaky-create').find((e) => e.stage === 'ResponseComplete')!;
    assert.equal(created.level, 'RequestResponse');
    assert.equal(created.objectRef?.name, '[REDACTED]');
    const sent = created.requestObject as { metadata: { name: string; annotations: Record<string, string> } };
    assert.deepEqual(sent.metadata, { name: '[REDACTED]', annotations: { mine: 'token [REDACTED]', theirs: '[REDACTED]', encoded: '[REDACTED]%2Fx' } });
    assert.equal((created.responseObject as { metadata: { name: string } }).metadata.name, '[REDACTED]');
    const got = of('leaky-get').find((e) => e.stage === 'ResponseComplete')!;
    assert.equal(got.level, 'RequestResponse');
    assert.equal(got.requestURI, '/apis/widgets.example.com/v1/namespaces/leaky/widgets/[REDACTED]');
    assert.equal(got.objectRef?.name, '[REDACTED]');
    assert.equal((got.responseObject as { metadata: { annotations: Record<string, string> } }).metadata.annotations.theirs, '[REDACTED]');
    const patched = of('leaky-patch').find((e) => e.stage === 'ResponseComplete')!;
    assert.equal(patched.requestURI, '/apis/widgets.example.com/v1/namespaces/leaky/widgets/[REDACTED]?fieldManager=[REDACTED]');
    const forbidden = of('viewer-leaky').find((e) => e.stage === 'ResponseComplete')!;
    assert.equal(forbidden.objectRef?.name, '[REDACTED]');
    assert.doesNotMatch(JSON.stringify(forbidden), /audit-viewer-token/);
  });

  it('never writes a token to the log', () => {
    const text = readFileSync(logPath, 'utf8');
    assert.ok(!text.includes(ADMIN_TOKEN), 'the admin token leaked');
    assert.ok(!text.includes(VIEWER_TOKEN), 'the viewer token leaked');
    // `bearer` alone is the refused request's kind of credential ('attempted: bearer').
    assert.ok(!/bearer\s+[^\s"]/i.test(text), 'an Authorization header leaked');
  });
});
