/**
 * Table printers of the core control-plane kinds whose columns are computed rather than read at a
 * path (kube's pkg/printers/internalversion): ConfigMap and Secret count their keys, a
 * ServiceAccount its secrets, an Event prints "kind/name" and its series. The server always
 * prints every column (kube generates tables with Wide set); kubectl hides priority > 0.
 */
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

const CORE_PRINTERS: Readonly<Record<string, BuiltinPrinter>> = { configmaps: configMaps, secrets, serviceaccounts: serviceAccounts, events };

/** The computed printer of a core/v1 kind (or events.k8s.io/v1 Event), if it has one. */
export function builtinPrinter(def: Pick<ResourceDefinition, 'group' | 'plural'>): BuiltinPrinter | undefined {
  if (def.group === 'events.k8s.io' && def.plural === 'events') return eventsV1;
  return def.group === '' ? CORE_PRINTERS[def.plural] : undefined;
}
