/**
 * Real kubectl v1.32 against `kgen serve` over the committed generated/ output, using only the
 * kubeconfig the server wrote. Each step asserts what kubectl printed, not just its exit code.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { REPO, kubectl, kubectlOk, removeDir, startKgen, table, type KgenServer } from './harness.js';

const widget = (name: string, replicas: number, color = 'blue') => `apiVersion: widgets.example.com/v1
kind: Widget
metadata:
  name: ${name}
spec:
  replicas: ${replicas}
  color: ${color}
  limits:
    cpu: 500m
  parts:
  - name: gear
    count: 2
`;

describe('kubectl against kgen serve', () => {
  let server: KgenServer;
  const k = (...args: string[]) => kubectlOk(server.kubeconfig, args);

  before(async () => {
    server = await startKgen({ generatedDir: join(REPO, 'generated'), storage: 'memory:' });
  });
  after(async () => {
    await server.stop();
    removeDir(server.dataDir);
  });

  it('api-resources lists every generated resource with its short names and scope', () => {
    const rows = table(k('api-resources'));
    assert.deepEqual(rows[0], ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']);
    const byName = new Map(rows.slice(1).map((r) => [r[0], r]));
    assert.deepEqual(byName.get('widgets'), ['widgets', 'wd', 'widgets.example.com/v1', 'true', 'Widget']);
    assert.deepEqual(byName.get('widgetclasses'), ['widgetclasses', 'wdc', 'widgets.example.com/v1', 'false', 'WidgetClass']);
    assert.deepEqual(byName.get('namespaces'), ['namespaces', 'ns', 'v1', 'false', 'Namespace']);
    assert.deepEqual(byName.get('policies'), ['policies', 'ops.example.org/v1beta1', 'false', 'Policy']);
  });

  it('explain shows descriptions from doc comments and the fields of a nested type', () => {
    const out = k('explain', 'widget.spec');
    assert.match(out, /KIND:\s+Widget/);
    assert.match(out, /VERSION:\s+v1/);
    assert.match(out, /FIELD: spec <WidgetSpec>/);
    assert.match(out, /Spec is the desired state of the Widget\./);
    assert.match(out, /replicas\s+<integer>\n\s+Number of spinners to run\./);
    assert.match(out, /parts\s+<\[\]Part>/);
    const kind = k('explain', 'widgets');
    assert.match(kind, /Widget is a thing that spins\./);
  });


  it('creates from a file and prints the object as kubectl users expect', () => {
    const created = kubectlOk(server.kubeconfig, ['create', '-f', '-'], widget('w1', 3));
    assert.equal(created.trim(), 'widget.widgets.example.com/w1 created');

    const rows = table(k('get', 'widgets'));
    assert.deepEqual(rows[0], ['NAME', 'REPLICAS', 'COLOR', 'AGE']);
    assert.equal(rows[1]![0], 'w1');
    assert.equal(rows[1]![1], '3');
    assert.equal(rows[1]![2], 'blue');
    assert.match(rows[1]![3]!, /^\d+s$/);

    const yaml = k('get', 'wd', 'w1', '-o', 'yaml');
    assert.match(yaml, /^apiVersion: widgets\.example\.com\/v1$/m);
    assert.match(yaml, /^kind: Widget$/m);
    assert.match(yaml, /^  name: w1$/m);
    assert.match(yaml, /^  namespace: default$/m);
    assert.match(yaml, /^  uid: [0-9a-f-]{36}$/m);
    assert.match(yaml, /^  resourceVersion: "\d+"$/m);
    assert.match(yaml, /^  generation: 1$/m);
    assert.match(yaml, /^  creationTimestamp: "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"$/m);
    assert.match(yaml, /^    cpu: 500m$/m);
  });

  it('apply -f creates, then applies a change', () => {
    assert.equal(kubectlOk(server.kubeconfig, ['apply', '-f', '-'], widget('w2', 1)).trim(), 'widget.widgets.example.com/w2 created');
    assert.equal(kubectlOk(server.kubeconfig, ['apply', '-f', '-'], widget('w2', 5, 'green')).trim(), 'widget.widgets.example.com/w2 configured');
    const json = JSON.parse(k('get', 'widget', 'w2', '-o', 'json'));
    assert.equal(json.spec.replicas, 5);
    assert.equal(json.spec.color, 'green');
    assert.equal(json.metadata.generation, 2);
    assert.ok(json.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
    assert.equal(kubectlOk(server.kubeconfig, ['apply', '-f', '-'], widget('w2', 5, 'green')).trim(), 'widget.widgets.example.com/w2 unchanged');
  });

  it('refuses a schema violation with the 422 kube prints', () => {
    const r = kubectl(server.kubeconfig, ['create', '-f', '-'], widget('w3', 500));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /The Widget "w3" is invalid: spec\.replicas: Invalid value: 500: spec\.replicas in body should be less than or equal to 100/);
  });

  it('delete removes the object', () => {
    assert.equal(k('delete', 'widget', 'w1').trim(), 'widget.widgets.example.com "w1" deleted');
    const r = kubectl(server.kubeconfig, ['get', 'widget', 'w1']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Error from server \(NotFound\): widgets\.widgets\.example\.com "w1" not found/);
  });

  it('create namespace (a protobuf body) and use it', () => {
    assert.equal(k('create', 'namespace', 'demo').trim(), 'namespace/demo created');
    const rows = table(k('get', 'namespaces'));
    assert.deepEqual(rows[0], ['NAME', 'STATUS', 'AGE']);
    assert.deepEqual(rows.find((r) => r[0] === 'demo')?.slice(0, 2), ['demo', 'Active']);
    assert.ok(rows.some((r) => r[0] === 'default'));
    assert.equal(kubectlOk(server.kubeconfig, ['create', '-n', 'demo', '-f', '-'], widget('in-demo', 2)).trim(), 'widget.widgets.example.com/in-demo created');
    const r = kubectl(server.kubeconfig, ['create', '-n', 'nowhere', '-f', '-'], widget('lost', 2));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /namespaces "nowhere" not found/);
  });
});
