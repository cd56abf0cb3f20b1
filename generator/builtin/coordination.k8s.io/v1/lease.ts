// Built-in: coordination.k8s.io/v1 Lease (k8s.io/api/coordination/v1 field names), written in the
// kgen input language: what leader election (client-go's LeaseLock, kgen's toolkit) holds.
import type { int32 } from 'kgen';

/**
 * Lease defines a lease concept.
 * @kgen:resource scope=Namespaced
 * @kgen:printcolumn name=Holder type=string jsonPath=.spec.holderIdentity
 */
export interface Lease {
  /**
   * spec contains the specification of the Lease.
   * @kgen:protobuf 2
   */
  spec?: LeaseSpec;
}

/** LeaseSpec is a specification of a Lease. */
export interface LeaseSpec {
  /**
   * holderIdentity contains the identity of the holder of a current lease.
   * @kgen:protobuf 1 pointer
   */
  holderIdentity?: string;
  /**
   * leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it.
   * @kgen:protobuf 2 pointer
   */
  leaseDurationSeconds?: int32;
  /**
   * acquireTime is a time when the current lease was acquired.
   * @format date-time
   * @kgen:protobuf 3 microtime
   */
  acquireTime?: string;
  /**
   * renewTime is a time when the current holder of a lease has last updated the lease.
   * @format date-time
   * @kgen:protobuf 4 microtime
   */
  renewTime?: string;
  /**
   * leaseTransitions is the number of transitions of a lease between holders.
   * @kgen:protobuf 5 pointer
   */
  leaseTransitions?: int32;
  /**
   * Strategy indicates the strategy for picking the leader for coordinated leader election.
   * @kgen:protobuf 6 pointer
   */
  strategy?: string;
  /**
   * PreferredHolder signals to a lease holder that the lease has a more optimal holder and should be given up.
   * @kgen:protobuf 7 pointer
   */
  preferredHolder?: string;
}
