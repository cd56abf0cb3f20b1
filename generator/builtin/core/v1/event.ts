// Built-in: core/v1 Event (k8s.io/api/core/v1 field names), written in the kgen input language.
// events.k8s.io/v1 Event is the same stored object seen through another schema
// (runtime/registry/core/events.ts); events expire after --event-ttl.
import type { int32, Time } from 'kgen';

/**
 * Event is a report of an event somewhere in the cluster. Events have a limited retention time
 * and triggers and messages may evolve with time.
 * @kgen:resource scope=Namespaced shortNames=ev
 * @kgen:selectableField jsonPath=.involvedObject.kind
 * @kgen:selectableField jsonPath=.involvedObject.namespace
 * @kgen:selectableField jsonPath=.involvedObject.name
 * @kgen:selectableField jsonPath=.involvedObject.uid
 * @kgen:selectableField jsonPath=.involvedObject.apiVersion
 * @kgen:selectableField jsonPath=.involvedObject.resourceVersion
 * @kgen:selectableField jsonPath=.involvedObject.fieldPath
 * @kgen:selectableField jsonPath=.reason
 * @kgen:selectableField jsonPath=.reportingComponent
 * @kgen:selectableField jsonPath=.source.component
 * @kgen:selectableField jsonPath=.type
 */
export interface Event {
  /** The object that this event is about. */
  involvedObject: ObjectReference;
  /** This should be a short, machine understandable string that gives the reason for the transition into the object's current status. */
  reason?: string;
  /** A human-readable description of the status of this operation. */
  message?: string;
  /** The component reporting this event. Should be a short machine understandable string. */
  source?: EventSource;
  /** The time at which the event was first recorded. (Time of server receipt is in TypeMeta.) */
  firstTimestamp?: Time;
  /** The time at which the most recent occurrence of this event was recorded. */
  lastTimestamp?: Time;
  /** The number of times this event has occurred. */
  count?: int32;
  /** Type of this event (Normal, Warning), new types could be added in the future */
  type?: string;
  /**
   * Time when this Event was first observed.
   * @format date-time
   */
  eventTime?: string | null;
  /** Data about the Event series this event represents or nil if it's a singleton Event. */
  series?: EventSeries;
  /** What action was taken/failed regarding to the Regarding object. */
  action?: string;
  /** Optional secondary object for more complex actions. */
  related?: ObjectReference;
  /** Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`. */
  reportingComponent?: string;
  /** ID of the controller instance, e.g. `kubelet-xyzf`. */
  reportingInstance?: string;
}

/** EventSource contains information for an event. */
export interface EventSource {
  /** Component from which the event is generated. */
  component?: string;
  /** Node name on which the event is generated. */
  host?: string;
}

/** EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time. */
export interface EventSeries {
  /** Number of occurrences in this series up to the last heartbeat time */
  count?: int32;
  /**
   * Time of the last occurrence observed
   * @format date-time
   */
  lastObservedTime?: string;
}

/** ObjectReference contains enough information to let you inspect or modify the referred object. */
export interface ObjectReference {
  /** Kind of the referent. */
  kind?: string;
  /** Namespace of the referent. */
  namespace?: string;
  /** Name of the referent. */
  name?: string;
  /** UID of the referent. */
  uid?: string;
  /** API version of the referent. */
  apiVersion?: string;
  /** Specific resourceVersion to which this reference is made, if any. */
  resourceVersion?: string;
  /** If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. */
  fieldPath?: string;
}
