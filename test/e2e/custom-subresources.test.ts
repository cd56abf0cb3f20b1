/**
 * Custom subresources of the example Widget (apis/widgets.example.com/v1/widget.ts), served by
 * `kgen serve --handlers ./examples/widget-handlers.ts` as a user runs it:
 *   logs     a GET that streams; `kubectl get --raw …/logs?follow=true` streams until interrupted
 *   console  a CONNECT: a WebSocket client speaks v5.channel.k8s.io (and v4) to it
 * plus discovery, OpenAPI, RBAC on the subresource (get widgets does not grant widgets/logs;
 * CONNECT needs create), the typed client, and the metrics of long-running requests.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { Clientset } from '../../generated/client/index.js';
import { CHANNEL_PROTOCOL_V4, CHANNEL_PROTOCOL_V5 } from '../../runtime/api/channels.js';
import { kubectlOk, removeDir, startKgen, tempDir, type KgenServer } from './harness.js';
import { tlsFetch } from '../support/https.js';
import { parseScrape, sampleSum } from '../metrics/scrape.js';

const NS = '/apis/widgets.example.com/v1/namespaces/default/widgets';
const TOKENS = {
  reader: 'token-reader', // Role: get widgets only
  logreader: 'token-logreader', // Role: get widgets/logs
  getconsole: 'token-getconsole', // Role: get widgets/console (not enough to connect)
  connector: 'token-connector', // Role: create widgets/console
};

describe('custom subresources (streaming logs, CONNECT console)', () => {
  let server: KgenServer;
  let dataDir: string;

  before(async () => {
    dataDir = tempDir('subresources');
    const tokens = join(dataDir, 'tokens.csv');
    writeFileSync(tokens, Object.entries(TOKENS).map(([user, token], i) => `${token},${user},uid-${i}`).join('\n') + '\n');
    server = await startKgen({
      dataDir,
      args: ['serve', '--port', '0', '--data-dir', dataDir, '--storage', 'memory:', '--handlers', './examples/widget-handlers.ts', '--token-auth-file', tokens],
    });
    kubectlOk(server.kubeconfig, ['apply', '-f', '-'], 'apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata: { name: w1, namespace: default }\nspec: { replicas: 3, color: blue }\n');
    const role = (name: string, resource: string, verb: string) =>
      `apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: { name: ${name}, namespace: default }\nrules: [{ apiGroups: [widgets.example.com], resources: [${resource}], verbs: [${verb}] }]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: { name: ${name}, namespace: default }\nroleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: ${name} }\nsubjects: [{ kind: User, name: ${name}, apiGroup: rbac.authorization.k8s.io }]\n`;
    kubectlOk(
      server.kubeconfig,
      ['apply', '-f', '-'],
      [role('reader', 'widgets', 'get'), role('logreader', 'widgets/logs', 'get'), role('getconsole', 'widgets/console', 'get'), role('connector', 'widgets/console', 'create')].join('---\n'),
    );
  });
  after(async () => {
    await server?.stop();
    if (dataDir) removeDir(dataDir);
  });

  // Bearer tokens only: with the admin's client certificate the request would be the admin's.
  const asUser = (user: keyof typeof TOKENS, path: string, init: RequestInit = {}) => tlsFetch({ ca: server.credentials().ca, token: TOKENS[user] })(new URL(path, server.url).href, init);

  async function scrape() {
    const r = await server.fetch(new URL('/metrics', server.url).href);
    assert.equal(r.status, 200);
    return parseScrape(await r.text());
  }

  it('discovery and OpenAPI list widgets/logs (get) and widgets/console (create, get)', async () => {
    const doc = (await (await server.fetch(new URL('/apis/widgets.example.com/v1', server.url).href)).json()) as { resources: { name: string; verbs: string[] }[] };
    assert.deepEqual(doc.resources.find((r) => r.name === 'widgets/logs')?.verbs, ['get']);
    assert.deepEqual(doc.resources.find((r) => r.name === 'widgets/console')?.verbs, ['create', 'get']);
    const openapi = (await (await server.fetch(new URL('/openapi/v3/apis/widgets.example.com/v1', server.url).href)).json()) as { paths: Record<string, Record<string, { 'x-kubernetes-action'?: string }>> };
    assert.equal(openapi.paths[`${NS.replace('default', '{namespace}')}/{name}/logs`]?.get?.['x-kubernetes-action'], 'get');
    assert.equal(openapi.paths[`${NS.replace('default', '{namespace}')}/{name}/console`]?.post?.['x-kubernetes-action'], 'connect');
  });

  it('kubectl get --raw …/logs?follow=true streams until interrupted', async () => {
    const child = spawn('kubectl', ['get', '--raw', `${NS}/w1/logs?follow=true&intervalMs=150`], { env: { ...process.env, KUBECONFIG: server.kubeconfig }, stdio: ['ignore', 'pipe', 'pipe'] });
    const arrivals: number[] = [];
    let out = '';
    const started = Date.now();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no 5 lines within 20 s: ${out}`)), 20_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        for (const _ of d.toString().matchAll(/\n/g)) arrivals.push(Date.now() - started);
        if (arrivals.length >= 5) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => reject(new Error(`kubectl exited ${code} before interrupted: ${out}`)));
    });
    assert.match(out, /^widget w1: turn 0, 3 spinner\(s\), colour blue\nwidget w1: turn 1/);
    // Flushed per write: the lines arrived one by one, not at the end.
    assert.ok(arrivals[4]! - arrivals[0]! >= 400, `lines arrived over time: ${arrivals.join(', ')} ms`);
    const during = await scrape();
    assert.equal(sampleSum(during, 'apiserver_longrunning_requests', { resource: 'widgets', subresource: 'logs' }), 1);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 130 : null))));
    child.kill('SIGINT');
    await exited;
    // The client went away: the stream ended on the server.
    for (let i = 0; i < 100; i++) {
      if (sampleSum(await scrape(), 'apiserver_longrunning_requests', { resource: 'widgets', subresource: 'logs' }) === 0) break;
      assert.ok(i < 99, 'the logs stream is still open on the server after kubectl was interrupted');
      await new Promise((r) => setTimeout(r, 50));
    }
    // Without follow it ends by itself, with typed options (tailLines) applied.
    const r = await server.fetch(new URL(`${NS}/w1/logs?tailLines=2`, server.url).href);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'text/plain');
    assert.equal((await r.text()).split('\n').filter(Boolean).length, 2);
    assert.equal((await server.fetch(new URL(`${NS}/w1/logs?tailLines=x`, server.url).href)).status, 400);
    assert.equal((await server.fetch(new URL(`${NS}/missing/logs`, server.url).href)).status, 404);
  });

  function openConsole(protocols: string[], headers: Record<string, string> = {}) {
    const { ca, cert, key } = server.credentials();
    const url = new URL(`${NS}/w1/console`, server.url);
    url.protocol = 'wss:';
    return new WebSocket(url, protocols, { ca, ...(headers.authorization ? { headers } : { cert, key }) });
  }

  function session(ws: WebSocket) {
    const frames: { channel: number; text: string }[] = [];
    const waiters: (() => void)[] = [];
    ws.on('message', (data: Buffer) => {
      frames.push({ channel: data[0]!, text: data.subarray(1).toString('utf8') });
      for (const w of waiters.splice(0)) w();
    });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    const until = async (pred: () => boolean) => {
      for (let i = 0; i < 200 && !pred(); i++) await new Promise<void>((r) => (waiters.push(r), setTimeout(r, 50)));
      assert.ok(pred(), `frames so far: ${JSON.stringify(frames)}`);
    };
    return { frames, closed, until };
  }

  it('a WebSocket client speaks v5.channel.k8s.io to console', async () => {
    const ws = openConsole([CHANNEL_PROTOCOL_V5, CHANNEL_PROTOCOL_V4]);
    const s = session(ws);
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    assert.equal(ws.protocol, CHANNEL_PROTOCOL_V5);
    await s.until(() => s.frames.some((f) => f.channel === 1 && f.text.includes('connected to widget w1 as kgen-admin')));
    ws.send(Buffer.concat([Buffer.from([0]), Buffer.from('hello\n')]));
    await s.until(() => s.frames.some((f) => f.channel === 1 && f.text === '> HELLO\n'));
    ws.send(Buffer.concat([Buffer.from([4]), Buffer.from(JSON.stringify({ Width: 80, Height: 24 }))]));
    await s.until(() => s.frames.some((f) => f.channel === 2 && f.text === 'resized to 80x24\n'));
    const during = await scrape();
    assert.equal(sampleSum(during, 'apiserver_longrunning_requests', { resource: 'widgets', subresource: 'console', verb: 'CONNECT' }), 1);
    // v5's close signal for stdin ends the session: Success on the error channel, then a normal close.
    ws.send(Buffer.from([255, 0]));
    assert.equal(await s.closed, 1000);
    const status = JSON.parse(s.frames.find((f) => f.channel === 3)!.text) as { status: string };
    assert.equal(status.status, 'Success');
    const after = await scrape();
    assert.equal(sampleSum(after, 'apiserver_request_total', { resource: 'widgets', subresource: 'console', verb: 'CONNECT', code: '101' }), 1);
  });

  it('falls back to v4.channel.k8s.io; refuses what is no channel upgrade', async () => {
    const ws = openConsole([CHANNEL_PROTOCOL_V4]);
    const s = session(ws);
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    assert.equal(ws.protocol, CHANNEL_PROTOCOL_V4);
    ws.send(Buffer.concat([Buffer.from([0]), Buffer.from('exit\n')]));
    assert.equal(await s.closed, 1000);
    assert.equal((JSON.parse(s.frames.find((f) => f.channel === 3)!.text) as { status: string }).status, 'Success');
    // A CONNECT without an upgrade, and an upgrade with no channel protocol: 400 (kube's wsstream).
    const post = await server.fetch(new URL(`${NS}/w1/console`, server.url).href, { method: 'POST' });
    assert.equal(post.status, 400);
    assert.match(((await post.json()) as { message: string }).message, /Upgrade request required/);
    const bare = openConsole(['base64.channel.k8s.io']);
    const status = await new Promise<number>((resolve) => {
      bare.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      bare.once('error', () => resolve(-1));
    });
    assert.equal(status, 400);
  });

  it('RBAC on the subresource: get widgets does not grant widgets/logs; CONNECT needs create', async () => {
    assert.equal((await asUser('reader', `${NS}/w1`)).status, 200);
    const denied = await asUser('reader', `${NS}/w1/logs`);
    assert.equal(denied.status, 403);
    assert.match(((await denied.json()) as { message: string }).message, /cannot get resource "widgets\/logs"/);
    assert.equal((await asUser('logreader', `${NS}/w1/logs`)).status, 200);
    assert.equal((await asUser('logreader', `${NS}/w1`)).status, 403);
    const upgradeStatus = (user: keyof typeof TOKENS) =>
      new Promise<number>((resolve) => {
        const ws = openConsole([CHANNEL_PROTOCOL_V5], { authorization: `Bearer ${TOKENS[user]}` });
        ws.once('open', () => {
          ws.close();
          resolve(101);
        });
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      });
    assert.equal(await upgradeStatus('getconsole'), 403);
    assert.equal(await upgradeStatus('connector'), 101);
  });

  it('the typed client: widgets.logs(name, opts) is an async iterable; widgets.console(name) a duplex channel', async () => {
    const { ca, cert, key } = server.credentials();
    const client = new Clientset({ server: server.url, ca, cert, key, qps: 0 });
    const widgets = client.widgetsExampleComV1.widgets('default');
    let text = '';
    for await (const chunk of widgets.logs('w1', { query: { follow: true, intervalMs: 20 } })) {
      text += chunk;
      if (text.split('\n').length > 3) break;
    }
    assert.match(text, /^widget w1: turn 0[^\n]*\nwidget w1: turn 1[^\n]*\nwidget w1: turn 2/);
    const conn = await widgets.console('w1');
    assert.equal(conn.protocol, CHANNEL_PROTOCOL_V5);
    conn.writeStdin('typed\n');
    let out = '';
    for await (const chunk of conn.stdout) {
      out += chunk.toString();
      if (out.includes('> TYPED\n')) break;
    }
    conn.closeStdin();
    assert.equal((await conn.status).status, 'Success');
    client.rest.close();
  });
});
