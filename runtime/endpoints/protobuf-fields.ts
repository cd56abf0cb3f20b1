/**
 * Protobuf field numbers of the apimachinery meta/v1 types built-in kinds refer to
 * (k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto), by OpenAPI schema name and JSON field
 * name. They are kgen's well-known types (`import type { LabelSelector } from 'kgen'`), not
 * written in the input language, so their numbers live here; every built-in kind's own numbers
 * are written once, on its fields, as @kgen:protobuf in generator/builtin/ and reach the server
 * in the kind's ResourceDefinition (`protobuf`). ObjectMeta, ListMeta and Status have fixed
 * tables of their own (OBJECT_META in protobuf.ts, LIST_META and STATUS in protobuf-encode.ts).
 */
export const META_FIELD_NUMBERS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector': { matchLabels: 1, matchExpressions: 2 },
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement': { key: 1, operator: 2, values: 3 },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition': { type: 1, status: 2, observedGeneration: 3, lastTransitionTime: 4, reason: 5, message: 6 },
};

/**
 * The fields of the built-in kinds that k8s.io/api (and kube-aggregator) declare as Go pointers to
 * a scalar or an IntOrString (`*int32`, `*int64`, `*bool`, `*string`, `*FailurePolicyType`,
 * `*intstr.IntOrString`, ...), by OpenAPI schema name and JSON field name. The wire cannot tell
 * them apart: generated.proto declares every field `optional`, and gogo writes a non-pointer
 * scalar always (zero included) but a pointer only when it is set. So a zero decoded for one of
 * these fields was set by the client and kube keeps it (`kubectl create deployment --replicas=0`
 * stores 0, `storageClassName: ""` asks for no class), while a zero of any other optional field is
 * Go's omitempty zero, left out of the JSON form. Derived from the Go types of the k8s.io/api
 * version the built-in definitions follow (fields kgen's definitions do not have are left out).
 */
/**
 * The date-time fields of the built-in kinds that k8s.io/api declares as metav1.MicroTime, by
 * OpenAPI schema name and JSON field name. Time and MicroTime are the same message {seconds 1,
 * nanos 2} and the same OpenAPI string, but not the same JSON: Go clients write a Time's nanos too
 * (metav1.Now()), and kube's JSON shows it at second precision, a MicroTime at microsecond
 * precision (RFC3339Micro: six digits, zeros included). Lease renewals and events written in
 * protobuf would otherwise lose their microseconds.
 */
export const MICRO_TIME_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'io.k8s.api.coordination.v1.LeaseSpec': ['acquireTime', 'renewTime'],
  'io.k8s.api.core.v1.Event': ['eventTime'],
  'io.k8s.api.core.v1.EventSeries': ['lastObservedTime'],
  'io.k8s.api.events.v1.Event': ['eventTime'],
  'io.k8s.api.events.v1.EventSeries': ['lastObservedTime'],
};

export const POINTER_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'io.k8s.api.admissionregistration.v1.MutatingWebhook': ['failurePolicy', 'matchPolicy', 'sideEffects', 'timeoutSeconds', 'reinvocationPolicy'],
  'io.k8s.api.admissionregistration.v1.ServiceReference': ['path', 'port'],
  'io.k8s.api.admissionregistration.v1.ValidatingWebhook': ['failurePolicy', 'matchPolicy', 'sideEffects', 'timeoutSeconds'],
  'io.k8s.api.admissionregistration.v1.WebhookClientConfig': ['url'],
  'io.k8s.api.apiregistration.v1.ServiceReference': ['port'],
  'io.k8s.api.apps.v1.DeploymentSpec': ['replicas', 'revisionHistoryLimit', 'progressDeadlineSeconds'],
  'io.k8s.api.apps.v1.DeploymentStatus': ['terminatingReplicas', 'collisionCount'],
  'io.k8s.api.apps.v1.RollingUpdateDeployment': ['maxUnavailable', 'maxSurge'],
  'io.k8s.api.coordination.v1.LeaseSpec': ['holderIdentity', 'leaseDurationSeconds', 'leaseTransitions', 'strategy', 'preferredHolder'],
  'io.k8s.api.core.v1.AppArmorProfile': ['localhostProfile'],
  'io.k8s.api.core.v1.AzureDiskVolumeSource': ['cachingMode', 'fsType', 'readOnly', 'kind'],
  'io.k8s.api.core.v1.CSIVolumeSource': ['readOnly', 'fsType'],
  'io.k8s.api.core.v1.ClusterTrustBundleProjection': ['name', 'signerName', 'optional'],
  'io.k8s.api.core.v1.ConfigMap': ['immutable'],
  'io.k8s.api.core.v1.ConfigMapEnvSource': ['optional'],
  'io.k8s.api.core.v1.ConfigMapKeySelector': ['optional'],
  'io.k8s.api.core.v1.ConfigMapProjection': ['optional'],
  'io.k8s.api.core.v1.ConfigMapVolumeSource': ['defaultMode', 'optional'],
  'io.k8s.api.core.v1.Container': ['restartPolicy'],
  'io.k8s.api.core.v1.DownwardAPIVolumeFile': ['mode'],
  'io.k8s.api.core.v1.DownwardAPIVolumeSource': ['defaultMode'],
  'io.k8s.api.core.v1.EndpointAddress': ['nodeName'],
  'io.k8s.api.core.v1.EndpointPort': ['appProtocol'],
  'io.k8s.api.core.v1.FCVolumeSource': ['lun'],
  'io.k8s.api.core.v1.FileKeySelector': ['optional'],
  'io.k8s.api.core.v1.GRPCAction': ['service'],
  'io.k8s.api.core.v1.HostPathVolumeSource': ['type'],
  'io.k8s.api.core.v1.ISCSIVolumeSource': ['initiatorName'],
  'io.k8s.api.core.v1.KeyToPath': ['mode'],
  'io.k8s.api.core.v1.Lifecycle': ['stopSignal'],
  'io.k8s.api.core.v1.LoadBalancerIngress': ['ipMode'],
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec': ['storageClassName', 'volumeMode', 'volumeAttributesClassName'],
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus': ['currentVolumeAttributesClassName'],
  'io.k8s.api.core.v1.PodCertificateProjection': ['maxExpirationSeconds'],
  'io.k8s.api.core.v1.PodDNSConfigOption': ['value'],
  'io.k8s.api.core.v1.PodResourceClaim': ['resourceClaimName', 'resourceClaimTemplateName'],
  'io.k8s.api.core.v1.PodSecurityContext': ['runAsUser', 'runAsGroup', 'runAsNonRoot', 'supplementalGroupsPolicy', 'fsGroup', 'fsGroupChangePolicy', 'seLinuxChangePolicy'],
  'io.k8s.api.core.v1.PodSpec': ['terminationGracePeriodSeconds', 'activeDeadlineSeconds', 'automountServiceAccountToken', 'shareProcessNamespace', 'priority', 'runtimeClassName', 'enableServiceLinks', 'preemptionPolicy', 'setHostnameAsFQDN', 'hostUsers', 'hostnameOverride'],
  'io.k8s.api.core.v1.PortStatus': ['error'],
  'io.k8s.api.core.v1.Probe': ['terminationGracePeriodSeconds'],
  'io.k8s.api.core.v1.ProjectedVolumeSource': ['defaultMode'],
  'io.k8s.api.core.v1.SeccompProfile': ['localhostProfile'],
  'io.k8s.api.core.v1.Secret': ['immutable'],
  'io.k8s.api.core.v1.SecretEnvSource': ['optional'],
  'io.k8s.api.core.v1.SecretKeySelector': ['optional'],
  'io.k8s.api.core.v1.SecretProjection': ['optional'],
  'io.k8s.api.core.v1.SecretVolumeSource': ['defaultMode', 'optional'],
  'io.k8s.api.core.v1.SecurityContext': ['privileged', 'runAsUser', 'runAsGroup', 'runAsNonRoot', 'readOnlyRootFilesystem', 'allowPrivilegeEscalation', 'procMount'],
  'io.k8s.api.core.v1.ServiceAccount': ['automountServiceAccountToken'],
  'io.k8s.api.core.v1.ServiceAccountTokenProjection': ['expirationSeconds'],
  'io.k8s.api.core.v1.ServicePort': ['appProtocol'],
  'io.k8s.api.core.v1.Toleration': ['tolerationSeconds'],
  'io.k8s.api.core.v1.TopologySpreadConstraint': ['minDomains', 'nodeAffinityPolicy', 'nodeTaintsPolicy'],
  'io.k8s.api.core.v1.TypedLocalObjectReference': ['apiGroup'],
  'io.k8s.api.core.v1.TypedObjectReference': ['apiGroup', 'namespace'],
  'io.k8s.api.core.v1.VolumeMount': ['recursiveReadOnly', 'mountPropagation'],
  'io.k8s.api.core.v1.WindowsSecurityContextOptions': ['gmsaCredentialSpecName', 'gmsaCredentialSpec', 'runAsUserName', 'hostProcess'],
};
