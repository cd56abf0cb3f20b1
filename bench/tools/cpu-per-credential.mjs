/**
 * Server CPU per GET over kept-alive HTTPS, by the credential the client presents: the admin
 * client certificate (what kubectl and client libraries use with the kubeconfig `kgen serve`
 * writes) and a ServiceAccount token (what in-cluster controllers use). The bench's other parts
 * run in insecure dev mode, so they never pay for authentication; this shows what it costs.
 *
 *   node bench/tools/cpu-per-credential.mjs [<kgen checkout>] [--requests n]
 *
 * Starts `kgen serve <checkout>/generated` on memory storage (the checkout must be built), makes a
 * ServiceAccount with the view role and a token, then for each credential: 1,000 GETs of one
 * Namespace to warm up, then --requests (4,000) from 4 clients; the server's user + system CPU
 * from /proc/<pid>/stat, divided by the requests. Run it in two checkouts alternately to compare.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { requests: { type: 'string', default: '4000' } } });
const root = resolve(positionals[0] ?? '.');
const requests = Number(values.requests);
const dataDir = mkdtempSync(join(tmpdir(), 'kgen-cpu-credential-'));
const server = spawn(process.execPath, [join(root, 'bin/kgen.js'), 'serve', join(root, 'generated'), '--port', '0', '--storage', 'memory:', '--data-dir', dataDir], { stdio: ['ignore', 'ignore', 'pipe'] });
const timer = setTimeout(() => fail('the server did not start in 60 s'), 60_000);
function fail(why) {
  console.error(why);
  server.kill();
  process.exit(1);
}
let log = '';
const port = await new Promise((res) => {
  server.stderr.on('data', (d) => {
    log += d;
    const m = log.match(/listening on https:\/\/127\.0\.0\.1:(\d+)/);
    if (m) res(Number(m[1]));
  });
  server.on('exit', (code) => fail(`the server exited (${code}):\n${log}`));
});
clearTimeout(timer);
const pki = (name) => readFileSync(join(dataDir, 'pki', name));
const ca = pki('ca/tls.crt');
const admin = new https.Agent({ keepAlive: true, maxSockets: 4, ca, cert: pki('admin/tls.crt'), key: pki('admin/tls.key') });
const plain = new https.Agent({ keepAlive: true, maxSockets: 4, ca });
const call = (agent, method, path, body, headers = {}) =>
  new Promise((res, rej) => {
    const req = https.request({ host: '127.0.0.1', port, path, method, agent, headers: { 'content-type': 'application/json', ...headers } }, (r) => {
      let text = '';
      r.on('data', (d) => (text += d));
      r.on('end', () => res({ status: r.statusCode, text }));
    });
    req.on('error', rej);
    req.end(body && JSON.stringify(body));
  });
const must = async (status, p) => {
  const r = await p;
  if (r.status !== status) fail(`expected ${status}, got ${r.status}: ${r.text}`);
  return r;
};
await must(201, call(admin, 'POST', '/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'bench' } }));
const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'bench-view' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'ServiceAccount', name: 'bench', namespace: 'default' }] };
await must(201, call(admin, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', binding));
const token = JSON.parse((await must(201, call(admin, 'POST', '/api/v1/namespaces/default/serviceaccounts/bench/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }))).text).status.token;
const cpuMicros = () => {
  const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
};
const perGet = async (agent, headers) => {
  const get = () => must(200, call(agent, 'GET', '/api/v1/namespaces/default', undefined, headers));
  for (let i = 0; i < 1000; i++) await get();
  const before = cpuMicros();
  await Promise.all([0, 1, 2, 3].map(async () => {
    for (let i = 0; i < requests / 4; i++) await get();
  }));
  return Math.round((cpuMicros() - before) / requests);
};
const load = loadavg()[0];
const result = { checkout: root, clientCertificateMicros: await perGet(admin, {}), serviceAccountTokenMicros: await perGet(plain, { authorization: `Bearer ${token}` }), load: [Number(load.toFixed(1)), Number(loadavg()[0].toFixed(1))] };
console.log(JSON.stringify(result));
server.kill();
admin.destroy();
plain.destroy();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
