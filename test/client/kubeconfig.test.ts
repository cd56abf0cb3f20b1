import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { defaultKubeconfigPath, loadKubeconfig, loadKubeconfigContext } from '@kgen/client';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('loadKubeconfig', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kgen-kubeconfig-'));
    mkdirSync(join(dir, 'certs'));
    writeFileSync(join(dir, 'certs', 'ca.crt'), 'CA FROM FILE');
    writeFileSync(join(dir, 'certs', 'client.crt'), 'CERT FROM FILE');
    writeFileSync(join(dir, 'certs', 'client.key'), 'KEY FROM FILE');
    writeFileSync(join(dir, 'token'), 'token-from-file\n');
    writeFileSync(
      join(dir, 'config'),
      `apiVersion: v1
kind: Config
current-context: token-ctx
clusters:
- name: inline
  cluster:
    server: https://inline.example:6443
    certificate-authority-data: ${b64('CA INLINE')}
- name: files
  cluster:
    server: https://files.example:6443
    certificate-authority: certs/ca.crt
- name: insecure
  cluster:
    server: https://insecure.example
    insecure-skip-tls-verify: true
- name: no-server
  cluster: {}
users:
- name: token-user
  user:
    token: abc123
- name: token-file-user
  user:
    tokenFile: token
- name: cert-inline
  user:
    client-certificate-data: ${b64('CERT INLINE')}
    client-key-data: ${b64('KEY INLINE')}
- name: cert-files
  user:
    client-certificate: certs/client.crt
    client-key: ${join(dir, 'certs', 'client.key')}
- name: exec-user
  user:
    exec:
      command: aws
contexts:
- name: token-ctx
  context: { cluster: inline, user: token-user, namespace: team-a }
- name: token-file-ctx
  context: { cluster: files, user: token-file-user }
- name: cert-inline-ctx
  context: { cluster: inline, user: cert-inline }
- name: cert-files-ctx
  context: { cluster: files, user: cert-files }
- name: insecure-ctx
  context: { cluster: insecure }
- name: missing-cluster-ctx
  context: { cluster: nowhere, user: token-user }
- name: missing-user-ctx
  context: { cluster: inline, user: nobody }
- name: no-server-ctx
  context: { cluster: no-server }
- name: exec-ctx
  context: { cluster: inline, user: exec-user }
`,
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const config = () => join(dir, 'config');

  it('uses current-context: server, inline CA data, token, namespace', () => {
    const loaded = loadKubeconfigContext(config());
    assert.equal(loaded.context, 'token-ctx');
    assert.equal(loaded.namespace, 'team-a');
    assert.equal(loaded.config.server, 'https://inline.example:6443');
    assert.equal(loaded.config.token, 'abc123');
    assert.equal(loaded.config.ca?.toString(), 'CA INLINE');
    assert.equal(loaded.config.insecureSkipTLSVerify, undefined);
  });

  it('names a token file (read per request, see credentials) and reads a CA file, relative to the kubeconfig directory', () => {
    const c = loadKubeconfig(config(), 'token-file-ctx');
    assert.equal(c.server, 'https://files.example:6443');
    assert.equal(c.token, undefined);
    assert.equal(c.tokenFile, join(dir, 'token'));
    assert.equal(c.ca?.toString(), 'CA FROM FILE');
    assert.equal(loadKubeconfigContext(config(), 'token-file-ctx').namespace, 'default');
  });

  it('decodes inline client certificate and key data', () => {
    const c = loadKubeconfig(config(), 'cert-inline-ctx');
    assert.equal(c.cert?.toString(), 'CERT INLINE');
    assert.equal(c.key?.toString(), 'KEY INLINE');
    assert.equal(c.token, undefined);
  });

  it('reads client certificate and key files, relative and absolute', () => {
    const c = loadKubeconfig(config(), 'cert-files-ctx');
    assert.equal(c.cert?.toString(), 'CERT FROM FILE');
    assert.equal(c.key?.toString(), 'KEY FROM FILE');
  });

  it('honours insecure-skip-tls-verify, and a context without a user', () => {
    const c = loadKubeconfig(config(), 'insecure-ctx');
    assert.deepEqual(c, { server: 'https://insecure.example', insecureSkipTLSVerify: true });
  });

  it('names what is missing', () => {
    assert.throws(() => loadKubeconfig(config(), 'nope'), /context "nope" not found in kubeconfig .*config/);
    assert.throws(() => loadKubeconfig(config(), 'missing-cluster-ctx'), /cluster "nowhere" \(referenced by context "missing-cluster-ctx"\) not found/);
    assert.throws(() => loadKubeconfig(config(), 'missing-user-ctx'), /user "nobody" \(referenced by context "missing-user-ctx"\) not found/);
    assert.throws(() => loadKubeconfig(config(), 'no-server-ctx'), /cluster "no-server" .* has no server/);
    assert.throws(() => loadKubeconfig(config(), 'exec-ctx'), /user "exec-user" in kubeconfig .*: exec has no apiVersion/);
    assert.throws(() => loadKubeconfig(join(dir, 'absent')), /cannot read kubeconfig/);
    writeFileSync(join(dir, 'empty'), '');
    assert.throws(() => loadKubeconfig(join(dir, 'empty')), /has no current-context/);
    writeFileSync(join(dir, 'bad-ref'), `current-context: c\ncontexts: [{name: c, context: {cluster: x}}]\nclusters: [{name: x, cluster: {server: "https://x", certificate-authority: missing.crt}}]\n`);
    assert.throws(() => loadKubeconfig(join(dir, 'bad-ref')), /cannot read cluster "x" certificate-authority .*missing\.crt/);
  });

  it('defaults to the first $KUBECONFIG entry, else ~/.kube/config', () => {
    assert.equal(defaultKubeconfigPath({ KUBECONFIG: `${delimiter}/a/one${delimiter}/b/two` }), '/a/one');
    assert.equal(defaultKubeconfigPath({}), join(homedir(), '.kube', 'config'));
    const saved = process.env.KUBECONFIG;
    process.env.KUBECONFIG = [config(), '/does/not/exist'].join(delimiter);
    try {
      assert.equal(loadKubeconfig().token, 'abc123');
    } finally {
      if (saved === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved;
    }
  });
});
