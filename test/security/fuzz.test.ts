/**
 * Bad input, at scale (issue 12, "Done means"): seeded hostile requests against a real
 * `kgen serve` process with its secure defaults (HTTPS, client certificates, RBAC; SQLite
 * storage), the fixture's user kinds Widget and Gadget plus every built-in kind found through
 * discovery. Requests are the admin's, but one in twenty comes without credentials or with a
 * token the server does not know. Two generators share one seeded PRNG:
 * - fuzz-kinds.ts: every verb (get, list, watch, create, update, patch json/merge/strategic/apply,
 *   delete, deletecollection) of every served kind, with broken objects of that kind, malformed
 *   JSON/YAML/protobuf, forged continue tokens, bad query parameters, path tricks, wrong content
 *   types, oversized and slow bodies;
 * - fuzz-requests.ts: requests that make no sense at all (odd methods, headers, paths, nesting).
 *
 * It asserts: no 5xx except 503/504 (storage unavailable, timeouts) and those with a Status body;
 * every error answer is a metav1.Status (JSON, or YAML/protobuf when that was asked for); no stack
 * trace; no request left unanswered; the server process alive, /readyz ok and writes working at
 * the end; peak RSS under a bound.
 *
 * `npm test` sends FUZZ_COUNT (default 4,000: enough for the default seed to find the CRD 500s of
 * issue 12 item 5 on the code before its fix) requests; `npm run fuzz` sends 20,000. FUZZ_SEED
 * replays a run: the seed and each failing request (with its index) are printed.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { FIXTURE_DIR } from '../server/testserver.js';
import { adminCredentials, tlsFetch, type Fetch } from '../support/https.js';
import { kindRequest, VERBS, collectionPath, type FuzzVerb, type KindInfo, type KindRequest } from './fuzz-kinds.js';
import { Fuzzer, fuzzRequest, hugeRequests, random } from './fuzz-requests.js';

const COUNT = Number(process.env.FUZZ_COUNT ?? 4_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_126);
const CONCURRENCY = 8;
/** Peak RSS allowed over the idle server's (MiB). The few 3 MiB bodies and watch caches fit well inside. */
const RSS_GROWTH_LIMIT_MIB = 400;
const KGEN = fileURLToPath(new URL('../../bin/kgen.js', import.meta.url));

interface Outcome {
  status?: number;
  contentType?: string;
  body?: Buffer;
  error?: string;
}

interface Served {
  proc: ChildProcess;
  url: string;
  output(): string;
}

function serve(dataDir: string): Promise<Served> {
  // The secure defaults (HTTPS, authentication, RBAC): every kind is served, SubjectAccessReviews too.
  const proc = spawn(process.execPath, [KGEN, 'serve', FIXTURE_DIR, '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out = (out + chunk.toString()).slice(-20_000);
      const m = /kgen API server: (\S+)/.exec(out);
      if (m) resolve({ proc, url: m[1]!, output: () => out });
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`kgen serve exited (${code}) before serving:\n${out}`)));
  });
}

function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

function send(agent: https.Agent, base: URL, req: KindRequest): Promise<Outcome> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body) headers['content-length'] = req.body.length;
    let settled = false;
    const done = (o: Outcome) => {
      if (!settled) {
        settled = true;
        resolve(o);
      }
    };
    // Characters Node's client will not put in a request line go out percent-encoded.
    const path = req.path.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
    const r = https.request({ host: base.hostname, port: base.port, method: req.method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < 1 << 20) chunks.push(c);
        size += c.length;
      });
      let look: ReturnType<typeof setTimeout> | undefined;
      const finish = () => {
        // An answer that ended by itself needs no look (a timer left running kept the process alive).
        clearTimeout(look);
        done({ status: res.statusCode, contentType: res.headers['content-type'], body: Buffer.concat(chunks) });
      };
      res.on('end', finish);
      res.on('error', (err) => (clearTimeout(look), done({ status: res.statusCode, error: err.message })));
      // A watch that was accepted (also one asked for as ?watch= on a list, or under /watch/)
      // streams on, possibly without a byte while nothing changes: a short look is enough.
      if (req.method === 'GET' && res.statusCode === 200) look = setTimeout(() => (finish(), r.destroy()), req.watch ? 1500 : 5000);
    });
    r.on('error', (err) => done({ error: `${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}` }));
    r.setTimeout(30_000, () => r.destroy(new Error('no answer within 30 s')));
    if (req.slow && req.body && req.body.length > 3) {
      // A slow client: the body in three pieces, 200 ms apart.
      const third = Math.ceil(req.body.length / 3);
      r.write(req.body.subarray(0, third));
      setTimeout(() => r.write(req.body!.subarray(third, 2 * third)), 200);
      setTimeout(() => r.end(req.body!.subarray(2 * third)), 400);
    } else r.end(req.body);
  });
}

/** Requests Node's HTTP parser refuses itself (unknown methods, oversized headers) or bodies past the limit may see the connection closed. */
function mayBeCutOff(req: KindRequest): boolean {
  const standard = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND'];
  const headerBytes = Object.entries(req.headers).reduce((n, [k, v]) => n + k.length + v.length, 0);
  return !standard.includes(req.method) || headerBytes > 16_000 || (req.body?.length ?? 0) > 3 * 1024 * 1024;
}

function describeRequest(i: number, req: KindRequest): string {
  const body = req.body ? `${req.body.length} B ${JSON.stringify(req.body.subarray(0, 300).toString('latin1'))}` : 'none';
  return `#${i} ${req.method} ${req.path.slice(0, 300)} headers=${JSON.stringify(req.headers).slice(0, 300)}${req.slow ? ' (slow body)' : ''} body=${body}`;
}

/** What is wrong with this answer, if anything. */
function judge(req: KindRequest, out: Outcome): string | undefined {
  if (out.error !== undefined) return mayBeCutOff(req) ? undefined : `no answer: ${out.error}`;
  const status = out.status!;
  const text = out.body?.toString('utf8') ?? '';
  if (/\n\s+at .+:\d+:\d+/.test(text)) return `${status} with a stack trace: ${text.slice(0, 300)}`;
  if (status >= 500 && status !== 503 && status !== 504) return `${status}: ${text.slice(0, 300)}`;
  if (status < 400 || req.method === 'HEAD') return undefined;
  const ct = out.contentType ?? '';
  // kube-openapi's handler3 answers a group-version it does not serve under /openapi/v3/ with a
  // bare 404: no body, no Content-Type (kgen does too since review12's cf75263).
  if (status === 404 && req.path.startsWith('/openapi/v3/') && text === '' && ct === '') return undefined;
  if (ct.startsWith('application/json')) {
    let parsed: { kind?: string; status?: string; code?: number };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      return `${status} with a body that is not JSON: ${text.slice(0, 300)}`;
    }
    if (parsed.kind !== 'Status' || parsed.status !== 'Failure' || parsed.code !== status) return `${status} without a matching Status: ${text.slice(0, 300)}`;
    return undefined;
  }
  if (ct.startsWith('application/yaml')) return /^kind: Status$/m.test(text) && new RegExp(`^code: ${status}$`, 'm').test(text) ? undefined : `${status} without a YAML Status: ${text.slice(0, 300)}`;
  if (ct.startsWith('application/vnd.kubernetes.protobuf')) return out.body!.subarray(0, 4).equals(Buffer.from('k8s\0')) && text.includes('Status') ? undefined : `${status} without a protobuf Status`;
  return `${status} answered as ${JSON.stringify(ct)}, not a Status: ${text.slice(0, 200)}`;
}

/** fetch() as the admin (set once the server is up). */
let api: Fetch;

async function getJSON(url: string): Promise<any> {
  const res = await api(url);
  return res.ok ? res.json() : undefined;
}

/** Every served kind (from discovery), with a real object of it as the template when there is one. */
async function discoverKinds(url: string): Promise<KindInfo[]> {
  const groupVersions: { group: string; version: string }[] = [{ group: '', version: 'v1' }];
  const groups = (await getJSON(`${url}/apis`)) as { groups: { name: string; versions: { version: string }[] }[] };
  for (const g of groups.groups) for (const v of g.versions) groupVersions.push({ group: g.name, version: v.version });
  const kinds: KindInfo[] = [];
  for (const gv of groupVersions) {
    const base = gv.group ? `${url}/apis/${gv.group}/${gv.version}` : `${url}/api/${gv.version}`;
    const list = (await getJSON(base)) as { resources: { name: string; kind: string; namespaced: boolean; verbs: string[] }[] } | undefined;
    if (!list) continue;
    for (const r of list.resources) {
      if (r.name.includes('/')) continue;
      const apiVersion = gv.group ? `${gv.group}/${gv.version}` : gv.version;
      const info: KindInfo = {
        ...gv,
        resource: r.name,
        kind: r.kind,
        namespaced: r.namespaced,
        verbs: r.verbs,
        subresources: list.resources.filter((s) => s.name.startsWith(`${r.name}/`)).map((s) => s.name.slice(r.name.length + 1)),
        template: { apiVersion, kind: r.kind, metadata: { name: 'fz-1' }, spec: {} },
      };
      if (r.verbs.includes('list')) {
        const items = ((await getJSON(`${url}${collectionPath(info, 'default').replace('/namespaces/default', '')}`)) as { items?: any[] } | undefined)?.items ?? [];
        const item = items.find((o) => !o.metadata?.namespace || o.metadata.namespace === 'default') ?? items[0];
        if (item) {
          const { name, labels, annotations } = item.metadata ?? {};
          info.template = { ...item, apiVersion, kind: r.kind, metadata: { name, labels, annotations } };
        }
      }
      kinds.push(info);
    }
  }
  return kinds.sort((a, b) => `${a.group}/${a.resource}`.localeCompare(`${b.group}/${b.resource}`));
}

/** Objects for the templates of kinds the server starts without. */
async function seed(url: string): Promise<void> {
  const post = (path: string, body: unknown) => api(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fz' } });
  await post('/apis/widgets.example.com/v1/namespaces/default/widgets', { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'w0', labels: { a: 'b' } }, spec: { replicas: 1 } });
  await post('/apis/widgets.example.com/v1/gadgets', { apiVersion: 'widgets.example.com/v1', kind: 'Gadget', metadata: { name: 'g0' }, spec: { size: 'small' } });
  await post('/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc0' }, spec: { ports: [{ port: 443, targetPort: 8443, protocol: 'TCP' }], selector: { a: 'b' } } });
  await post('/api/v1/namespaces/default/endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'svc0' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port: 8443 }] }] });
  await post('/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r0' }, rules: [{ apiGroups: [''], resources: ['services'], verbs: ['get'] }] });
  await post('/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'rb0' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r0' }, subjects: [{ kind: 'User', name: 'bob' }] });
  const webhook = { name: 'w.example.com', clientConfig: { url: 'https://127.0.0.1:1/x' }, rules: [{ operations: ['CREATE'], apiGroups: ['nothing.example'], apiVersions: ['v1'], resources: ['nothings'] }], sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Ignore' };
  await post('/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'vw0' }, webhooks: [webhook] });
  await post('/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'mw0' }, webhooks: [webhook] });
  await post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'things.fuzz.example.com' },
    spec: {
      group: 'fuzz.example.com',
      scope: 'Namespaced',
      names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
    },
  });  // The CRD's kind is served once it is established: wait, so every run discovers the same kinds.
  for (let i = 0; i < 100 && !(await getJSON(`${url}/apis/fuzz.example.com/v1`)); i++) await new Promise((r) => setTimeout(r, 100));
}

describe('hostile requests against every verb of every kind', () => {
  let served: Served;
  const dataDir = mkdtempSync(join(tmpdir(), 'kgen-fuzz-'));
  before(async () => {
    served = await serve(dataDir);
  });
  after(async () => {
    if (served && served.proc.exitCode === null) {
      const exited = new Promise((r) => served.proc.once('exit', r));
      served.proc.kill('SIGTERM');
      const timer = setTimeout(() => served.proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`answers ${COUNT} seeded hostile requests (seed ${SEED}) with a Status, never a 500, and keeps serving`, async () => {
    const url = served.url;
    const pid = served.proc.pid!;
    const creds = adminCredentials(dataDir);
    api = tlsFetch(creds);
    await seed(url);
    const kinds = await discoverKinds(url);
    assert.ok(kinds.some((k) => k.kind === 'Widget') && kinds.some((k) => k.kind === 'CustomResourceDefinition') && kinds.some((k) => k.kind === 'ClusterRole'), `discovered ${kinds.map((k) => k.kind).join(', ')}`);
    const idleRSS = rssMiB(pid);

    const f = new Fuzzer(random(SEED));
    const requests: KindRequest[] = [...hugeRequests()];
    const perVerb = new Map<string, number>();
    while (requests.length < COUNT) {
      if (f.chance(0.25)) {
        requests.push(fuzzRequest(f));
        continue;
      }
      const k = f.pick(kinds);
      // Mostly the kind's own verbs; sometimes one it does not serve.
      // Mostly the kind's own verbs, writes twice as often (bodies are where validation is
      // assumed); sometimes a verb it does not serve.
      const served = VERBS.filter((v) => k.verbs.includes(v.startsWith('patch') ? 'patch' : v));
      const writes = served.filter((v) => v === 'create' || v === 'update' || v.startsWith('patch'));
      const verb: FuzzVerb = f.chance(0.9) ? f.pick(f.chance(0.5) && writes.length ? writes : served) ?? 'get' : f.pick(VERBS);
      perVerb.set(verb, (perVerb.get(verb) ?? 0) + 1);
      requests.push(kindRequest(f, k, verb, kinds));
    }
    // One in twenty without a client certificate: anonymous, or with a token the server does not know.
    for (const req of requests) {
      if (f.chance(0.05)) {
        req.anonymous = true;
        if (f.chance(0.5)) req.headers.authorization = f.pick(['Bearer nope', 'Bearer ', 'Basic eDp5', `Bearer ${'x'.repeat(5000)}`]);
      }
    }

    // FUZZ_ONLY=12,345 replays only those requests (of the same seed and count).
    const only = process.env.FUZZ_ONLY?.split(',').map(Number);
    const agent = new https.Agent({ keepAlive: true, maxSockets: CONCURRENCY, ca: creds.ca, cert: creds.cert, key: creds.key });
    // Some requests come with no client certificate: anonymous, or a bearer token (valid or not).
    const stranger = new https.Agent({ keepAlive: true, maxSockets: CONCURRENCY, ca: creds.ca });
    const base = new URL(url);
    const failures: string[] = [];
    const trace: string[] = [];
    const statuses = new Map<number, number>();
    let peakRSS = idleRSS;
    const sampler = setInterval(() => (peakRSS = Math.max(peakRSS, rssMiB(pid))), 200);
    const started = Date.now();
    let next = 0;
    const worker = async () => {
      while (next < (only?.length ?? requests.length) && served.proc.exitCode === null) {
        const i = only ? only[next++]! : next++;
        if (only && next > only.length) break;
        const req = requests[i]!;
        let out: Outcome;
        try {
          out = await send(req.anonymous ? stranger : agent, base, req);
        } catch (err) {
          out = { error: `the test client refused it: ${(err as Error).message}` };
        }
        if (out.status !== undefined) statuses.set(out.status, (statuses.get(out.status) ?? 0) + 1);
        if (process.env.FUZZ_TRACE) trace.push(`${out.status ?? out.error} ${describeRequest(i, req).slice(0, 400)} → ${out.body?.subarray(0, 200).toString('utf8')}`);
        const problem = judge(req, out);
        if (problem) failures.push(`${describeRequest(i, req)}\n    → ${problem}`);
      }
    };
    try {
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    } finally {
      clearInterval(sampler);
      agent.destroy();
      stranger.destroy();
    }
    const seconds = (Date.now() - started) / 1000;
    if (process.env.FUZZ_TRACE) writeFileSync(process.env.FUZZ_TRACE, trace.join('\n'));
    const summary = `seed ${SEED}, ${requests.length} requests in ${seconds.toFixed(1)} s over ${kinds.length} kinds (${kinds.map((k) => k.kind).join(", ")}); verbs ${JSON.stringify([...perVerb].sort())}; statuses ${JSON.stringify([...statuses].sort((a, b) => a[0] - b[0]))}; RSS idle ${idleRSS.toFixed(0)} MiB, peak ${peakRSS.toFixed(0)} MiB`;
    console.log(`fuzz: ${summary}`);
    if (failures.length) console.log(`fuzz: ${failures.length} bad answers (replay with FUZZ_SEED=${SEED} FUZZ_COUNT=${COUNT}):\n${failures.slice(0, 40).join('\n')}`);

    assert.equal(served.proc.exitCode, null, `the server died:\n${served.output()}`);
    assert.deepEqual(failures.slice(0, 10), [], `${failures.length} bad answers; ${summary}`);
    const ready = await api(`${url}/readyz`);
    assert.equal(ready.status, 200, await ready.text());
    const created = await api(`${url}/apis/widgets.example.com/v1/namespaces/default/widgets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'after-fuzz' }, spec: { replicas: 1 } }),
    });
    assert.equal(created.status, 201, await created.text());
    assert.ok(peakRSS - idleRSS < RSS_GROWTH_LIMIT_MIB, `RSS grew by ${(peakRSS - idleRSS).toFixed(0)} MiB (limit ${RSS_GROWTH_LIMIT_MIB}); ${summary}`);
  });
});
