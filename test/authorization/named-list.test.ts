/**
 * Name-scoped list and watch (issue 12 item 6): kube's RequestInfo takes the name of a list or
 * watch from a `metadata.name=` field selector, so a user whose rule has resourceNames may list
 * and watch exactly those objects, over HTTPS and with `kubectl get widget <name> -w`.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { buildKubeconfig } from '../../runtime/controlplane/kubeconfig.js';
import { RBAC, USERS, W } from './matrix.js';
import { startRBACServer, waitUntil, type RBACServer } from './rbacserver.js';

let rbac: RBACServer;
const WIDGETS = `/apis/${W}/v1/namespaces/ns1/widgets`;
const widget = (name: string) => ({ apiVersion: `${W}/v1`, kind: 'Widget', metadata: { name }, spec: { replicas: 1 } });

before(async () => {
  rbac = await startRBACServer();
  const admin = rbac.as.admin!;
  assert.equal((await admin('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1' } } })).status, 201);
  for (const name of ['w-allowed', 'w-other']) assert.equal((await admin('POST', WIDGETS, { body: widget(name) })).status, 201);
  const rules = [{ apiGroups: [W], resources: ['widgets'], resourceNames: ['w-allowed'], verbs: ['get', 'list', 'watch'] }];
  const role = { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: 'one-widget' }, rules };
  assert.equal((await admin('POST', `/apis/${RBAC}/v1/namespaces/ns1/roles`, { body: role })).status, 201);
  const binding = { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'erin-one-widget' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'one-widget' }, subjects: [{ kind: 'User', apiGroup: RBAC, name: 'erin' }] };
  assert.equal((await admin('POST', `/apis/${RBAC}/v1/namespaces/ns1/rolebindings`, { body: binding })).status, 201);
  await waitUntil(async () => (await rbac.as.erin!('GET', `${WIDGETS}/w-allowed`)).status === 200, 'erin to get w-allowed');
});

after(() => rbac?.close());

/** Polls cond every 20 ms for up to 60 s (kubectl starts slowly on a loaded machine); on time-out fails, saying what it waited for and what it saw. */
async function until(cond: () => boolean, what = 'the condition', seen: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!cond()) {
    if (Date.now() > deadline) assert.fail(`timed out after 60 s waiting for ${what}; ${seen()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('list and watch scoped by resourceNames', () => {
  it('allows a list or watch pinned to an allowed name by fieldSelector, and nothing wider', async () => {
    const erin = rbac.as.erin!;
    const list = await erin('GET', `${WIDGETS}?fieldSelector=metadata.name=w-allowed`);
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.items.map((w: { metadata: { name: string } }) => w.metadata.name), ['w-allowed']);
    const watch = await erin('GET', `${WIDGETS}?fieldSelector=metadata.name%3Dw-allowed&watch=true`, { headersOnly: true });
    assert.equal(watch.status, 200, watch.text);
    const other = await erin('GET', `${WIDGETS}?fieldSelector=metadata.name=w-other`);
    assert.equal(other.status, 403);
    assert.equal(other.body.message, 'widgets.widgets.example.com "w-other" is forbidden: User "erin" cannot list resource "widgets" in API group "widgets.example.com" in the namespace "ns1"');
    assert.equal((await erin('GET', `${WIDGETS}?fieldSelector=metadata.name=w-other&watch=true`, { headersOnly: true })).status, 403);
    assert.equal((await erin('GET', WIDGETS)).status, 403);
    assert.equal((await erin('GET', `${WIDGETS}?watch=true`, { headersOnly: true })).status, 403);
    assert.equal((await erin('GET', `${WIDGETS}?fieldSelector=metadata.name!%3Dw-other`)).status, 403);
    // The name narrows authorization only: other terms still select.
    const both = await erin('GET', `${WIDGETS}?fieldSelector=metadata.name%3Dw-allowed,metadata.namespace%3Dns2`);
    assert.equal(both.status, 200, both.text);
    assert.deepEqual(both.body.items, []);
  });

  it('kubectl get widget <name> -w works for such a user', async () => {
    const kubeconfig = join(rbac.dataDir, 'kubeconfig-erin');
    writeFileSync(kubeconfig, stringify(buildKubeconfig({ server: rbac.server.url, certificateAuthority: rbac.server.credentials!.servingCA, token: USERS.erin![0] })), { mode: 0o600 });
    const child = spawn('kubectl', ['get', 'widget', 'w-allowed', '-n', 'ns1', '-w', '-o', 'name'], { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: rbac.dataDir } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const seen = () => `kubectl's stdout: ${JSON.stringify(stdout)}, stderr: ${JSON.stringify(stderr)}`;
      await until(() => stdout.includes('widget.widgets.example.com/w-allowed') || child.exitCode !== null, 'kubectl to print the widget', seen);
      assert.equal(child.exitCode, null, `kubectl exited: ${stderr}`);
      // The watch itself is allowed: an update arrives as a second line. kubectl prints its GET,
      // then watches from resourceVersion 0 and skips that watch's first ADDED event (the object
      // it printed): an update made before the watch is open shows only in that skipped event, as
      // against kube-apiserver. So the update is repeated until one arrives through the watch.
      let replicas = 2;
      await until(
        () => {
          if (stdout.trim().split('\n').length >= 2 || child.exitCode !== null) return true;
          if (replicas % 25 === 2) {
            void rbac.as.admin!('PATCH', `${WIDGETS}/w-allowed`, { body: { spec: { replicas: (replicas % 90) + 2 } }, contentType: 'application/merge-patch+json' }).then((r) => assert.equal(r.status, 200, r.text));
          }
          replicas++;
          return false;
        },
        'an update to arrive through the watch',
        seen,
      );
      const lines = stdout.trim().split('\n');
      assert.ok(lines.length >= 2 && lines.every((l) => l === 'widget.widgets.example.com/w-allowed'), `${stdout}${stderr}`);
      assert.equal(stderr, '');
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
