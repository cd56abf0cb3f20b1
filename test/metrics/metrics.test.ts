/**
 * GET /metrics: scraped with a Prometheus text parser after a known mix of requests; kube's
 * metric names, types, label names and buckets checked against test/metrics/kube-metrics.ts;
 * authorised as kube does (system:monitoring); 429s recorded as rejections; --profiling.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startRBACServer, type RBACServer } from '../authorization/rbacserver.js';
import { httpsClient, type Requester } from '../authorization/https.js';
import { composeFilters, type NamedFilter } from '../../runtime/server/filters/chain.js';
import { newRequestContext } from '../../runtime/server/filters/context.js';
import { withMaxInFlightLimit } from '../../runtime/server/filters/maxinflight.js';
import { withMetrics } from '../../runtime/server/filters/metrics.js';
import { withRequestInfo } from '../../runtime/server/filters/requestinfo.js';
import { objectResponse } from '../../runtime/endpoints/responsewriters.js';
import { metricsRegistry } from '../../runtime/server/metrics.js';
import { KUBE_METRICS } from './kube-metrics.js';
import { parseScrape, sampleSum, type Scrape } from './scrape.js';

const NS = '/apis/widgets.example.com/v1/namespaces/default/widgets';
const G = { group: 'widgets.example.com', version: 'v1', resource: 'widgets', component: 'apiserver' };

describe('/metrics', () => {
  let rbac: RBACServer;
  let admin: Requester;
  let monitor: Requester;
  let nobody: Requester;
  let ca: string;

  before(async () => {
    const dataDir = join(process.env.TMPDIR ?? '/tmp', `kgen-metrics-${process.pid}`);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dataDir, { recursive: true });
    const tokens = join(dataDir, 'monitoring-tokens.csv');
    writeFileSync(tokens, 'token-monitor,prom,uid-1,"system:monitoring"\ntoken-nobody,nobody,uid-2\n');
    rbac = await startRBACServer({ dataDir, tokenAuthFile: tokens, profiling: true });
    ca = rbac.server.credentials!.servingCA!;
    admin = rbac.as.admin!;
    monitor = rbac.client({ token: 'token-monitor' });
    nobody = rbac.client({ token: 'token-nobody' });
  });
  after(async () => {
    await rbac?.close();
  });

  async function scrape(): Promise<Scrape> {
    const r = await monitor('GET', '/metrics', { headers: { accept: 'text/plain' } });
    assert.equal(r.status, 200, r.text);
    return parseScrape(r.text);
  }

  test('a known mix of requests is counted as kube counts it', async () => {
    const before = await scrape();
    const w = (name: string) => ({ apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name }, spec: { replicas: 1, color: 'blue' } });
    assert.equal((await admin('POST', NS, { body: w('m1') })).status, 201);
    assert.equal((await admin('POST', `${NS}?dryRun=All`, { body: w('m2') })).status, 201);
    for (let i = 0; i < 3; i++) assert.equal((await admin('GET', `${NS}/m1`)).status, 200);
    assert.equal((await admin('GET', `${NS}/missing`)).status, 404);
    assert.equal((await admin('GET', NS)).status, 200);
    const apply = await admin('PATCH', `${NS}/m1?fieldManager=t`, { body: JSON.stringify(w('m1')), contentType: 'application/apply-patch+yaml' });
    assert.equal(apply.status, 200, apply.text);
    // Forbidden by RBAC: not in apiserver_request_total (kube counts what reached the handler).
    assert.equal((await nobody('GET', `${NS}/m1`)).status, 403);

    // A watch that is open while we scrape: long-running and registered, with one event sent.
    const events: string[] = [];
    let watchRes: import('node:http').IncomingMessage | undefined;
    const watchReq = httpsRequest(new URL(`${NS}?watch=true`, rbac.server.url), {
      ca,
      cert: rbac.server.credentials!.admin.cert,
      key: rbac.server.credentials!.admin.key,
    });
    const firstEvent = new Promise<void>((resolve, reject) => {
      watchReq.on('response', (res) => {
        watchRes = res;
        res.on('data', (d: Buffer) => {
          events.push(d.toString());
          resolve();
        });
      });
      watchReq.on('error', reject);
    });
    watchReq.end();
    await firstEvent;

    const s = await scrape();
    const delta = (name: string, labels: Record<string, string>) => sampleSum(s, name, labels) - sampleSum(before, name, labels);
    assert.equal(delta('apiserver_request_total', { ...G, verb: 'GET', scope: 'resource', code: '200', dry_run: '' }), 3);
    assert.equal(delta('apiserver_request_total', { ...G, verb: 'GET', scope: 'resource', code: '404' }), 1);
    assert.equal(delta('apiserver_request_total', { ...G, verb: 'GET', code: '403' }), 0);
    assert.equal(delta('apiserver_request_total', { ...G, verb: 'LIST', scope: 'namespace', code: '200' }), 1);
    assert.equal(delta('apiserver_request_total', { ...G, verb: 'POST', scope: 'resource', code: '201', dry_run: '' }), 1);
    assert.equal(delta('apiserver_request_total', { ...G, verb: 'POST', code: '201', dry_run: 'All' }), 1);
    assert.equal(delta('apiserver_request_total', { ...G, verb: 'APPLY', scope: 'resource', code: '200' }), 1);
    assert.equal(delta('apiserver_request_total', { ...G, verb: 'WATCH', scope: 'namespace', code: '200' }), 1);
    // Durations: one observation per counted request; sizes only for GET and LIST.
    assert.equal(delta('apiserver_request_duration_seconds_count', { ...G, verb: 'GET', scope: 'resource' }), 4);
    assert.equal(delta('apiserver_response_sizes_count', { ...G, verb: 'GET', scope: 'resource' }), 4);
    assert.equal(delta('apiserver_response_sizes_count', { ...G, verb: 'POST' }), 0);
    assert.equal(sampleSum(s, 'apiserver_longrunning_requests', { ...G, verb: 'WATCH' }), 1);
    assert.equal(sampleSum(s, 'apiserver_registered_watchers', { group: G.group, version: 'v1', kind: 'Widget' }), 1);
    assert.ok(delta('apiserver_watch_events_total', { group: G.group, version: 'v1', resource: 'widgets' }) >= 1);
    // Storage: the widget is stored (the dry run is not), and every call was timed.
    assert.equal(sampleSum(s, 'apiserver_storage_objects', { resource: 'widgets.widgets.example.com' }), 1);
    assert.equal(delta('etcd_request_duration_seconds_count', { operation: 'create', group: G.group, resource: 'widgets' }), 1);
    assert.ok(delta('etcd_requests_total', { operation: 'update', group: G.group, resource: 'widgets' }) >= 1);
    // Admission ran for both creates and the apply.
    assert.ok(delta('apiserver_admission_step_admission_duration_seconds_count', { type: 'validate', operation: 'CREATE', rejected: 'false' }) >= 2);
    // The in-flight gauge: this scrape itself is the one read-only request in flight.
    assert.equal(sampleSum(s, 'apiserver_current_inflight_requests', { request_kind: 'readOnly' }), 1);
    // Node's process metrics (prom-client's default collectors).
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
      assert.ok(s.families.has(name), `${name} is exposed`);
    }
    watchRes?.destroy();
    watchReq.destroy();
    // Once the client went away the watch is no longer counted.
    for (let i = 0; i < 100; i++) {
      const now = await scrape();
      if (sampleSum(now, 'apiserver_longrunning_requests', { ...G, verb: 'WATCH' }) === 0) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail('the closed watch is still counted in apiserver_longrunning_requests');
  });

  test("kube's names, types, label names and buckets (list from kube's source)", async () => {
    const s = await scrape();
    for (const [name, expected] of Object.entries(KUBE_METRICS)) {
      const family = s.families.get(name);
      assert.ok(family, `${name} is exposed`);
      assert.equal(family.type, expected.type.toUpperCase(), `${name} is a ${expected.type}`);
      const sampleName = expected.type === 'histogram' ? `${name}_count` : name;
      const samples = s.samples.get(sampleName) ?? [];
      for (const sample of samples) assert.deepEqual(Object.keys(sample.labels).sort(), [...expected.labels].sort(), `${name}'s label names`);
      if (expected.buckets && samples.length > 0) {
        const first = samples[0]!.labels;
        const bounds = (s.samples.get(`${name}_bucket`) ?? [])
          .filter((b) => expected.labels.every((l) => b.labels[l] === first[l]))
          .map((b) => b.labels.le);
        assert.deepEqual(bounds, [...expected.buckets.map(String), '+Inf'], `${name}'s buckets`);
      }
    }
    // Every family the mix above touched has samples to check the labels of.
    for (const name of ['apiserver_request_total', 'apiserver_request_duration_seconds', 'apiserver_response_sizes', 'etcd_request_duration_seconds', 'apiserver_storage_objects', 'apiserver_watch_events_total']) {
      const sampleName = KUBE_METRICS[name]!.type === 'histogram' ? `${name}_count` : name;
      assert.ok((s.samples.get(sampleName) ?? []).length > 0, `${name} has samples`);
    }
  });

  test('authorised as kube does: system:monitoring may scrape, others may not', async () => {
    assert.equal((await nobody('GET', '/metrics')).status, 403);
    const anonymous = httpsClient(rbac.server.url, ca);
    try {
      assert.ok([401, 403].includes((await anonymous.request('GET', '/metrics')).status));
    } finally {
      anonymous.close();
    }
    assert.equal((await admin('GET', '/metrics')).status, 200);
  });

  test('a path no route serves adds no series: made-up groups, versions, resources and subresources (kube counts only its routes)', async () => {
    const series = (s: Scrape) => (s.samples.get('apiserver_request_total') ?? []).map((m) => JSON.stringify({ ...m.labels, code: undefined }));
    const before = new Set(series(await scrape()));
    // Each path is one a user with wildcard rights may send; none is served (404 or 405).
    const made: string[] = [];
    for (let i = 0; i < 8; i++) {
      made.push(`/apis/widgets.example.com/v1/namespaces/default/rnd${i}`);
      made.push(`/apis/widgets.example.com/v${i + 7}/widgets`);
      made.push(`/apis/g${i}.example.com/v1/widgets`);
      made.push(`${NS}/m1/sub${i}`);
      made.push(`/api/v1/namespaces/default/pods${i}/x`);
      made.push(`/api/v1/namespaces/default/configmaps/x/sub${i}`);
      made.push(`/apis/widgets.example.com/v1/namespaces/default/widgets${i}/x/y`);
    }
    for (const path of made) assert.equal((await admin('GET', path)).status, 404, path);
    const added = series(await scrape()).filter((s) => !before.has(s) && !s.includes('"/metrics"'));
    assert.deepEqual(added, [], 'no new label set');
    // A 404 for an object of a served resource is still counted under the resource.
    assert.equal((await admin('GET', `${NS}/no-such-widget`)).status, 404);
    const found = (await scrape()).samples.get('apiserver_request_total')!.find((m) => m.labels.resource === 'widgets' && m.labels.code === '404' && m.labels.verb === 'GET');
    assert.ok(found, 'GET widgets 404 is counted');
  });

  test('--profiling serves CPU and heap profiles to whoever may get /debug/pprof', async () => {
    assert.equal((await monitor('GET', '/debug/pprof/heap')).status, 403);
    const heap = await admin('GET', '/debug/pprof/heap');
    assert.equal(heap.status, 200);
    assert.ok(heap.body.head, 'a sampling heap profile');
    const cpu = await admin('GET', '/debug/pprof/profile?seconds=0.2');
    assert.equal(cpu.status, 200);
    assert.ok(Array.isArray(cpu.body.nodes), 'a CPU profile');
    assert.equal((await admin('GET', '/debug/pprof/profile?seconds=abc')).status, 400);
  });
});

test('without --profiling there is no /debug/pprof', async () => {
  const rbac = await startRBACServer();
  try {
    assert.equal((await rbac.as.admin!('GET', '/debug/pprof/heap')).status, 404);
  } finally {
    await rbac.close();
  }
});

test('a 429 from max-in-flight is a termination and a flow-control rejection, not a request', async () => {
  const text = async () => parseScrape(await (await metricsRegistry()).metrics());
  const before = await text();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const filters: NamedFilter[] = [
    { name: 'request-info', filter: withRequestInfo() },
    { name: 'metrics', filter: withMetrics() },
    { name: 'max-in-flight', filter: withMaxInFlightLimit({ maxRequestsInflight: 1, maxMutatingRequestsInflight: 1 }) },
    {
      name: 'authorization',
      filter: (next) => (ctx) => {
        ctx.authorization = { decision: 'Allow', reason: '' };
        return next(ctx);
      },
    },
  ];
  const chain = composeFilters(filters, async () => {
    await held;
    return objectResponse(200, { kind: 'Widget' });
  });
  const req = () => newRequestContext({ method: 'GET', url: '/apis/widgets.example.com/v1/namespaces/default/widgets/a', headers: {}, signal: new AbortController().signal });
  const first = chain(req());
  const second = await chain(req());
  assert.equal(second.code, 429);
  release();
  assert.equal((await first).code, 200);
  const s = await text();
  const delta = (name: string, labels: Record<string, string>) => sampleSum(s, name, labels) - sampleSum(before, name, labels);
  assert.equal(delta('apiserver_request_terminations_total', { ...G, verb: 'GET', scope: 'resource', code: '429' }), 1);
  assert.equal(delta('apiserver_flowcontrol_rejected_requests_total', { reason: 'concurrency-limit' }), 1);
  assert.equal(delta('apiserver_request_total', { ...G, verb: 'GET', code: '429' }), 0);
  assert.equal(delta('apiserver_request_total', { ...G, verb: 'GET', code: '200' }), 1);
});

test('requests that alternate between label sets are each counted under their own labels', async () => {
  const text = async () => parseScrape(await (await metricsRegistry()).metrics());
  const before = await text();
  const allow: NamedFilter = {
    name: 'authorization',
    filter: (next) => (ctx) => {
      ctx.authorization = { decision: 'Allow', reason: '' };
      return next(ctx);
    },
  };
  const chain = composeFilters([{ name: 'request-info', filter: withRequestInfo() }, { name: 'metrics', filter: withMetrics() }, allow], (ctx) =>
    objectResponse(ctx.url.pathname.endsWith('/missing') ? 404 : 200, { kind: 'Widget' }),
  );
  const send = (method: string, url: string) => chain(newRequestContext({ method, url, headers: {}, signal: new AbortController().signal }));
  // Each request differs from the one before in one label only (resource, scope, dry run,
  // subresource, verb, version), then repeats it, so a remembered record must match every label.
  const urls: [string, string][] = [
    ['GET', '/apis/widgets.example.com/v1/namespaces/default/widgets/a'],
    ['GET', '/apis/widgets.example.com/v1/namespaces/default/gizmos/a'],
    ['GET', '/apis/widgets.example.com/v1/namespaces/default/gizmos'],
    ['GET', '/apis/widgets.example.com/v1/namespaces/default/gizmos?dryRun=All'],
    ['GET', '/apis/widgets.example.com/v1/namespaces/default/gizmos/a/status'],
    ['DELETE', '/apis/widgets.example.com/v1/namespaces/default/gizmos/a/status'],
    ['DELETE', '/apis/widgets.example.com/v2/namespaces/default/gizmos/a/status'],
    ['GET', '/apis/widgets.example.com/v1/namespaces/default/widgets/missing'],
  ];
  for (const [method, url] of urls) for (let i = 0; i < 2; i++) await send(method, url);
  const s = await text();
  const delta = (labels: Record<string, string>) => sampleSum(s, 'apiserver_request_total', labels) - sampleSum(before, 'apiserver_request_total', labels);
  const g = { group: 'widgets.example.com', version: 'v1', component: 'apiserver', code: '200' };
  assert.equal(delta({ ...g, resource: 'widgets', verb: 'GET', scope: 'resource' }), 2);
  assert.equal(delta({ ...g, resource: 'widgets', verb: 'GET', scope: 'resource', code: '404' }), 2);
  assert.equal(delta({ ...g, resource: 'gizmos', verb: 'GET', scope: 'resource', subresource: '' }), 2);
  assert.equal(delta({ ...g, resource: 'gizmos', verb: 'LIST', scope: 'namespace', dry_run: '' }), 2);
  assert.equal(delta({ ...g, resource: 'gizmos', verb: 'LIST', scope: 'namespace', dry_run: 'All' }), 2);
  assert.equal(delta({ ...g, resource: 'gizmos', verb: 'GET', subresource: 'status' }), 2);
  assert.equal(delta({ ...g, resource: 'gizmos', verb: 'DELETE', subresource: 'status' }), 2);
  assert.equal(delta({ ...g, version: 'v2', resource: 'gizmos', verb: 'DELETE', subresource: 'status' }), 2);
  assert.equal(delta({ ...g, resource: 'gizmos' }), 10);
});
