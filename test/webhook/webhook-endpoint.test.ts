/**
 * The kubeconfig-format webhook endpoint (loadWebhookEndpoint, postReview) and the expiring
 * cache the webhook authenticator and authorizer share.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { stringify } from 'yaml';
import { loadWebhookEndpoint, postReview } from '../../runtime/webhook/kubeconfig-endpoint.js';
import { TTLCache } from '../../runtime/webhook/ttl-cache.js';
import { tempDir } from '../e2e/harness.js';

describe('loadWebhookEndpoint', () => {
  const dir = tempDir('webhook-endpoint');
  const write = (name: string, doc: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, typeof doc === 'string' ? doc : stringify(doc));
    return file;
  };

  it("follows the current context and reads file references relative to the kubeconfig", () => {
    writeFileSync(join(dir, 'ca.pem'), 'CA');
    const file = write('ctx.yaml', {
      clusters: [{ name: 'a', cluster: { server: 'https://a.example' } }, { name: 'b', cluster: { server: 'https://b.example/authz', 'certificate-authority': 'ca.pem' } }],
      users: [{ name: 'u', user: { token: 't0k' } }],
      contexts: [{ name: 'c', context: { cluster: 'b', user: 'u' } }],
      'current-context': 'c',
    });
    const e = loadWebhookEndpoint('--flag', file);
    assert.equal(e.url.href, 'https://b.example/authz');
    assert.equal(e.ca?.toString(), 'CA');
    assert.equal(e.token, 't0k');
    assert.equal(e.insecureSkipTLSVerify, false);
  });

  it('names the flag and the file in every error', () => {
    assert.throws(() => loadWebhookEndpoint('--flag', join(dir, 'missing')), /^Error: --flag .*missing: no such file$/);
    assert.throws(() => loadWebhookEndpoint('--flag', write('empty.yaml', 'clusters: []')), /--flag .*empty\.yaml: no cluster with a server URL/);
    assert.throws(() => loadWebhookEndpoint('--flag', write('ftp.yaml', { clusters: [{ cluster: { server: 'ftp://x' } }] })), /scheme must be https/);
    assert.throws(
      () => loadWebhookEndpoint('--flag', write('half.yaml', { clusters: [{ cluster: { server: 'https://x' } }], users: [{ user: { 'client-certificate-data': 'QQ==' } }] })),
      /client-certificate and client-key must be given together/,
    );
  });

  it('posts JSON with the token and reports failures in Go client words', async () => {
    let seen: { auth?: string; body?: unknown } = {};
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        seen = { auth: req.headers.authorization, body: JSON.parse(body) };
        if (req.url === '/fail') res.writeHead(500).end();
        else if (req.url === '/slow') setTimeout(() => res.end('{}'), 500);
        else res.end(JSON.stringify({ status: { ok: true } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const endpoint = (path: string) => loadWebhookEndpoint('--f', write(`e${path.slice(1)}.yaml`, { clusters: [{ cluster: { server: `${base}${path}` } }], users: [{ user: { token: 'secret' } }] }));
    try {
      assert.deepEqual(await postReview(endpoint('/ok'), { a: 1 }, 2000), { status: { ok: true } });
      assert.deepEqual(seen, { auth: 'Bearer secret', body: { a: 1 } });
      await assert.rejects(postReview(endpoint('/fail'), {}, 2000), /^Error: Post "http:\/\/127\.0\.0\.1:\d+\/fail": the server responded with the status code 500$/);
      await assert.rejects(postReview(endpoint('/slow'), {}, 100), /Post ".*\/slow": context deadline exceeded/);
    } finally {
      server.close();
    }
  });
});

describe('TTLCache', () => {
  it('expires entries and evicts the least recently used', () => {
    let now = 0;
    const cache = new TTLCache<string>(2, () => now);
    cache.set('a', 'A', 100);
    cache.set('b', 'B', 100);
    assert.equal(cache.get('a'), 'A'); // a is now the most recent
    cache.set('c', 'C', 100);
    assert.equal(cache.get('b'), undefined, 'b was the least recently used');
    assert.equal(cache.get('a'), 'A');
    now = 100;
    assert.equal(cache.get('a'), undefined, 'expired');
    cache.set('z', 'Z', 0);
    assert.equal(cache.get('z'), undefined, 'a TTL of 0 keeps nothing');
  });
});
