// Built-in: events.k8s.io/v1 Event (k8s.io/api/events/v1 field names), written in the kgen input
// language. It is the same stored object as a core/v1 Event, seen through this schema
// (runtime/conversion/events.ts), as in kube: one storage, two APIs.
import type { int32 } from 'kgen';
// As in k8s.io/api/events/v1: regarding, related and deprecatedSource are core/v1's types.
import type { EventSource, ObjectReference } from '../../core/v1/event.js';

/**
 * Event is a report of an event somewhere in the cluster. It generally denotes some state change
 * in the system. Events have a limited retention time and triggers and messages may evolve with
 * time.
 * @kgen:resource scope=Namespaced shortNames=ev
 * @kgen:selectableField jsonPath=.reason
 * @kgen:selectableField jsonPath=.type
 * @kgen:selectableField jsonPath=.reportingController
 * @kgen:selectableField jsonPath=.regarding.kind
 * @kgen:selectableField jsonPath=.regarding.namespace
 * @kgen:selectableField jsonPath=.regarding.name
 * @kgen:selectableField jsonPath=.regarding.uid
 */
export interface Event {
  /**
   * eventTime is the time when this Event was first observed.
   * @format date-time
   * @kgen:protobuf 2 microtime
   */
  eventTime?: string | null;
  /**
   * series is data about the Event series this event represents or nil if it's a singleton Event.
   * @kgen:protobuf 3
   */
  series?: EventSeries;
  /**
   * reportingController is the name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.
   * @kgen:protobuf 4
   */
  reportingController?: string;
  /**
   * reportingInstance is the ID of the controller instance, e.g. `kubelet-xyzf`.
   * @kgen:protobuf 5
   */
  reportingInstance?: string;
  /**
   * action is what action was taken/failed regarding to the regarding object.
   * @kgen:protobuf 6
   */
  action?: string;
  /**
   * reason is why the action was taken. It is human-readable.
   * @kgen:protobuf 7
   */
  reason?: string;
  /**
   * regarding contains the object this Event is about.
   * @kgen:protobuf 8
   */
  regarding?: ObjectReference;
  /**
   * related is the optional secondary object for more complex actions.
   * @kgen:protobuf 9
   */
  related?: ObjectReference;
  /**
   * note is a human-readable description of the status of this operation.
   * @kgen:protobuf 10
   */
  note?: string;
  /**
   * type is the type of this event (Normal, Warning), new types could be added in the future.
   * @kgen:protobuf 11
   */
  type?: string;
  /**
   * deprecatedSource is the deprecated field assuring backward compatibility with core.v1 Event type.
   * @kgen:protobuf 12
   */
  deprecatedSource?: EventSource;
  /**
   * deprecatedFirstTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.
   * @format date-time
   * @kgen:protobuf 13
   */
  deprecatedFirstTimestamp?: string;
  /**
   * deprecatedLastTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.
   * @format date-time
   * @kgen:protobuf 14
   */
  deprecatedLastTimestamp?: string;
  /**
   * deprecatedCount is the deprecated field assuring backward compatibility with core.v1 Event type.
   * @kgen:protobuf 15
   */
  deprecatedCount?: int32;
}

/** EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time. */
export interface EventSeries {
  /**
   * count is the number of occurrences in this series up to the last heartbeat time.
   * @kgen:protobuf 1
   */
  count: int32;
  /**
   * lastObservedTime is the time when last Event from the series was seen before last heartbeat.
   * @format date-time
   * @kgen:protobuf 2 microtime
   */
  lastObservedTime: string;
}
