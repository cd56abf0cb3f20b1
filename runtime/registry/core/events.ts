/**
 * kube's event strategy (pkg/registry/core/event) over the generic one: ValidateEventCreate and
 * ValidateEventUpdate (pkg/apis/core/validation/events.go).
 *
 * - Through both APIs, legacyValidateEvent. An Event without eventTime names an object of its own
 *   namespace, or, about a cluster-scoped object, lives in `default`; one with eventTime about a
 *   cluster-scoped object lives in `default` or `kube-system`, and needs reportingController (a
 *   qualified name), reportingInstance, action and reason (each at most 128 bytes) and a message of
 *   at most 1 KiB. The namespace is a DNS-1123 subdomain.
 * - Through events.k8s.io/v1 only (kube's strict validation for that API and newer), on create:
 *   eventTime required, type Normal or Warning, a series of count >= 2 with lastObservedTime, and
 *   none of the deprecated core fields (firstTimestamp, lastTimestamp, count, source); on update:
 *   a changed series is checked, and every other field of the event is immutable.
 *
 * kube validates the internal form, so errors name the internal fields (involvedObject, message,
 * source, reportingController, …) through either API, as kube's messages do.
 */
import type { KubeObject, StatusCause } from '../../api/meta.js';
import { isDNS1123Subdomain, isQualifiedName } from '../../api/names.js';
import { toStatusCauses } from '../../validation/index.js';
import { invalid, invalidPrinted, required } from '../../validation/field.js';
import { goQuote } from '../../validation/gofmt.js';
import type { FieldError } from '../../validation/types.js';
import { jsonEqual } from '../equality.js';
import type { RESTStrategy } from '../strategy.js';

/** Which API's form the strategy sees: core/v1 (`involvedObject`) or events.k8s.io/v1 (`regarding`). */
type ObjectField = 'involvedObject' | 'regarding';

const REPORTING_INSTANCE_LENGTH_LIMIT = 128;
const ACTION_LENGTH_LIMIT = 128;
const REASON_LENGTH_LIMIT = 128;
const NOTE_LENGTH_LIMIT = 1024;

/** The internal Event's fields kube validates, read from either API's form. */
interface InternalEvent {
  namespace: string;
  involvedObject: Record<string, unknown> | undefined;
  reportingController: string;
  reportingInstance: string;
  action: string;
  reason: string;
  message: string;
  type: string;
  eventTime: unknown;
  series: { count?: unknown; lastObservedTime?: unknown } | undefined;
  source: { component?: unknown; host?: unknown } | undefined;
  firstTimestamp: unknown;
  lastTimestamp: unknown;
  count: unknown;
  related: Record<string, unknown> | undefined;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const record = <T>(v: unknown): T | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as T) : undefined);
const isSet = (v: unknown): boolean => v !== undefined && v !== null && v !== '';
const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

function internalEvent(obj: KubeObject, field: ObjectField): InternalEvent {
  const events = field === 'regarding';
  return {
    namespace: obj.metadata.namespace ?? '',
    involvedObject: record(obj[field]),
    reportingController: str(events ? obj.reportingController : obj.reportingComponent),
    reportingInstance: str(obj.reportingInstance),
    action: str(obj.action),
    reason: str(obj.reason),
    message: str(events ? obj.note : obj.message),
    type: str(obj.type),
    eventTime: obj.eventTime,
    series: record(obj.series),
    source: record(events ? obj.deprecatedSource : obj.source),
    firstTimestamp: events ? obj.deprecatedFirstTimestamp : obj.firstTimestamp,
    lastTimestamp: events ? obj.deprecatedLastTimestamp : obj.lastTimestamp,
    count: events ? obj.deprecatedCount : obj.count,
    related: record(obj.related),
  };
}

function tooLong(path: string, value: string, limit: number): FieldError[] {
  return bytes(value) > limit ? [invalid(path, '', `can have at most ${limit} characters`)] : [];
}

/** legacyValidateEvent: what every Event must satisfy, through either API. */
function legacyValidateEvent(e: InternalEvent): FieldError[] {
  const errs: FieldError[] = [];
  const involved = str(e.involvedObject?.namespace);
  if (!isSet(e.eventTime)) {
    if (involved === '' ? e.namespace !== '' && e.namespace !== 'default' : e.namespace !== involved) errs.push(invalid('involvedObject.namespace', involved, 'does not match event.namespace'));
  } else {
    if (involved === '' && e.namespace !== 'default' && e.namespace !== 'kube-system') errs.push(invalid('involvedObject.namespace', involved, 'does not match event.namespace'));
    if (e.reportingController === '') errs.push(required('reportingController'));
    for (const msg of isQualifiedName(e.reportingController)) errs.push(invalid('reportingController', e.reportingController, msg));
    if (e.reportingInstance === '') errs.push(required('reportingInstance'));
    errs.push(...tooLong('reportingInstance', e.reportingInstance, REPORTING_INSTANCE_LENGTH_LIMIT));
    if (e.action === '') errs.push(required('action'));
    errs.push(...tooLong('action', e.action, ACTION_LENGTH_LIMIT));
    if (e.reason === '') errs.push(required('reason'));
    errs.push(...tooLong('reason', e.reason, REASON_LENGTH_LIMIT));
    errs.push(...tooLong('message', e.message, NOTE_LENGTH_LIMIT));
  }
  for (const msg of isDNS1123Subdomain(e.namespace)) errs.push(invalid('namespace', e.namespace, msg));
  return errs;
}

function validateV1EventSeries(e: InternalEvent): FieldError[] {
  if (!e.series) return [];
  const errs: FieldError[] = [];
  const count = typeof e.series.count === 'number' ? e.series.count : 0;
  if (count < 2) errs.push(invalid('series.count', '', 'should be at least 2'));
  if (!isSet(e.series.lastObservedTime)) errs.push(required('series.lastObservedTime'));
  return errs;
}

/** ValidateEventCreate's strict part (events.k8s.io/v1). */
function strictCreate(e: InternalEvent): FieldError[] {
  const errs = validateV1EventSeries(e);
  if (!isSet(e.eventTime)) errs.push(required('eventTime'));
  if (e.type !== 'Normal' && e.type !== 'Warning') errs.push(invalid('type', '', `has invalid value: ${e.type}`));
  if (isSet(e.firstTimestamp)) errs.push(invalid('firstTimestamp', '', 'needs to be unset'));
  if (isSet(e.lastTimestamp)) errs.push(invalid('lastTimestamp', '', 'needs to be unset'));
  if (typeof e.count === 'number' && e.count !== 0) errs.push(invalid('count', '', 'needs to be unset'));
  if (str(e.source?.component) !== '' || str(e.source?.host) !== '') errs.push(invalid('source', '', 'needs to be unset'));
  return errs;
}

/** Go's time.Time String() of an RFC 3339 value (metav1.Time and MicroTime print so in errors). */
function goTime(v: unknown): string {
  const ms = typeof v === 'string' && v !== '' ? Date.parse(v) : NaN;
  if (Number.isNaN(ms)) return '0001-01-01 00:00:00 +0000 UTC';
  const frac = typeof v === 'string' ? (/\.(\d+)/.exec(v)?.[1] ?? '').replace(/0+$/, '') : '';
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? `.${frac}` : ''} +0000 UTC`;
}

/** %#v of core.ObjectReference (its fields in Go's order). */
function goObjectReference(ref: Record<string, unknown> | undefined): string {
  const fields: [string, string][] = [['Kind', 'kind'], ['Namespace', 'namespace'], ['Name', 'name'], ['UID', 'uid'], ['APIVersion', 'apiVersion'], ['ResourceVersion', 'resourceVersion'], ['FieldPath', 'fieldPath']];
  return `core.ObjectReference{${fields.map(([go, json]) => `${go}:${goQuote(str(ref?.[json]))}`).join(', ')}}`;
}

/** A time field's instant (ms, with the microseconds' fraction), so two spellings of one time compare equal as Go's times do. */
function instant(v: unknown): unknown {
  if (typeof v !== 'string' || v === '') return null;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? v : `${ms}.${(/\.\d{3}(\d*)/.exec(v)?.[1] ?? '').replace(/0+$/, '')}`;
}

/** ValidateImmutableField: `<path>: Invalid value: <new value>: field is immutable` when the value changed. */
function immutable(path: string, now: unknown, old: unknown, printed: string): FieldError[] {
  return jsonEqual(now ?? null, old ?? null) ? [] : [invalidPrinted(path, printed, 'field is immutable')];
}

/** ValidateEventUpdate's strict part (events.k8s.io/v1): a changed series is checked; the rest may not change. */
function strictUpdate(e: InternalEvent, old: InternalEvent): FieldError[] {
  const errs = jsonEqual(e.series ?? null, old.series ?? null) ? [] : validateV1EventSeries(e);
  const source = `core.EventSource{Component:${goQuote(str(e.source?.component))}, Host:${goQuote(str(e.source?.host))}}`;
  const count = typeof e.count === 'number' ? e.count : 0;
  const stringFields = (path: keyof InternalEvent & string) => immutable(path, e[path] || null, old[path] || null, goQuote(e[path] as string));
  errs.push(
    ...immutable('involvedObject', e.involvedObject, old.involvedObject, goObjectReference(e.involvedObject)),
    ...stringFields('reason'),
    ...stringFields('message'),
    ...immutable('source', { c: str(e.source?.component), h: str(e.source?.host) }, { c: str(old.source?.component), h: str(old.source?.host) }, source),
    ...immutable('firstTimestamp', instant(e.firstTimestamp), instant(old.firstTimestamp), goTime(e.firstTimestamp)),
    ...immutable('lastTimestamp', instant(e.lastTimestamp), instant(old.lastTimestamp), goTime(e.lastTimestamp)),
    ...immutable('count', count, typeof old.count === 'number' ? old.count : 0, String(count)),
    // kube checks reason twice (events.go lists it twice), so a changed reason is reported twice.
    ...stringFields('reason'),
    ...stringFields('type'),
    ...immutable('eventTime', instant(e.eventTime), instant(old.eventTime), goTime(e.eventTime)),
    ...stringFields('action'),
    ...immutable('related', e.related, old.related, e.related ? goObjectReference(e.related) : 'null'),
    ...stringFields('reportingController'),
    ...stringFields('reportingInstance'),
  );
  return errs;
}

/**
 * The generic checks' causes, then the event's own. One both report (the schema's required
 * series.lastObservedTime, eventTime) is reported once, where the event's rules put it: kube's Go
 * validation is the only one, so its order is theirs.
 */
function joined(base: StatusCause[], own: FieldError[]): StatusCause[] {
  const ownCauses = toStatusCauses(own);
  const mine = new Set(ownCauses.map((c) => `${c.field}\n${c.message}`));
  return [...base.filter((c) => !mine.has(`${c.field}\n${c.message}`)), ...ownCauses];
}

export function withEventStrategy(field: ObjectField): (base: RESTStrategy) => RESTStrategy {
  const strict = field === 'regarding';
  return (base) => ({
    ...base,
    validate(obj) {
      const e = internalEvent(obj, field);
      return joined(base.validate(obj), [...legacyValidateEvent(e), ...(strict ? strictCreate(e) : [])]);
    },
    validateUpdate(obj, old) {
      const e = internalEvent(obj, field);
      return joined(base.validateUpdate(obj, old), [...legacyValidateEvent(e), ...(strict ? strictUpdate(e, internalEvent(old, field)) : [])]);
    },
  });
}
