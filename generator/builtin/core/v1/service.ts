// Built-in: core/v1 Service, minimal (k8s.io/api/core/v1 field names), written in the kgen input
// language. kgen runs no proxies or pods: a Service only names ports, and its Endpoints (usually
// a selector-less Service with hand-written Endpoints) say where they are served. The aggregator
// resolves APIService spec.service through them, as kube-apiserver with
// --enable-aggregator-routing=true does.
import type { int32, IntOrString, Time } from 'kgen';

/**
 * Service is a named abstraction of software service (for example, mysql) consisting of local
 * port (for example 3306) that the proxy listens on, and the selector that determines which pods
 * will answer requests sent through the proxy.
 * @kgen:resource scope=Namespaced shortNames=svc categories=all
 * @kgen:subresource status
 * @kgen:printcolumn name=Type type=string jsonPath=.spec.type
 * @kgen:printcolumn name=Cluster-IP type=string jsonPath=.spec.clusterIP
 */
export interface Service {
  /**
   * Spec defines the behavior of a service.
   * @kgen:protobuf 2
   */
  spec?: ServiceSpec;
  /**
   * Most recently observed status of the service.
   * @kgen:protobuf 3
   */
  status?: ServiceStatus;
}

/** ServiceSpec describes the attributes that a user creates on a service. */
export interface ServiceSpec {
  /**
   * The list of ports that are exposed by this service.
   * @kgen:listType map
   * @kgen:listMapKey port
   * @kgen:listMapKey protocol
   * @kgen:protobuf 1
   */
  ports?: ServicePort[];
  /**
   * Route service traffic to pods with label keys and values matching this selector. If empty or
   * not present, the service is assumed to have an external process managing its endpoints,
   * which Kubernetes will not modify.
   * @kgen:protobuf 2
   */
  selector?: Record<string, string>;
  /**
   * clusterIP is the IP address of the service; "None" makes a headless service. kgen allocates
   * no addresses.
   * @kgen:protobuf 3
   */
  clusterIP?: string;
  /**
   * type determines how the Service is exposed: ClusterIP, ExternalName, NodePort or LoadBalancer.
   * @default "ClusterIP"
   * @kgen:protobuf 4
   */
  type?: 'ClusterIP' | 'ExternalName' | 'NodePort' | 'LoadBalancer';
  /**
   * externalName is the external reference that discovery mechanisms will return as an alias for this service (type ExternalName).
   * @kgen:protobuf 10
   */
  externalName?: string;
}

/** ServicePort contains information on service's port. */
export interface ServicePort {
  /**
   * The name of this port within the service. Optional if only one ServicePort is defined.
   * @kgen:protobuf 1
   */
  name?: string;
  /**
   * The IP protocol for this port. Supports "TCP", "UDP", and "SCTP".
   * @default "TCP"
   * @kgen:protobuf 2
   */
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  /**
   * The application protocol for this port.
   * @kgen:protobuf 6 pointer
   */
  appProtocol?: string;
  /**
   * The port that will be exposed by this service.
   * @minimum 1
   * @maximum 65535
   * @kgen:protobuf 3
   */
  port: int32;
  /**
   * Number or name of the port to access on the pods targeted by the service.
   * @kgen:protobuf 4
   */
  targetPort?: IntOrString;
  /**
   * The port on each node on which this service is exposed when type is NodePort or LoadBalancer.
   * @kgen:protobuf 5
   */
  nodePort?: int32;
}

/** ServiceStatus represents the current status of a service. */
export interface ServiceStatus {
  /**
   * LoadBalancer contains the current status of the load-balancer, if one is present (kubectl create service sends it empty).
   * @kgen:protobuf 1
   */
  loadBalancer?: LoadBalancerStatus;
  /**
   * Current service state.
   * @kgen:listType map
   * @kgen:listMapKey type
   * @kgen:protobuf 2
   */
  conditions?: ServiceCondition[];
}

/** LoadBalancerStatus represents the status of a load-balancer. */
export interface LoadBalancerStatus {
  /**
   * Ingress is a list containing ingress points for the load-balancer.
   * @kgen:protobuf 1
   */
  ingress?: LoadBalancerIngress[];
}

/** LoadBalancerIngress represents the status of a load-balancer ingress point. */
export interface LoadBalancerIngress {
  /**
   * IP is set for load-balancer ingress points that are IP based.
   * @kgen:protobuf 1
   */
  ip?: string;
  /**
   * Hostname is set for load-balancer ingress points that are DNS based.
   * @kgen:protobuf 2
   */
  hostname?: string;
  /**
   * IPMode specifies how the load-balancer IP behaves: VIP or Proxy.
   * @kgen:protobuf 3 pointer
   */
  ipMode?: string;
  /**
   * Ports is a list of records of service ports.
   * @kgen:protobuf 4
   */
  ports?: PortStatus[];
}

/** PortStatus represents the error condition of a service port. */
export interface PortStatus {
  /**
   * Port is the port number of the service port of which status is recorded here.
   * @kgen:protobuf 1
   */
  port: int32;
  /**
   * Protocol is the protocol of the service port of which status is recorded here.
   * @kgen:protobuf 2
   */
  protocol: 'TCP' | 'UDP' | 'SCTP';
  /**
   * Error is to record the problem with the service port.
   * @kgen:protobuf 3 pointer
   */
  error?: string;
}

/** A condition of a Service (metav1.Condition). */
export interface ServiceCondition {
  /**
   * type of condition in CamelCase.
   * @kgen:protobuf 1
   */
  type: string;
  /**
   * status of the condition, one of True, False, Unknown.
   * @kgen:protobuf 2
   */
  status: 'True' | 'False' | 'Unknown';
  /**
   * lastTransitionTime is the last time the condition transitioned from one status to another.
   * @kgen:protobuf 4
   */
  lastTransitionTime?: Time;
  /**
   * reason contains a programmatic identifier indicating the reason for the condition's last transition.
   * @kgen:protobuf 5
   */
  reason?: string;
  /**
   * message is a human readable message indicating details about the transition.
   * @kgen:protobuf 6
   */
  message?: string;
}
