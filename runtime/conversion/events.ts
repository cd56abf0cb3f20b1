/**
 * core/v1 Event ⇄ events.k8s.io/v1 Event (kube's pkg/apis/events/v1 conversion): one stored
 * object, the core form, seen through both APIs. The events.k8s.io/v1 store reads and writes the
 * core Events' keys (`/registry/core/events/`) through a ConvertingStorage with this conversion,
 * so both APIs list, watch and update the same objects with the same resourceVersions.
 */
import type { KubeObject } from '../api/meta.js';
import { newInternalError } from '../api/status.js';
import type { KindConversion } from './conversion.js';

const CORE = 'core/v1';
const EVENTS = 'events.k8s.io/v1';

/** Field renames: events.k8s.io/v1 name → core/v1 name (the rest have the same names). */
const RENAMES: readonly [string, string][] = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
  ['reportingController', 'reportingComponent'],
];
const SAME = ['metadata', 'eventTime', 'series', 'reportingInstance', 'action', 'reason', 'related', 'type'];

function move(obj: KubeObject, pairs: readonly [string, string][], apiVersion: string): KubeObject {
  const out: KubeObject = { apiVersion, kind: 'Event', metadata: obj.metadata };
  for (const f of SAME) if (obj[f] !== undefined) out[f] = obj[f];
  for (const [from, to] of pairs) if (obj[from] !== undefined) out[to] = obj[from];
  return out;
}

export const eventsConversion: KindConversion = {
  group: 'events.k8s.io',
  kind: 'Event',
  storageVersion: CORE,
  versions: [CORE, EVENTS],
  convert(obj, from, to) {
    if (from === to) return obj;
    if (from === EVENTS && to === CORE) return move(obj, RENAMES, 'v1');
    if (from === CORE && to === EVENTS) return move(obj, RENAMES.map(([a, b]) => [b, a] as [string, string]), 'events.k8s.io/v1');
    throw newInternalError(`cannot convert Event from ${from} to ${to}`);
  },
  versionOf(obj) {
    return obj.apiVersion === 'v1' ? CORE : obj.apiVersion === 'events.k8s.io/v1' ? EVENTS : undefined;
  },
};

export const EVENTS_VERSION = EVENTS;

export function isEventsV1Resource(def: { group: string; plural: string }): boolean {
  return def.group === 'events.k8s.io' && def.plural === 'events';
}
