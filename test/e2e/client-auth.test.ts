/**
 * The client's auth sources against a real `kgen serve --token-auth-file`, with real processes:
 * exec credential plugins (a small node script whose tokens expire and rotate; v1 and v1beta1; a
 * token and a client certificate; a missing and a failing plugin), a CONNECT proxy started here,
 * an in-cluster service account directory whose token is rotated while the client runs, merged
 * $KUBECONFIG files, impersonation and tls-server-name.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { delimiter, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isForbidden, isUnauthorized, loadDefaultConfig } from '@kgen/client';
import { Clientset } from '../../generated/client/index.js';
import { startKgen, tempDir, type KgenServer } from './harness.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A plugin printing, run after run, the tokens listed in $PLUGIN_STATE/tokens (one per line: token,secondsToLive). */
const PLUGIN = `
const fs = require('node:fs');
const path = require('node:path');
const state = process.env.PLUGIN_STATE;
const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);
const runs = fs.existsSync(path.join(state, 'runs')) ? Number(fs.readFileSync(path.join(state, 'runs'), 'utf8')) : 0;
fs.writeFileSync(path.join(state, 'runs'), String(runs + 1));
fs.writeFileSync(path.join(state, 'info-' + (runs + 1) + '.json'), JSON.stringify({ info, args: process.argv.slice(2) }));
const lines = fs.readFileSync(path.join(state, 'tokens'), 'utf8').trim().split('\\n');
const [token, ttl] = lines[Math.min(runs, lines.length - 1)].split(',');
const status = token === 'CERT'
  ? { clientCertificateData: fs.readFileSync(path.join(state, 'tls.crt'), 'utf8'), clientKeyData: fs.readFileSync(path.join(state, 'tls.key'), 'utf8') }
  : { token };
if (ttl) status.expirationTimestamp = new Date(Date.now() + Number(ttl) * 1000).toISOString();
process.stdout.write(JSON.stringify({ apiVersion: info.apiVersion, kind: 'ExecCredential', status }));
`;

describe('client auth sources against kgen serve --token-auth-file', () => {
  let dir: string;
  let server: KgenServer;
  let ca: string;

  before(async () => {
    dir = tempDir('client-auth');
    writeFileSync(join(dir, 'tokens.csv'), 'tok-alice,alice,uid-alice,"system:masters"\ntok-alice-2,alice,uid-alice,"system:masters"\ntok-bob,bob,uid-bob\n');
    writeFileSync(join(dir, 'plugin.cjs'), PLUGIN);
    const dataDir = join(dir, 'data');
    server = await startKgen({ dataDir, args: ['serve', '--port', '0', '--data-dir', dataDir, '--token-auth-file', join(dir, 'tokens.csv')] });
    ca = server.credentials().ca;
    writeFileSync(join(dir, 'ca.crt'), ca);
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A kubeconfig with one context, its cluster and user as given. */
  function kubeconfig(name: string, user: object, cluster: object = {}): string {
    const file = join(dir, `${name}.kubeconfig`);
    const doc = {
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': name,
      clusters: [{ name, cluster: { server: server.url, 'certificate-authority-data': b64(ca), ...cluster } }],
      users: [{ name, user }],
      contexts: [{ name, context: { cluster: name, user: name, namespace: 'default' } }],
    };
    writeFileSync(file, JSON.stringify(doc));
    return file;
  }

  function pluginState(name: string, tokens: string[]): string {
    const state = join(dir, `state-${name}`);
    mkdirSync(state, { recursive: true });
    writeFileSync(join(state, 'tokens'), tokens.join('\n'));
    return state;
  }
  const runs = (state: string) => Number(readFileSync(join(state, 'runs'), 'utf8'));
  const execUser = (state: string, apiVersion: string, extra: object = {}) => ({
    exec: { apiVersion, command: process.execPath, args: [join(dir, 'plugin.cjs'), '--from-kubeconfig'], env: [{ name: 'PLUGIN_STATE', value: state }], interactiveMode: 'Never', ...extra },
  });
  const list = (cs: Clientset) => cs.widgetsExampleComV1.widgets('default').list();

  it('exec plugin (v1): reruns on a 401, caches until expirationTimestamp, then fetches the rotated token', async (t) => {
    // Run 1: a token the server does not know; run 2: a valid one living 2 s; run 3: the next valid one.
    // The client reads its clock through Date.now (ExecSource's default), mocked here: it stands
    // still until the test moves it past the expiry, so "reused until it expires" holds however
    // slow the machine, and the 2 s are not waited out. The plugin stamps its expiry by the real clock.
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const realNow = () => performance.timeOrigin + performance.now();
    const state = pluginState('v1', ['tok-unknown,3600', 'tok-alice,2', 'tok-alice-2,3600']);
    const cs = Clientset.fromKubeconfig(kubeconfig('exec-v1', execUser(state, 'client.authentication.k8s.io/v1')));
    assert.deepEqual((await list(cs)).items, []);
    assert.equal(runs(state), 2, 'the 401 made the client run the plugin again');
    await list(cs);
    await cs.widgetsExampleComV1.widgets('default').list();
    assert.equal(runs(state), 2, 'a valid credential is reused until it expires');
    // As a 2.1 s wait from now did: the clock 2.1 s past the real time, so past the 2 s expiry.
    t.mock.timers.tick(realNow() + 2_100 - Date.now());
    await list(cs);
    assert.equal(runs(state), 3, 'an expired credential is fetched again');
    const { info, args } = JSON.parse(readFileSync(join(state, 'info-1.json'), 'utf8'));
    assert.deepEqual(info, { kind: 'ExecCredential', apiVersion: 'client.authentication.k8s.io/v1', spec: { interactive: false } });
    assert.deepEqual(args, ['--from-kubeconfig']);
    cs.rest.close();
  });

  it('exec plugin (v1beta1): a client certificate and key, and provideClusterInfo', async () => {
    const state = pluginState('v1beta1', ['CERT']);
    const admin = server.credentials();
    writeFileSync(join(state, 'tls.crt'), admin.cert!);
    writeFileSync(join(state, 'tls.key'), admin.key!);
    const cs = Clientset.fromKubeconfig(kubeconfig('exec-v1beta1', execUser(state, 'client.authentication.k8s.io/v1beta1', { provideClusterInfo: true, interactiveMode: undefined })));
    await list(cs);
    assert.equal(runs(state), 1);
    const { info } = JSON.parse(readFileSync(join(state, 'info-1.json'), 'utf8'));
    assert.equal(info.apiVersion, 'client.authentication.k8s.io/v1beta1');
    assert.equal(info.spec.interactive, false);
    assert.equal(info.spec.cluster.server, server.url);
    assert.equal(Buffer.from(info.spec.cluster['certificate-authority-data'], 'base64').toString(), ca);
    cs.rest.close();
  });

  it('a missing plugin: client-go’s message with the installHint', async () => {
    const cs = Clientset.fromKubeconfig(
      kubeconfig('exec-missing', { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'kgen-test-no-such-plugin', interactiveMode: 'Never', installHint: 'Install it with: apt-get install kgen-test-plugin' } }),
    );
    await assert.rejects(list(cs), (err: Error) => {
      assert.match(err.message, /^exec: executable kgen-test-no-such-plugin not found/);
      assert.match(err.message, /It looks like you are trying to use a client-go credential plugin that is not installed\./);
      assert.match(err.message, /Install it with: apt-get install kgen-test-plugin$/);
      return true;
    });
  });

  it('a failing plugin: its exit code and stderr; a wrong apiVersion in its output', async () => {
    const failing = Clientset.fromKubeconfig(
      kubeconfig('exec-failing', { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: ['-e', "console.error('no credentials cached: run login'); process.exit(3)"], interactiveMode: 'Never', installHint: 'see the docs' } }),
    );
    await assert.rejects(list(failing), /exec plugin: executable .*node.* failed with exit code 3: no credentials cached: run login\n\nsee the docs/);
    const state = pluginState('wrong-version', ['tok-alice']);
    const wrong = Clientset.fromKubeconfig(kubeconfig('exec-wrong', execUser(state, 'client.authentication.k8s.io/v1alpha1')));
    await assert.rejects(list(wrong), /exec plugin: invalid apiVersion "client.authentication.k8s.io\/v1alpha1"/);
    const always = Clientset.fromKubeconfig(kubeconfig('exec-always', execUser(state, 'client.authentication.k8s.io/v1', { interactiveMode: 'Always' })));
    await assert.rejects(list(always), /interactiveMode is Always but standard input is not a terminal/);
  });

  it('proxy-url: every connection goes through a CONNECT proxy started by the test; a refusing proxy is an error', async () => {
    const connects: string[] = [];
    let refuse = false;
    const proxy = http.createServer((_req, res) => res.writeHead(405).end());
    proxy.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
      connects.push(`${req.url} ${req.headers['proxy-authorization'] ?? ''}`.trim());
      if (refuse) return socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      const [host, port] = [req.url!.slice(0, req.url!.lastIndexOf(':')), Number(req.url!.slice(req.url!.lastIndexOf(':') + 1))];
      const upstream = net.connect(port, host, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(socket).pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const proxyUrl = `http://user:s%40cret@127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
    try {
      const cs = Clientset.fromKubeconfig(kubeconfig('proxied', { token: 'tok-alice' }, { 'proxy-url': proxyUrl }));
      await list(cs);
      const target = new URL(server.url).host;
      assert.deepEqual(connects, [`${target} Basic ${b64('user:s@cret')}`]);
      cs.rest.close();
      refuse = true;
      const refused = Clientset.fromKubeconfig(kubeconfig('proxied', { token: 'tok-alice' }, { 'proxy-url': proxyUrl }), undefined, { maxRetries: 0 });
      await assert.rejects(list(refused), /proxy 127\.0\.0\.1:\d+ refused CONNECT .*: 403/);
    } finally {
      proxy.close();
    }
  });

  it('in-cluster: token, ca.crt and namespace from the service account directory; a rotated token is read again', async () => {
    const sa = join(dir, 'serviceaccount');
    mkdirSync(sa, { recursive: true });
    writeFileSync(join(sa, 'token'), 'tok-alice');
    writeFileSync(join(sa, 'ca.crt'), ca);
    writeFileSync(join(sa, 'namespace'), 'team-a\n');
    const { hostname, port } = new URL(server.url);
    const env = { KUBERNETES_SERVICE_HOST: hostname, KUBERNETES_SERVICE_PORT: port };
    const cs = Clientset.fromInCluster({ serviceAccountDir: sa, env }, { maxRetries: 0 });
    assert.equal(cs.namespace, 'team-a');
    await list(cs);
    writeFileSync(join(sa, 'token'), 'tok-revoked');
    await assert.rejects(list(cs), (err) => isUnauthorized(err));
    // The kubelet swaps in a new file (a new inode) when it rotates the token.
    writeFileSync(join(sa, 'token.new'), 'tok-alice-2');
    rmSync(join(sa, 'token'));
    writeFileSync(join(sa, 'token'), readFileSync(join(sa, 'token.new')));
    await list(cs);
    cs.rest.close();
    // fromDefault falls back to in-cluster when no kubeconfig applies.
    const loaded = loadDefaultConfig({ serviceAccountDir: sa, env: { ...env, HOME: join(dir, 'no-home') } });
    assert.equal(loaded.source, 'in-cluster');
    assert.throws(() => loadDefaultConfig({ env: { HOME: join(dir, 'no-home') } }), /no configuration found/);
  });

  it('merged $KUBECONFIG files: the first file to set a name or current-context wins; paths are relative to their own file', async () => {
    const a = join(dir, 'merge-a');
    const b = join(dir, 'merge-b');
    mkdirSync(a, { recursive: true });
    mkdirSync(join(b, 'pki'), { recursive: true });
    writeFileSync(join(b, 'pki', 'ca.crt'), ca);
    writeFileSync(
      join(a, 'config'),
      JSON.stringify({ 'current-context': 'merged', contexts: [{ name: 'merged', context: { cluster: 'shared', user: 'u', namespace: 'from-a' } }], users: [{ name: 'u', user: { token: 'tok-alice' } }] }),
    );
    writeFileSync(
      join(b, 'config'),
      JSON.stringify({
        'current-context': 'ignored',
        clusters: [{ name: 'shared', cluster: { server: server.url, 'certificate-authority': 'pki/ca.crt' } }],
        users: [{ name: 'u', user: { token: 'tok-bob' } }],
        contexts: [{ name: 'merged', context: { cluster: 'nowhere' } }],
      }),
    );
    const KUBECONFIG = [join(a, 'config'), join(dir, 'missing-config'), join(b, 'config')].join(delimiter);
    const loaded = loadDefaultConfig({ env: { KUBECONFIG } });
    assert.equal(loaded.namespace, 'from-a');
    assert.equal(loaded.config.token, 'tok-alice');
    assert.equal(loaded.config.server, server.url);
    const cs = Clientset.fromDefault({ env: { KUBECONFIG } });
    await list(cs);
    cs.rest.close();
  });

  it('impersonation: as and as-groups become Impersonate-* headers the server acts on', async () => {
    const cs = Clientset.fromKubeconfig(kubeconfig('impersonating', { token: 'tok-alice', as: 'carol', 'as-groups': ['devs', 'qa'], 'as-user-extra': { 'example.com/team': ['blue'] } }));
    await assert.rejects(list(cs), (err: Error) => isForbidden(err) && /User "carol" cannot list resource "widgets"/.test(err.message));
    // bob may not impersonate: the server names the impersonation it refused.
    const bob = Clientset.fromKubeconfig(kubeconfig('bob-impersonating', { token: 'tok-bob', as: 'alice' }));
    await assert.rejects(list(bob), (err: Error) => isForbidden(err) && /bob.*cannot impersonate/.test(err.message));
  });

  it('tls-server-name: the certificate is checked against it, not the URL host', async () => {
    const url = new URL(server.url);
    const byIp = { token: 'tok-alice' };
    const ok = Clientset.fromKubeconfig(kubeconfig('sni-ok', byIp, { server: `https://127.0.0.1:${url.port}`, 'tls-server-name': 'localhost' }));
    await list(ok);
    ok.rest.close();
    const wrong = Clientset.fromKubeconfig(kubeconfig('sni-wrong', byIp, { 'tls-server-name': 'wrong.example' }), undefined, { maxRetries: 0 });
    await assert.rejects(list(wrong), /wrong\.example/);
  });
});
