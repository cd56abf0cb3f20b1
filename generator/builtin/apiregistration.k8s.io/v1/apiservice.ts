// Built-in: apiregistration.k8s.io/v1 APIService (k8s.io/kube-aggregator/pkg/apis/apiregistration/v1),
// written in the kgen input language and compiled by kgen like any user API. The aggregator in
// front of the server chain (runtime/aggregator/) routes each APIService's group/version to the
// server spec.service names and keeps its Available condition.
import type { int32, Time } from 'kgen';

/**
 * APIService represents a server for a particular GroupVersion. Name must be "version.group".
 * @kgen:resource scope=Cluster
 * @kgen:subresource status
 * @kgen:printcolumn name=Service type=string jsonPath=.spec.service.name
 * @kgen:printcolumn name=Available type=string jsonPath=.status.conditions[?(@.type=='Available')].status
 * @kgen:printcolumn name=Reason type=string jsonPath=.status.conditions[?(@.type=='Available')].reason priority=1
 */
export interface APIService {
  /**
   * Spec contains information for locating and communicating with a server
   * @kgen:protobuf 2
   */
  spec?: APIServiceSpec;
  /**
   * Status contains derived information about an API server
   * @kgen:protobuf 3
   */
  status?: APIServiceStatus;
}

/** ServiceReference holds a reference to Service.legacy.k8s.io */
export interface ServiceReference {
  /**
   * Namespace is the namespace of the service
   * @kgen:protobuf 1
   */
  namespace?: string;
  /**
   * Name is the name of the service
   * @kgen:protobuf 2
   */
  name?: string;
  /**
   * If specified, the port on the service that hosting webhook. Default to 443 for backward
   * compatibility. `port` should be a valid port number (1-65535, inclusive).
   * @default 443
   * @minimum 1
   * @maximum 65535
   * @kgen:protobuf 3 pointer
   */
  port?: int32;
}

/**
 * APIServiceSpec contains information for locating and communicating with a server. Only https
 * is supported, though you are able to disable certificate verification.
 */
export interface APIServiceSpec {
  /**
   * Service is a reference to the service for this API server. It must communicate on port 443.
   * If the Service is nil, that means the handling for the API groupversion is handled locally on
   * this server. The call will simply delegate to the normal handler chain to be fulfilled.
   * @kgen:protobuf 1
   */
  service?: ServiceReference;
  /**
   * Group is the API group name this server hosts
   * @kgen:protobuf 2
   */
  group?: string;
  /**
   * Version is the API version this server hosts. For example, "v1"
   * @kgen:protobuf 3
   */
  version?: string;
  /**
   * InsecureSkipTLSVerify disables TLS certificate verification when communicating with this
   * server. This is strongly discouraged. You should use the CABundle instead.
   * @kgen:protobuf 4
   */
  insecureSkipTLSVerify?: boolean;
  /**
   * CABundle is a PEM encoded CA bundle which will be used to validate an API server's serving
   * certificate. If unspecified, system trust roots on the apiserver are used.
   * @format byte
   * @kgen:protobuf 5
   */
  caBundle?: string;
  /**
   * GroupPriorityMinimum is the priority this group should have at least. Higher priority means
   * that the group is preferred by clients over lower priority ones. The primary sort is based on
   * GroupPriorityMinimum, ordered highest number to lowest (20 before 10). The secondary sort is
   * based on the alphabetical comparison of the name of the object (v1.bar before v1.foo).
   * We'd recommend something like: *.k8s.io (except extensions) at 18000 and PaaSes (OpenShift,
   * Deis) are recommended to be in the 2000s
   * @minimum 1
   * @maximum 20000
   * @kgen:protobuf 7
   */
  groupPriorityMinimum: int32;
  /**
   * VersionPriority controls the ordering of this API version inside of its group. Must be
   * greater than zero. The primary sort is based on VersionPriority, ordered highest to lowest
   * (20 before 10). Since it's inside of a group, the number can be small, probably in the 10s.
   * In case of equal version priorities, the version string will be used to compute the order
   * inside a group: "Kube-like" versions (v1, v2beta1, v1alpha1) sort before the others, GA
   * before beta before alpha, higher major and minor versions first.
   * @minimum 1
   * @maximum 1000
   * @kgen:protobuf 8
   */
  versionPriority: int32;
}

/** APIServiceStatus contains derived information about an API server */
export interface APIServiceStatus {
  /**
   * Current service state of apiService.
   * @kgen:listType map
   * @kgen:listMapKey type
   * @kgen:protobuf 1
   */
  conditions?: APIServiceCondition[];
}

/** APIServiceCondition describes the state of an APIService at a particular point */
export interface APIServiceCondition {
  /**
   * Type is the type of the condition: Available.
   * @kgen:protobuf 1
   */
  type: string;
  /**
   * Status is the status of the condition. Can be True, False, Unknown.
   * @kgen:protobuf 2
   */
  status: 'True' | 'False' | 'Unknown';
  /**
   * Last time the condition transitioned from one status to another.
   * @kgen:protobuf 3
   */
  lastTransitionTime?: Time;
  /**
   * Unique, one-word, CamelCase reason for the condition's last transition.
   * @kgen:protobuf 4
   */
  reason?: string;
  /**
   * Human-readable message indicating details about last transition.
   * @kgen:protobuf 5
   */
  message?: string;
}
