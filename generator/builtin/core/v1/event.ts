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
  /**
   * The object that this event is about.
   * @kgen:protobuf 2
   */
  involvedObject: ObjectReference;
  /**
   * This should be a short, machine understandable string that gives the reason for the transition into the object's current status.
   * @kgen:protobuf 3
   */
  reason?: string;
  /**
   * A human-readable description of the status of this operation.
   * @kgen:protobuf 4
   */
  message?: string;
  /**
   * The component reporting this event. Should be a short machine understandable string.
   * @kgen:protobuf 5
   */
  source?: EventSource;
  /**
   * The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)
   * @kgen:protobuf 6
   */
  firstTimestamp?: Time;
  /**
   * The time at which the most recent occurrence of this event was recorded.
   * @kgen:protobuf 7
   */
  lastTimestamp?: Time;
  /**
   * The number of times this event has occurred.
   * @kgen:protobuf 8
   */
  count?: int32;
  /**
   * Type of this event (Normal, Warning), new types could be added in the future
   * @kgen:protobuf 9
   */
  type?: string;
  /**
   * Time when this Event was first observed.
   * @format date-time
   * @kgen:protobuf 10 microtime
   */
  eventTime?: string | null;
  /**
   * Data about the Event series this event represents or nil if it's a singleton Event.
   * @kgen:protobuf 11
   */
  series?: EventSeries;
  /**
   * What action was taken/failed regarding to the Regarding object.
   * @kgen:protobuf 12
   */
  action?: string;
  /**
   * Optional secondary object for more complex actions.
   * @kgen:protobuf 13
   */
  related?: ObjectReference;
  /**
   * Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.
   * @kgen:protobuf 14
   */
  reportingComponent?: string;
  /**
   * ID of the controller instance, e.g. `kubelet-xyzf`.
   * @kgen:protobuf 15
   */
  reportingInstance?: string;
}

/** EventSource contains information for an event. */
export interface EventSource {
  /**
   * Component from which the event is generated.
   * @kgen:protobuf 1
   */
  component?: string;
  /**
   * Node name on which the event is generated.
   * @kgen:protobuf 2
   */
  host?: string;
}

/** EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time. */
export interface EventSeries {
  /**
   * Number of occurrences in this series up to the last heartbeat time
   * @kgen:protobuf 1
   */
  count?: int32;
  /**
   * Time of the last occurrence observed
   * @format date-time
   * @kgen:protobuf 2 microtime
   */
  lastObservedTime?: string;
}

/** ObjectReference contains enough information to let you inspect or modify the referred object. */
export interface ObjectReference {
  /**
   * Kind of the referent.
   * @kgen:protobuf 1
   */
  kind?: string;
  /**
   * Namespace of the referent.
   * @kgen:protobuf 2
   */
  namespace?: string;
  /**
   * Name of the referent.
   * @kgen:protobuf 3
   */
  name?: string;
  /**
   * UID of the referent.
   * @kgen:protobuf 4
   */
  uid?: string;
  /**
   * API version of the referent.
   * @kgen:protobuf 5
   */
  apiVersion?: string;
  /**
   * Specific resourceVersion to which this reference is made, if any.
   * @kgen:protobuf 6
   */
  resourceVersion?: string;
  /**
   * If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].
   * @kgen:protobuf 7
   */
  fieldPath?: string;
}
