import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ResourceClient, RestClient, loadKubeconfig, type KubeObject } from '@kgen/client';

/** A throwaway CA and a server and client certificate it signs, made with the openssl CLI. */
function makePki(dir: string) {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...newKey, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=kgen-test-ca');
  const sign = (name: string, cn: string, ext: string, serial: string) => {
    writeFileSync(join(dir, `${name}.ext`), ext);
    openssl('req', ...newKey, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`);
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-set_serial', serial, '-days', '1', '-out', `${name}.crt`, '-extfile', `${name}.ext`);
  };
  sign('server', '127.0.0.1', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n', '2');
  sign('client', 'kgen-client', 'extendedKeyUsage=clientAuth\n', '3');
  const read = (f: string) => readFileSync(join(dir, f));
  return { ca: read('ca.crt'), serverCert: read('server.crt'), serverKey: read('server.key'), clientCert: read('client.crt'), clientKey: read('client.key') };
}

describe('RestClient over HTTPS', () => {
  let dir: string;
  let pki: ReturnType<typeof makePki>;
  let server: https.Server;
  let url: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kgen-tls-'));
    pki = makePki(dir);
    // Asks for a client certificate but lets anonymous clients through, reporting who it saw.
    server = https.createServer({ key: pki.serverKey, cert: pki.serverCert, ca: pki.ca, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      const socket = req.socket as TLSSocket;
      const peer = socket.getPeerCertificate();
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({
        kind: 'Widget',
        apiVersion: 'example.com/v1',
        metadata: { name: req.url!.split('/').pop() },
        clientCN: socket.authorized ? peer.subject.CN : null,
        authorization: req.headers.authorization ?? null,
      }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const widgets = { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: false };

  it('verifies the server against the CA and presents the client certificate', async () => {
    const rest = new RestClient({ server: url, ca: pki.ca, cert: pki.clientCert, key: pki.clientKey, token: 't0k', qps: 0 });
    const got = await new ResourceClient<KubeObject>(rest, widgets).get('w1');
    assert.equal(got.metadata.name, 'w1');
    assert.equal(got.clientCN, 'kgen-client');
    assert.equal(got.authorization, 'Bearer t0k');
    rest.close();
  });

  it('refuses a server it cannot verify, without retrying', async () => {
    const delays: number[] = [];
    const rest = new RestClient({ server: url, qps: 0 }, { sleep: async (ms) => void delays.push(ms) });
    await assert.rejects(rest.request({ method: 'GET', path: '/x' }), (err: NodeJS.ErrnoException) => {
      assert.match(String(err.code), /SELF_SIGNED|UNABLE_TO_(GET_ISSUER|VERIFY)/);
      return true;
    });
    assert.deepEqual(delays, []);
    rest.close();
  });

  it('skips verification with insecureSkipTLSVerify', async () => {
    const rest = new RestClient({ server: url, insecureSkipTLSVerify: true, qps: 0 });
    const got = await rest.request<{ clientCN: string | null }>({ method: 'GET', path: '/x' });
    assert.equal(got.clientCN, null);
    rest.close();
  });

  it('refuses a CA together with insecureSkipTLSVerify, as client-go, rather than skip the CA the config names', async () => {
    // client-go's TLSConfigFor: the user who named a CA believes the server is verified against it.
    const otherCA = makePki(mkdtempSync(join(dir, 'other-'))).ca;
    assert.throws(() => new RestClient({ server: url, ca: otherCA, insecureSkipTLSVerify: true, qps: 0 }), /^Error: specifying a root certificates file with the insecure flag is not allowed$/);
    writeFileSync(
      join(dir, 'kubeconfig-both'),
      `apiVersion: v1
kind: Config
current-context: both
clusters: [{ name: c, cluster: { server: "${url}", certificate-authority-data: ${otherCA.toString('base64')}, insecure-skip-tls-verify: true } }]
users: [{ name: u, user: { token: t0k } }]
contexts: [{ name: both, context: { cluster: c, user: u } }]
`,
    );
    assert.throws(() => new RestClient({ ...loadKubeconfig(join(dir, 'kubeconfig-both')), qps: 0 }), /specifying a root certificates file with the insecure flag is not allowed/);
  });

  it('connects with a config loaded from a kubeconfig that names the PEM files', async () => {
    writeFileSync(
      join(dir, 'kubeconfig'),
      `apiVersion: v1
kind: Config
current-context: tls
clusters: [{ name: c, cluster: { server: "${url}", certificate-authority: ca.crt } }]
users: [{ name: u, user: { client-certificate: client.crt, client-key-data: ${pki.clientKey.toString('base64')} } }]
contexts: [{ name: tls, context: { cluster: c, user: u } }]
`,
    );
    const rest = new RestClient({ ...loadKubeconfig(join(dir, 'kubeconfig')), qps: 0 });
    const got = await rest.request<{ clientCN: string }>({ method: 'GET', path: '/apis/example.com/v1/widgets/w2' });
    assert.equal(got.clientCN, 'kgen-client');
    rest.close();
  });
});
