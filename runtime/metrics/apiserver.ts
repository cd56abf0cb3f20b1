/**
 * kube-apiserver's metric families, with kube's names, label names and buckets:
 * k8s.io/apiserver pkg/endpoints/metrics/metrics.go (requests, in-flight, long-running, response
 * sizes, watch events), pkg/storage/etcd3/metrics/metrics.go (storage), pkg/admission/metrics
 * (admission), pkg/audit/metrics.go (audit) and pkg/util/flowcontrol/metrics (rejections).
 * Like kube's legacyregistry, they are process-wide: every layer records into them without
 * being handed a registry, and `/metrics` (runtime/server/metrics.ts) exposes them.
 */
import { CounterFamily, exponentialBuckets, GaugeFamily, HistogramFamily, type CollectableMetric } from './series.js';

/** kube's request-latency buckets (apiserver_request_duration_seconds, etcd_request_duration_seconds). */
export const REQUEST_DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

const REQUEST_LABELS = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'];
const REQUEST_LABELS_NO_DRY_RUN = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'];

export const requestTotal = new CounterFamily(
  'apiserver_request_total',
  'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
  [...REQUEST_LABELS, 'code'],
);
export const requestDuration = new HistogramFamily(
  'apiserver_request_duration_seconds',
  'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
  REQUEST_LABELS,
  REQUEST_DURATION_BUCKETS,
);
export const responseSizes = new HistogramFamily(
  'apiserver_response_sizes',
  'Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.',
  REQUEST_LABELS_NO_DRY_RUN,
  exponentialBuckets(1000, 10, 7),
);
export const longRunningRequests = new GaugeFamily(
  'apiserver_longrunning_requests',
  'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
  REQUEST_LABELS_NO_DRY_RUN,
);
export const currentInflightRequests = new GaugeFamily(
  'apiserver_current_inflight_requests',
  'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
  ['request_kind'],
);
export const requestTerminations = new CounterFamily(
  'apiserver_request_terminations_total',
  'Number of requests which apiserver terminated in self-defense.',
  [...REQUEST_LABELS_NO_DRY_RUN, 'code'],
);
export const flowcontrolRejected = new CounterFamily(
  'apiserver_flowcontrol_rejected_requests_total',
  'Number of requests rejected by API Priority and Fairness subsystem',
  ['priority_level', 'flow_schema', 'reason'],
);
export const watchEvents = new CounterFamily('apiserver_watch_events_total', 'Number of events sent in watch clients', ['group', 'version', 'resource']);
export const registeredWatchers = new GaugeFamily('apiserver_registered_watchers', 'Number of currently registered watchers for a given resources', ['group', 'version', 'kind']);

export const storageObjects = new GaugeFamily(
  'apiserver_storage_objects',
  'Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
  ['resource'],
);
// Every worker of `kgen serve --workers` counts the same shared storage: aggregated, it is one count.
storageObjects.aggregator = 'max';
export const storageSizeBytes = new GaugeFamily('apiserver_storage_size_bytes', 'Size of the storage database file physically allocated in bytes.', ['storage_cluster_id']);
export const etcdRequestDuration = new HistogramFamily(
  'etcd_request_duration_seconds',
  'Etcd request latency in seconds for each operation and object type.',
  ['operation', 'group', 'resource'],
  REQUEST_DURATION_BUCKETS,
);
export const etcdRequestsTotal = new CounterFamily('etcd_requests_total', 'Etcd request counts for each operation and object type.', ['operation', 'group', 'resource']);
export const etcdRequestErrors = new CounterFamily('etcd_request_errors_total', 'Etcd failed request counts for each operation and object type.', ['operation', 'group', 'resource']);

export const admissionStepDuration = new HistogramFamily(
  'apiserver_admission_step_admission_duration_seconds',
  'Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
  ['type', 'operation', 'rejected'],
  [0.005, 0.025, 0.1, 0.5, 1.0, 2.5],
);
export const admissionControllerDuration = new HistogramFamily(
  'apiserver_admission_controller_admission_duration_seconds',
  'Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
  ['name', 'type', 'operation', 'rejected'],
  [0.005, 0.025, 0.1, 0.5, 1.0, 2.5],
);
export const admissionWebhookDuration = new HistogramFamily(
  'apiserver_admission_webhook_admission_duration_seconds',
  'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
  ['name', 'type', 'operation', 'rejected'],
  [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25],
);
export const auditEventTotal = new CounterFamily('apiserver_audit_event_total', 'Counter of audit events generated and sent to the audit backend.', []);

/** Every family above, in exposition order. */
export const APISERVER_METRICS: readonly CollectableMetric[] = [
  requestTotal,
  requestDuration,
  responseSizes,
  longRunningRequests,
  currentInflightRequests,
  requestTerminations,
  flowcontrolRejected,
  watchEvents,
  registeredWatchers,
  storageObjects,
  storageSizeBytes,
  etcdRequestDuration,
  etcdRequestsTotal,
  etcdRequestErrors,
  admissionStepDuration,
  admissionControllerDuration,
  admissionWebhookDuration,
  auditEventTotal,
];

/** The audit event counter, bumped once per event written to a backend. */
export const auditEvents = auditEventTotal.with();

/** Times one admission step (kube's ObserveAdmissionStep / ObserveWebhook). */
export async function observeAdmission<T>(family: HistogramFamily, labels: string[], step: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  let rejected = 'false';
  try {
    return await step();
  } catch (err) {
    rejected = 'true';
    throw err;
  } finally {
    family.with(...labels, rejected).observe((performance.now() - started) / 1000);
  }
}
