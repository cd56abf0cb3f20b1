/**
 * Protobuf for every built-in kind, in both directions: message tables derived from each kind's
 * compiled schema and kube's field numbers (@kgen:protobuf on the fields of generator/builtin/,
 * carried by the kind's ResourceDefinition), objects that round-trip through
 * encoder and decoder, `Accept: application/vnd.kubernetes.protobuf` answered for built-in kinds,
 * JSON for compiled user kinds and CRDs (406 when only protobuf is acceptable for a CRD, as kube).
 * Real clients' bytes: test/e2e/kubectl-matrix.test.ts (`kubectl create service`, whose request
 * and response are protobuf).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeKubernetesProtobuf } from '../../runtime/endpoints/protobuf.js';
import { encodeKubernetesProtobuf } from '../../runtime/endpoints/protobuf-encode.js';
import { registerBuiltinProtobuf, tableOf } from '../support/protobuf-builtins.js';
import { startTestServer, widget, WIDGETS, type TestServer } from '../server/testserver.js';

const PB = 'application/vnd.kubernetes.protobuf';
const meta = { name: 'x', uid: 'u-1', resourceVersion: '7', creationTimestamp: '2026-01-02T03:04:05Z', labels: { a: 'b' }, annotations: { note: 'n' } };
const SAMPLES: Record<string, Record<string, unknown>> = {
  Service: { spec: { type: 'ClusterIP', selector: { app: 'x' }, ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 }, { name: 'named', port: 81, protocol: 'TCP', targetPort: 'web' }], clusterIP: '10.0.0.1' } },
  Endpoints: { subsets: [{ addresses: [{ ip: '10.1.0.1' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }] },
  Namespace: { spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active', conditions: [{ type: 'NamespaceDeletionDiscoveryFailure', status: 'False', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'R', message: 'm' }] } },
  ClusterRole: { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }], aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'true' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['v'] }] }] } },
  RoleBinding: { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }] },
  MutatingWebhookConfiguration: {
    webhooks: [{ name: 'w.example.com', admissionReviewVersions: ['v1'], sideEffects: 'None', timeoutSeconds: 5, clientConfig: { url: 'https://hook.example.com/x', caBundle: Buffer.from('ca bytes').toString('base64') }, rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' }] }],
  },
  APIService: { spec: { group: 'metrics.example.com', version: 'v1', groupPriorityMinimum: 100, versionPriority: 10, service: { namespace: 'ns', name: 'svc', port: 443 }, insecureSkipTLSVerify: true }, status: { conditions: [{ type: 'Available', status: 'True', lastTransitionTime: '2026-01-02T03:04:05Z' }] } },
  // The answer a Go delegating authenticator reads: status with the user and its extras.
  TokenReview: { spec: { token: 't', audiences: ['aud'] }, status: { authenticated: true, user: { username: 'bob', uid: 'u', groups: ['g'], extra: { scopes: ['a', 'b'] } }, audiences: ['aud'] } },
  // map<string, bytes> with two entries (one occurrence of the field per entry): an object, not the last entry.
  Secret: { type: 'Opaque', data: { password: Buffer.from('s3cret').toString('base64'), user: Buffer.from('bob').toString('base64') }, immutable: true },
  ConfigMap: { data: { a: '1', b: '2' }, binaryData: { blob: Buffer.from([0, 1, 2]).toString('base64'), other: Buffer.from('x').toString('base64') } },
  SelfSubjectReview: { status: { userInfo: { username: 'bob', groups: ['system:authenticated'] } } },
  // Go-embedded structs (Probe's ProbeHandler, Volume's VolumeSource: fields 1.M and 2.M), IntOrString, Quantity maps, int64, nested ObjectMeta.
  Deployment: {
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      template: {
        metadata: { labels: { app: 'web', tier: 'a' }, annotations: { note: 'n' } },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'nginx:1.25',
              args: ['-g', 'daemon off;'],
              ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
              env: [{ name: 'A', value: '1' }, { name: 'POD', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }],
              resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '100m' } },
              volumeMounts: [{ name: 'data', mountPath: '/data', readOnly: true }],
              livenessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTPS' }, periodSeconds: 10, successThreshold: 1, failureThreshold: 3, timeoutSeconds: 1 },
              readinessProbe: { tcpSocket: { port: 80 }, initialDelaySeconds: 2 },
              securityContext: { runAsNonRoot: true, runAsUser: 1000, capabilities: { drop: ['ALL'] } },
              imagePullPolicy: 'IfNotPresent',
            },
          ],
          volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }, { name: 'cfg', configMap: { name: 'cfg', defaultMode: 420, items: [{ key: 'a', path: 'a.txt' }] } }],
          restartPolicy: 'Always',
          terminationGracePeriodSeconds: 30,
          serviceAccountName: 'web',
          nodeSelector: { disk: 'ssd' },
          tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 60 }],
          affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'web' } } } }] } },
          securityContext: {},
        },
      },
    },
    status: { observedGeneration: 2, replicas: 3, readyReplicas: 2, conditions: [{ type: 'Available', status: 'True', lastUpdateTime: '2026-01-02T03:04:05Z', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'MinimumReplicasAvailable', message: 'ok' }] },
  },
  PersistentVolumeClaim: {
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'standard', volumeMode: 'Filesystem', volumeName: 'pv-1', dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } },
    status: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, conditions: [{ type: 'Resizing', status: 'True', lastTransitionTime: '2026-01-02T03:04:05Z' }] },
  },
  SelfSubjectAccessReview: { spec: { resourceAttributes: { namespace: 'ns', verb: 'get', resource: 'pods', labelSelector: { requirements: [{ key: 'a', operator: 'In', values: ['b'] }] } } }, status: { allowed: true, reason: 'ok' } },
};

// Protobuf bytes written by hand (not by kgen's encoder), as gogo writes them: a tag is
// field << 3 | wire type; lengths and varints are base-128.
const varint = (n: number): Buffer => {
  const out: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 0x80)) out.push((n % 0x80) | 0x80);
  out.push(n);
  return Buffer.from(out);
};
/** A varint field (wire type 0). */
const vint = (field: number, n: number) => Buffer.concat([varint(field << 3), varint(n)]);
/** A length-delimited field (wire type 2) holding the concatenated parts. */
const ld = (field: number, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([varint((field << 3) | 2), varint(body.length), body]);
};
const str = (field: number, s: string) => ld(field, Buffer.from(s, 'utf8'));
/** `k8s\0` + runtime.Unknown {typeMeta 1 {apiVersion 1, kind 2}, raw 2} of a kind whose metadata is field 1. */
const envelope = (apiVersion: string, kind: string, ...fields: Buffer[]) =>
  Buffer.concat([Buffer.from('k8s\0', 'latin1'), ld(1, str(1, apiVersion), str(2, kind)), ld(2, ...fields)]);

describe('protobuf tables derived for the built-in kinds', () => {
  const kinds = registerBuiltinProtobuf();

  it('covers every built-in kind but CustomResourceDefinition', () => {
    // By apiVersion and kind: events.k8s.io/v1 Event is not core/v1 Event.
    const encodable = kinds.filter((k) => tableOf(k)).map((k) => `${k.apiVersion}/${k.kind}`);
    const missing = kinds.map((k) => `${k.apiVersion}/${k.kind}`).filter((k) => !encodable.includes(k));
    assert.deepEqual(missing, ['apiextensions.k8s.io/v1/CustomResourceDefinition']);
    assert.ok(encodable.length >= 12, encodable.join(' '));
  });

  for (const [kind, body] of Object.entries(SAMPLES)) {
    it(`round-trips a ${kind} through encoder and decoder`, () => {
      const k = kinds.find((x) => x.kind === kind)!;
      const obj = { apiVersion: k.apiVersion, kind, metadata: meta, ...body };
      const bytes = encodeKubernetesProtobuf(obj);
      assert.ok(bytes, `${kind} encodes`);
      assert.deepEqual([...bytes.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00]);
      assert.deepEqual(decodeKubernetesProtobuf(bytes), obj);
    });
  }

  it('uses kube\'s numbers for Go-embedded structs: Probe.handler (1) holds httpGet (2), Volume.volumeSource (2) holds persistentVolumeClaim (10)', () => {
    const obj = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { template: { spec: { containers: [{ name: 'c', livenessProbe: { httpGet: { path: '/h' } } }], volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'p' } }] } } },
    };
    const text = Buffer.from(encodeKubernetesProtobuf(obj)!).toString('latin1');
    // Container.livenessProbe = 10 → Probe.handler = 1 → ProbeHandler.httpGet = 2 → HTTPGetAction.path = 1 (k8s.io/api core/v1 generated.proto).
    assert.match(text, /\x52\x08\x0a\x06\x12\x04\x0a\x02\/h/);
    // PodSpec.volumes = 1 → Volume.name = 1, Volume.volumeSource = 2 → VolumeSource.persistentVolumeClaim = 10 → claimName = 1.
    assert.match(text, /\x0a\x0a\x0a\x01v\x12\x05\x52\x03\x0a\x01p/);
  });

  it('encodes a Quantity as resource.Quantity {string 1} and an IntOrString as intstr.IntOrString, as kube', () => {
    const pvc = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'p' }, spec: { resources: { requests: { storage: '1Gi' } } } };
    const text = Buffer.from(encodeKubernetesProtobuf(pvc)!).toString('latin1');
    // VolumeResourceRequirements.requests = 2: map entry {key 1 "storage", value 2 Quantity {string 1 "1Gi"}}.
    assert.ok(text.includes('\x12\x10\x0a\x07storage\x12\x05\x0a\x031Gi'), 'Quantity map value');
    const deploy = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { strategy: { rollingUpdate: { maxSurge: '30%' } }, template: { spec: { containers: [{ name: 'c', resources: { limits: { cpu: '500m' } } }] } } },
    };
    const d = Buffer.from(encodeKubernetesProtobuf(deploy)!).toString('latin1');
    // RollingUpdateDeployment.maxSurge = 2: IntOrString {type 1 = 1 (string), strVal 3 "30%"}.
    assert.ok(d.includes('\x12\x07\x08\x01\x1a\x0330%'), 'IntOrString');
    // ResourceRequirements.limits = 1: {key "cpu", value Quantity {string "500m"}}.
    assert.ok(d.includes('\x0a\x0d\x0a\x03cpu\x12\x06\x0a\x04500m'), 'Quantity in a container');
  });

  it('keeps a zero that gogo wrote for a Go pointer (it was set) and drops a non-pointer\'s zero (omitempty), as kube', () => {
    // `kubectl create deployment d --image=nginx --replicas=0` as gogo writes it (apps/v1 and
    // core/v1 generated.proto): pointers on the wire only when set, non-pointer scalars always.
    const container = ld(2, str(1, 'c'), str(2, 'nginx'), vint(16, 0)); // PodSpec.containers: name 1, image 2, stdin 16 (bool)
    const spec = ld(
      2,
      vint(1, 0), // DeploymentSpec.replicas: *int32 0
      ld(3, ld(2, container)), // template 3 → PodTemplateSpec.spec 2
      // strategy 4 {type 1, rollingUpdate 2 {maxUnavailable 1 (*IntOrString int 0), maxSurge 2 (string "50%")}}
      ld(4, str(1, 'RollingUpdate'), ld(2, ld(1, vint(1, 0), vint(2, 0), str(3, '')), ld(2, vint(1, 1), vint(2, 0), str(3, '50%')))),
      vint(5, 0), // minReadySeconds: int32
      vint(6, 0), // revisionHistoryLimit: *int32 0
      vint(7, 0), // paused: bool
    );
    assert.deepEqual(decodeKubernetesProtobuf(envelope('apps/v1', 'Deployment', ld(1, str(1, 'd')), spec)), {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { replicas: 0, revisionHistoryLimit: 0, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } }, strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '50%' } } },
    });
    // PersistentVolumeClaimSpec.storageClassName 5 (*string ""): no class, not the default one; volumeName 3 (string) "" is unset.
    const pvc = envelope('v1', 'PersistentVolumeClaim', ld(1, str(1, 'p')), ld(2, str(1, 'ReadWriteOnce'), str(3, ''), str(5, '')));
    assert.deepEqual(decodeKubernetesProtobuf(pvc), { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'p' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: '' } });
    // ConfigMap.immutable 4 (*bool false); ObjectMeta.ownerReferences 13 {kind 1, name 3, uid 4, apiVersion 5, controller 6 (*bool false)}.
    const owner = ld(13, str(1, 'Deployment'), str(3, 'd'), str(4, 'u-1'), str(5, 'apps/v1'), vint(6, 0));
    const cm = envelope('v1', 'ConfigMap', ld(1, str(1, 'c'), owner), vint(4, 0));
    assert.deepEqual(decodeKubernetesProtobuf(cm), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'u-1', controller: false }] },
      immutable: false,
    });
    // meta/v1 DeleteOptions {gracePeriodSeconds 1 (*int64 0: delete now), orphanDependents 3 (*bool false)}.
    const del = Buffer.concat([Buffer.from('k8s\0', 'latin1'), ld(1, str(1, 'v1'), str(2, 'DeleteOptions')), ld(2, vint(1, 0), vint(3, 0))]);
    assert.deepEqual(decodeKubernetesProtobuf(del), { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, orphanDependents: false });
  });

  it('decodes a MicroTime at microsecond precision and a Time at second precision, as kube\'s JSON shows them', () => {
    // 2026-01-02T03:04:05Z; metav1.Time and MicroTime are both {seconds 1, nanos 2}.
    const at = (seconds: number, nanos: number) => [vint(1, seconds), ...(nanos ? [vint(2, nanos)] : [])];
    const t0 = 1767323045;
    // A leader election renewal (coordination/v1 LeaseSpec): acquireTime 3, renewTime 4 are MicroTimes; leaseTransitions 5 is *int32.
    const lease = envelope('coordination.k8s.io/v1', 'Lease', ld(1, str(1, 'l')), ld(2, str(1, 'me'), vint(2, 15), ld(3, ...at(t0, 123_456_000)), ld(4, ...at(t0 + 1, 654_321_987)), vint(5, 0)));
    assert.deepEqual(decodeKubernetesProtobuf(lease), {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l' },
      spec: { holderIdentity: 'me', leaseDurationSeconds: 15, acquireTime: '2026-01-02T03:04:05.123456Z', renewTime: '2026-01-02T03:04:06.654321Z', leaseTransitions: 0 },
    });
    // events.k8s.io/v1 Event: eventTime 2 and series 3 {count 1, lastObservedTime 2} are MicroTimes (six digits, zeros too);
    // deprecatedFirstTimestamp 13 is a Time, whose nanos (metav1.Now()'s) kube's JSON drops; deprecatedCount 15 is an int32.
    const event = envelope(
      'events.k8s.io/v1',
      'Event',
      ld(1, str(1, 'e')),
      ld(2, ...at(t0, 0)),
      ld(3, vint(1, 2), ld(2, ...at(t0 + 2, 500_000_000))),
      str(4, 'example.com/ctrl'),
      str(7, 'Scaled'),
      str(11, 'Normal'),
      ld(13, ...at(t0, 999_000_000)),
      vint(15, 0),
    );
    assert.deepEqual(decodeKubernetesProtobuf(event), {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e' },
      eventTime: '2026-01-02T03:04:05.000000Z',
      series: { count: 2, lastObservedTime: '2026-01-02T03:04:07.500000Z' },
      reportingController: 'example.com/ctrl',
      reason: 'Scaled',
      type: 'Normal',
      deprecatedFirstTimestamp: '2026-01-02T03:04:05Z',
    });
  });

  it('the pointer and microtime words of the built-in definitions reach the derived tables (keepZero, microTime)', () => {
    type Desc = Record<number, { name: string; kind: unknown; keepZero?: boolean }>;
    const table = (kind: string) => tableOf(kinds.find((k) => k.kind === kind && k.apiVersion !== 'events.k8s.io/v1')!) as Desc;
    const field = (desc: Desc, name: string) => Object.values(desc).find((f) => f.name === name)!;
    const deploymentSpec = field(table('Deployment'), 'spec').kind as Desc;
    // *int32 replicas keeps a decoded 0; minReadySeconds (int32, not a pointer) drops it.
    assert.equal(field(deploymentSpec, 'replicas').keepZero, true);
    assert.notEqual(field(deploymentSpec, 'minReadySeconds').keepZero, true);
    const leaseSpec = field(table('Lease'), 'spec').kind as Desc;
    assert.equal(field(leaseSpec, 'renewTime').kind, 'microTime');
    assert.equal(field(leaseSpec, 'holderIdentity').keepZero, true);
    const event = table('Event');
    assert.equal(field(event, 'eventTime').kind, 'microTime');
    assert.equal(field(event, 'lastTimestamp').kind, 'time');
  });

  it('encodes lists as <Kind>List {metadata, items}', () => {
    const list = { apiVersion: 'v1', kind: 'NamespaceList', metadata: { resourceVersion: '9', continue: 'c' }, items: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } }] };
    const bytes = encodeKubernetesProtobuf(list);
    assert.ok(bytes);
    // The list message: field 1 ListMeta {resourceVersion 2, continue 3}, field 2 each item.
    const text = Buffer.from(bytes).toString('latin1');
    assert.ok(text.includes('\x0a\x0dNamespaceList') || text.includes('NamespaceList'));
    assert.ok(text.includes('\x12\x019\x1a\x01c'), 'ListMeta resourceVersion and continue');
  });
});

describe('Accept: application/vnd.kubernetes.protobuf', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    await t.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'pb' } } });
    await t.request('POST', WIDGETS, { body: widget('w1') });
  });
  after(() => t.close());

  const get = (path: string, accept: string) => t.fetch(`${t.url}${path}`, { headers: { accept } });

  it('answers built-in kinds in protobuf: get, list and writes', async () => {
    const one = await get('/api/v1/namespaces/pb', `${PB},application/json`);
    assert.equal(one.headers.get('content-type'), PB);
    const ns = decodeKubernetesProtobuf(new Uint8Array(await one.arrayBuffer()));
    assert.equal(ns.kind, 'Namespace');
    assert.equal((ns.metadata as { name: string }).name, 'pb');
    const list = await get('/apis/rbac.authorization.k8s.io/v1/clusterroles', PB);
    assert.equal(list.headers.get('content-type'), PB);
    const bytes = Buffer.from(await list.arrayBuffer());
    assert.ok(bytes.includes('ClusterRoleList') && bytes.includes('cluster-admin'));
    const created = await t.fetch(`${t.url}/api/v1/namespaces/default/services`, {
      method: 'POST',
      headers: { accept: PB, 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's1' }, spec: { ports: [{ port: 80, targetPort: 'http' }] } }),
    });
    assert.equal(created.status, 201);
    const svc = decodeKubernetesProtobuf(new Uint8Array(await created.arrayBuffer())) as { spec: { ports: { targetPort: unknown }[] } };
    assert.equal(svc.spec.ports[0]!.targetPort, 'http');
  });

  it('answers compiled user kinds in JSON, and 406 when only protobuf is acceptable', async () => {
    const json = await get(`${WIDGETS}/w1`, `${PB},application/json`);
    assert.match(json.headers.get('content-type')!, /^application\/json/);
    const refused = await get(`${WIDGETS}/w1`, PB);
    assert.equal(refused.status, 406);
  });
});
