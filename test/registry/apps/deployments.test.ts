/**
 * The Deployment strategy's defaults and validation rules, one by one, with kube's messages and
 * field paths (pkg/apis/apps/v1/defaults.go, pkg/apis/apps/validation, pkg/apis/core/validation
 * for the pod template). The strategy over the server, with kubectl: test/e2e/workloads-kubectl.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../runtime/api/meta.js';
import { defaultDeployment, deploymentScaleSelector, validateDeploymentSpec, validateDeploymentStatus, withDeploymentStrategy } from '../../../runtime/registry/apps/deployments.js';
import { defaultPullPolicy } from '../../../runtime/registry/core/podtemplate-defaults.js';
import type { RESTStrategy } from '../../../runtime/registry/strategy.js';

const spec = (over: Record<string, unknown> = {}, pod: Record<string, unknown> = {}) => ({
  replicas: 1,
  selector: { matchLabels: { app: 'a' } },
  strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
  progressDeadlineSeconds: 600,
  template: { metadata: { labels: { app: 'a' } }, spec: { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', containers: [{ name: 'c', image: 'nginx:1', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }], ...pod } },
  ...over,
});
const messages = (s: unknown) => validateDeploymentSpec(s).map((e) => `${e.field}: ${e.message}`);
const container = (over: Record<string, unknown>) => ({ name: 'c', image: 'nginx:1', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', ...over });

describe('Deployment defaults (SetDefaults_Deployment, SetDefaults_Container, SetDefaults_Volume)', () => {
  it('defaults the strategy to RollingUpdate 25%/25%, and leaves Recreate without rollingUpdate', () => {
    const obj = { metadata: { name: 'd' }, spec: { template: { spec: { containers: [] } } } } as unknown as KubeObject;
    defaultDeployment(obj);
    assert.deepEqual((obj.spec as { strategy: unknown }).strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
    const partial = { metadata: { name: 'd' }, spec: { strategy: { rollingUpdate: { maxSurge: 0 } } } } as unknown as KubeObject;
    defaultDeployment(partial);
    assert.deepEqual((partial.spec as { strategy: unknown }).strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 0 } });
    const recreate = { metadata: { name: 'd' }, spec: { strategy: { type: 'Recreate' } } } as unknown as KubeObject;
    defaultDeployment(recreate);
    assert.deepEqual((recreate.spec as { strategy: unknown }).strategy, { type: 'Recreate' });
  });

  it('defaults imagePullPolicy from the tag and a sourceless volume to emptyDir', () => {
    assert.equal(defaultPullPolicy('nginx'), 'Always');
    assert.equal(defaultPullPolicy('nginx:latest'), 'Always');
    assert.equal(defaultPullPolicy('localhost:5000/nginx'), 'Always');
    assert.equal(defaultPullPolicy('nginx:1.25'), 'IfNotPresent');
    assert.equal(defaultPullPolicy('nginx@sha256:0123'), 'IfNotPresent');
    assert.equal(defaultPullPolicy('localhost:5000/nginx:2'), 'IfNotPresent');
    const obj = {
      metadata: { name: 'd' },
      spec: { template: { spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'x:1', imagePullPolicy: 'Never' }], initContainers: [{ name: 'i', image: 'busybox:1' }], volumes: [{ name: 'v' }, { name: 'w', secret: { secretName: 's' } }] } } },
    } as unknown as KubeObject;
    defaultDeployment(obj);
    const pod = (obj.spec as { template: { spec: { containers: { imagePullPolicy: string }[]; initContainers: { imagePullPolicy: string }[]; volumes: unknown[] } } }).template.spec;
    assert.deepEqual(pod.containers.map((c) => c.imagePullPolicy), ['Always', 'Never']);
    assert.equal(pod.initContainers[0]!.imagePullPolicy, 'IfNotPresent');
    assert.deepEqual(pod.volumes, [{ name: 'v', emptyDir: {} }, { name: 'w', secret: { secretName: 's' } }]);
  });

  it('formats spec.selector as the Scale\'s status.selector', () => {
    const obj = { metadata: { name: 'd' }, spec: { selector: { matchLabels: { tier: 'web', app: 'a' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['b', 'a'] }, { key: 'legacy', operator: 'DoesNotExist' }] } } } as unknown as KubeObject;
    assert.equal(deploymentScaleSelector(obj), 'app=a,env in (a,b),!legacy,tier=web');
  });
});

describe('Deployment validation (ValidateDeploymentSpec), kube\'s messages and paths', () => {
  it('accepts a defaulted Deployment', () => assert.deepEqual(messages(spec()), []));

  it('requires a selector, refuses an empty one, and one that does not match the template\'s labels', () => {
    assert.deepEqual(messages(spec({ selector: undefined })), ['spec.selector: Required value']);
    assert.deepEqual(messages(spec({ selector: {} })), [
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
    ]);
    assert.deepEqual(messages(spec({ selector: { matchLabels: { app: 'b' } } })), [
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"a"}: `selector` does not match template `labels`',
    ]);
  });

  it('refuses negative replicas, minReadySeconds and revisionHistoryLimit, and a deadline not above minReadySeconds', () => {
    assert.deepEqual(messages(spec({ replicas: -1, minReadySeconds: -2, revisionHistoryLimit: -3 })), [
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0',
      'spec.revisionHistoryLimit: Invalid value: -3: must be greater than or equal to 0',
    ]);
    assert.deepEqual(messages(spec({ minReadySeconds: 600 })), ['spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds']);
  });

  it('checks the strategy: Recreate without rollingUpdate, maxSurge and maxUnavailable not both 0, percentages', () => {
    assert.deepEqual(messages(spec({ strategy: { type: 'Recreate', rollingUpdate: {} } })), ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"]);
    assert.deepEqual(messages(spec({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: '0%' } } })), [
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: may not be 0 when `maxSurge` is 0',
    ]);
    assert.deepEqual(messages(spec({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: -1, maxUnavailable: '150%' } } })), [
      'spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0',
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
    ]);
    assert.deepEqual(messages(spec({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 'x', maxUnavailable: 1 } } })), [
      "spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"x\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
    ]);
    assert.deepEqual(messages(spec({ strategy: { type: 'Blue' } })), [
      'spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"Blue", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"',
    ]);
  });

  it('refuses an integer maxSurge or maxUnavailable beyond int32, which kube cannot decode (intstr.IntOrString holds an int32)', () => {
    assert.deepEqual(messages(spec({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 2147483648, maxUnavailable: 1e300 } } })), [
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 1e+300: spec.strategy.rollingUpdate.maxUnavailable in body should be less than or equal to 2147483647',
      'spec.strategy.rollingUpdate.maxSurge: Invalid value: 2147483648: spec.strategy.rollingUpdate.maxSurge in body should be less than or equal to 2147483647',
    ]);
    assert.deepEqual(messages(spec({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 2147483647, maxUnavailable: 0 } } })), []);
  });

  it('allows only restartPolicy Always and no activeDeadlineSeconds in the template', () => {
    assert.deepEqual(messages(spec({}, { restartPolicy: 'Never', activeDeadlineSeconds: 5 })), [
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
    ]);
    assert.deepEqual(messages(spec({}, { restartPolicy: 'Sometimes' })), [
      'spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "OnFailure"',
      'spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always"',
    ]);
  });

  it('checks resource requirements: quantities not negative, a request not above its limit, an extended resource\'s equal to its limit (ValidateResourceRequirements)', () => {
    const c = (resources: Record<string, unknown>) => spec({}, { containers: [container({ resources })], initContainers: [container({ name: 'i', resources })] });
    assert.deepEqual(messages(c({ limits: { cpu: '-1', memory: '1Gi' }, requests: { memory: '-5Mi' } })), [
      'spec.template.spec.containers[0].resources.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0',
      'spec.template.spec.containers[0].resources.requests[memory]: Invalid value: "-5Mi": must be greater than or equal to 0',
      'spec.template.spec.initContainers[0].resources.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0',
      'spec.template.spec.initContainers[0].resources.requests[memory]: Invalid value: "-5Mi": must be greater than or equal to 0',
    ]);
    assert.deepEqual(messages(spec({}, { containers: [container({ resources: { limits: { cpu: '1', 'example.com/gpu': 2 }, requests: { cpu: '1500m', 'example.com/gpu': '1', 'example.com/fpga': '0.5' } } })] })), [
      'spec.template.spec.containers[0].resources.requests: Invalid value: "1500m": must be less than or equal to cpu limit of 1',
      'spec.template.spec.containers[0].resources.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2',
      'spec.template.spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
    ]);
    assert.deepEqual(messages(spec({}, { containers: [container({ resources: { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '500m', memory: '1024Mi' } } })] })), []);
  });

  it('requires containers, with DNS-label names unique across containers and init containers, and an image', () => {
    assert.deepEqual(messages(spec({}, { containers: [] })), ['spec.template.spec.containers: Required value']);
    assert.deepEqual(messages(spec({}, { containers: [container({ name: 'Web', image: '' }), container({ name: 'b' }), container({ name: 'b' })], initContainers: [container({ name: 'b' })] })), [
      "spec.template.spec.containers[0].name: Invalid value: \"Web\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      'spec.template.spec.containers[0].image: Required value',
      'spec.template.spec.containers[2].name: Duplicate value: "b"',
      'spec.template.spec.initContainers[0].name: Duplicate value: "b"',
    ]);
    assert.deepEqual(messages(spec({}, { containers: [container({ imagePullPolicy: 'Sometimes', terminationMessagePolicy: 'Stdout' })] })), [
      'spec.template.spec.containers[0].terminationMessagePolicy: Unsupported value: "Stdout": supported values: "File", "FallbackToLogsOnError"',
      'spec.template.spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
    ]);
    // Two unnamed containers: kube reports the second as a duplicate of "".
    assert.deepEqual(messages(spec({}, { containers: [container({ name: undefined }), container({ name: undefined })] })), [
      'spec.template.spec.containers[0].name: Required value',
      'spec.template.spec.containers[1].name: Required value',
      'spec.template.spec.containers[1].name: Duplicate value: ""',
    ]);
  });

  it('checks ports: 1-65535, IANA names unique, a protocol', () => {
    const ports = [{ containerPort: 0, protocol: 'TCP' }, { containerPort: 70000, name: 'web', protocol: 'TCP', hostPort: 70001 }, { containerPort: 80, name: 'web', protocol: 'ICMP' }, { containerPort: 81, name: 'Bad--', protocol: 'TCP' }];
    assert.deepEqual(messages(spec({}, { containers: [container({ ports })] })), [
      'spec.template.spec.containers[0].ports[0].containerPort: Required value',
      'spec.template.spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.template.spec.containers[0].ports[1].hostPort: Invalid value: 70001: must be between 1 and 65535, inclusive',
      'spec.template.spec.containers[0].ports[2].name: Duplicate value: "web"',
      'spec.template.spec.containers[0].ports[2].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      'spec.template.spec.containers[0].ports[3].name: Invalid value: "Bad--": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.template.spec.containers[0].ports[3].name: Invalid value: "Bad--": must not contain consecutive hyphens',
      'spec.template.spec.containers[0].ports[3].name: Invalid value: "Bad--": must not begin or end with a hyphen',
    ]);
  });

  it('checks volumes (unique DNS-label names, one source) and the mounts that name them', () => {
    const volumes = [{ name: 'a', emptyDir: {}, secret: { secretName: 's' } }, { name: 'b', emptyDir: {} }, { name: 'b', configMap: { name: 'c' } }, { name: 'd', persistentVolumeClaim: {} }];
    const volumeMounts = [{ name: 'a', mountPath: '/a' }, { name: 'b', mountPath: '/a' }, { name: 'b', mountPath: '' }];
    assert.deepEqual(messages(spec({}, { volumes, containers: [container({ volumeMounts })] })), [
      'spec.template.spec.volumes[0].secret: Forbidden: may not specify more than 1 volume type',
      'spec.template.spec.volumes[2].name: Duplicate value: "b"',
      'spec.template.spec.volumes[3].persistentVolumeClaim.claimName: Required value',
      'spec.template.spec.containers[0].volumeMounts[0].name: Not found: "a"',
      'spec.template.spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/a": must be unique',
      'spec.template.spec.containers[0].volumeMounts[2].mountPath: Required value',
    ]);
  });

  it('checks an emptyDir\'s sizeLimit and an ephemeral volume\'s claim template as a claim spec', () => {
    const volumes = [
      { name: 'a', emptyDir: { sizeLimit: '-1Gi' } },
      { name: 'b', ephemeral: {} },
      { name: 'c', ephemeral: { volumeClaimTemplate: { spec: { accessModes: [], resources: { requests: { storage: '-1' } } } } } },
      { name: 'd', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } },
    ];
    assert.deepEqual(messages(spec({}, { volumes })), [
      'spec.template.spec.volumes[0].emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity',
      'spec.template.spec.volumes[1].ephemeral.volumeClaimTemplate: Required value',
      'spec.template.spec.volumes[2].ephemeral.volumeClaimTemplate.spec.accessModes: Required value: at least 1 access mode is required',
      'spec.template.spec.volumes[2].ephemeral.volumeClaimTemplate.spec.resources[storage]: Invalid value: "-1": must be greater than zero',
    ]);
  });

  it('checks probes: one handler, successThreshold 1 for liveness and startup, no grace period on readiness', () => {
    const c = container({
      livenessProbe: { exec: { command: ['true'] }, httpGet: { port: 80, path: '/' }, successThreshold: 2 },
      readinessProbe: { successThreshold: 1, terminationGracePeriodSeconds: 5 },
      startupProbe: { tcpSocket: { port: 'http-port-too-long' }, successThreshold: 1, periodSeconds: -1 },
      lifecycle: { preStop: { sleep: { seconds: 1 }, exec: { command: ['x'] } } },
    });
    assert.deepEqual(messages(spec({}, { containers: [c] })), [
      'spec.template.spec.containers[0].lifecycle.preStop.sleep: Forbidden: may not specify more than 1 handler type',
      'spec.template.spec.containers[0].livenessProbe.httpGet: Forbidden: may not specify more than 1 handler type',
      'spec.template.spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
      'spec.template.spec.containers[0].readinessProbe: Required value: must specify a handler type',
      'spec.template.spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes',
      'spec.template.spec.containers[0].startupProbe.tcpSocket.port: Invalid value: "http-port-too-long": must be no more than 15 characters',
      'spec.template.spec.containers[0].startupProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it('checks env var names (printable ASCII but =) and one valueFrom source', () => {
    const env = [
      { name: '' },
      { name: 'A=B' },
      { name: 'my.var-1 ok' },
      { name: 'X', valueFrom: {} },
      { name: 'Y', valueFrom: { fieldRef: { fieldPath: 'a' }, secretKeyRef: { key: 'k' } } },
      // kube reports only the value when both are wrong.
      { name: 'Z', value: 'v', valueFrom: { fieldRef: { fieldPath: 'a' }, secretKeyRef: { key: 'k' } } },
    ];
    assert.deepEqual(messages(spec({}, { containers: [container({ env })] })), [
      'spec.template.spec.containers[0].env[0].name: Required value',
      "spec.template.spec.containers[0].env[1].name: Invalid value: \"A=B\": a valid environment variable name must consist only of printable ASCII characters other than '='",
      'spec.template.spec.containers[0].env[3].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      'spec.template.spec.containers[0].env[4].valueFrom: Invalid value: "": may not have more than one field specified at a time',
      'spec.template.spec.containers[0].env[5].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
    ]);
  });
});

describe('the Deployment strategy over the generic one', () => {
  const base: RESTStrategy = {
    namespaceScoped: true,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    prepareForCreate: (obj) => {
      delete obj.status;
      obj.metadata.generation = 1;
    },
    prepareForUpdate: (obj, old) => {
      obj.metadata.generation = JSON.stringify(obj.spec) === JSON.stringify(old.spec) ? old.metadata.generation : (old.metadata.generation ?? 0) + 1;
    },
    // The schema's list-map uniqueness is not kube's rule for built-ins: env names may repeat.
    validate: () => [{ reason: 'FieldValueDuplicate', field: 'spec.template.spec.containers[0].env[1]', message: 'Duplicate value: map[string]interface {}{"name":"A"}' }],
    validateUpdate: () => [],
  };
  const strategy = withDeploymentStrategy(base);
  const deployment = (over: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'ns' }, spec: spec(over) }) as KubeObject;

  it('drops the schema\'s list-map duplicates and sets status {}', () => {
    const obj = deployment();
    strategy.prepareForCreate(obj);
    assert.deepEqual(obj.status, {});
    assert.deepEqual(strategy.validate(obj), []);
  });

  it('keeps spec.selector immutable', () => {
    const old = deployment();
    const obj = deployment({ selector: { matchLabels: { app: 'a', tier: 'b' } }, template: { metadata: { labels: { app: 'a', tier: 'b' } }, spec: spec().template.spec } });
    assert.deepEqual(
      strategy.validateUpdate(obj, old).map((c) => `${c.field}: ${c.message}`),
      ['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"a", "tier":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable'],
    );
  });

  it('moves generation on an annotation change, as kube does for Deployments', () => {
    const old = { ...deployment(), metadata: { name: 'd', namespace: 'ns', generation: 3 } } as KubeObject;
    strategy.prepareForCreate(old);
    old.metadata.generation = 3;
    const same = structuredClone(old);
    strategy.prepareForUpdate(same, old);
    assert.equal(same.metadata.generation, 3);
    const annotated = structuredClone(old);
    annotated.metadata.annotations = { note: 'x' };
    strategy.prepareForUpdate(annotated, old);
    assert.equal(annotated.metadata.generation, 4);
  });
});

describe('Deployment status validation (ValidateDeploymentStatus, ValidateDeploymentStatusUpdate)', () => {
  const messages = (status: unknown, old?: unknown) => validateDeploymentStatus(status, old).map((e) => `${e.field}: ${e.message}`);

  it('accepts a consistent status', () => assert.deepEqual(messages({ observedGeneration: 2, replicas: 3, updatedReplicas: 3, readyReplicas: 2, availableReplicas: 2 }), []));

  it('refuses negative counts and counts above replicas or readyReplicas', () => {
    assert.deepEqual(messages({ replicas: 1, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 3, unavailableReplicas: -1 }), [
      'status.unavailableReplicas: Invalid value: -1: must be greater than or equal to 0',
      'status.updatedReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas',
    ]);
  });

  it('refuses a smaller collisionCount', () => {
    assert.deepEqual(messages({ collisionCount: 1 }, { collisionCount: 2 }), ['status.collisionCount: Invalid value: 1: cannot be decremented']);
  });
});
