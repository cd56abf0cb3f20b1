import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { UserInfo } from '../../runtime/api/auth.js';
import { parsePolicy, type AuditEvent, type AuditSink, type Policy } from '../../runtime/audit/index.js';
import type { APIResponse, ObjectResponse, StreamResponse } from '../../runtime/endpoints/handler.js';
import { auditFilter, failedAuthenticationAudit, openAudit } from '../../runtime/server/filters/audit.js';
import { parseRequestURL } from '../../runtime/server/filters/context.js';
import type { ChainHandler, RequestContext } from '../../runtime/server/filters/types.js';

const MICRO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const WIDGETS = '/apis/widgets.example.com/v1/namespaces/default/widgets';
const alice: UserInfo = { username: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'] };

class MemorySink implements AuditSink {
  events: AuditEvent[] = [];
  accept = true;
  processEvents(...events: AuditEvent[]): boolean {
    this.events.push(...events);
    return this.accept;
  }
  stages(): string[] {
    return this.events.map((e) => e.stage);
  }
}

function policyOf(level: string, extra = ''): Policy {
  return parsePolicy(`apiVersion: audit.k8s.io/v1\nkind: Policy\n${extra}rules:\n- level: ${level}\n`);
}

interface CtxOptions {
  headers?: IncomingHttpHeaders;
  body?: unknown;
  contentType?: string;
  user?: UserInfo;
  remoteAddress?: string;
}

function context(method: string, url: string, opts: CtxOptions = {}): RequestContext {
  const headers: IncomingHttpHeaders = { 'user-agent': 'kubectl/v1.32.0 (linux/amd64)', ...opts.headers };
  let body: Buffer | undefined;
  if (opts.body !== undefined) {
    body = Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body));
    headers['content-type'] = opts.contentType ?? 'application/json';
  }
  return {
    request: { method, url, headers, body, signal: new AbortController().signal, remoteAddress: opts.remoteAddress ?? '::ffff:127.0.0.1' },
    url: parseRequestURL(url),
    user: opts.user ?? alice,
    startedAt: performance.now(),
    responseHeaders: {},
    annotations: {},
  };
}

function json(code: number, body: unknown): ObjectResponse {
  return { kind: 'object', code, contentType: 'application/json', headers: {}, payload: JSON.stringify(body) };
}

const widget = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'widgets.example.com/v1',
  kind: 'Widget',
  metadata: { name, namespace: 'default', ...extra },
  spec: { replicas: 1 },
});

async function run(policy: Policy | undefined, ctx: RequestContext, next: ChainHandler) {
  const sink = new MemorySink();
  const response = await auditFilter({ policy, sink })(next)(ctx);
  return { sink, response };
}

describe('audit filter', () => {
  it('records a create at RequestResponse: RequestReceived, then ResponseComplete with both objects', async () => {
    const ctx = context('POST', `${WIDGETS}?fieldManager=kubectl`, { body: widget('w1'), headers: { 'x-forwarded-for': '10.0.0.1, 10.0.0.2' } });
    const created = widget('w1', { uid: 'uid-1', resourceVersion: '5' });
    const { sink, response } = await run(policyOf('RequestResponse'), ctx, async (c) => {
      c.authorization = { decision: 'Allow', reason: 'RBAC: allowed by RoleBinding "edit/default"' };
      c.annotations['example.com/note'] = 'hi';
      return json(201, created);
    });
    assert.equal(response.code, 201);
    const auditID = ctx.responseHeaders['Audit-Id'] as string;
    assert.match(auditID, UUID);
    assert.deepEqual(sink.stages(), ['RequestReceived', 'ResponseComplete']);
    const [received, complete] = sink.events;
    for (const e of sink.events) {
      assert.match(e.requestReceivedTimestamp, MICRO_TIME);
      assert.match(e.stageTimestamp, MICRO_TIME);
    }
    assert.equal(received.stageTimestamp, received.requestReceivedTimestamp);
    assert.ok(complete.stageTimestamp >= complete.requestReceivedTimestamp);
    const common = {
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: 'RequestResponse',
      auditID,
      requestURI: `${WIDGETS}?fieldManager=kubectl`,
      verb: 'create',
      user: { username: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'] },
      sourceIPs: ['10.0.0.1', '10.0.0.2', '127.0.0.1'],
      userAgent: 'kubectl/v1.32.0 (linux/amd64)',
    };
    assert.deepEqual(strip(received), {
      ...common,
      stage: 'RequestReceived',
      objectRef: { resource: 'widgets', namespace: 'default', apiGroup: 'widgets.example.com', apiVersion: 'v1' },
    });
    assert.deepEqual(strip(complete), {
      ...common,
      stage: 'ResponseComplete',
      objectRef: { resource: 'widgets', namespace: 'default', name: 'w1', apiGroup: 'widgets.example.com', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 201 },
      requestObject: widget('w1'),
      responseObject: created,
      annotations: {
        'authorization.k8s.io/decision': 'allow',
        'authorization.k8s.io/reason': 'RBAC: allowed by RoleBinding "edit/default"',
        'example.com/note': 'hi',
      },
    });
    // kube's field order, so the JSON lines read the same.
    assert.deepEqual(Object.keys(complete), [
      'kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'sourceIPs', 'userAgent', 'objectRef',
      'responseStatus', 'requestObject', 'responseObject', 'requestReceivedTimestamp', 'stageTimestamp', 'annotations',
    ]);
  });

  it('records a get at Metadata without bodies, and a Status failure in responseStatus', async () => {
    const notFound = {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'widgets.widgets.example.com "nope" not found',
      reason: 'NotFound', details: { name: 'nope', group: 'widgets.example.com', kind: 'widgets' }, code: 404,
    };
    const { sink } = await run(policyOf('Metadata'), context('GET', `${WIDGETS}/nope`), async (c) => {
      c.authorization = { decision: 'Allow', reason: '' };
      return json(404, notFound);
    });
    assert.deepEqual(sink.stages(), ['RequestReceived', 'ResponseComplete']);
    const complete = sink.events[1];
    assert.equal(complete.level, 'Metadata');
    assert.equal(complete.verb, 'get');
    assert.deepEqual(complete.objectRef, { resource: 'widgets', namespace: 'default', name: 'nope', apiGroup: 'widgets.example.com', apiVersion: 'v1' });
    assert.deepEqual(complete.responseStatus, {
      metadata: {}, status: 'Failure', message: notFound.message, reason: 'NotFound', details: notFound.details, code: 404,
    });
    assert.equal(complete.requestObject, undefined);
    assert.equal(complete.responseObject, undefined);
    assert.deepEqual(complete.annotations, { 'authorization.k8s.io/decision': 'allow' });
  });

  it('Request level records the request but not the response object', async () => {
    const { sink } = await run(policyOf('Request'), context('PUT', `${WIDGETS}/w1`, { body: widget('w1', { resourceVersion: '7', uid: 'x' }) }), async () =>
      json(200, widget('w1', { resourceVersion: '8' })),
    );
    const complete = sink.events[1];
    assert.deepEqual(complete.requestObject, widget('w1', { resourceVersion: '7', uid: 'x' }));
    assert.equal(complete.responseObject, undefined);
    assert.deepEqual(complete.objectRef, {
      resource: 'widgets', namespace: 'default', name: 'w1', uid: 'x', apiGroup: 'widgets.example.com', apiVersion: 'v1', resourceVersion: '7',
    });
  });

  it('records a patch as sent and leaves objectRef alone; omits bodies it cannot decode', async () => {
    const patch = [{ op: 'replace', path: '/spec/replicas', value: 3 }];
    const { sink } = await run(policyOf('Request'), context('PATCH', `${WIDGETS}/w1`, { body: patch, contentType: 'application/json-patch+json' }), async () =>
      json(200, widget('w1')),
    );
    assert.deepEqual(sink.events[1].requestObject, patch);
    const proto = await run(policyOf('Request'), context('POST', WIDGETS, { body: Buffer.from([0x6b, 0x38, 0x73, 0x00, 1, 2]), contentType: 'application/vnd.kubernetes.protobuf' }), async () =>
      json(201, widget('w1')),
    );
    assert.equal(proto.sink.events[1].requestObject, undefined);
    const malformed = await run(policyOf('Request'), context('POST', WIDGETS, { body: '{"a":', contentType: 'application/json' }), async () => json(400, {}));
    assert.equal(malformed.sink.events[1].requestObject, undefined);
    let deep = '1';
    for (let i = 0; i < 5000; i++) deep = `[${deep}]`;
    const nested = await run(policyOf('Request'), context('POST', WIDGETS, { body: deep }), async () => json(400, {}));
    assert.equal(nested.sink.events[1].requestObject, undefined);
  });

  it('records no body holding an integer a double would change (the server refuses it; kube records what it cannot decode as nothing)', async () => {
    const text = '{"apiVersion":"widgets.example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"count":9007199254740993}}';
    const yamlText = 'apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  count: 9007199254740993\n';
    for (const [body, contentType] of [[text, 'application/json'], [yamlText, 'application/yaml'], [text, 'application/merge-patch+json']]) {
      const method = contentType.includes('patch') ? 'PATCH' : 'POST';
      const { sink } = await run(policyOf('Request'), context(method, method === 'PATCH' ? `${WIDGETS}/w1` : WIDGETS, { body, contentType }), async () => json(400, {}));
      assert.equal(sink.events[1].requestObject, undefined, contentType);
    }
    // A whole number a double holds is recorded as sent.
    const exact = text.replace('9007199254740993', '9007199254740992');
    const { sink } = await run(policyOf('Request'), context('POST', WIDGETS, { body: exact, contentType: 'application/json' }), async () => json(201, {}));
    assert.deepEqual((sink.events[1].requestObject as { spec: unknown }).spec, { count: 9007199254740992 });
  });

  it('records nothing at level None, but still sends Audit-Id; keeps a client-sent Audit-ID', async () => {
    const policy = parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n  namespaces: [default]\n- level: Metadata\n');
    let called = false;
    const ctx = context('GET', WIDGETS);
    const { sink } = await run(policy, ctx, async () => {
      called = true;
      return json(200, { kind: 'WidgetList', items: [] });
    });
    assert.ok(called);
    assert.deepEqual(sink.events, []);
    assert.match(ctx.responseHeaders['Audit-Id'] as string, UUID);
    const mine = context('GET', '/version', { headers: { 'audit-id': 'my-trace-123' } });
    const { sink: sink2 } = await run(policy, mine, async () => json(200, { gitVersion: 'v1.32.0' }));
    assert.equal(mine.responseHeaders['Audit-Id'], 'my-trace-123');
    assert.equal(sink2.events[0].auditID, 'my-trace-123');
    assert.equal(sink2.events[0].objectRef, undefined, 'non-resource requests have no objectRef');
    assert.equal(sink2.events[0].verb, 'get');
    const weird = context('GET', '/version', { headers: { 'audit-id': 'x"\n{}' } });
    await run(policy, weird, async () => json(200, {}));
    assert.match(weird.responseHeaders['Audit-Id'] as string, UUID);
  });

  it('without a policy or sink it passes requests through untouched', async () => {
    const ctx = context('GET', WIDGETS);
    const response = await auditFilter({ policy: undefined, sink: new MemorySink() })(async () => json(200, {}))(ctx);
    assert.equal(response.code, 200);
    assert.match(ctx.responseHeaders['Audit-Id'] as string, UUID);
  });

  it('records a watch: ResponseStarted when streaming starts, ResponseComplete when it ends', async () => {
    let closed = 0;
    const stream: StreamResponse = {
      kind: 'stream', code: 200, contentType: 'application/json', headers: {},
      chunks: (async function* () {
        yield '{"type":"ADDED"}\n';
        yield '{"type":"MODIFIED"}\n';
      })(),
      close: () => closed++,
    };
    const { sink, response } = await run(policyOf('RequestResponse'), context('GET', `${WIDGETS}?watch=true`), async () => stream);
    assert.equal(response.kind, 'stream');
    assert.deepEqual(sink.stages(), ['RequestReceived', 'ResponseStarted']);
    assert.equal(sink.events[1].verb, 'watch');
    assert.deepEqual(sink.events[1].responseStatus, { metadata: {}, code: 200 });
    const chunks: (string | Buffer)[] = [];
    for await (const chunk of (response as StreamResponse).chunks) chunks.push(chunk);
    assert.deepEqual(chunks, ['{"type":"ADDED"}\n', '{"type":"MODIFIED"}\n']);
    (response as StreamResponse).close();
    assert.equal(closed, 1);
    assert.deepEqual(sink.stages(), ['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    assert.equal(sink.events[2].responseObject, undefined, 'watch events are not recorded');
  });

  it('a watch closed before it is read completes once', async () => {
    const stream: StreamResponse = {
      kind: 'stream', code: 200, contentType: 'application/json', headers: {},
      chunks: (async function* () {
        yield 'x';
      })(),
      close: () => undefined,
    };
    const { sink, response } = await run(policyOf('Metadata'), context('GET', `${WIDGETS}?watch=1`), async () => stream);
    (response as StreamResponse).close();
    (response as StreamResponse).close();
    assert.deepEqual(sink.stages(), ['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
  });

  it('records a Panic and rethrows', async () => {
    const sink = new MemorySink();
    await assert.rejects(
      Promise.resolve(
        auditFilter({ policy: policyOf('Metadata'), sink })(async () => {
          throw new Error('boom');
        })(context('DELETE', `${WIDGETS}/w1`)),
      ),
      /boom/,
    );
    assert.deepEqual(sink.stages(), ['RequestReceived', 'Panic']);
    assert.deepEqual(sink.events[1].responseStatus, { metadata: {}, status: 'Failure', message: "APIServer panic'd: boom", reason: 'InternalError', code: 500 });
  });

  it('skips omitted stages (policy-wide and per rule)', async () => {
    const policy = parsePolicy(
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n- level: Metadata\n  verbs: [watch]\n  omitStages: [ResponseStarted]\n- level: Metadata\n',
    );
    const get = await run(policy, context('GET', `${WIDGETS}/w1`), async () => json(200, widget('w1')));
    assert.deepEqual(get.sink.stages(), ['ResponseComplete']);
    const stream: StreamResponse = { kind: 'stream', code: 200, contentType: 'application/json', headers: {}, chunks: (async function* () {})(), close: () => undefined };
    const watch = await run(policy, context('GET', `${WIDGETS}?watch=true`), async () => stream);
    for await (const _ of (watch.response as StreamResponse).chunks);
    assert.deepEqual(watch.sink.stages(), ['ResponseComplete']);
  });

  it('omits managedFields when the policy says so', async () => {
    const managed = widget('w1', { managedFields: [{ manager: 'kubectl', operation: 'Apply' }] });
    const { sink } = await run(policyOf('RequestResponse', 'omitManagedFields: true\n'), context('POST', WIDGETS, { body: managed }), async () =>
      json(201, { kind: 'WidgetList', apiVersion: 'widgets.example.com/v1', metadata: {}, items: [managed] }),
    );
    assert.deepEqual(sink.events[1].requestObject, widget('w1'));
    assert.deepEqual((sink.events[1].responseObject as { items: unknown[] }).items, [widget('w1')]);
  });

  it('records the authenticated user and the impersonated one; forbid decisions', async () => {
    const ctx = context('GET', `${WIDGETS}/w1`);
    const { sink } = await run(policyOf('Metadata'), ctx, async (c) => {
      c.impersonator = c.user;
      c.user = { username: 'bob', groups: ['system:authenticated'], extra: { scopes: ['a'] } };
      c.authorization = { decision: 'NoOpinion', reason: '' };
      return json(403, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403, message: 'no' });
    });
    assert.equal(sink.events[0].impersonatedUser, undefined);
    assert.deepEqual(sink.events[1].user, { username: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'] });
    assert.deepEqual(sink.events[1].impersonatedUser, { username: 'bob', groups: ['system:authenticated'], extra: { scopes: ['a'] } });
    assert.deepEqual(sink.events[1].annotations, { 'authorization.k8s.io/decision': 'forbid' });
  });

  it('fails the request with a 500 Status when the sink refuses RequestReceived', async () => {
    const sink = new MemorySink();
    sink.accept = false;
    let called = false;
    const response = (await auditFilter({ policy: policyOf('Metadata'), sink })(async () => {
      called = true;
      return json(200, {});
    })(context('GET', WIDGETS))) as ObjectResponse;
    assert.equal(called, false);
    assert.equal(response.code, 500);
    assert.equal(JSON.parse(response.payload).message, 'Internal error occurred: failed to store audit event');
  });

  it('never records credentials: Authorization, token query parameters, TokenReview and Secret contents', async () => {
    const token = 'abcdef0123456789-bearer-token';
    const queryToken = 'query-token-0123456789';
    const reviewToken = 'reviewed-token-0123456789';
    const review = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: reviewToken, audiences: ['api'] } };
    const ctx = context('POST', `/apis/authentication.k8s.io/v1/tokenreviews?access_token=${queryToken}&pretty=true`, {
      body: { ...review, metadata: { annotations: { leaked: `Bearer ${token}` } } },
      headers: { authorization: `Bearer ${token}`, 'user-agent': `curl ${token}` },
    });
    const { sink } = await run(policyOf('RequestResponse'), ctx, async () =>
      json(201, { ...review, status: { authenticated: true, user: { username: 'alice' } }, echo: token }),
    );
    const basic = context('POST', '/api/v1/namespaces/default/secrets', {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { password: Buffer.from('hunter2-secret').toString('base64') }, stringData: { key: 'plain-secret-value' } },
      headers: { authorization: `Basic ${Buffer.from('alice:basic-password-123').toString('base64')}` },
    });
    const secret = await run(policyOf('RequestResponse'), basic, async () => json(201, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { password: 'aHVudGVyMi1zZWNyZXQ=' }, note: 'basic-password-123' }));
    const log = JSON.stringify([...sink.events, ...secret.sink.events]);
    for (const s of [token, queryToken, reviewToken, 'aHVudGVyMi1zZWNyZXQ=', 'plain-secret-value', 'basic-password-123', Buffer.from('alice:basic-password-123').toString('base64')]) {
      assert.ok(!log.includes(s), `${s} leaked into the audit events`);
    }
    const complete = sink.events[1];
    assert.equal(complete.requestURI, '/apis/authentication.k8s.io/v1/tokenreviews?access_token=%5BREDACTED%5D&pretty=true');
    assert.equal((complete.requestObject as { spec: { token: string } }).spec.token, '[REDACTED]');
    assert.deepEqual((complete.requestObject as { spec: { audiences: string[] } }).spec.audiences, ['api'], 'the rest of the object is kept');
    assert.equal(complete.userAgent, 'curl [REDACTED]');
    assert.deepEqual((secret.sink.events[1].requestObject as { data: unknown }).data, { password: '[REDACTED]' });
  });
});

describe('credential scrubbing (issue 12 item 7)', () => {
  it('scrubs the token the authenticator already removed, wherever the path or body repeats it', async () => {
    const token = 'valid-token+with.special$chars';
    const ctx = context('POST', `/apis/widgets.example.com/v1/namespaces/default/widgets?note=${encodeURIComponent(token)}`, { body: widget('w1', { annotations: { copy: token } }) });
    // What withAuthentication leaves once the token authenticator consumed the header.
    ctx.presentedAuthorization = `Bearer ${token}`;
    const { sink } = await run(policyOf('RequestResponse'), ctx, async () => json(201, widget('w1', { annotations: { copy: token } })));
    const text = JSON.stringify(sink.events);
    assert.ok(!text.includes(token) && !text.includes(encodeURIComponent(token)), text);
    const complete = sink.events[1];
    assert.equal(complete.requestURI, '/apis/widgets.example.com/v1/namespaces/default/widgets?note=[REDACTED]');
    assert.deepEqual((complete.requestObject as { metadata: { annotations: unknown } }).metadata.annotations, { copy: '[REDACTED]' });
  });

  it('scrubs credentials the server knows, whoever sends them, longest first', async () => {
    const ctx = context('PUT', `${WIDGETS}/known-token-1234-suffix`, { body: widget('known-token-1234-suffix', { annotations: { other: 'known-token-1234 and known-token-1234-suffix' } }) });
    const sink = new MemorySink();
    await auditFilter({ policy: policyOf('RequestResponse'), sink, knownCredentials: ['known-token-1234', 'known-token-1234-suffix', 'short'] })(async () => json(200, {}))(ctx);
    const complete = sink.events[1];
    assert.equal(complete.requestURI, `${WIDGETS}/[REDACTED]`);
    assert.equal(complete.objectRef?.name, '[REDACTED]');
    assert.deepEqual((complete.requestObject as { metadata: { annotations: unknown } }).metadata.annotations, { other: '[REDACTED] and [REDACTED]' });
    // Too short to scrub from free text without mangling it.
    assert.equal(complete.userAgent, 'kubectl/v1.32.0 (linux/amd64)');
  });
});

describe('failed authentication audit', () => {
  it('records one ResponseStarted event naming the credentials tried, never their values', () => {
    const sink = new MemorySink();
    const audit = failedAuthenticationAudit({ policy: policyOf('Metadata'), sink });
    const ctx = context('GET', `${WIDGETS}?access_token=sneaky-token-12345`, { headers: { authorization: 'Bearer wrong-token-123456789' } });
    ctx.user = undefined;
    audit(ctx, json(401, { kind: 'Status', code: 401 }));
    assert.deepEqual(sink.stages(), ['ResponseStarted']);
    const [event] = sink.events;
    assert.deepEqual(event.user, {});
    assert.deepEqual(event.responseStatus, { metadata: {}, message: 'Authentication failed, attempted: bearer, access_token', code: 401 });
    assert.match(ctx.responseHeaders['Audit-Id'] as string, UUID);
    const text = JSON.stringify(sink.events);
    assert.ok(!text.includes('wrong-token-123456789') && !text.includes('sneaky-token-12345'));
    const anonymous = context('GET', '/api');
    anonymous.user = undefined;
    audit(anonymous, json(401, {}));
    assert.equal(sink.events[1].responseStatus?.message, 'Authentication failed, no credentials provided');
  });

  it('respects the policy (users rules cannot match an unauthenticated request)', () => {
    const sink = new MemorySink();
    const policy = parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  users: [alice]\n');
    const ctx = context('GET', WIDGETS);
    ctx.user = undefined;
    failedAuthenticationAudit({ policy, sink })(ctx, json(401, {}));
    assert.deepEqual(sink.events, []);
  });
});

describe('openAudit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kgen-open-audit-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('records to the log only when both a policy and a log path are given', async () => {
    const policyFile = join(dir, 'policy.yaml');
    writeFileSync(policyFile, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    const logPath = join(dir, 'logs', 'audit.log');
    const audit = openAudit({ policyFile, logPath });
    await audit.filter(async () => json(200, widget('w1')))(context('GET', `${WIDGETS}/w1`));
    await audit.close();
    const events = readFileSync(logPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as AuditEvent);
    assert.deepEqual(events.map((e) => e.stage), ['RequestReceived', 'ResponseComplete']);
    const warnings: string[] = [];
    const policyOnly = openAudit({ policyFile, warn: (m) => warnings.push(m) });
    assert.equal(policyOnly.backend, undefined);
    assert.match(warnings[0], /without --audit-log-path/);
  });

  it('fails at startup on a bad policy file', () => {
    const policyFile = join(dir, 'bad.yaml');
    writeFileSync(policyFile, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Loud\n');
    assert.throws(() => openAudit({ policyFile, logPath: join(dir, 'never.log') }), /invalid audit policy .*bad.yaml.*rules\[0\]\.level: Unsupported value: "Loud"/);
  });
});

/** The event without the fields that vary per run. */
function strip(event: AuditEvent): Partial<AuditEvent> {
  const { requestReceivedTimestamp: _r, stageTimestamp: _s, ...rest } = event;
  return rest;
}

export type { APIResponse };
