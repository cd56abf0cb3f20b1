/**
 * CustomResourceDefinitions with real kubectl against `kgen serve`: `kubectl apply -f crd.yaml`,
 * then at once create, list (with the CRD's printer columns), watch and delete its objects; the
 * CRD's conditions as kube sets them; the schema round-trips without losing fields; `kubectl
 * delete crd` removes the resource and its objects; after a restart (SQLite) it is still served.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { join } from 'node:path';
import { kubectlBackground } from './kubectl-workflow-helpers.js';
import { REPO, kubectl, kubectlOk, removeDir, startKgen, table, tempDir, type KgenServer } from './harness.js';

/** A CRD in the shape real projects ship (kubebuilder-style schema, int-or-string, enums, CEL, arrays of maps). */
const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
  annotations:
    controller-gen.kubebuilder.io/version: v0.16.1
spec:
  group: stable.example.com
  names:
    kind: CronTab
    listKind: CronTabList
    plural: crontabs
    singular: crontab
    shortNames: [ct]
    categories: [all]
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - jsonPath: .spec.cronSpec
      name: Spec
      type: string
    - jsonPath: .spec.replicas
      name: Replicas
      type: integer
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: date
    schema:
      openAPIV3Schema:
        description: CronTab is the Schema for the crontabs API
        type: object
        properties:
          apiVersion:
            description: APIVersion defines the versioned schema of this representation of an object.
            type: string
          kind:
            type: string
          metadata:
            type: object
          spec:
            description: CronTabSpec defines the desired state of CronTab
            type: object
            required: [cronSpec]
            x-kubernetes-validations:
            - rule: self.replicas <= 10
              message: at most 10 replicas
            properties:
              cronSpec:
                type: string
                pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'
              image:
                type: string
              replicas:
                type: integer
                format: int32
                default: 1
                minimum: 0
              port:
                anyOf:
                - type: integer
                - type: string
                x-kubernetes-int-or-string: true
              policy:
                type: string
                enum: [Allow, Forbid, Replace]
                default: Allow
              env:
                type: array
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    value: {type: string}
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
              template:
                type: object
                x-kubernetes-preserve-unknown-fields: true
              labels:
                type: object
                additionalProperties:
                  type: string
          status:
            type: object
            properties:
              replicas:
                type: integer
              conditions:
                type: array
                items:
                  type: object
                  properties:
                    type: {type: string}
                    status: {type: string, enum: ["True", "False", "Unknown"]}
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
`;

const crontab = (name: string, replicas: number) => `apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: ${name}}
spec:
  cronSpec: "*/5 * * * *"
  image: my-cron-image
  replicas: ${replicas}
  port: http
  env: [{name: A, value: "1"}]
  template: {anything: {goes: [1, 2]}}
`;

describe('CustomResourceDefinitions with kubectl', () => {
  const dataDir = tempDir('crd');
  const cacheDir = tempDir('crd-cache');
  let server: KgenServer | undefined;
  after(async () => {
    await server?.stop();
    removeDir(dataDir);
    removeDir(cacheDir);
  });
  const k = (...args: string[]) => kubectlOk(server!.kubeconfig, ['--cache-dir', cacheDir, ...args]);
  const kIn = (input: string, ...args: string[]) => kubectlOk(server!.kubeconfig, ['--cache-dir', cacheDir, ...args], input);

  it('applies a CRD, then at once creates, lists, watches and deletes its objects', async () => {
    server = await startKgen({ generatedDir: join(REPO, 'generated'), dataDir });
    // A discovery cache from before the CRD existed: kubectl must refresh it on a miss.
    k('api-resources');
    assert.match(kIn(CRD, 'apply', '-f', '-'), /customresourcedefinition.apiextensions.k8s.io\/crontabs.stable.example.com created/);
    assert.match(kIn(crontab('c1', 2), 'apply', '-f', '-'), /crontab.stable.example.com\/c1 created/);
    assert.match(kIn(crontab('c2', 3), 'create', '-f', '-'), /crontab.stable.example.com\/c2 created/);

    const rows = table(k('get', 'crontabs'));
    assert.deepEqual(rows[0], ['NAME', 'SPEC', 'REPLICAS', 'AGE']);
    assert.deepEqual(rows.slice(1).map((r) => r.slice(0, 3)), [
      ['c1', '*/5 * * * *', '2'],
      ['c2', '*/5 * * * *', '3'],
    ]);
    assert.match(k('get', 'ct', 'c1'), /^c1\s+\*\/5 \* \* \* \*\s+2/m);

    const obj = JSON.parse(k('get', 'crontab', 'c1', '-o', 'json'));
    assert.equal(obj.spec.policy, 'Allow', 'schema defaults are applied');
    assert.deepEqual(obj.spec.template, { anything: { goes: [1, 2] } }, 'x-kubernetes-preserve-unknown-fields keeps the subtree');

    const refused = kubectl(server.kubeconfig, ['--cache-dir', cacheDir, 'patch', 'crontab', 'c1', '--type=merge', '-p', '{"spec":{"policy":"Sometimes"}}']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /The CronTab "c1" is invalid: \s*(\* )?spec.policy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"/);

    assert.match(k('scale', 'crontab', 'c1', '--replicas=4'), /crontab.stable.example.com\/c1 scaled/);
    // The CRD's x-kubernetes-validations rule, enforced by the same validator as compiled kinds.
    const cel = kubectl(server.kubeconfig, ['--cache-dir', cacheDir, 'patch', 'crontab', 'c1', '--type=merge', '-p', '{"spec":{"replicas":11}}']);
    assert.notEqual(cel.code, 0);
    assert.match(cel.stderr, /The CronTab "c1" is invalid: spec: Invalid value: "object": at most 10 replicas/);

    const watch = kubectlBackground(server.kubeconfig, ['--cache-dir', cacheDir, 'get', 'crontabs', '-w']);
    try {
      await watch.waitFor(/^c2\s+\*\/5/m, 20_000);
      kIn(crontab('c3', 5), 'create', '-f', '-');
      await watch.waitFor(/^c3\s+\*\/5 \* \* \* \*\s+5/m, 20_000);
    } finally {
      await watch.stop();
    }
    assert.match(k('delete', 'crontab', 'c3'), /crontab.stable.example.com "c3" deleted/);
    assert.equal(kubectl(server.kubeconfig, ['--cache-dir', cacheDir, 'get', 'crontab', 'c3']).code, 1);
  });

  it('sets the CRD conditions as kube does, and keeps every field of the schema', () => {
    k('wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=20s');
    const crd = JSON.parse(k('get', 'crd', 'crontabs.stable.example.com', '-o', 'json'));
    const conditions = Object.fromEntries(crd.status.conditions.map((c: { type: string; status: string; reason: string; message: string }) => [c.type, [c.status, c.reason, c.message]]));
    assert.deepEqual(conditions, {
      NamesAccepted: ['True', 'NoConflicts', 'no conflicts found'],
      Established: ['True', 'InitialNamesAccepted', 'the initial names have been accepted'],
    });
    assert.deepEqual(crd.status.acceptedNames, { plural: 'crontabs', singular: 'crontab', shortNames: ['ct'], kind: 'CronTab', listKind: 'CronTabList', categories: ['all'] });
    assert.deepEqual(crd.status.storedVersions, ['v1']);
    // Round trip: what was applied is what is stored (the apply annotation is the input).
    const applied = JSON.parse(crd.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
    assert.deepEqual(crd.spec.versions, applied.spec.versions);
    assert.deepEqual(crd.spec.names, applied.spec.names);
    assert.match(k('api-resources', '--api-group=stable.example.com'), /crontabs\s+ct\s+stable.example.com\/v1\s+true\s+CronTab/);
    assert.match(k('explain', 'crontab.spec.cronSpec'), /FIELD: cronSpec <string>/);
    // kube's default table convertor for CRDs: NAME and CREATED AT (RFC 3339), no AGE.
    const crds = table(k('get', 'crd', 'crontabs.stable.example.com'));
    assert.deepEqual(crds[0], ['NAME', 'CREATED AT']);
    assert.equal(crds[1]![0], 'crontabs.stable.example.com');
    assert.equal(crds[1]![1], crd.metadata.creationTimestamp);
    // Applying it again changes nothing.
    assert.match(kIn(CRD, 'apply', '-f', '-'), /crontabs.stable.example.com unchanged/);
  });

  it('is still served after a restart (SQLite)', async () => {
    assert.equal(await server!.stop('SIGTERM'), 0);
    server = await startKgen({ generatedDir: join(REPO, 'generated'), dataDir });
    const names = k('get', 'crontabs', '-o', 'name').trim().split('\n').sort();
    assert.deepEqual(names, ['crontab.stable.example.com/c1', 'crontab.stable.example.com/c2']);
  });

  it('kubectl delete crd removes the resource and its objects', () => {
    assert.match(k('delete', 'crd', 'crontabs.stable.example.com'), /customresourcedefinition.apiextensions.k8s.io "crontabs.stable.example.com" deleted/);
    assert.equal(kubectl(server!.kubeconfig, ['--cache-dir', cacheDir, 'get', 'crd', 'crontabs.stable.example.com']).code, 1);
    // A fresh discovery cache: the shared one still lists crontabs (kubectl's cache, as against kube).
    const fresh = tempDir('crd-cache-fresh');
    const gone = kubectl(server!.kubeconfig, ['--cache-dir', fresh, 'get', 'crontabs']);
    removeDir(fresh);
    assert.notEqual(gone.code, 0);
    assert.match(gone.stderr, /the server doesn't have a resource type "crontabs"/);
    // Created again, the resource starts empty: the objects went with the CRD.
    kIn(CRD, 'apply', '-f', '-');
    k('wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=20s');
    assert.match(kubectl(server!.kubeconfig, ['--cache-dir', cacheDir, 'get', 'crontabs']).stderr, /No resources found in default namespace/);
  });
});
