/**
 * Where the client's credentials may not go (client-go is the bar):
 * - an exec plugin's output that is not an ExecCredential (a plugin printing the raw token, or
 *   JSON cut short) is refused in Go's words, naming one character, never quoting the output;
 * - a redirect to another host never carries the bearer token: the Node transport follows it
 *   without credentials (redirects.test.ts), and fetch drops Authorization on a cross-origin redirect;
 * - a refused request's error does not hold the token, nor a malformed answer's error its text.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FetchTransport, RestClient, parseExecCredential, runExecPlugin } from '@kgen/client';
import { startStub, type Stub } from './stub-server.js';

const TOKEN = 'ya29.secret-token-0123456789abcdef';

describe('client credentials in errors and redirects', () => {
  const stubs: Stub[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'kgen-client-leaks-'));
  after(async () => {
    await Promise.all(stubs.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('an exec plugin that prints the bare token, or JSON cut short: Go\'s decoding error, never the output', async () => {
    const config = { command: 'gcloud-token', apiVersion: 'client.authentication.k8s.io/v1' };
    const outputs: [string, RegExp][] = [
      [TOKEN, /decoding stdout: couldn't get version\/kind; json parse error: invalid character 'y' looking for beginning of value$/],
      [`${TOKEN}\n`, /invalid character 'y' looking for beginning of value$/],
      [`{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"${TOKEN}"`, /json parse error: unexpected end of JSON input$/],
      [`{"kind":"ExecCredential","status":{"token":"${TOKEN}"}}\ntrailing`, /json parse error: invalid character 't' after top-level value$/],
    ];
    for (const [output, message] of outputs) {
      assert.throws(
        () => parseExecCredential(output, config),
        (err: Error) => {
          assert.match(err.message, message);
          assert.ok(!err.message.includes('secret-token'), err.message);
          return true;
        },
      );
    }
    // The same through a real plugin process.
    const plugin = join(dir, 'plugin.sh');
    writeFileSync(plugin, `#!/bin/sh\necho '${TOKEN}'\n`);
    chmodSync(plugin, 0o755);
    await assert.rejects(runExecPlugin({ command: plugin, apiVersion: 'client.authentication.k8s.io/v1', interactiveMode: 'Never' }), (err: Error) => !err.message.includes('secret-token') && /decoding stdout/.test(err.message));
  });

  it('a redirect to another host never carries the token', async () => {
    const elsewhere = await startStub((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"kind":"Status","apiVersion":"v1","status":"Success"}');
    });
    stubs.push(elsewhere);
    const other = elsewhere.url.replace('127.0.0.1', 'localhost');
    const redirecting = await startStub((req, res) => {
      res.writeHead(302, { Location: `${other}${req.url}` }).end();
    });
    stubs.push(redirecting);
    // The default (Node) transport, then fetch.
    for (const transport of [undefined, new FetchTransport()]) {
      const rest = new RestClient({ server: redirecting.url, token: TOKEN, qps: 0, maxRetries: 0 }, transport ? { transport } : {});
      try {
        await rest.request({ method: 'GET', path: '/api/v1/namespaces' });
      } catch (err) {
        assert.ok(!String((err as Error).message).includes('secret-token'), (err as Error).message);
      }
    }
    assert.ok(redirecting.requests.every((r) => r.headers.authorization === `Bearer ${TOKEN}`), 'the server named gets the token');
    assert.ok(elsewhere.requests.every((r) => r.headers.authorization === undefined), `another host never does: ${JSON.stringify(elsewhere.requests.map((r) => r.headers.authorization))}`);
  });

  it('a 401 or 403 answer\'s error does not quote the token', async () => {
    const refusing = await startStub((req, res) => {
      const code = req.path.includes('forbidden') ? 403 : 401;
      res.writeHead(code, { 'Content-Type': 'text/plain' }).end(code === 401 ? 'Unauthorized' : 'forbidden');
    });
    stubs.push(refusing);
    const rest = new RestClient({ server: refusing.url, token: TOKEN, qps: 0, maxRetries: 0 });
    for (const path of ['/api/v1/namespaces', '/api/v1/forbidden']) {
      await assert.rejects(rest.request({ method: 'GET', path }), (err: Error) => !JSON.stringify({ ...err, message: err.message, stack: err.stack }).includes('secret-token'));
    }
  });

  it('a JSON answer cut short (a Secret) is refused in Go\'s words, quoting none of it', async () => {
    const secret = JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { password: 'aHVudGVyMg==' } });
    const cut = await startStub((_req, res) => void res.writeHead(200, { 'Content-Type': 'application/json' }).end(secret.slice(0, 90)));
    stubs.push(cut);
    const rest = new RestClient({ server: cut.url, token: TOKEN, qps: 0, maxRetries: 0 });
    await assert.rejects(rest.request({ method: 'GET', path: '/api/v1/namespaces/ns/secrets/s' }), (err: Error) => {
      assert.equal(err.message, "server sent invalid JSON (HTTP 200): couldn't get version/kind; json parse error: unexpected end of JSON input");
      return true;
    });
  });
});
