/**
 * Logging in with OIDC ID tokens through real kubectl: `kgen serve` with the classic --oidc-*
 * flags and with --authentication-config, against an issuer run by this test (discovery and keys
 * over HTTPS, keys rotated during the test). RBAC then applies to the mapped user and groups.
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { buildKubeconfig } from '../../runtime/controlplane/kubeconfig.js';
import { TestIssuer } from '../support/oidc-issuer.js';
import { KGEN_BIN, REPO, removeDir, startKgen, tempDir, type KgenServer } from './harness.js';

const GENERATED = join(REPO, 'generated');

function kubectl(kubeconfig: string, args: string[], home: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: home }, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? -1) : 0, out: `${stdout}${stderr}` });
    });
  });
}

describe('kubectl with OIDC tokens', () => {
  let issuer: TestIssuer;
  const dir = tempDir('oidc-kubectl');
  let classic: KgenServer;
  let structured: KgenServer;

  /** A kubeconfig that presents `token` to `server` and nothing else. */
  const as = (server: KgenServer, name: string, token: string) => {
    const file = join(dir, `${name}.kubeconfig`);
    writeFileSync(file, stringify(buildKubeconfig({ server: server.url, certificateAuthority: server.credentials().ca, token })));
    return file;
  };

  before(async () => {
    issuer = await TestIssuer.start();
    const caFile = join(dir, 'issuer-ca.crt');
    writeFileSync(caFile, issuer.ca.cert);
    const classicData = join(dir, 'classic');
    classic = await startKgen({
      dataDir: classicData,
      args: ['serve', GENERATED, '--port', '0', '--data-dir', classicData, '--storage', 'memory:',
        '--oidc-issuer-url', issuer.url, '--oidc-client-id', 'kgen', '--oidc-ca-file', caFile,
        '--oidc-username-claim', 'email', '--oidc-groups-claim', 'groups', '--oidc-groups-prefix', 'oidc:'],
    });
    const config = join(dir, 'authentication.yaml');
    writeFileSync(config, stringify({
      apiVersion: 'apiserver.config.k8s.io/v1beta1',
      kind: 'AuthenticationConfiguration',
      jwt: [{
        issuer: { url: issuer.url, audiences: ['kgen'], certificateAuthority: issuer.ca.cert },
        claimValidationRules: [{ expression: 'claims.tenant == "acme"', message: 'tenant must be acme' }],
        claimMappings: { username: { expression: 'claims.sub + "@acme"' }, groups: { claim: 'roles', prefix: '' } },
      }],
    }));
    const structuredData = join(dir, 'structured');
    structured = await startKgen({ dataDir: structuredData, args: ['serve', GENERATED, '--port', '0', '--data-dir', structuredData, '--storage', 'memory:', '--authentication-config', config] });
    for (const server of [classic, structured]) {
      const r = await kubectl(server.kubeconfig, ['create', 'clusterrolebinding', 'readers', '--clusterrole=view', '--group=oidc:devs', '--group=readers'], dir);
      assert.equal(r.code, 0, r.out);
    }
  });

  after(async () => {
    await Promise.all([classic?.stop('SIGKILL'), structured?.stop('SIGKILL')]);
    issuer?.close();
    removeDir(dir);
  });

  it('--oidc-* flags: a verified email logs in, groups get the prefix, RBAC applies to them', async () => {
    const alice = as(classic, 'alice', issuer.token({ sub: 'a1', email: 'alice@example.com', email_verified: true, groups: ['devs'], aud: 'kgen' }));
    const list = await kubectl(alice, ['get', 'widgets', '-A'], dir);
    assert.equal(list.code, 0, list.out);
    const create = await kubectl(alice, ['create', 'namespace', 'nope'], dir);
    assert.match(create.out, /namespaces is forbidden: User "alice@example\.com" cannot create resource "namespaces" in API group "" at the cluster scope/);
    const can = await kubectl(alice, ['auth', 'can-i', 'list', 'widgets'], dir);
    assert.equal(can.out.trim(), 'yes');
  });

  it('refuses expired tokens and tokens for another audience', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const claims of [{ exp: now - 60 }, { aud: 'not-kgen' }]) {
      const file = as(classic, 'refused', issuer.token({ sub: 'a1', email: 'alice@example.com', email_verified: true, aud: 'kgen', ...claims }));
      const r = await kubectl(file, ['get', 'widgets'], dir);
      assert.notEqual(r.code, 0);
      assert.match(r.out, /You must be logged in to the server/);
    }
  });

  it('follows key rotation: new keys are fetched, withdrawn ones refused', async () => {
    const old = as(classic, 'old', issuer.token({ sub: 'a1', email: 'alice@example.com', email_verified: true, groups: ['devs'], aud: 'kgen' }));
    assert.equal((await kubectl(old, ['get', 'widgets'], dir)).code, 0);
    issuer.rotate();
    const fresh = as(classic, 'fresh', issuer.token({ sub: 'a1', email: 'alice@example.com', email_verified: true, groups: ['devs'], aud: 'kgen' }));
    const r = await kubectl(fresh, ['get', 'widgets'], dir);
    assert.equal(r.code, 0, r.out);
    const stale = await kubectl(old, ['get', 'widgets'], dir);
    assert.notEqual(stale.code, 0);
    assert.match(stale.out, /You must be logged in to the server/);
  });

  it('--authentication-config: CEL claim mappings name the user, and claim rules refuse', async () => {
    const bob = as(structured, 'bob', issuer.token({ sub: 'bob', tenant: 'acme', roles: ['readers'], aud: 'kgen' }));
    assert.equal((await kubectl(bob, ['get', 'widgets'], dir)).code, 0);
    const create = await kubectl(bob, ['create', 'namespace', 'nope'], dir);
    assert.match(create.out, /User "bob@acme" cannot create resource "namespaces"/);
    const other = as(structured, 'other', issuer.token({ sub: 'eve', tenant: 'umbrella', roles: ['readers'], aud: 'kgen' }));
    const r = await kubectl(other, ['get', 'widgets'], dir);
    assert.notEqual(r.code, 0);
    assert.match(r.out, /You must be logged in to the server/);
  });

  it('stops start-up on a bad configuration, naming every problem', () => {
    const run = (flags: string[]) => {
      const data = tempDir('oidc-bad');
      try {
        const r = spawnSync(process.execPath, [KGEN_BIN, 'serve', GENERATED, '--port', '0', '--data-dir', data, '--storage', 'memory:', ...flags], { cwd: REPO, encoding: 'utf8', timeout: 30_000 });
        assert.equal(r.status, 1, `${r.stdout}${r.stderr}`);
        return r.stderr;
      } finally {
        removeDir(data);
      }
    };
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, stringify({ apiVersion: 'apiserver.config.k8s.io/v1beta1', kind: 'AuthenticationConfiguration', jwt: [{ issuer: { url: 'http://x', audiences: [] }, claimMappings: {} }] }));
    assert.match(run(['--authentication-config', bad]), /kgen serve: --authentication-config .*bad\.yaml: jwt\[0\]\.issuer\.url: Invalid value: "http:\/\/x": URL scheme must be https; jwt\[0\]\.issuer\.audiences: Required value/);
    assert.match(run(['--authentication-config', bad, '--oidc-issuer-url', 'https://x']), /kgen serve: authentication-config file and oidc-\* flags are mutually exclusive/);
    assert.match(run(['--oidc-issuer-url', 'https://x']), /kgen serve: oidc-client-id is required when oidc-issuer-url is set/);
  });
});
