/**
 * kube's CEL libraries (quantity, ip, ext.Strings' format, two-variable comprehensions, optional types' optMap/optFlatMap) in a CRD's x-kubernetes-validations, through real kubectl
 * against `kgen serve`: the CRD is accepted, a good object is created, bad ones are refused with
 * the 422 message kubectl prints for kube-apiserver 1.33.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO, kubectl, kubectlOk, removeDir, startKgen, type KgenServer } from './harness.js';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: disks.storage.example.com
spec:
  group: storage.example.com
  names: {kind: Disk, listKind: DiskList, plural: disks, singular: disk}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: self.?tags.optFlatMap(t, t[?'tier']).optMap(x, x != 'tier-none').orValue(true)
              message: a tier tag must not be tier-none
            properties:
              size:
                type: string
                maxLength: 32
                x-kubernetes-validations:
                - rule: isQuantity(self) && quantity(self).isLessThan(quantity('10Gi'))
                  message: size must be a quantity below 10Gi
              addr:
                type: string
                maxLength: 45
                x-kubernetes-validations:
                - rule: ip(self).family() == 4
              replicas:
                type: integer
                x-kubernetes-validations:
                - rule: self <= 5
                  messageExpression: "'%d replicas, more than %d (%.1f%%)'.format([self, 5, double(self) / 5.0 * 100.0])"
              tags:
                type: object
                maxProperties: 8
                additionalProperties: {type: string, maxLength: 63}
                x-kubernetes-validations:
                - rule: self.all(k, v, v.startsWith(k))
                  message: every tag value must start with its key
`;

const disk = (name: string, size: string, addr: string) => `apiVersion: storage.example.com/v1
kind: Disk
metadata:
  name: ${name}
  namespace: default
spec:
  size: ${JSON.stringify(size)}
  addr: ${JSON.stringify(addr)}
`;

describe('kubectl and kube CEL libraries (quantity, ip, format, two-variable comprehensions) in CRD rules', () => {
  let server: KgenServer;
  before(async () => {
    server = await startKgen({ generatedDir: join(REPO, 'generated'), storage: 'memory:' });
    assert.equal(kubectlOk(server.kubeconfig, ['apply', '-f', '-'], CRD).trim(), 'customresourcedefinition.apiextensions.k8s.io/disks.storage.example.com created');
    kubectlOk(server.kubeconfig, ['wait', '--for', 'condition=established', 'crd/disks.storage.example.com', '--timeout=60s']);
  });
  after(async () => {
    await server.stop();
    removeDir(server.dataDir);
  });

  it('accepts an object that keeps the rules', () => {
    assert.equal(kubectlOk(server.kubeconfig, ['apply', '-f', '-'], disk('good', '5Gi', '10.0.0.1')).trim(), 'disk.storage.example.com/good created');
  });

  it('refuses a quantity of 10Gi or more, and a value that is no quantity, with the rule message', () => {
    for (const size of ['10Gi', '20G', '5Gb']) {
      const r = kubectl(server.kubeconfig, ['apply', '-f', '-'], disk('big', size, '10.0.0.1'));
      assert.equal(r.code, 1, size);
      assert.equal(r.stderr.trim(), 'The Disk "big" is invalid: spec.size: Invalid value: "string": size must be a quantity below 10Gi', size);
    }
  });

  it('refuses an IPv6 address (failed rule) and a malformed one (rule evaluation error, netip\'s text)', () => {
    const v6 = kubectl(server.kubeconfig, ['apply', '-f', '-'], disk('v6', '1Gi', '2001:db8::1'));
    assert.equal(v6.code, 1);
    assert.equal(v6.stderr.trim(), 'The Disk "v6" is invalid: spec.addr: Invalid value: "string": failed rule: ip(self).family() == 4');
    const bad = kubectl(server.kubeconfig, ['apply', '-f', '-'], disk('bad', '1Gi', '10.0.0.256'));
    assert.equal(bad.code, 1);
    assert.equal(
      bad.stderr.trim(),
      'The Disk "bad" is invalid: spec.addr: Invalid value: "string": IP Address "10.0.0.256" parse error during conversion from string: ParseAddr("10.0.0.256"): IPv4 field has value >255 evaluating rule: ip(self).family() == 4',
    );
    assert.equal(kubectlOk(server.kubeconfig, ['get', 'disks', '-o', 'name']).trim(), 'disk.storage.example.com/good');
  });

  it('prints a messageExpression built with format() for a failed rule', () => {
    const many = kubectl(server.kubeconfig, ['apply', '-f', '-'], `${disk('many', '1Gi', '10.0.0.1')}  replicas: 7\n`);
    assert.equal(many.code, 1);
    assert.equal(many.stderr.trim(), 'The Disk "many" is invalid: spec.replicas: Invalid value: "integer": 7 replicas, more than 5 (140.0%)');
    assert.equal(kubectlOk(server.kubeconfig, ['apply', '-f', '-'], `${disk('few', '1Gi', '10.0.0.1')}  replicas: 5\n`).trim(), 'disk.storage.example.com/few created');
  });

  it('enforces a two-variable comprehension over a map (key and value)', () => {
    const bad = kubectl(server.kubeconfig, ['apply', '-f', '-'], `${disk('tagbad', '1Gi', '10.0.0.1')}  tags: {a: abc, b: xyz}\n`);
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr.trim(), 'The Disk "tagbad" is invalid: spec.tags: Invalid value: "object": every tag value must start with its key');
    assert.equal(kubectlOk(server.kubeconfig, ['apply', '-f', '-'], `${disk('tagged', '1Gi', '10.0.0.1')}  tags: {a: abc, b: bcd}\n`).trim(), 'disk.storage.example.com/tagged created');
  });

  it('enforces optFlatMap and optMap over a map key that may be absent', () => {
    const bad = kubectl(server.kubeconfig, ['apply', '-f', '-'], `${disk('tierbad', '1Gi', '10.0.0.1')}  tags: {tier: tier-none}\n`);
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr.trim(), 'The Disk "tierbad" is invalid: spec: Invalid value: "object": a tier tag must not be tier-none');
    assert.equal(kubectlOk(server.kubeconfig, ['apply', '-f', '-'], `${disk('tiered', '1Gi', '10.0.0.1')}  tags: {tier: tier-gold}\n`).trim(), 'disk.storage.example.com/tiered created');
  });
});
