/**
 * @kgen/client in a browser: test/e2e/browser-page.ts bundled by esbuild for the browser (with the
 * package's browser build plugin, from its sources), served from a page origin of its own, run in
 * Debian's headless Chromium driven over the DevTools protocol (--remote-debugging-pipe; nothing
 * is downloaded), against `kgen serve --token-auth-file --cors-allowed-origins`. The page lists,
 * creates, patches and watches Widgets through the fetch transport with a bearer token.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { X509Certificate, createHash } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { createRequire } from 'node:module';
import { browserPlatform } from '../../packages/client/browser-plugin.js';
import { REPO, startKgen, tempDir, type KgenServer } from './harness.js';

const CHROMIUM = '/usr/bin/chromium';

/** base64 SHA-256 of the server certificate's public key, for --ignore-certificate-errors-spki-list (trusts that key only). */
function spkiHash(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      const cert = new X509Certificate(socket.getPeerCertificate(true).raw);
      socket.end();
      resolve(createHash('sha256').update(cert.publicKey.export({ type: 'spki', format: 'der' })).digest('base64'));
    });
    socket.once('error', reject);
  });
}

/** Chromium driven over --remote-debugging-pipe: JSON messages ending in NUL on fds 3 (in) and 4 (out). */
class Chromium {
  private id = 0;
  private buffered = '';
  private readonly waiting = new Map<number, (msg: { result?: unknown; error?: { message: string } }) => void>();
  readonly process: ChildProcess;

  constructor(args: string[]) {
    this.process = spawn(CHROMIUM, [...args, '--remote-debugging-pipe', 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true });
    this.process.stderr!.resume();
    const out = this.process.stdio[4] as NodeJS.ReadableStream;
    out.setEncoding('utf8');
    out.on('data', (chunk: string) => {
      this.buffered += chunk;
      let end: number;
      while ((end = this.buffered.indexOf('\0')) >= 0) {
        const msg = JSON.parse(this.buffered.slice(0, end));
        this.buffered = this.buffered.slice(end + 1);
        if (typeof msg.id === 'number') this.waiting.get(msg.id)?.(msg);
      }
    });
  }

  send(method: string, params: object = {}): Promise<unknown> {
    const id = ++this.id;
    const done = new Promise<unknown>((resolve, reject) => this.waiting.set(id, (msg) => (msg.error ? reject(new Error(`${method}: ${msg.error.message}`)) : resolve(msg.result))));
    (this.process.stdio[3] as NodeJS.WritableStream).write(`${JSON.stringify({ id, method, params })}\0`);
    return done;
  }

  kill(): void {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    try {
      process.kill(-this.process.pid!, 'SIGKILL');
    } catch {
      this.process.kill('SIGKILL');
    }
  }
}

describe('@kgen/client in headless Chromium (fetch transport, token auth, watch over a fetch stream)', () => {
  let dir: string;
  let server: KgenServer;
  let page: http.Server;
  let browser: Chromium | undefined;
  let bundle: string;
  let results: (body: string) => void;
  const posted = new Promise<string>((resolve) => (results = resolve));

  before(async () => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is required (Debian's chromium package)`);
    dir = tempDir('browser');
    const esbuild = createRequire(join(REPO, 'package.json'))('esbuild');
    const built = await esbuild.build({
      entryPoints: [join(REPO, 'test/e2e/browser-page.ts')],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      conditions: ['kgen:source'],
      plugins: [browserPlatform],
      logLevel: 'silent',
    });
    bundle = built.outputFiles[0].text;
    page = http.createServer((req, res) => {
      if (req.method === 'POST' && req.url === '/result') {
        let body = '';
        req.on('data', (d) => (body += d)).on('end', () => {
          res.writeHead(204).end();
          results(body);
        });
      } else if (req.url === '/app.js') res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(bundle);
      else res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>kgen</title><script type="module" src="/app.js"></script>');
    });
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
    writeFileSync(join(dir, 'tokens.csv'), 'browser-token,alice,uid-alice,"system:masters"\n');
    const dataDir = join(dir, 'data');
    server = await startKgen({
      dataDir,
      args: ['serve', '--port', '0', '--data-dir', dataDir, '--storage', 'memory:', '--token-auth-file', join(dir, 'tokens.csv'), '--cors-allowed-origins', '^http://127\\.0\\.0\\.1(:[0-9]+)?$'],
    });
  });
  after(async () => {
    browser?.kill();
    page?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the bundle carries the fetch transport and none of the Node modules', () => {
    assert.doesNotMatch(bundle, /from ["']node:|require\(["']node:/);
    assert.match(bundle, /\bFetchTransport = class\b|class FetchTransport\b/);
  });

  it('lists, creates, patches and watches Widgets from the page', async () => {
    browser = new Chromium([
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${join(dir, 'profile')}`,
      `--ignore-certificate-errors-spki-list=${await spkiHash(server.url)}`,
    ]);
    const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/?${new URLSearchParams({ server: server.url, token: 'browser-token' })}`;
    await browser.send('Target.createTarget', { url: pageUrl });
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the page posted no result within 60 s')), 60_000).unref());
    const result = JSON.parse(await Promise.race([posted, timeout]));
    assert.equal(result.error, undefined, result.error);
    assert.equal(result.transport, 'fetch');
    assert.deepEqual(result.list, ['from-browser']);
    assert.deepEqual(result.events, ['ADDED from-browser 1', 'MODIFIED from-browser 3']);
    assert.equal(result.badToken, 'Unauthorized');
  });
});
