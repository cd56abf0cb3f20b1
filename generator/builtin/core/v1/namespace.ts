// Built-in: core/v1 Namespace, written in the kgen input language and compiled by kgen like any
// user API. `kgen generate` merges the built-in APIs with the user's.
import type { Time } from 'kgen';

/**
 * Namespace provides a scope for Names. Use of multiple namespaces is optional.
 * @kgen:resource scope=Cluster shortNames=ns
 * @kgen:subresource status
 * @kgen:printcolumn name=Status type=string jsonPath=.status.phase
 */
export interface Namespace {
  /**
   * Spec defines the behavior of the Namespace.
   * @kgen:protobuf 2
   */
  spec?: NamespaceSpec;
  /**
   * Status describes the current status of a Namespace.
   * @kgen:protobuf 3
   */
  status?: NamespaceStatus;
}

/** NamespaceSpec describes the attributes on a Namespace. */
export interface NamespaceSpec {
  /**
   * Finalizers is an opaque list of values that must be empty to permanently remove object from storage.
   * @kgen:listType set
   * @kgen:protobuf 1
   */
  finalizers?: string[];
}

/** NamespaceStatus is information about the current status of a Namespace. */
export interface NamespaceStatus {
  /**
   * Phase is the current lifecycle phase of the namespace.
   * @kgen:protobuf 1
   */
  phase?: 'Active' | 'Terminating';
  /**
   * Represents the latest available observations of a namespace's current state.
   * @kgen:listType map
   * @kgen:listMapKey type
   * @kgen:protobuf 2
   */
  conditions?: NamespaceCondition[];
}

/** NamespaceCondition contains details about state of namespace. */
export interface NamespaceCondition {
  /**
   * Type of namespace controller condition.
   * @kgen:protobuf 1
   */
  type: string;
  /**
   * Status of the condition, one of True, False, Unknown.
   * @kgen:protobuf 2
   */
  status: 'True' | 'False' | 'Unknown';
  /**
   * Last time the condition transitioned from one status to another.
   * @kgen:protobuf 4
   */
  lastTransitionTime?: Time;
  /**
   * Unique, one-word, CamelCase reason for the condition's last transition.
   * @kgen:protobuf 5
   */
  reason?: string;
  /**
   * Human-readable message indicating details about last transition.
   * @kgen:protobuf 6
   */
  message?: string;
}
