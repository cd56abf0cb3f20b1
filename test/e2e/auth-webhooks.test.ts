/**
 * kube's webhook authentication and authorization against real kubectl: `kgen serve` with
 * --authentication-token-webhook-config-file, --authorization-mode RBAC,Webhook and
 * --authorization-webhook-config-file, both webhooks served by this test over HTTPS that
 * requires the client certificate named in their kubeconfig files.
 *
 * - a token only the webhook knows logs kubectl in, and the answer is cached;
 * - the authorization webhook allows what RBAC does not, denies at once when it says so, and
 *   gives no opinion otherwise (403);
 * - RBAC is asked first;
 * - --authorization-mode AlwaysDeny refuses everyone but system:masters;
 * - inconsistent flags stop start-up with kube's messages.
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';
import { buildKubeconfig } from '../../runtime/controlplane/kubeconfig.js';
import { KGEN_BIN, REPO, removeDir, startKgen, tempDir, type KgenServer } from './harness.js';

const GENERATED = join(REPO, 'generated');

interface Review {
  apiVersion: string;
  kind: string;
  spec: Record<string, any>;
}

/** The two webhooks: TokenReview at /authn, SubjectAccessReview at /authz, with call counts. */
class Webhooks {
  server!: Server;
  readonly calls: Review[] = [];
  readonly ca = newCA('webhook-ca');
  readonly clientCA = newCA('webhook-client-ca');

  async start(): Promise<void> {
    const serving = newSignedCertificate(this.ca, { commonName: 'webhook', usage: 'server', hosts: ['127.0.0.1'] });
    this.server = createServer({ cert: serving.cert, key: serving.key, ca: this.clientCA.cert, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const review = JSON.parse(body) as Review;
        this.calls.push(review);
        const status = req.url === '/authn' ? tokenReview(review) : accessReview(review);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: review.kind, status }));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  /** A kubeconfig file for `path` that presents a client certificate the webhooks accept. */
  configFile(dir: string, name: string, path: string): string {
    const client = newSignedCertificate(this.clientCA, { commonName: 'kgen-apiserver', usage: 'client' });
    const file = join(dir, `${name}.kubeconfig`);
    const port = (this.server.address() as AddressInfo).port;
    writeFileSync(file, stringify(buildKubeconfig({ server: `https://127.0.0.1:${port}${path}`, certificateAuthority: this.ca.cert, clientCertificate: client.cert, clientKey: client.key })));
    return file;
  }

  count(kind: string, match: (r: Review) => boolean = () => true): number {
    return this.calls.filter((r) => r.kind === kind && match(r)).length;
  }

  close(): void {
    this.server?.close();
  }
}

function tokenReview(review: Review): Record<string, unknown> {
  if (review.spec.token === 'alice-token') return { authenticated: true, user: { username: 'alice', uid: 'alice-1', groups: ['dev'], extra: { team: ['blue'] } } };
  return { authenticated: false, error: 'token revoked' };
}

function accessReview(review: Review): Record<string, unknown> {
  const { user, resourceAttributes: r } = review.spec;
  if (user !== 'alice' || !r) return { allowed: false };
  if (r.resource === 'widgets' && ['get', 'list', 'watch'].includes(r.verb)) return { allowed: true, reason: 'alice reads widgets' };
  if (r.resource === 'widgets' && r.verb === 'delete') return { allowed: false, denied: true, reason: 'alice may not delete widgets' };
  return { allowed: false, reason: 'no opinion' };
}

function kubectl(kubeconfig: string, args: string[], input?: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = execFile('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: tempDir('home') }, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? -1) : 0, out: `${stdout}${stderr}` });
    });
    if (input !== undefined) child.stdin!.end(input);
  });
}

const WIDGET = (name: string) => `apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata: {name: ${name}, namespace: default}\nspec: {replicas: 1, color: blue}\n`;

describe('kgen serve with webhook authentication and authorization', () => {
  const hooks = new Webhooks();
  const dir = tempDir('auth-webhooks');
  let server: KgenServer;
  let alice: string;
  let mallory: string;

  before(async () => {
    await hooks.start();
    const dataDir = join(dir, 'data');
    server = await startKgen({
      dataDir,
      args: [
        'serve', GENERATED, '--port', '0', '--data-dir', dataDir, '--storage', 'memory:',
        '--authentication-token-webhook-config-file', hooks.configFile(dir, 'authn', '/authn'),
        '--authorization-mode', 'RBAC,Webhook',
        '--authorization-webhook-config-file', hooks.configFile(dir, 'authz', '/authz'),
      ],
    });
    const ca = server.credentials().ca;
    alice = join(dir, 'alice.kubeconfig');
    mallory = join(dir, 'mallory.kubeconfig');
    writeFileSync(alice, stringify(buildKubeconfig({ server: server.url, certificateAuthority: ca, token: 'alice-token' })));
    writeFileSync(mallory, stringify(buildKubeconfig({ server: server.url, certificateAuthority: ca, token: 'mallory-token' })));
    const create = await kubectl(server.kubeconfig, ['create', '-f', '-'], WIDGET('w1'));
    assert.equal(create.code, 0, create.out);
  });

  after(async () => {
    await server?.stop('SIGKILL');
    hooks.close();
    removeDir(dir);
  });

  it('logs kubectl in with a token only the webhook knows, and the webhook allows what RBAC does not', async () => {
    const get = await kubectl(alice, ['get', 'widgets', '-o', 'name']);
    assert.equal(get.code, 0, get.out);
    assert.match(get.out, /^widget\.widgets\.example\.com\/w1$/m);
    const review = hooks.calls.find((r) => r.kind === 'SubjectAccessReview' && r.spec.user === 'alice');
    assert.deepEqual(review?.spec.groups, ['dev', 'system:authenticated']);
    assert.deepEqual(review?.spec.extra, { team: ['blue'] });
    assert.equal(review?.spec.uid, 'alice-1');
    assert.equal(review?.apiVersion, 'authorization.k8s.io/v1');
    const can = await kubectl(alice, ['auth', 'can-i', 'list', 'widgets']);
    assert.equal(can.out.trim(), 'yes', 'the access reviews answer with the same authorizers');
  });

  it('caches token and access answers', async () => {
    const tokens = hooks.count('TokenReview', (r) => r.spec.token === 'alice-token');
    const lists = hooks.count('SubjectAccessReview', (r) => r.spec.resourceAttributes?.verb === 'list' && r.spec.resourceAttributes?.resource === 'widgets');
    for (let i = 0; i < 2; i++) assert.equal((await kubectl(alice, ['get', 'widgets', '-o', 'name'])).code, 0);
    assert.equal(hooks.count('TokenReview', (r) => r.spec.token === 'alice-token'), tokens);
    assert.equal(hooks.count('SubjectAccessReview', (r) => r.spec.resourceAttributes?.verb === 'list' && r.spec.resourceAttributes?.resource === 'widgets'), lists);
  });

  it('refuses a token the webhook does not authenticate', async () => {
    const r = await kubectl(mallory, ['get', 'widgets']);
    assert.notEqual(r.code, 0);
    assert.match(r.out, /error: You must be logged in to the server \(the server has asked for the client to provide credentials\)/);
  });

  it('no opinion from either authorizer is a 403; a webhook denial is one at once', async () => {
    const create = await kubectl(alice, ['create', '-f', '-'], WIDGET('w2'));
    assert.notEqual(create.code, 0);
    assert.match(create.out, /widgets\.widgets\.example\.com is forbidden: User "alice" cannot create resource "widgets" in API group "widgets\.example\.com" in the namespace "default"/);
    const del = await kubectl(alice, ['delete', 'widget', 'w1']);
    assert.notEqual(del.code, 0);
    assert.match(del.out, /widgets\.widgets\.example\.com "w1" is forbidden: User "alice" cannot delete resource "widgets" .*alice may not delete widgets/);
  });

  it('asks RBAC first: a binding allows what the webhook has no opinion on', async () => {
    const grant = await kubectl(server.kubeconfig, ['create', 'clusterrole', 'widget-creator', '--verb=create', '--resource=widgets.widgets.example.com']);
    assert.equal(grant.code, 0, grant.out);
    const bind = await kubectl(server.kubeconfig, ['create', 'clusterrolebinding', 'alice-creates', '--clusterrole=widget-creator', '--user=alice']);
    assert.equal(bind.code, 0, bind.out);
    let create = { code: -1, out: '' };
    for (let i = 0; i < 50 && create.code !== 0; i++) {
      create = await kubectl(alice, ['create', '-f', '-'], WIDGET('w3'));
      if (create.code !== 0) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(create.code, 0, create.out);
  });
});

describe('kgen serve --authorization-mode', () => {
  it('AlwaysDeny refuses everyone but system:masters', async () => {
    const dataDir = tempDir('always-deny');
    const server = await startKgen({ dataDir, args: ['serve', GENERATED, '--port', '0', '--data-dir', dataDir, '--storage', 'memory:', '--authorization-mode', 'AlwaysDeny', '--token-auth-file', tokenFile(dataDir)] });
    try {
      const bob = join(dataDir, 'bob.kubeconfig');
      writeFileSync(bob, stringify(buildKubeconfig({ server: server.url, certificateAuthority: server.credentials().ca, token: 'bob-token' })));
      assert.equal((await kubectl(server.kubeconfig, ['get', 'widgets'])).code, 0);
      // Discovery is refused too (as kube's AlwaysDeny does), so ask for the list itself.
      const r = await kubectl(bob, ['get', '--raw', '/apis/widgets.example.com/v1/namespaces/default/widgets']);
      assert.notEqual(r.code, 0);
      assert.match(r.out, /User "bob" cannot list resource "widgets" in API group "widgets\.example\.com" in the namespace "default": Everything is forbidden\./);
    } finally {
      await server.stop('SIGKILL');
      removeDir(dataDir);
    }
  });

  it("stops start-up on inconsistent flags with kube's messages", () => {
    const run = (flags: string[]) => {
      const dataDir = tempDir('auth-flags');
      try {
        const r = spawnSync(process.execPath, [KGEN_BIN, 'serve', GENERATED, '--port', '0', '--data-dir', dataDir, '--storage', 'memory:', ...flags], { cwd: REPO, encoding: 'utf8', timeout: 30_000 });
        assert.equal(r.status, 1, `${r.stdout}${r.stderr}`);
        return r.stderr;
      } finally {
        removeDir(dataDir);
      }
    };
    assert.match(run(['--authorization-mode', 'RBAC,Webhook']), /kgen serve: authorization-mode Webhook's authorization config file not passed/);
    assert.match(run(['--authorization-webhook-config-file', '/x']), /kgen serve: cannot specify --authorization-webhook-config-file without mode Webhook/);
    assert.match(run(['--authorization-mode', 'RBAC,Node']), /kgen serve: authorization-mode "Node" is not a valid mode/);
    assert.match(run(['--authorization-mode', 'RBAC,RBAC']), /kgen serve: authorization-mode "RBAC" has mode specified more than once/);
    assert.match(run(['--authentication-token-webhook-config-file', '/nonexistent']), /kgen serve: --authentication-token-webhook-config-file \/nonexistent: no such file/);
  });
});

function tokenFile(dir: string): string {
  const file = join(dir, 'tokens.csv');
  writeFileSync(file, 'bob-token,bob,bob-uid,"devs"\n');
  return file;
}
