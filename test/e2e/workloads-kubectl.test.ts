/**
 * apps/v1 Deployments and core/v1 PersistentVolumeClaims with real kubectl v1.32: kubectl create
 * deployment (a protobuf request and response; defaults as kube-apiserver stores them), get and get -o wide (kube's columns), get
 * all, scale (merge patch and --current-replicas PUT, the Scale's status.selector), kube's
 * validation messages, kube's decode error for a wrongly typed field, strict field validation of the pod template, selector and claim spec
 * immutability, get pvc, and the bootstrap roles (view lists but does not create deployments;
 * edit scales them).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO, kubectl, kubectlOk, removeDir, startKgen, table, type KgenServer } from './harness.js';

const INVALID = `apiVersion: apps/v1
kind: Deployment
metadata: {name: bad}
spec:
  replicas: -1
  selector: {matchLabels: {app: a}}
  strategy: {type: Recreate, rollingUpdate: {maxSurge: 1}}
  template:
    metadata: {labels: {app: b}}
    spec:
      containers:
      - name: c
        ports: [{containerPort: 70000}]
        volumeMounts: [{name: nope, mountPath: /a}]
`;

const CLAIM = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, storageClassName: standard}
`;

describe('kubectl and Deployments, PersistentVolumeClaims', () => {
  let server: KgenServer;
  const k = (...args: string[]) => kubectlOk(server.kubeconfig, args);
  const apply = (manifest: string, ...args: string[]) => kubectlOk(server.kubeconfig, ['apply', '-f', '-', ...args], manifest);
  const fail = (args: string[], input?: string) => {
    const r = kubectl(server.kubeconfig, args, input);
    assert.notEqual(r.code, 0, `kubectl ${args.join(' ')} succeeded: ${r.stdout}`);
    return r.stderr;
  };

  before(async () => {
    server = await startKgen({ generatedDir: join(REPO, 'generated'), storage: 'memory:' });
  });
  after(async () => {
    await server.stop();
    removeDir(server.dataDir);
  });

  it('create deployment stores kube\'s defaults', () => {
    // kubectl's typed client sends this create as protobuf and reads the answer as protobuf.
    const created = kubectl(server.kubeconfig, ['create', 'deployment', 'web', '--image=nginx', '--replicas=2', '--port=80', '-v=8']);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout.trim(), 'deployment.apps/web created');
    assert.match(created.stderr, /Content-Type: application\/vnd\.kubernetes\.protobuf/);
    const d = JSON.parse(k('get', 'deploy', 'web', '-o', 'json'));
    assert.equal(d.metadata.generation, 1);
    assert.deepEqual(
      { progressDeadlineSeconds: d.spec.progressDeadlineSeconds, revisionHistoryLimit: d.spec.revisionHistoryLimit, strategy: d.spec.strategy },
      { progressDeadlineSeconds: 600, revisionHistoryLimit: 10, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } },
    );
    const pod = d.spec.template.spec;
    assert.deepEqual(
      { dnsPolicy: pod.dnsPolicy, restartPolicy: pod.restartPolicy, schedulerName: pod.schedulerName, securityContext: pod.securityContext, terminationGracePeriodSeconds: pod.terminationGracePeriodSeconds },
      { dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', schedulerName: 'default-scheduler', securityContext: {}, terminationGracePeriodSeconds: 30 },
    );
    assert.deepEqual(pod.containers[0], {
      name: 'nginx',
      image: 'nginx',
      imagePullPolicy: 'Always',
      ports: [{ containerPort: 80, protocol: 'TCP' }],
      resources: {},
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
    });
  });

  it('defaults probes and volumes as kube does', () => {
    const manifest = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'probed' },
      spec: {
        selector: { matchLabels: { app: 'p' } },
        template: {
          metadata: { labels: { app: 'p' } },
          spec: {
            containers: [{ name: 'c', image: 'busybox:1.36', livenessProbe: { httpGet: { port: 8080 } }, volumeMounts: [{ name: 'scratch', mountPath: '/tmp' }, { name: 'cfg', mountPath: '/etc/cfg' }] }],
            volumes: [{ name: 'scratch' }, { name: 'cfg', configMap: { name: 'cfg' } }],
          },
        },
      },
    };
    const d = JSON.parse(apply(JSON.stringify(manifest), '-o', 'json'));
    const pod = d.spec.template.spec;
    assert.equal(pod.containers[0].imagePullPolicy, 'IfNotPresent');
    assert.deepEqual(pod.containers[0].livenessProbe, { httpGet: { port: 8080, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    assert.deepEqual(pod.volumes, [{ name: 'scratch', emptyDir: {} }, { name: 'cfg', configMap: { name: 'cfg', defaultMode: 420 } }]);
  });

  it('get deployments prints READY, UP-TO-DATE, AVAILABLE, AGE; -o wide adds containers, images and the selector; get all lists them', () => {
    const rows = table(k('get', 'deployments'));
    assert.deepEqual(rows[0], ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
    assert.deepEqual(rows.find((r) => r[0] === 'web')?.slice(0, 4), ['web', '0/2', '0', '0']);
    const wide = table(k('get', 'deploy', 'web', '-o', 'wide'));
    assert.deepEqual(wide[0], ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    assert.deepEqual([wide[1]![0], ...wide[1]!.slice(5)], ['web', 'nginx', 'nginx', 'app=web']);
    assert.match(k('get', 'all'), /^deployment\.apps\/web\s+0\/2\s+0\s+0\s+/m);
  });

  it('scale: the Scale carries status.selector; replicas and generation move', () => {
    assert.equal(k('scale', 'deployment', 'web', '--replicas=3').trim(), 'deployment.apps/web scaled');
    const scale = JSON.parse(k('get', '--raw', '/apis/apps/v1/namespaces/default/deployments/web/scale'));
    assert.deepEqual({ spec: scale.spec, status: scale.status, kind: scale.kind, apiVersion: scale.apiVersion }, { spec: { replicas: 3 }, status: { replicas: 0, selector: 'app=web' }, kind: 'Scale', apiVersion: 'autoscaling/v1' });
    // --current-replicas: GET then PUT of the Scale.
    assert.equal(k('scale', 'deployment', 'web', '--current-replicas=3', '--replicas=4').trim(), 'deployment.apps/web scaled');
    const d = JSON.parse(k('get', 'deploy', 'web', '-o', 'json'));
    assert.equal(d.spec.replicas, 4);
    assert.equal(d.metadata.generation, 3);
    assert.match(fail(['scale', 'deployment', 'web', '--replicas=-1']), /replicas|negative/i);
  });

  it('status: a client writes it (no controller does), checked as kube checks it; get shows it', () => {
    assert.match(fail(['patch', 'deploy', 'web', '--subresource=status', '--type=merge', '-p', '{"status":{"replicas":1,"readyReplicas":2}}']), /status\.readyReplicas: Invalid value: 2: cannot be greater than status\.replicas/);
    k('patch', 'deploy', 'web', '--subresource=status', '--type=merge', '-p', '{"status":{"replicas":4,"updatedReplicas":4,"readyReplicas":3,"availableReplicas":3}}');
    assert.deepEqual(table(k('get', 'deploy', 'web'))[1]!.slice(0, 4), ['web', '3/4', '4', '3']);
    assert.equal(JSON.parse(k('get', 'deploy', 'web', '-o', 'json')).metadata.generation, 3, 'a status write does not move generation');
  });

  it('set image, rollout restart (strategic merge patches) and describe work on a stored Deployment', () => {
    assert.equal(k('set', 'image', 'deployment/web', 'nginx=nginx:1.27').trim(), 'deployment.apps/web image updated');
    assert.equal(k('rollout', 'restart', 'deployment/web').trim(), 'deployment.apps/web restarted');
    const d = JSON.parse(k('get', 'deploy', 'web', '-o', 'json'));
    assert.equal(d.spec.template.spec.containers[0].image, 'nginx:1.27');
    assert.equal(d.spec.template.spec.containers[0].imagePullPolicy, 'Always', 'a patch keeps what was defaulted');
    assert.ok(d.spec.template.metadata.annotations['kubectl.kubernetes.io/restartedAt']);
    assert.equal(d.metadata.generation, 5);
    const described = kubectl(server.kubeconfig, ['describe', 'deployment', 'web']).stdout;
    assert.match(described, /^Replicas:\s+4 desired \| 4 updated \| 4 total \| 3 available \| 0 unavailable$/m);
    assert.match(described, /^RollingUpdateStrategy:\s+25% max unavailable, 25% max surge$/m);
    assert.match(described, /^\s+Image:\s+nginx:1\.27$/m);
  });

  it('set resources, then describe: quantities go over protobuf as resource.Quantity, as kube encodes them', () => {
    k('create', 'deployment', 'sized', '--image=nginx');
    assert.equal(k('set', 'resources', 'deployment/sized', '--limits=cpu=200m,memory=512Mi', '--requests=cpu=100m').trim(), 'deployment.apps/sized resource requirements updated');
    // describe reads the Deployment with kubectl's typed client, in protobuf.
    const described = kubectl(server.kubeconfig, ['describe', 'deployment', 'sized']);
    assert.equal(described.code, 0, described.stderr);
    assert.match(described.stdout, /^\s+Limits:\n\s+cpu:\s+200m\n\s+memory:\s+512Mi\n\s+Requests:\n\s+cpu:\s+100m$/m);
    k('delete', 'deployment', 'sized');
  });

  it('an invalid Deployment gets kube\'s messages and paths', () => {
    const stderr = fail(['apply', '-f', '-'], INVALID);
    for (const line of [
      'The Deployment "bad" is invalid:',
      '* spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      '* spec.template.metadata.labels: Invalid value: map[string]string{"app":"b"}: `selector` does not match template `labels`',
      '* spec.template.spec.containers[0].image: Required value',
      '* spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      '* spec.template.spec.containers[0].volumeMounts[0].name: Not found: "nope"',
      "* spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    ]) {
      assert.ok(stderr.includes(line), `missing ${line} in:\n${stderr}`);
    }
  });

  it('a wrongly typed field of a Deployment is kube\'s decode error (400), not a validation error', () => {
    const manifest = INVALID.replace('name: bad', 'name: typed').replace('replicas: -1', 'replicas: "3"');
    assert.match(
      fail(['create', '-f', '-'], manifest),
      /^Error from server \(BadRequest\): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec\.spec\.replicas of type int32$/m,
    );
    assert.equal(kubectl(server.kubeconfig, ['get', 'deployment', 'typed']).code, 1);
  });

  it('an unknown field in the pod template gets kube\'s strict field validation answer', () => {
    const manifest = INVALID.replace('name: bad', 'name: typo').replace('replicas: -1', 'replicas: 1').replace('{app: b}', '{app: a}').replace('strategy: {type: Recreate, rollingUpdate: {maxSurge: 1}}', 'strategy: {type: Recreate}')
      .replace('ports: [{containerPort: 70000}]', 'image: nginx:1\n        imagePullPolicyy: Always').replace('        volumeMounts: [{name: nope, mountPath: /a}]\n', '');
    assert.match(fail(['apply', '-f', '-'], manifest), /Error from server \(BadRequest\): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec\.template\.spec\.containers\[0\]\.imagePullPolicyy"/);
    // Server-side apply answers with kube's field manager's text (SMD names a container by its
    // key), as a 400 where kube's is a 500.
    assert.match(
      fail(['apply', '--server-side', '-f', '-'], manifest),
      /Error from server \(BadRequest\): failed to create typed patch object \(default\/typo; apps\/v1, Kind=Deployment\): \.spec\.template\.spec\.containers\[name="c"\]\.imagePullPolicyy: field not declared in schema/,
    );
  });

  it('spec.selector is immutable', () => {
    const stderr = fail(['patch', 'deployment', 'web', '--type=merge', '-p', '{"spec":{"selector":{"matchLabels":{"app":"other"}},"template":{"metadata":{"labels":{"app":"other"}}}}}']);
    assert.match(stderr, /spec\.selector: Invalid value: v1\.LabelSelector\{MatchLabels:map\[string\]string\{"app":"other"\}, MatchExpressions:\[\]v1\.LabelSelectorRequirement\(nil\)\}: field is immutable/);
  });

  it('a PersistentVolumeClaim is stored Pending with volumeMode Filesystem; get pvc prints kube\'s columns', () => {
    assert.equal(apply(CLAIM).trim(), 'persistentvolumeclaim/data created');
    const pvc = JSON.parse(k('get', 'pvc', 'data', '-o', 'json'));
    assert.equal(pvc.spec.volumeMode, 'Filesystem');
    assert.deepEqual(pvc.status, { phase: 'Pending' });
    const rows = table(k('get', 'pvc'));
    assert.deepEqual(rows[0], ['NAME', 'STATUS', 'VOLUME', 'CAPACITY', 'ACCESS MODES', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'AGE']);
    assert.deepEqual(rows[1]!.slice(0, 4), ['data', 'Pending', 'standard', '<unset>']);
    // Bound by a client (kgen runs no binder): capacity and access modes show once spec.volumeName is set.
    k('patch', 'pvc', 'data', '--type=merge', '-p', '{"spec":{"volumeName":"pv-1"}}');
    k('patch', 'pvc', 'data', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Bound","capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"]}}');
    const bound = table(k('get', 'pvc', '-o', 'wide'));
    assert.deepEqual(bound[0], ['NAME', 'STATUS', 'VOLUME', 'CAPACITY', 'ACCESS MODES', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'AGE', 'VOLUMEMODE']);
    assert.deepEqual([...bound[1]!.slice(0, 7), bound[1]![8]], ['data', 'Bound', 'pv-1', '1Gi', 'RWO', 'standard', '<unset>', 'Filesystem']);
  });

  it('a claim\'s spec is immutable but for its storage request', () => {
    k('patch', 'pvc', 'data', '--type=merge', '-p', '{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}');
    const stderr = fail(['patch', 'pvc', 'data', '--type=merge', '-p', '{"spec":{"accessModes":["ReadWriteMany"]}}']);
    assert.match(stderr, /The PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims/);
    assert.match(fail(['apply', '-f', '-'], CLAIM.replace('name: data', 'name: empty').replace('storage: 1Gi', 'storage: "0"')), /spec\.resources\[storage\]: Invalid value: "0": must be greater than zero/);
  });

  it('bootstrap roles: view lists deployments and claims but creates nothing; edit scales', () => {
    k('create', 'rolebinding', 'viewer', '--clusterrole=view', '--user=vera');
    k('create', 'rolebinding', 'editor', '--clusterrole=edit', '--user=ed');
    const canI = (user: string, ...what: string[]) => kubectl(server.kubeconfig, ['auth', 'can-i', ...what, `--as=${user}`]).stdout.trim();
    assert.equal(canI('vera', 'list', 'deployments.apps'), 'yes');
    assert.equal(canI('vera', 'get', 'deployments.apps/scale'), 'yes');
    assert.equal(canI('vera', 'list', 'persistentvolumeclaims'), 'yes');
    assert.equal(canI('vera', 'create', 'deployments.apps'), 'no');
    assert.equal(canI('vera', 'update', 'deployments.apps/scale'), 'no');
    assert.equal(canI('ed', 'update', 'deployments.apps/scale'), 'yes');
    assert.equal(canI('ed', 'create', 'persistentvolumeclaims'), 'yes');
    assert.match(k('get', 'deployments', '--as=vera'), /^web\s/m);
    assert.match(fail(['create', 'deployment', 'nope', '--image=nginx', '--as=vera']), /User "vera" cannot create resource "deployments" in API group "apps" in the namespace "default"/);
    assert.equal(kubectlOk(server.kubeconfig, ['scale', 'deployment', 'web', '--replicas=1', '--as=ed']).trim(), 'deployment.apps/web scaled');
  });

  it('discovery: short names deploy and pvc, deployments in category all', () => {
    const resources = table(k('api-resources', '--api-group=apps'));
    assert.deepEqual(resources.find((r) => r[0] === 'deployments'), ['deployments', 'deploy', 'apps/v1', 'true', 'Deployment']);
    const core = table(k('api-resources', '--api-group='));
    assert.deepEqual(core.find((r) => r[0] === 'persistentvolumeclaims'), ['persistentvolumeclaims', 'pvc', 'v1', 'true', 'PersistentVolumeClaim']);
  });
});
