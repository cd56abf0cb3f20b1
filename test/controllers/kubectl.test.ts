/**
 * Deletion as a kubectl user sees it, against `kgen serve` over the committed generated/ output:
 * finalizers keep an object Terminating until removed, `delete --all`, `wait --for=delete`, and
 * `delete namespace` taking its contents with it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO, kubectl, kubectlOk, removeDir, startKgen, table, type KgenServer, type RunResult } from '../e2e/harness.js';

const widget = (name: string, namespace: string, finalizers: string[] = []) => `apiVersion: widgets.example.com/v1
kind: Widget
metadata:
  name: ${name}
  namespace: ${namespace}
${finalizers.length ? `  finalizers: [${finalizers.map((f) => JSON.stringify(f)).join(', ')}]\n` : ''}spec:
  replicas: 1
`;

describe('kubectl deletion against kgen serve', () => {
  let server: KgenServer;
  const k = (...args: string[]) => kubectlOk(server.kubeconfig, args);
  const apply = (yaml: string) => kubectlOk(server.kubeconfig, ['create', '-f', '-'], yaml);
  /**
   * `kubectl wait` in the background, run with -v=6 so its request log tells when its watch is
   * open: `watching` resolves then, and `done` when kubectl exits.
   */
  const backgroundWait = (...args: string[]) => {
    const child = spawn('kubectl', ['wait', '-v=6', ...args], { env: { ...process.env, KUBECONFIG: server.kubeconfig } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    const done = new Promise<RunResult>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
    const watching = new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (d) => {
        stderr += d;
        if (/watch=true\S* 200 OK/.test(stderr)) resolve();
      });
      child.on('close', () => reject(new Error(`kubectl wait exited before watching:\n${stderr}`)));
    });
    return { watching, done };
  };

  before(async () => {
    server = await startKgen({ generatedDir: join(REPO, 'generated'), storage: 'memory:' });
    k('create', 'namespace', 'team');
  });
  after(async () => {
    await server.stop();
    removeDir(server.dataDir);
  });

  it('delete of an object with a finalizer leaves it Terminating until a JSON patch removes the finalizer', () => {
    apply(widget('held', 'team', ['example.com/hold']));
    assert.equal(k('delete', 'widget', 'held', '-n', 'team', '--wait=false'), 'widget.widgets.example.com "held" deleted\n');
    const stamp = k('get', 'widget', 'held', '-n', 'team', '-o', 'jsonpath={.metadata.deletionTimestamp}');
    assert.match(stamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.deepEqual(table(k('get', 'widgets', '-n', 'team', '-o', 'name')), [['widget.widgets.example.com/held']]);

    const add = kubectl(server.kubeconfig, ['patch', 'widget', 'held', '-n', 'team', '--type=json', '-p', '[{"op":"add","path":"/metadata/finalizers/-","value":"example.com/more"}]']);
    assert.notEqual(add.code, 0);
    assert.match(add.stderr, /no new finalizers can be added if the object is being deleted/);

    const patched = k('patch', 'widget', 'held', '-n', 'team', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]');
    assert.equal(patched, 'widget.widgets.example.com/held patched\n');
    const get = kubectl(server.kubeconfig, ['get', 'widget', 'held', '-n', 'team']);
    assert.notEqual(get.code, 0);
    assert.match(get.stderr, /Error from server \(NotFound\): widgets\.widgets\.example\.com "held" not found/);
  });

  it('wait --for=delete returns once the last finalizer is gone', async () => {
    apply(widget('waited', 'team', ['example.com/hold']));
    k('delete', 'widget', 'waited', '-n', 'team', '--wait=false');
    const waiting = backgroundWait('--for=delete', 'widget/waited', '-n', 'team', '--timeout=20s');
    await waiting.watching;
    k('patch', 'widget', 'waited', '-n', 'team', '--type=merge', '-p', '{"metadata":{"finalizers":null}}');
    const r = await waiting.done;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'widget.widgets.example.com/waited condition met\n');
  });

  it('delete --all deletes every widget of the namespace', () => {
    for (const n of ['a1', 'a2', 'a3']) apply(widget(n, 'team'));
    const out = k('delete', 'widgets', '--all', '-n', 'team');
    assert.equal(out, ['a1', 'a2', 'a3'].map((n) => `widget.widgets.example.com "${n}" deleted\n`).join(''));
    const left = kubectl(server.kubeconfig, ['get', 'widgets', '-n', 'team']);
    assert.equal(left.stderr.trim(), 'No resources found in team namespace.');
  });

  it('delete namespace removes the widgets in it and then the namespace', () => {
    k('create', 'namespace', 'doomed');
    for (const n of ['d1', 'd2']) apply(widget(n, 'doomed'));
    apply(widget('survivor', 'team'));
    assert.equal(k('delete', 'namespace', 'doomed', '--timeout=20s'), 'namespace "doomed" deleted\n');
    const ns = kubectl(server.kubeconfig, ['get', 'namespace', 'doomed']);
    assert.match(ns.stderr, /Error from server \(NotFound\): namespaces "doomed" not found/);
    assert.equal(kubectl(server.kubeconfig, ['get', 'widgets', '-n', 'doomed']).stderr.trim(), 'No resources found in doomed namespace.');
    assert.deepEqual(table(k('get', 'widgets', '-n', 'team', '-o', 'name')), [['widget.widgets.example.com/survivor']]);
  });

  it('a namespace shows Terminating while content with a finalizer holds it, refuses new content, and goes after', async () => {
    k('create', 'namespace', 'slow');
    apply(widget('stuck', 'slow', ['example.com/hold']));
    k('delete', 'namespace', 'slow', '--wait=false');
    const rows = table(k('get', 'namespace', 'slow'));
    assert.deepEqual(rows[0], ['NAME', 'STATUS', 'AGE']);
    assert.equal(rows[1]![1], 'Terminating');
    const refused = kubectl(server.kubeconfig, ['create', '-f', '-'], widget('late', 'slow'));
    assert.match(refused.stderr, /forbidden: unable to create new content in namespace slow because it is being terminated/);

    const waiting = backgroundWait('--for=delete', 'namespace/slow', '--timeout=20s');
    await waiting.watching;
    k('patch', 'widget', 'stuck', '-n', 'slow', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]');
    const r = await waiting.done;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'namespace/slow condition met\n');
  });
});
