/**
 * The control-plane kinds with real kubectl v1.32 (protobuf bodies for the typed commands): create
 * configmap / secret generic|tls|docker-registry / serviceaccount / token, the token as a bearer
 * credential, auth can-i as a service account, get events, kubectl events --for and describe.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO, kubectl, kubectlOk, removeDir, startKgen, table, tempDir, type KgenServer } from './harness.js';

describe('kubectl and the control-plane kinds', () => {
  let server: KgenServer;
  let dir: string;
  const k = (...args: string[]) => kubectlOk(server.kubeconfig, args);

  before(async () => {
    server = await startKgen({ generatedDir: join(REPO, 'generated'), storage: 'memory:' });
    dir = tempDir('cp-kubectl');
  });
  after(async () => {
    await server.stop();
    removeDir(server.dataDir);
    removeDir(dir);
  });

  it('create configmap --from-literal and --from-file', () => {
    const file = join(dir, 'app.properties');
    writeFileSync(file, 'color=blue\n');
    assert.equal(k('create', 'configmap', 'cfg', '--from-literal=a=1', `--from-file=${file}`).trim(), 'configmap/cfg created');
    const cm = JSON.parse(k('get', 'configmap', 'cfg', '-o', 'json'));
    assert.deepEqual(cm.data, { a: '1', 'app.properties': 'color=blue\n' });
    const rows = table(k('get', 'configmaps'));
    assert.deepEqual(rows[0], ['NAME', 'DATA', 'AGE']);
    assert.deepEqual(rows.find((r) => r[0] === 'cfg')?.slice(0, 2), ['cfg', '2']);
  });

  it('create secret generic, tls and docker-registry', () => {
    assert.equal(k('create', 'secret', 'generic', 'creds', '--from-literal=password=s3cret').trim(), 'secret/creds created');
    assert.equal(Buffer.from(k('get', 'secret', 'creds', '-o', 'jsonpath={.data.password}'), 'base64').toString(), 's3cret');
    const ca = join(server.dataDir, 'pki', 'ca');
    assert.equal(k('create', 'secret', 'tls', 'web', `--cert=${join(ca, 'tls.crt')}`, `--key=${join(ca, 'tls.key')}`).trim(), 'secret/web created');
    const web = JSON.parse(k('get', 'secret', 'web', '-o', 'json'));
    assert.equal(web.type, 'kubernetes.io/tls');
    assert.equal(Buffer.from(web.data['tls.crt'], 'base64').toString(), readFileSync(join(ca, 'tls.crt'), 'utf8'));
    assert.equal(k('create', 'secret', 'docker-registry', 'reg', '--docker-server=registry.example.com', '--docker-username=u', '--docker-password=p').trim(), 'secret/reg created');
    const reg = JSON.parse(k('get', 'secret', 'reg', '-o', 'json'));
    assert.equal(reg.type, 'kubernetes.io/dockerconfigjson');
    assert.equal(JSON.parse(Buffer.from(reg.data['.dockerconfigjson'], 'base64').toString()).auths['registry.example.com'].username, 'u');
    const rows = table(k('get', 'secrets'));
    assert.deepEqual(rows[0], ['NAME', 'TYPE', 'DATA', 'AGE']);
    assert.deepEqual(rows.find((r) => r[0] === 'web')?.slice(0, 3), ['web', 'kubernetes.io/tls', '2']);
  });

  it('create serviceaccount and create token; the token is a bearer credential under RBAC', () => {
    assert.equal(k('create', 'serviceaccount', 'bot').trim(), 'serviceaccount/bot created');
    const token = k('create', 'token', 'bot').trim();
    assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    const asBot = (...args: string[]) =>
      kubectl('/dev/null', ['--server', server.url, `--certificate-authority=${join(server.dataDir, 'pki', 'ca', 'tls.crt')}`, `--token=${token}`, ...args]);
    const denied = asBot('get', 'configmaps');
    assert.notEqual(denied.code, 0);
    assert.match(denied.stderr, /User "system:serviceaccount:default:bot" cannot list resource "configmaps" in API group "" in the namespace "default"/);
    assert.equal(k('create', 'rolebinding', 'bot-view', '--clusterrole=view', '--serviceaccount=default:bot').trim(), 'rolebinding.rbac.authorization.k8s.io/bot-view created');
    let listed = asBot('get', 'configmaps');
    for (let i = 0; i < 20 && listed.code !== 0; i++) listed = asBot('get', 'configmaps');
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^cfg\s+2\s+/m);
    // Bound to a Secret (kubectl sends the TokenRequest as protobuf), with a custom audience and duration.
    const bound = k('create', 'token', 'bot', '--bound-object-kind=Secret', '--bound-object-name=creds', '--audience=https://kubernetes.default.svc.cluster.local', '--duration=20m').trim();
    const claims = JSON.parse(Buffer.from(bound.split('.')[1]!, 'base64url').toString());
    assert.equal(claims['kubernetes.io'].secret.name, 'creds');
    assert.equal(claims.exp - claims.iat, 1200);
    const expired = kubectl('/dev/null', ['--server', server.url, `--certificate-authority=${join(server.dataDir, 'pki', 'ca', 'tls.crt')}`, '--token=not.a.jwt', 'get', 'configmaps']);
    assert.match(expired.stderr, /You must be logged in to the server/);
  });

  it('get serviceaccounts and get leases -A print kube\'s columns', () => {
    const sas = table(k('get', 'serviceaccounts'));
    assert.deepEqual(sas[0], ['NAME', 'SECRETS', 'AGE']);
    assert.deepEqual(sas.slice(1).map((r) => r.slice(0, 2)).sort(), [['bot', '0'], ['default', '0']]);
    kubectlOk(server.kubeconfig, ['apply', '-n', 'kube-system', '-f', '-'], 'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: lock\nspec:\n  holderIdentity: replica-1\n  leaseDurationSeconds: 15\n');
    const leases = table(k('get', 'leases', '-A'));
    assert.deepEqual(leases[0], ['NAMESPACE', 'NAME', 'HOLDER', 'AGE']);
    assert.deepEqual(leases.find((r) => r[1] === 'lock')?.slice(0, 3), ['kube-system', 'lock', 'replica-1']);
  });

  it('auth can-i --as=system:serviceaccount:ns:sa', () => {
    assert.equal(k('auth', 'can-i', 'list', 'configmaps', '--as=system:serviceaccount:default:bot').trim(), 'yes');
    const secrets = kubectl(server.kubeconfig, ['auth', 'can-i', 'get', 'secrets', '--as=system:serviceaccount:default:bot']);
    assert.equal(secrets.stdout.trim(), 'no');
    assert.equal(kubectl(server.kubeconfig, ['auth', 'can-i', 'create', 'serviceaccounts/token', '--as=system:serviceaccount:default:bot']).stdout.trim(), 'no');
    // edit may create service account tokens and read Secrets (kube's aggregate-to-edit).
    k('create', 'rolebinding', 'bot-edit', '--clusterrole=edit', '--serviceaccount=default:bot');
    let answer = '';
    for (let i = 0; i < 20 && answer !== 'yes'; i++) answer = kubectl(server.kubeconfig, ['auth', 'can-i', 'create', 'serviceaccounts/token', '--as=system:serviceaccount:default:bot']).stdout.trim();
    assert.equal(answer, 'yes');
    assert.equal(k('auth', 'can-i', 'get', 'secrets', '--as=system:serviceaccount:default:bot').trim(), 'yes');
    assert.equal(kubectl(server.kubeconfig, ['auth', 'can-i', 'create', 'events', '--as=system:serviceaccount:default:bot']).stdout.trim(), 'no');
  });

  it('get events, kubectl events --for and describe show an object\'s events', () => {
    kubectlOk(server.kubeconfig, ['apply', '-f', '-'], 'apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  replicas: 1\n');
    const uid = k('get', 'widget', 'w1', '-o', 'jsonpath={.metadata.uid}');
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'w1.spun', namespace: 'default' },
      involvedObject: { apiVersion: 'widgets.example.com/v1', kind: 'Widget', name: 'w1', namespace: 'default', uid },
      reason: 'Spun',
      message: 'spinning 1 replica',
      type: 'Normal',
      source: { component: 'widget-controller' },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 2,
    };
    kubectlOk(server.kubeconfig, ['create', '-f', '-'], JSON.stringify(event));
    const rows = table(k('get', 'events'));
    assert.deepEqual(rows[0], ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    assert.deepEqual(rows[1]!.slice(1), ['Normal', 'Spun', 'widget/w1', 'spinning 1 replica']);
    const forW1 = table(k('events', '--for', 'widget/w1'));
    assert.deepEqual(forW1[0], ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    assert.deepEqual(forW1[1]!.slice(1), ['Normal', 'Spun', 'Widget/w1', 'spinning 1 replica']);
    const described = k('describe', 'widget', 'w1');
    assert.match(described, /Events:\n\s+Type\s+Reason\s+Age\s+From\s+Message\n\s+----.*\n\s+Normal\s+Spun\s+\S+ \(x2 over \S+\)\s+widget-controller\s+spinning 1 replica/);
  });
});
