import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { defaultKubeconfigPath, impersonationHeaders, loadKubeconfig, loadKubeconfigContext, parseExecCredential } from '@kgen/client';

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

  it('reads tls-server-name, proxy-url, impersonation and exec into the RestConfig', () => {
    const file = join(dir, 'full');
    writeFileSync(
      file,
      `current-context: c
clusters: [{name: k, cluster: {server: "https://10.0.0.1:6443", tls-server-name: api.internal, proxy-url: "http://proxy.example:3128"}}]
users:
- name: u
  user:
    as: jane
    as-uid: "42"
    as-groups: [devs, ops]
    as-user-extra: {scopes: [view, edit]}
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: ./bin/login
      args: [get-token]
      env: [{name: A, value: b}]
      interactiveMode: Never
      installHint: install login
      provideClusterInfo: true
contexts: [{name: c, context: {cluster: k, user: u}}]
`,
    );
    const c = loadKubeconfig(file);
    assert.equal(c.tlsServerName, 'api.internal');
    assert.equal(c.proxyUrl, 'http://proxy.example:3128');
    assert.deepEqual(c.impersonate, { user: 'jane', uid: '42', groups: ['devs', 'ops'], extra: { scopes: ['view', 'edit'] } });
    assert.deepEqual(c.exec, {
      command: join(dir, 'bin', 'login'),
      apiVersion: 'client.authentication.k8s.io/v1',
      args: ['get-token'],
      env: [{ name: 'A', value: 'b' }],
      interactiveMode: 'Never',
      installHint: 'install login',
      provideClusterInfo: true,
      cluster: { server: 'https://10.0.0.1:6443', 'tls-server-name': 'api.internal', 'proxy-url': 'http://proxy.example:3128' },
    });
  });

  it('impersonation headers: one Impersonate-Group per group, extra keys percent-encoded', () => {
    assert.deepEqual(impersonationHeaders({ user: 'jane', uid: '42', groups: ['a', 'b'], extra: { 'example.com/scopes': ['x', 'y'], empty: [] } }), {
      'Impersonate-User': 'jane',
      'Impersonate-Uid': '42',
      'Impersonate-Group': ['a', 'b'],
      'Impersonate-Extra-example.com%2Fscopes': ['x', 'y'],
    });
  });

  it('exec credentials: the same apiVersion, a token or a certificate and key, a valid expiry', () => {
    const config = { command: 'p', apiVersion: 'client.authentication.k8s.io/v1' };
    const out = (status: object, apiVersion = config.apiVersion) => JSON.stringify({ apiVersion, kind: 'ExecCredential', status });
    assert.deepEqual(parseExecCredential(out({ token: 't', expirationTimestamp: '2030-01-01T00:00:00Z' }), config), { token: 't', expiresAt: Date.parse('2030-01-01T00:00:00Z') });
    assert.deepEqual(parseExecCredential(out({ clientCertificateData: 'C', clientKeyData: 'K' }), config), { cert: 'C', key: 'K' });
    assert.throws(() => parseExecCredential(out({ token: 't' }, 'client.authentication.k8s.io/v1beta1'), config), /configured to use API version client.authentication.k8s.io\/v1, plugin returned version client.authentication.k8s.io\/v1beta1/);
    assert.throws(() => parseExecCredential(out({}), config), /didn't return a token or cert\/key pair/);
    assert.throws(() => parseExecCredential(out({ clientCertificateData: 'C' }), config), /only one of clientCertificateData and clientKeyData/);
    assert.throws(() => parseExecCredential(out({ token: 't', expirationTimestamp: 'soon' }), config), /invalid expirationTimestamp/);
    assert.throws(() => parseExecCredential('not json', config), /decoding stdout: couldn.t get version\/kind; json parse error: invalid character .o. in literal null \(expecting .u.\)$/);
  });
});

