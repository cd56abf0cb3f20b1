/**
 * kube-apiserver's metric names, types and label names, as declared in kube's source
 * (k8s.io/apiserver at the revision read for this list):
 *   pkg/endpoints/metrics/metrics.go      requestCounter, requestLatencies, responseSizes,
 *                                         longRunningRequestsGauge, currentInflightRequests,
 *                                         requestTerminationsTotal, WatchEvents
 *   (older releases, same file)           RegisteredWatchers {group, version, kind}
 *   pkg/storage/etcd3/metrics/metrics.go  etcdRequestLatency, etcdRequestCounts,
 *                                         etcdRequestErrorCounts, objectCounts, storageSizeDescription
 *   pkg/admission/metrics/metrics.go      step, controller and webhook admission durations
 *   pkg/audit/metrics.go                  eventCounter
 *   pkg/util/flowcontrol/metrics          apiserverRejectedRequestsTotal
 * Histogram buckets are listed where kube fixes them.
 */
export interface KubeMetric {
  type: 'counter' | 'gauge' | 'histogram';
  labels: string[];
  buckets?: number[];
}

const REQUEST_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

export const KUBE_METRICS: Record<string, KubeMetric> = {
  apiserver_request_total: { type: 'counter', labels: ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'] },
  apiserver_request_duration_seconds: {
    type: 'histogram',
    labels: ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
    buckets: REQUEST_BUCKETS,
  },
  apiserver_response_sizes: {
    type: 'histogram',
    labels: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
    buckets: [1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000],
  },
  apiserver_longrunning_requests: { type: 'gauge', labels: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] },
  apiserver_current_inflight_requests: { type: 'gauge', labels: ['request_kind'] },
  apiserver_request_terminations_total: { type: 'counter', labels: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'] },
  apiserver_flowcontrol_rejected_requests_total: { type: 'counter', labels: ['priority_level', 'flow_schema', 'reason'] },
  apiserver_watch_events_total: { type: 'counter', labels: ['group', 'version', 'resource'] },
  apiserver_registered_watchers: { type: 'gauge', labels: ['group', 'version', 'kind'] },
  apiserver_storage_objects: { type: 'gauge', labels: ['resource'] },
  apiserver_storage_size_bytes: { type: 'gauge', labels: ['storage_cluster_id'] },
  etcd_request_duration_seconds: { type: 'histogram', labels: ['operation', 'group', 'resource'], buckets: REQUEST_BUCKETS },
  etcd_requests_total: { type: 'counter', labels: ['operation', 'group', 'resource'] },
  etcd_request_errors_total: { type: 'counter', labels: ['operation', 'group', 'resource'] },
  apiserver_admission_step_admission_duration_seconds: { type: 'histogram', labels: ['type', 'operation', 'rejected'], buckets: [0.005, 0.025, 0.1, 0.5, 1.0, 2.5] },
  apiserver_admission_controller_admission_duration_seconds: {
    type: 'histogram',
    labels: ['name', 'type', 'operation', 'rejected'],
    buckets: [0.005, 0.025, 0.1, 0.5, 1.0, 2.5],
  },
  apiserver_admission_webhook_admission_duration_seconds: {
    type: 'histogram',
    labels: ['name', 'type', 'operation', 'rejected'],
    buckets: [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25],
  },
  apiserver_audit_event_total: { type: 'counter', labels: [] },
};
