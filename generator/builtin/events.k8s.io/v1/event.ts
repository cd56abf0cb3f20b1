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
   */
  eventTime?: string | null;
  /** series is data about the Event series this event represents or nil if it's a singleton Event. */
  series?: EventSeries;
  /** reportingController is the name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`. */
  reportingController?: string;
  /** reportingInstance is the ID of the controller instance, e.g. `kubelet-xyzf`. */
  reportingInstance?: string;
  /** action is what action was taken/failed regarding to the regarding object. */
  action?: string;
  /** reason is why the action was taken. It is human-readable. */
  reason?: string;
  /** regarding contains the object this Event is about. */
  regarding?: ObjectReference;
  /** related is the optional secondary object for more complex actions. */
  related?: ObjectReference;
  /** note is a human-readable description of the status of this operation. */
  note?: string;
  /** type is the type of this event (Normal, Warning), new types could be added in the future. */
  type?: string;
  /** deprecatedSource is the deprecated field assuring backward compatibility with core.v1 Event type. */
  deprecatedSource?: EventSource;
  /**
   * deprecatedFirstTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.
   * @format date-time
   */
  deprecatedFirstTimestamp?: string;
  /**
   * deprecatedLastTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.
   * @format date-time
   */
  deprecatedLastTimestamp?: string;
  /** deprecatedCount is the deprecated field assuring backward compatibility with core.v1 Event type. */
  deprecatedCount?: int32;
}

/** EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time. */
export interface EventSeries {
  /** count is the number of occurrences in this series up to the last heartbeat time. */
  count: int32;
  /**
   * lastObservedTime is the time when last Event from the series was seen before last heartbeat.
   * @format date-time
   */
  lastObservedTime: string;
}
