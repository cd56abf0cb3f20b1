/**
 * kgen's protobuf for the built-in kinds against real kubectl v1.32 and v1.33 (Go, gogo-protobuf
 * and k8s.io/api's generated.proto numbers; 1.27 to 1.31 speak JSON only): the oracle the round-trip tests of
 * test/endpoints/protobuf-builtins.test.ts cannot be, since there kgen's encoder and decoder only
 * agree with each other.
 *
 * Reads: rich objects (every field family of the kind: quantities and maps of them, int-or-string,
 * maps of strings and bytes, times and micro-times, int32/int64, bools, Go-embedded structs,
 * lists of structs, optional pointers set to zero values) are created as JSON, then read by
 * kubectl's typed client, whose Accept is `application/vnd.kubernetes.protobuf,application/json`:
 * `kubectl describe` (the object and the events list), `kubectl events`. Every such read must
 * be answered in protobuf and decoded without a `proto:` error, and what describe prints must be
 * what kube's describer prints for those fields.
 *
 * Writes: kubectl's typed `create` commands send protobuf bodies; what is stored (read back as
 * JSON) must be what kube-apiserver stores for them.
 *
 * Kinds no kubectl command reads through a typed client (Lease, events.k8s.io Event,
 * APIService, the webhook configurations, TokenReview) are checked byte for byte in
 * test/endpoints/protobuf-builtins.test.ts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO, kubectl, kubectlOk, removeDir, startKgen, type KgenServer } from './harness.js';

const NS = `apiVersion: v1
kind: Namespace
metadata: {name: rich, labels: {team: blue}, annotations: {owner: "me"}}
spec: {finalizers: [kubernetes]}
`;

const CORE = `apiVersion: v1
kind: ConfigMap
metadata: {name: cm, namespace: rich, labels: {tier: "front"}}
data: {a: "1", b: ""}
binaryData: {bin: AAEC}
immutable: false
---
apiVersion: v1
kind: Secret
metadata: {name: sec, namespace: rich}
type: Opaque
data: {password: czNjcmV0, empty: ""}
stringData: {s: plain}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: sa, namespace: rich}
automountServiceAccountToken: false
secrets: [{name: s1, namespace: rich, kind: Secret}]
imagePullSecrets: [{name: pull}]
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: rich}
spec:
  type: NodePort
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: 8080, protocol: TCP, nodePort: 30080, appProtocol: http}
  - {name: named, port: 81, targetPort: web, protocol: UDP}
---
apiVersion: v1
kind: Endpoints
metadata: {name: svc, namespace: rich}
subsets:
- addresses: [{ip: 10.1.0.1, hostname: h, nodeName: n1}]
  notReadyAddresses: [{ip: 10.1.0.2}]
  ports: [{name: http, port: 8080, protocol: TCP, appProtocol: http}]
---
apiVersion: v1
kind: Event
metadata: {name: ev1, namespace: rich}
involvedObject: {kind: Deployment, namespace: rich, name: web, uid: u1, apiVersion: apps/v1, resourceVersion: "5", fieldPath: spec}
reason: Scaled
message: scaled up
source: {component: ctrl, host: h1}
firstTimestamp: "2026-01-02T03:04:05Z"
lastTimestamp: "2026-01-02T03:04:06Z"
count: 3
type: Normal
eventTime: "2026-01-02T03:04:05.123456Z"
series: {count: 2, lastObservedTime: "2026-01-02T03:04:07.654321Z"}
action: Scale
related: {kind: Pod, name: p}
reportingComponent: ctrl
reportingInstance: ctrl-1
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: r, namespace: rich}
rules:
- {apiGroups: ["", apps], resources: [configmaps, deployments], verbs: [get, list], resourceNames: [a]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: rich-reader}
rules:
- {nonResourceURLs: [/healthz], verbs: [get]}
- {apiGroups: [""], resources: [secrets], verbs: [watch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: rb, namespace: rich}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}
subjects:
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: alice}
- {kind: ServiceAccount, name: sa, namespace: rich}
- {kind: Group, apiGroup: rbac.authorization.k8s.io, name: devs}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: rich-reader}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: rich-reader}
subjects:
- {kind: ServiceAccount, name: sa, namespace: rich}
`;

/** A pod template with every field family of PodSpec and Container, several pointers set to zero. */
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: rich, labels: {app: web}, annotations: {note: "n"}}
spec:
  replicas: 0
  minReadySeconds: 0
  paused: true
  revisionHistoryLimit: 0
  progressDeadlineSeconds: 601
  selector: {matchLabels: {app: web}, matchExpressions: [{key: tier, operator: In, values: [a, b]}]}
  strategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 0, maxSurge: "50%"}}
  template:
    metadata: {labels: {app: web, tier: a}, annotations: {t: "v"}}
    spec:
      terminationGracePeriodSeconds: 0
      automountServiceAccountToken: false
      enableServiceLinks: false
      nodeSelector: {disk: ssd}
      serviceAccountName: web
      securityContext: {runAsUser: 0, runAsNonRoot: false, fsGroup: 2000, supplementalGroups: [1, 2], sysctls: [{name: a, value: b}]}
      tolerations: [{key: k, operator: Exists, effect: NoExecute, tolerationSeconds: 0}]
      affinity: {podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, podAffinityTerm: {topologyKey: h, labelSelector: {matchLabels: {app: web}}}}]}}
      initContainers:
      - {name: init, image: busybox, command: [sh, -c, "true"]}
      containers:
      - name: web
        image: nginx:1.25
        args: ["-g", "daemon off;"]
        ports: [{name: http, containerPort: 80, protocol: TCP, hostPort: 0}]
        env:
        - {name: A, value: "1"}
        - name: POD
          valueFrom: {fieldRef: {apiVersion: v1, fieldPath: metadata.name}}
        - name: MEM
          valueFrom: {resourceFieldRef: {containerName: web, resource: limits.memory, divisor: 1Mi}}
        - name: CM
          valueFrom: {configMapKeyRef: {name: cm, key: a, optional: false}}
        - name: SEC
          valueFrom: {secretKeyRef: {name: sec, key: password, optional: true}}
        envFrom: [{prefix: P_, configMapRef: {name: cm, optional: false}}, {secretRef: {name: sec}}]
        resources: {limits: {cpu: 500m, memory: 128Mi, example.com/gpu: "1"}, requests: {cpu: "0", memory: 64Mi}}
        volumeMounts: [{name: data, mountPath: /data, readOnly: true, subPath: s}, {name: cfg, mountPath: /cfg}]
        livenessProbe: {httpGet: {path: /healthz, port: http, scheme: HTTPS, httpHeaders: [{name: X, value: "yy"}]}, periodSeconds: 10, successThreshold: 1, failureThreshold: 3, timeoutSeconds: 1}
        readinessProbe: {tcpSocket: {port: 80}, initialDelaySeconds: 2}
        startupProbe: {exec: {command: [cat, /ok]}}
        securityContext: {runAsNonRoot: true, runAsUser: 1000, privileged: false, readOnlyRootFilesystem: true, capabilities: {add: [NET_ADMIN], drop: [ALL]}}
        imagePullPolicy: IfNotPresent
      volumes:
      - {name: data, persistentVolumeClaim: {claimName: pvc, readOnly: true}}
      - {name: cfg, configMap: {name: cm, defaultMode: 0, optional: false, items: [{key: a, path: a.txt, mode: 0}]}}
      - {name: sec, secret: {secretName: sec, defaultMode: 420}}
      - {name: tmp, emptyDir: {medium: Memory, sizeLimit: 64Mi}}
      - {name: proj, projected: {sources: [{serviceAccountToken: {path: t, expirationSeconds: 3600, audience: a}}], defaultMode: 420}}
      - {name: dapi, downwardAPI: {items: [{path: l, fieldRef: {fieldPath: metadata.labels}}]}}
`;

const DEPLOYMENT_STATUS = {
  observedGeneration: 1,
  replicas: 3,
  updatedReplicas: 2,
  readyReplicas: 1,
  availableReplicas: 1,
  unavailableReplicas: 2,
  collisionCount: 0,
  conditions: [
    { type: 'Available', status: 'False', lastUpdateTime: '2026-01-02T03:04:05Z', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' },
    { type: 'Progressing', status: 'True', lastUpdateTime: '2026-01-02T03:04:06Z', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'ReplicaSetUpdated', message: 'm' },
  ],
};

/**
 * The other kubectl whose typed client speaks protobuf: 1.32 (the dispatcher on PATH) and 1.33
 * send `Accept: application/vnd.kubernetes.protobuf,application/json` and protobuf bodies;
 * 1.27 to 1.31 ask for and send JSON (checked with -v=8), so they do not exercise protobuf.
 */
const VERSIONS = ['1.33'];

const PROTOBUF_ANSWER = /Content-Type: application\/vnd\.kubernetes\.protobuf/;

describe('kubectl reads and writes the built-in kinds in protobuf', () => {
  let server: KgenServer;
  const k = (...args: string[]) => kubectlOk(server.kubeconfig, args);
  /**
   * What is stored, read back as JSON over HTTP (`[-n ns] get <kind> <name>`, as the kubectl
   * command it replaces): the proof is the stored object, not kubectl's JSON printer.
   */
  const json = async (...args: string[]): Promise<Record<string, any>> => {
    const [ns, kind, name] = args[0] === '-n' ? [args[1]!, args[3]!, args[4]!] : ['', args[1]!, args[2]!];
    const prefix = { deployment: '/apis/apps/v1', service: '/api/v1', configmap: '/api/v1', secret: '/api/v1' }[kind] ?? '/apis/rbac.authorization.k8s.io/v1';
    const r = await server.fetch(`${server.url}${prefix}${ns ? `/namespaces/${ns}` : ''}/${kind}s/${name}`);
    assert.equal(r.status, 200, args.join(' '));
    return JSON.parse(await r.text());
  };
  /** A read through kubectl's typed client: answered in protobuf, decoded without error. */
  const typedRead = (...args: string[]) => {
    const r = kubectl(server.kubeconfig, [...args, '-v=8']);
    assert.equal(r.code, 0, r.stderr.slice(-3000));
    assert.doesNotMatch(r.stderr, /proto: /);
    assert.match(r.stderr, /Accept: application\/vnd\.kubernetes\.protobuf,application\/json/);
    // GETs carry no Content-Type: this one is the protobuf answer's.
    assert.match(r.stderr, PROTOBUF_ANSWER);
    return r.stdout;
  };
  /** A typed create: its request body is protobuf. */
  const typedCreate = (...args: string[]) => {
    const r = kubectl(server.kubeconfig, ['create', ...args, '-v=8']);
    assert.equal(r.code, 0, r.stderr.slice(-3000));
    assert.match(r.stderr, /Content-Type: application\/vnd\.kubernetes\.protobuf/);
    return r.stdout;
  };

  before(async () => {
    server = await startKgen({ generatedDir: join(REPO, 'generated'), storage: 'memory:' });
    // Created as JSON (kubectl create -f sends unstructured objects as JSON).
    kubectlOk(server.kubeconfig, ['create', '-f', '-'], NS);
    kubectlOk(server.kubeconfig, ['create', '-f', '-'], CORE);
    kubectlOk(server.kubeconfig, ['create', '-f', '-'], DEPLOYMENT);
    k('patch', '-n', 'rich', 'deployment', 'web', '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: DEPLOYMENT_STATUS }));
  });
  after(async () => {
    await server.stop();
    removeDir(server.dataDir);
  });

  it('describe deployment: quantities, int-or-string, embedded probe handlers and volume sources, pointers at zero', () => {
    const out = typedRead('describe', '-n', 'rich', 'deployment', 'web');
    for (const line of [
      /^Annotations:\s+note: n$/m,
      /^Selector:\s+app=web,tier in \(a,b\)$/m,
      // *int32 replicas at 0 and the status counters.
      /^Replicas:\s+0 desired \| 2 updated \| 3 total \| 1 available \| 2 unavailable$/m,
      // IntOrString: an int 0 and a string.
      /^RollingUpdateStrategy:\s+0 max unavailable, 50% max surge$/m,
      /^\s+Annotations:\s+t: v$/m,
      /^\s+Service Account:\s+web$/m,
      /^\s+Host Port:\s+0\/TCP$/m,
      // map<string, Quantity>, an extended resource among them, and a zero quantity.
      /^\s+Limits:\n\s+cpu:\s+500m\n\s+example\.com\/gpu:\s+1\n\s+memory:\s+128Mi\n\s+Requests:\n\s+cpu:\s+0\n\s+memory:\s+64Mi$/m,
      // ProbeHandler embedded in Probe (fields 1.M), IntOrString ports by name and by number.
      /^\s+Liveness:\s+http-get https:\/\/:http\/healthz delay=0s timeout=1s period=10s #success=1 #failure=3$/m,
      /^\s+Readiness:\s+tcp-socket :80 delay=2s timeout=1s period=10s #success=1 #failure=3$/m,
      /^\s+Startup:\s+exec \[cat \/ok\] delay=0s timeout=1s period=10s #success=1 #failure=3$/m,
      /^\s+cm\s+ConfigMap with prefix 'P_'\s+Optional: false$/m,
      /^\s+POD:\s+ \(v1:metadata\.name\)$/m,
      // A Quantity divisor (1Mi) applied to the limit.
      /^\s+MEM:\s+128 \(limits\.memory\)$/m,
      // *bool at false and at true.
      /^\s+CM:\s+<set to the key 'a' of config map 'cm'>\s+Optional: false$/m,
      /^\s+SEC:\s+<set to the key 'password' in secret 'sec'>\s+Optional: true$/m,
      /^\s+\/data from data \(ro,path="s"\)$/m,
      // VolumeSource embedded in Volume (fields 2.M).
      /^\s+ClaimName:\s+pvc\n\s+ReadOnly:\s+true$/m,
      /^\s+Medium:\s+Memory\n\s+SizeLimit:\s+64Mi$/m,
      /^\s+TokenExpirationSeconds:\s+3600$/m,
      /^\s+metadata\.labels -> l$/m,
      /^\s+Node-Selectors:\s+disk=ssd$/m,
      // *int64 tolerationSeconds at 0.
      /^\s+Tolerations:\s+k:NoExecute op=Exists for 0s$/m,
      // Status conditions, their times (metav1.Time) included.
      /^Conditions:\n\s+Type\s+Status\s+Reason\n\s+----\s+------\s+------\n\s+Available\s+False\s+MinimumReplicasUnavailable\n\s+Progressing\s+True\s+ReplicaSetUpdated$/m,
    ]) {
      assert.match(out, line);
    }
  });

  it('describe service, endpoints, configmap, secret, serviceaccount, namespace', () => {
    const svc = typedRead('describe', '-n', 'rich', 'service', 'svc');
    assert.match(svc, /^Selector:\s+app=web$/m);
    assert.match(svc, /^Type:\s+NodePort$/m);
    assert.match(svc, /^Port:\s+http  80\/TCP\nTargetPort:\s+8080\/TCP\nNodePort:\s+http  30080\/TCP$/m);
    assert.match(svc, /^Port:\s+named  81\/UDP\nTargetPort:\s+web\/UDP\nNodePort:\s+named  \d+\/UDP$/m);
    const ep = typedRead('describe', '-n', 'rich', 'endpoints', 'svc');
    assert.match(ep, /^\s+Addresses:\s+10\.1\.0\.1\n\s+NotReadyAddresses:\s+10\.1\.0\.2$/m);
    assert.match(ep, /^\s+http\s+8080\s+TCP$/m);
    const cm = typedRead('describe', '-n', 'rich', 'configmap', 'cm');
    assert.match(cm, /^Labels:\s+tier=front$/m);
    // describe prints map entries in Go's map order (random): one at a time.
    assert.match(cm, /^a:\n----\n1\n$/m);
    assert.match(cm, /^b:\n----\n\n/m);
    // map<string, bytes>.
    assert.match(cm, /^bin: 3 bytes$/m);
    const sec = typedRead('describe', '-n', 'rich', 'secret', 'sec');
    assert.match(sec, /^Type:\s+Opaque$/m);
    for (const line of [/^empty:\s+0 bytes$/m, /^password:\s+6 bytes$/m, /^s:\s+5 bytes$/m]) assert.match(sec, line);
    const sa = typedRead('describe', '-n', 'rich', 'serviceaccount', 'sa');
    assert.match(sa, /^Image pull secrets:\s+pull \(not found\)$/m);
    assert.match(sa, /^Mountable secrets:\s+s1 \(not found\)$/m);
    const ns = typedRead('describe', 'namespace', 'rich');
    assert.match(ns, /^Labels:\s+kubernetes\.io\/metadata\.name=rich\n\s+team=blue$/m);
    assert.match(ns, /^Annotations:\s+owner: me$/m);
    assert.match(ns, /^Status:\s+Active$/m);
  });

  it('describe role, clusterrole, rolebinding, clusterrolebinding', () => {
    const role = typedRead('describe', '-n', 'rich', 'role', 'r');
    assert.match(role, /^\s+configmaps\s+\[\]\s+\[a\]\s+\[get list\]$/m);
    assert.match(role, /^\s+deployments\.apps\s+\[\]\s+\[a\]\s+\[get list\]$/m);
    const cr = typedRead('describe', 'clusterrole', 'rich-reader');
    assert.match(cr, /^\s+secrets\s+\[\]\s+\[\]\s+\[watch\]$/m);
    assert.match(cr, /^\s+\[\/healthz\]\s+\[\]\s+\[get\]$/m);
    const rb = typedRead('describe', '-n', 'rich', 'rolebinding', 'rb');
    assert.match(rb, /^Role:\n\s+Kind:\s+Role\n\s+Name:\s+r$/m);
    assert.match(rb, /^\s+User\s+alice\s*\n\s+ServiceAccount\s+sa\s+rich\n\s+Group\s+devs\s*$/m);
    const crb = typedRead('describe', 'clusterrolebinding', 'rich-reader');
    assert.match(crb, /^\s+ServiceAccount\s+sa\s+rich$/m);
  });

  it('kubectl events: a core Event list with times, micro-times, a series and counts', () => {
    const out = typedRead('events', '-n', 'rich');
    assert.match(out, /\(x2 over \S+\)\s+Normal\s+Scaled\s+Deployment\/web\s+scaled up/);
  });

  it('typed creates send protobuf; what is stored is what kube stores', async () => {
    k('create', 'namespace', 'typed');
    typedCreate('-n', 'typed', 'deployment', 'd', '--image=nginx', '--replicas=3', '--port=8080');
    const d = await json('-n', 'typed', 'get', 'deployment', 'd');
    assert.equal(d.spec.replicas, 3);
    assert.deepEqual(d.spec.template.spec.containers[0].ports, [{ containerPort: 8080, protocol: 'TCP' }]);
    assert.deepEqual(d.spec.template.spec.containers[0].resources, {});
    assert.deepEqual(d.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });

    typedCreate('-n', 'typed', 'service', 'nodeport', 'np', '--tcp=80:8080', '--node-port=30081');
    assert.deepEqual((await json('-n', 'typed', 'get', 'service', 'np')).spec.ports, [{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080, nodePort: 30081 }]);
    typedCreate('-n', 'typed', 'service', 'clusterip', 'headless', '--clusterip=None', '--tcp=5678:8080');
    assert.equal((await json('-n', 'typed', 'get', 'service', 'headless')).spec.clusterIP, 'None');
    typedCreate('-n', 'typed', 'service', 'externalname', 'ext', '--external-name=example.com', '--tcp=80');
    assert.equal((await json('-n', 'typed', 'get', 'service', 'ext')).spec.externalName, 'example.com');

    // Empty values in map<string, string> and map<string, bytes>; bytes that are no UTF-8.
    typedCreate('-n', 'typed', 'configmap', 'cm', '--from-literal=a=', '--from-literal=b=x');
    assert.deepEqual((await json('-n', 'typed', 'get', 'configmap', 'cm')).data, { a: '', b: 'x' });
    typedCreate('-n', 'typed', 'secret', 'generic', 's', '--from-literal=e=', '--from-literal=p=x', '--type=Custom');
    const s = await json('-n', 'typed', 'get', 'secret', 's');
    assert.deepEqual(s.data, { e: '', p: 'eA==' });
    assert.equal(s.type, 'Custom');

    typedCreate('-n', 'typed', 'role', 'r', '--verb=get,list', '--resource=configmaps,deployments.apps', '--resource-name=a');
    assert.deepEqual((await json('-n', 'typed', 'get', 'role', 'r')).rules, [
      { apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'], verbs: ['get', 'list'] },
      { apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['a'], verbs: ['get', 'list'] },
    ]);
    typedCreate('clusterrole', 'typed-logs', '--verb=get', '--non-resource-url=/logs/*');
    assert.deepEqual((await json('get', 'clusterrole', 'typed-logs')).rules, [{ nonResourceURLs: ['/logs/*'], verbs: ['get'] }]);
    typedCreate('clusterrole', 'typed-agg', '--aggregation-rule=typed=agg');
    assert.deepEqual((await json('get', 'clusterrole', 'typed-agg')).aggregationRule, { clusterRoleSelectors: [{ matchLabels: { typed: 'agg' } }] });
    typedCreate('-n', 'typed', 'rolebinding', 'rb', '--role=r', '--user=alice', '--group=devs', '--serviceaccount=typed:sa');
    assert.deepEqual((await json('-n', 'typed', 'get', 'rolebinding', 'rb')).subjects, [
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' },
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' },
      { kind: 'ServiceAccount', name: 'sa', namespace: 'typed' },
    ]);
    typedCreate('clusterrolebinding', 'typed-logs', '--clusterrole=typed-logs', '--user=bob');
    assert.deepEqual((await json('get', 'clusterrolebinding', 'typed-logs')).roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'typed-logs' });
    typedCreate('-n', 'typed', 'serviceaccount', 'sa');
    // TokenRequest {spec {audiences 1, expirationSeconds 4}}: the token's claims say what was decoded.
    const token = typedCreate('-n', 'typed', 'token', 'sa', '--audience=a', '--audience=b', '--duration=10m').trim();
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    assert.deepEqual(claims.aud, ['a', 'b']);
    assert.equal(claims.exp - claims.iat, 600);
    // boundObjectRef 3 {kind 1, apiVersion 2, name 3, uid 4}: kubectl reads the Secret (typed, protobuf) for its uid.
    const bound = typedCreate('-n', 'typed', 'token', 'sa', '--bound-object-kind=Secret', '--bound-object-name=s').trim();
    const boundClaims = JSON.parse(Buffer.from(bound.split('.')[1]!, 'base64url').toString());
    assert.deepEqual(boundClaims['kubernetes.io'].secret, { name: 's', uid: s.metadata.uid });
  });

  it('create deployment --replicas=0: a Go pointer set to zero is kept, as kube stores it (not defaulted to 1)', async () => {
    typedCreate('-n', 'typed', 'deployment', 'zero', '--image=nginx', '--replicas=0');
    assert.equal((await json('-n', 'typed', 'get', 'deployment', 'zero')).spec.replicas, 0);
    assert.match(typedRead('describe', '-n', 'typed', 'deployment', 'zero'), /^Replicas:\s+0 desired \|/m);
  });

  it('kubectl 1.33 reads the Deployment, Service and Secret in protobuf and creates with a pointer at zero, as 1.32', async () => {
    for (const v of VERSIONS) {
      const path = `/usr/lib/google-cloud-sdk/bin/kubectl.${v}`;
      // Missing is a failure, never a skip.
      assert.ok(existsSync(path), `kubectl ${v} is missing at ${path}`);
      const describe = (...args: string[]) => {
        const r = spawnSync(path, ['describe', '-n', 'rich', ...args, '-v=8'], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, KUBECONFIG: server.kubeconfig } });
        assert.equal(r.status, 0, `kubectl ${v}: ${r.stderr.slice(-2000)}`);
        assert.doesNotMatch(r.stderr, /proto: /, `kubectl ${v}`);
        assert.match(r.stderr, PROTOBUF_ANSWER, `kubectl ${v}`);
        return r.stdout;
      };
      const d = describe('deployment', 'web');
      assert.match(d, /^\s+Limits:\n\s+cpu:\s+500m\n\s+example\.com\/gpu:\s+1\n\s+memory:\s+128Mi$/m, `kubectl ${v}`);
      assert.match(d, /^RollingUpdateStrategy:\s+0 max unavailable, 50% max surge$/m, `kubectl ${v}`);
      assert.match(describe('service', 'svc'), /^TargetPort:\s+web\/UDP$/m, `kubectl ${v}`);
      assert.match(describe('secret', 'sec'), /^password:\s+6 bytes$/m, `kubectl ${v}`);
      const name = `zero-${v.replace('.', '-')}`;
      const created = spawnSync(path, ['create', '-n', 'rich', 'deployment', name, '--image=nginx', '--replicas=0', '-v=8'], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, KUBECONFIG: server.kubeconfig } });
      assert.equal(created.status, 0, created.stderr.slice(-2000));
      assert.match(created.stderr, PROTOBUF_ANSWER);
      assert.equal((await json('-n', 'rich', 'get', 'deployment', name)).spec.replicas, 0, `kubectl ${v}`);
    }
  });

  it('auth can-i, can-i --list and whoami: review bodies in protobuf', () => {
    const r = kubectl(server.kubeconfig, ['auth', 'can-i', 'get', 'configmaps', '--subresource=status', '-n', 'rich', '-v=8']);
    assert.equal(r.stdout.trim(), 'yes', r.stderr.slice(-2000));
    assert.match(r.stderr, /Content-Type: application\/vnd\.kubernetes\.protobuf/);
    const list = kubectl(server.kubeconfig, ['auth', 'can-i', '--list', '-n', 'rich', '-v=8']);
    assert.equal(list.code, 0, list.stderr.slice(-2000));
    assert.match(list.stdout, /^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/m);
    assert.match(list.stderr, /Content-Type: application\/vnd\.kubernetes\.protobuf/);
    const who = kubectl(server.kubeconfig, ['auth', 'whoami', '-v=8']);
    assert.equal(who.code, 0, who.stderr.slice(-2000));
    assert.match(who.stdout, /^Username\s+kgen-admin$/m);
    assert.match(who.stderr, /Content-Type: application\/vnd\.kubernetes\.protobuf/);
  });
});
