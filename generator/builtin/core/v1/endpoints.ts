// Built-in: core/v1 Endpoints, minimal (k8s.io/api/core/v1 field names), written in the kgen input
// language: where a Service's ports are served. The aggregator reads them to reach an
// APIService's backend (see service.ts).
import type { int32 } from 'kgen';

/**
 * Endpoints is a collection of endpoints that implement the actual service. Example:
 *   Name: "mysvc",
 *   Subsets: [{ Addresses: [{"ip": "10.10.1.1"}, {"ip": "10.10.2.2"}], Ports: [{"name": "a", "port": 8675}] }]
 * @kgen:resource scope=Namespaced shortNames=ep plural=endpoints singular=endpoints
 */
export interface Endpoints {
  /**
   * The set of all endpoints is the union of all subsets. Addresses are placed into subsets
   * according to the IPs they share.
   * @kgen:listType atomic
   * @kgen:protobuf 2
   */
  subsets?: EndpointSubset[];
}

/**
 * EndpointSubset is a group of addresses with a common set of ports. The expanded set of
 * endpoints is the Cartesian product of Addresses x Ports.
 */
export interface EndpointSubset {
  /**
   * IP addresses which offer the related ports that are marked as ready.
   * @kgen:listType atomic
   * @kgen:protobuf 1
   */
  addresses?: EndpointAddress[];
  /**
   * IP addresses which offer the related ports but are not currently marked as ready.
   * @kgen:listType atomic
   * @kgen:protobuf 2
   */
  notReadyAddresses?: EndpointAddress[];
  /**
   * Port numbers available on the related IP addresses.
   * @kgen:listType atomic
   * @kgen:protobuf 3
   */
  ports?: EndpointPort[];
}

/** EndpointAddress is a tuple that describes single IP address. */
export interface EndpointAddress {
  /**
   * The IP of this endpoint.
   * @kgen:protobuf 1
   */
  ip: string;
  /**
   * The Hostname of this endpoint
   * @kgen:protobuf 3
   */
  hostname?: string;
  /**
   * Optional: Node hosting this endpoint.
   * @kgen:protobuf 4 pointer
   */
  nodeName?: string;
}

/** EndpointPort is a tuple that describes a single port. */
export interface EndpointPort {
  /**
   * The name of this port. This must match the 'name' field in the corresponding ServicePort.
   * @kgen:protobuf 1
   */
  name?: string;
  /**
   * The port number of the endpoint.
   * @minimum 1
   * @maximum 65535
   * @kgen:protobuf 2
   */
  port: int32;
  /**
   * The IP protocol for this port. Must be UDP, TCP, or SCTP.
   * @default "TCP"
   * @kgen:protobuf 3
   */
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  /**
   * The application protocol for this port.
   * @kgen:protobuf 4 pointer
   */
  appProtocol?: string;
}
