/**
 * CEL validation rules through real kubectl against `kgen serve` of the bundled examples: a bad
 * create and a bad transition are refused with the message kubectl prints for kube-apiserver.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO, kubectl, kubectlOk, removeDir, startKgen, type KgenServer } from './harness.js';

const policyYAML = (name: string, max: number, min: number) => `apiVersion: ops.example.org/v1beta1
kind: Policy
metadata:
  name: ${name}
spec:
  maxReplicas: ${max}
  minReplicas: ${min}
`;

const classYAML = (name: string, provisioner: string) => `apiVersion: widgets.example.com/v1
kind: WidgetClass
metadata:
  name: ${name}
provisioner: ${provisioner}
`;

describe('kubectl and CEL validation rules', () => {
  let server: KgenServer;
  before(async () => {
    server = await startKgen({ generatedDir: join(REPO, 'generated'), storage: 'memory:' });
  });
  after(async () => {
    await server.stop();
    removeDir(server.dataDir);
  });

  it('refuses a create that breaks a rule, with kube-apiserver\'s message', () => {
    const r = kubectl(server.kubeconfig, ['create', '-f', '-'], policyYAML('strict', 2, 5));
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim(), 'The Policy "strict" is invalid: spec: Invalid value: "object": minReplicas must not exceed maxReplicas');
    assert.equal(kubectlOk(server.kubeconfig, ['create', '-f', '-'], policyYAML('fine', 5, 2)).trim(), 'policy.ops.example.org/fine created');
  });

  it('refuses a change of an immutable field, and accepts other changes', () => {
    kubectlOk(server.kubeconfig, ['apply', '-f', '-'], classYAML('fast', 'spinner.example.com'));
    const r = kubectl(server.kubeconfig, ['apply', '-f', '-'], classYAML('fast', 'other.example.com'));
    assert.equal(r.code, 1);
    assert.match(r.stderr, /The WidgetClass "fast" is invalid: provisioner: Invalid value: "string": Value is immutable/);
    const ok = kubectlOk(server.kubeconfig, ['label', 'widgetclass', 'fast', 'tier=gold']);
    assert.equal(ok.trim(), 'widgetclass.widgets.example.com/fast labeled');
    assert.equal(kubectlOk(server.kubeconfig, ['get', 'wdc', 'fast', '-o', 'jsonpath={.provisioner}']), 'spinner.example.com');
  });
});
