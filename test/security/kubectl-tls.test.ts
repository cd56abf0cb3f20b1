/**
 * `kgen serve` with no security flags, as a user runs it: HTTPS with credentials it made in the
 * data dir, kubectl through the written kubeconfig, bearer tokens from --token-auth-file,
 * anonymous access only to health and version, impersonation, and --insecure-dev-mode.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildKubeconfig } from '../../runtime/controlplane/kubeconfig.js';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';
import { stringify } from 'yaml';
import { KGEN_BIN, kubectl, kubectlOk, removeDir, REPO, startKgen, tempDir, type KgenServer } from '../e2e/harness.js';
import { tlsFetch } from '../support/https.js';

const GENERATED = join(REPO, 'generated');
const WIDGET = 'apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  replicas: 1\n';
const FORBIDDEN_LIST = 'Error from server (Forbidden): widgets.widgets.example.com is forbidden: User "bob" cannot list resource "widgets" in API group "widgets.example.com" in the namespace "default"';

describe('kgen serve: secure by default', () => {
  let server: KgenServer;
  let dir: string;
  /** A kubeconfig naming the server's CA and a bearer token instead of the admin certificate. */
  let tokenKubeconfig: (token: string) => string;

  before(async () => {
    dir = tempDir('secure');
    writeFileSync(join(dir, 'tokens.csv'), 'bob-token,bob,1001,"dev,qa"\nroot-token,root,0,system:masters\n');
    const dataDir = join(dir, 'data');
    server = await startKgen({ dataDir, args: ['serve', GENERATED, '--port', '0', '--data-dir', dataDir, '--storage', 'memory:', '--token-auth-file', join(dir, 'tokens.csv')] });
    tokenKubeconfig = (token) => {
      const path = join(dir, `kubeconfig-${token}`);
      writeFileSync(path, stringify(buildKubeconfig({ server: server.url, certificateAuthority: server.credentials().ca, token })));
      return path;
    };
  });
  after(async () => {
    await server?.stop();
    removeDir(dir);
  });

  it('serves HTTPS, and kubectl works unchanged with the kubeconfig it wrote', () => {
    assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.match(kubectlOk(server.kubeconfig, ['create', '-f', '-'], WIDGET), /widget.widgets.example.com\/w1 created/);
    assert.match(kubectlOk(server.kubeconfig, ['get', 'widgets']), /^NAME\s.*\nw1\s/);
  });

  it('refuses anonymous requests with 401 except on health and version', async () => {
    const anonymous = tlsFetch({ ca: server.credentials().ca });
    for (const path of ['/api', '/apis', '/apis/widgets.example.com/v1/namespaces/default/widgets', '/openapi/v3', '/metrics']) {
      const res = await anonymous(server.url + path);
      assert.equal(res.status, 401, path);
      assert.deepEqual(await res.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    }
    for (const path of ['/healthz', '/livez', '/readyz?verbose', '/version']) assert.equal((await anonymous(server.url + path)).status, 200, path);
    // Below them anonymous is authenticated too; whether it may see them is the authorizer's call.
    assert.notEqual((await anonymous(`${server.url}/livez/ping`)).status, 401);
  });

  it('refuses a client certificate from another CA', async () => {
    const otherCA = newCA('not-kgen');
    const cert = newSignedCertificate(otherCA, { commonName: 'mallory', organizations: ['system:masters'], usage: 'client' });
    const res = await tlsFetch({ ca: server.credentials().ca, ...cert })(`${server.url}/api`);
    assert.equal(res.status, 401);
    const version = await tlsFetch({ ca: server.credentials().ca, ...cert })(`${server.url}/version`);
    assert.equal(version.status, 401, 'failed credentials are not anonymous');
  });

  it('authenticates bearer tokens from --token-auth-file; a bad token is 401', () => {
    const bad = kubectl(tokenKubeconfig('wrong'), ['get', 'widgets']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /error: You must be logged in to the server \(Unauthorized\)/);
    assert.match(kubectlOk(tokenKubeconfig('root-token'), ['get', 'widgets', '-o', 'name']), /widget.widgets.example.com\/w1/);
  });

  it('limits a token user to what the authorizer allows, with kube’s 403 message', () => {
    const r = kubectl(tokenKubeconfig('bob-token'), ['get', 'widgets']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim(), FORBIDDEN_LIST);
    const create = kubectl(tokenKubeconfig('bob-token'), ['create', '-f', '-', '--validate=false'], WIDGET.replace('w1', 'w2'));
    assert.match(create.stderr, /widgets.widgets.example.com is forbidden: User "bob" cannot create resource "widgets" in API group "widgets.example.com" in the namespace "default"/);
  });

  it('honours impersonation for system:masters and refuses it to others', () => {
    assert.equal(kubectl(server.kubeconfig, ['get', 'widgets', '--as', 'bob']).stderr.trim(), FORBIDDEN_LIST);
    assert.match(kubectlOk(server.kubeconfig, ['get', 'widgets', '--as', 'bob', '--as-group', 'system:masters', '-o', 'name']), /w1/);
    const refused = kubectl(tokenKubeconfig('bob-token'), ['get', 'widgets', '--as', 'alice']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /users "alice" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope/);
  });

  it('keeps its credentials across a restart on the same data dir', async () => {
    const ca = server.credentials().ca;
    const again = await startKgen({ dataDir: server.dataDir, args: ['serve', GENERATED, '--port', '0', '--data-dir', server.dataDir, '--storage', 'memory:'] });
    try {
      assert.equal(again.credentials().ca, ca);
      assert.equal(kubectlOk(again.kubeconfig, ['get', 'widgets', '-o', 'name']), '');
    } finally {
      await again.stop();
    }
  });
});

describe('kgen serve --insecure-dev-mode', () => {
  it('is refused on a non-loopback host, with a clear message and exit 1', () => {
    const dataDir = tempDir('insecure');
    try {
      const r = spawnSync(process.execPath, [KGEN_BIN, 'serve', GENERATED, '--insecure-dev-mode', '--host', '0.0.0.0', '--port', '0', '--data-dir', dataDir, '--storage', 'memory:'], { encoding: 'utf8', timeout: 30_000 });
      assert.equal(r.status, 1);
      assert.match(r.stderr, /--insecure-dev-mode is only allowed on a loopback address \(127\.0\.0\.1, ::1 or localhost\), not "0\.0\.0\.0"/);
    } finally {
      removeDir(dataDir);
    }
  });

  it('serves plain HTTP on loopback with a warning; every request is kgen-dev in system:masters', async () => {
    const dataDir = tempDir('insecure');
    const server = await startKgen({ dataDir, args: ['serve', GENERATED, '--insecure-dev-mode', '--port', '0', '--data-dir', dataDir, '--storage', 'memory:'] });
    try {
      assert.match(server.url, /^http:\/\//);
      assert.match(server.output(), /WARNING: --insecure-dev-mode: serving plain HTTP with no authentication or authorization/);
      assert.equal((await fetch(`${server.url}/api/v1/namespaces`)).status, 200);
      assert.match(kubectlOk(server.kubeconfig, ['create', '-f', '-'], WIDGET), /created/);
      const managers = kubectlOk(server.kubeconfig, ['get', 'widget', 'w1', '-o', 'jsonpath={.metadata.managedFields[*].manager}']);
      assert.match(managers, /kubectl/);
    } finally {
      await server.stop();
      removeDir(dataDir);
    }
  });
});
