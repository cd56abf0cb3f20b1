/**
 * Table printers of the core control-plane kinds whose columns are computed rather than read at a
 * path (kube's pkg/printers/internalversion): ConfigMap and Secret count their keys, a
 * ServiceAccount its secrets, an Event prints "kind/name" and its series, a Deployment
 * ready/desired replicas, a PersistentVolumeClaim its volume's capacity and access modes. The server always
 * prints every column (kube generates tables with Wide set); kubectl hides priority > 0.
 */
import { labelSelectorAsSelector, selectorString, type MetaLabelSelector } from '../api/labels.js';
import type { KubeObject } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import { translateTimestampSince } from './duration.js';
import type { TableColumnDefinition } from './table.js';

export interface BuiltinPrinter {
  /** Every column, Name included where kube has it. */
  columns: TableColumnDefinition[];
  cells(obj: KubeObject, now: number): unknown[];
}

const col = (name: string, type: string, description: string, priority = 0, format = ''): TableColumnDefinition => ({ name, type, format, description, priority });
const NAME = col('Name', 'string', 'Name must be unique within a namespace.', 0, 'name');
const AGE = col('Age', 'string', 'CreationTimestamp is a timestamp representing the server time when this object was created.');

const count = (v: unknown): number => (typeof v === 'object' && v !== null ? (Array.isArray(v) ? v.length : Object.keys(v).length) : 0);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const age = (obj: KubeObject, now: number) => translateTimestampSince(obj.metadata.creationTimestamp, now);

const configMaps: BuiltinPrinter = {
  columns: [NAME, col('Data', 'string', 'Data contains the configuration data.'), AGE],
  cells: (obj, now) => [obj.metadata.name, count(obj.data) + count(obj.binaryData), age(obj, now)],
};

const secrets: BuiltinPrinter = {
  columns: [NAME, col('Type', 'string', 'Used to facilitate programmatic handling of secret data.'), col('Data', 'string', 'Data contains the secret data.'), AGE],
  cells: (obj, now) => [obj.metadata.name, str(obj.type), count(obj.data), age(obj, now)],
};

const serviceAccounts: BuiltinPrinter = {
  columns: [NAME, col('Secrets', 'string', 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.'), AGE],
  cells: (obj, now) => [obj.metadata.name, count(obj.secrets), age(obj, now)],
};

/** kube's printEvent: last seen falls back to first seen, a series gives the count and last time. */
const events: BuiltinPrinter = {
  columns: [
    col('Last Seen', 'string', 'The time at which the most recent occurrence of this event was recorded.'),
    col('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future'),
    col('Reason', 'string', "This should be a short, machine understandable string that gives the reason for the transition into the object's current status."),
    col('Object', 'string', 'The object that this event is about.'),
    col('Subobject', 'string', 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement.', 1),
    col('Source', 'string', 'The component reporting this event. Should be a short machine understandable string.', 1),
    col('Message', 'string', 'A human-readable description of the status of this operation.'),
    col('First Seen', 'string', 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)', 1),
    col('Count', 'string', 'The number of times this event has occurred.', 1),
    col('Name', 'string', 'Name must be unique within a namespace.', 1, 'name'),
  ],
  cells(obj, now) {
    const involved = (obj.involvedObject ?? {}) as Record<string, string>;
    const source = (obj.source ?? {}) as Record<string, string>;
    const series = obj.series as { count?: number; lastObservedTime?: string } | undefined;
    const firstSeen = str(obj.firstTimestamp) ? translateTimestampSince(obj.firstTimestamp, now) : translateTimestampSince(obj.eventTime, now);
    let lastSeen = str(obj.lastTimestamp) ? translateTimestampSince(obj.lastTimestamp, now) : firstSeen;
    let times = typeof obj.count === 'number' ? obj.count : 0;
    if (series) {
      lastSeen = translateTimestampSince(series.lastObservedTime, now);
      times = series.count ?? 0;
    } else if (times === 0) times = 1;
    const kind = str(involved.kind).toLowerCase();
    const target = involved.name ? `${kind}/${involved.name}` : kind;
    const component = source.component || str(obj.reportingComponent);
    const instance = source.host || str(obj.reportingInstance);
    const from = instance ? `${component}, ${instance}` : component;
    return [lastSeen, str(obj.type), str(obj.reason), target, str(involved.fieldPath), from, str(obj.message).trim(), firstSeen, times, obj.metadata.name];
  },
};

/** events.k8s.io/v1 Events print as kube prints them: as the core Event they are stored as. */
const eventsV1: BuiltinPrinter = {
  columns: events.columns,
  cells: (obj, now) =>
    events.cells(
      {
        ...obj,
        involvedObject: obj.regarding,
        message: obj.note,
        source: obj.deprecatedSource,
        firstTimestamp: obj.deprecatedFirstTimestamp,
        lastTimestamp: obj.deprecatedLastTimestamp,
        count: obj.deprecatedCount,
        reportingComponent: obj.reportingController,
      },
      now,
    ),
};

const rec = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** kube's printDeployment: READY is ready/desired; -o wide adds containers, images and the selector. */
const deployments: BuiltinPrinter = {
  columns: [
    NAME,
    col('Ready', 'string', 'Number of the pod with ready state'),
    col('Up-to-date', 'string', 'Total number of non-terminating pods targeted by this deployment that have the desired template spec.'),
    col('Available', 'string', 'Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.'),
    AGE,
    col('Containers', 'string', 'Names of each container in the template.', 1),
    col('Images', 'string', 'Images referenced by each container in the template.', 1),
    col('Selector', 'string', 'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.', 1),
  ],
  cells(obj, now) {
    const spec = rec(obj.spec);
    const status = rec(obj.status);
    const containers = (rec(rec(spec.template).spec).containers ?? []) as Record<string, unknown>[];
    let selector: string;
    try {
      selector = selectorString(labelSelectorAsSelector(spec.selector as MetaLabelSelector | undefined));
    } catch {
      selector = '<invalid>';
    }
    return [
      obj.metadata.name,
      `${num(status.readyReplicas)}/${num(spec.replicas)}`,
      num(status.updatedReplicas),
      num(status.availableReplicas),
      age(obj, now),
      containers.map((c) => str(c?.name)).join(','),
      containers.map((c) => str(c?.image)).join(','),
      selector,
    ];
  },
};

/** helper.GetAccessModesAsString: RWO, ROX, RWX, RWOP in that order. */
function accessModes(modes: unknown): string {
  const list = Array.isArray(modes) ? modes : [];
  const short: [string, string][] = [['ReadWriteOnce', 'RWO'], ['ReadOnlyMany', 'ROX'], ['ReadWriteMany', 'RWX'], ['ReadWriteOncePod', 'RWOP']];
  return short.filter(([mode]) => list.includes(mode)).map(([, s]) => s).join(',');
}

/** kube's printPersistentVolumeClaim: capacity and access modes only once bound to a volume. */
const persistentVolumeClaims: BuiltinPrinter = {
  columns: [
    NAME,
    col('Status', 'string', 'phase represents the current phase of PersistentVolumeClaim.'),
    col('Volume', 'string', 'volumeName is the binding reference to the PersistentVolume backing this claim.'),
    col('Capacity', 'string', 'capacity represents the actual resources of the underlying volume.'),
    col('Access Modes', 'string', 'accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1'),
    col('StorageClass', 'string', 'StorageClass of the pvc'),
    col('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc'),
    AGE,
    col('VolumeMode', 'string', 'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.', 1),
  ],
  cells(obj, now) {
    const spec = rec(obj.spec);
    const status = rec(obj.status);
    const bound = str(spec.volumeName) !== '';
    const phase = obj.metadata.deletionTimestamp ? 'Terminating' : str(status.phase);
    const storageClass = obj.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? str(spec.storageClassName);
    return [
      obj.metadata.name,
      phase,
      str(spec.volumeName),
      bound ? String(rec(status.capacity).storage ?? '0') : '',
      bound ? accessModes(status.accessModes) : '',
      storageClass,
      str(spec.volumeAttributesClassName) || '<unset>',
      age(obj, now),
      str(spec.volumeMode) || '<unset>',
    ];
  },
};

const CORE_PRINTERS: Readonly<Record<string, BuiltinPrinter>> = { configmaps: configMaps, secrets, serviceaccounts: serviceAccounts, events, persistentvolumeclaims: persistentVolumeClaims };

/** The computed printer of a core/v1 kind (or events.k8s.io/v1 Event, apps/v1 Deployment), if it has one. */
export function builtinPrinter(def: Pick<ResourceDefinition, 'group' | 'plural'>): BuiltinPrinter | undefined {
  if (def.group === 'events.k8s.io' && def.plural === 'events') return eventsV1;
  if (def.group === 'apps' && def.plural === 'deployments') return deployments;
  return def.group === '' ? CORE_PRINTERS[def.plural] : undefined;
}
