/**
 * A Secret's values never reach the audit log, whatever form the request body takes (kgen's bar,
 * stricter than kube, which records bodies as sent at Request and RequestResponse): a JSON patch,
 * a merge or strategic merge patch, an apply patch in YAML, a create in YAML, kubectl apply's
 * last-applied annotation (which holds the whole Secret); and the response at RequestResponse. (test/audit/filter.test.ts has the JSON create and TokenReview/TokenRequest.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UserInfo } from '../../runtime/api/auth.js';
import { parsePolicy, type AuditEvent, type AuditSink } from '../../runtime/audit/index.js';
import type { ObjectResponse } from '../../runtime/endpoints/handler.js';
import { auditFilter } from '../../runtime/server/filters/audit.js';
import { parseRequestURL } from '../../runtime/server/filters/context.js';
import type { RequestContext } from '../../runtime/server/filters/types.js';

const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };
const VALUE = 'c3VwZXJzZWNyZXQtdmFsdWU='; // base64 of supersecret-value
const PLAIN = 'supersecret-value';
const SECRETS = '/api/v1/namespaces/default/secrets';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const lastApplied = `${JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, data: { password: VALUE } })}\n`;

class MemorySink implements AuditSink {
  events: AuditEvent[] = [];
  processEvents(...events: AuditEvent[]): boolean {
    this.events.push(...events);
    return true;
  }
}

async function recorded(level: string, method: string, url: string, body: string, contentType: string): Promise<string> {
  const policy = parsePolicy(`apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: ${level}\n`);
  const sink = new MemorySink();
  const ctx: RequestContext = {
    request: { method, url, headers: { 'content-type': contentType }, body: Buffer.from(body), signal: new AbortController().signal, remoteAddress: '127.0.0.1' },
    url: parseRequestURL(url),
    user: alice,
    startedAt: performance.now(),
    responseHeaders: {},
    annotations: {},
  };
  const answer: ObjectResponse = { kind: 'object', code: 200, contentType: 'application/json', headers: {}, payload: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1', namespace: 'default', annotations: { [LAST_APPLIED]: lastApplied } }, data: { password: VALUE } }) };
  await auditFilter({ policy, sink })(() => answer)(ctx);
  assert.ok(sink.events.length >= 2);
  return JSON.stringify(sink.events);
}

const bodies: [string, string, string, string][] = [
  ['a JSON patch adding a value', 'PATCH', JSON.stringify([{ op: 'add', path: '/data/password', value: VALUE }]), 'application/json-patch+json'],
  ['a JSON patch replacing the whole data', 'PATCH', JSON.stringify([{ op: 'replace', path: '/data', value: { password: VALUE } }]), 'application/json-patch+json'],
  ['a JSON patch testing a value', 'PATCH', JSON.stringify([{ op: 'test', path: '/stringData/password', value: PLAIN }]), 'application/json-patch+json'],
  ['a merge patch', 'PATCH', JSON.stringify({ data: { password: VALUE } }), 'application/merge-patch+json'],
  ['a strategic merge patch', 'PATCH', JSON.stringify({ stringData: { password: PLAIN } }), 'application/strategic-merge-patch+json'],
  ['an apply patch in YAML', 'PATCH', `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s1\ndata:\n  password: ${VALUE}\n`, 'application/apply-patch+yaml'],
  ['a create in YAML', 'POST', `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s1\nstringData:\n  password: ${PLAIN}\n`, 'application/yaml'],
  ['kubectl apply\'s patch, the last-applied annotation holding the Secret', 'PATCH', JSON.stringify({ metadata: { annotations: { [LAST_APPLIED]: lastApplied } }, data: { password: VALUE } }), 'application/strategic-merge-patch+json'],
  ['a JSON patch writing the last-applied annotation', 'PATCH', JSON.stringify([{ op: 'add', path: '/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration', value: lastApplied }]), 'application/json-patch+json'],
  ['a JSON patch writing the annotations', 'PATCH', JSON.stringify([{ op: 'replace', path: '/metadata/annotations', value: { [LAST_APPLIED]: lastApplied } }]), 'application/json-patch+json'],
  ['a JSON patch writing the metadata', 'PATCH', JSON.stringify([{ op: 'replace', path: '/metadata', value: { name: 's1', annotations: { [LAST_APPLIED]: lastApplied } } }]), 'application/json-patch+json'],
  ['a last-applied annotation that is not JSON', 'PATCH', JSON.stringify({ metadata: { annotations: { [LAST_APPLIED]: `{${VALUE}` } } }), 'application/merge-patch+json'],
];

describe('audit: a Secret\'s values in request and response bodies', () => {
  for (const [what, method, body, contentType] of bodies) {
    it(`${what}: neither at Request nor at RequestResponse`, async () => {
      const url = method === 'POST' ? SECRETS : `${SECRETS}/s1`;
      for (const level of ['Request', 'RequestResponse']) {
        const log = await recorded(level, method, url, body, contentType);
        assert.ok(!log.includes(VALUE) && !log.includes(PLAIN), `${level}: ${log}`);
      }
    });
  }

  it('a JSON patch\'s other operations, and patches to other kinds, are recorded as sent', async () => {
    const ops = [{ op: 'add', path: '/metadata/labels/tier', value: 'web-frontend' }, { op: 'add', path: '/data/password', value: VALUE }];
    const log = JSON.parse(await recorded('Request', 'PATCH', `${SECRETS}/s1`, JSON.stringify(ops), 'application/json-patch+json')) as AuditEvent[];
    assert.deepEqual(log.at(-1)!.requestObject, [ops[0], { ...ops[1], value: '[REDACTED]' }]);
    const configMap = JSON.parse(await recorded('Request', 'PATCH', '/api/v1/namespaces/default/configmaps/c1', JSON.stringify(ops), 'application/json-patch+json')) as AuditEvent[];
    assert.deepEqual(configMap.at(-1)!.requestObject, ops);
  });

  it('the last-applied annotation keeps all but the values', async () => {
    const log = JSON.parse(await recorded('RequestResponse', 'GET', `${SECRETS}/s1`, '', 'application/json')) as AuditEvent[];
    const response = log.at(-1)!.responseObject as { metadata: { annotations: Record<string, string> } };
    assert.deepEqual(JSON.parse(response.metadata.annotations[LAST_APPLIED]!), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, data: { password: '[REDACTED]' } });
  });
});
