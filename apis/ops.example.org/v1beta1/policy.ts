import type { int32, ObjectReference } from 'kgen';

/**
 * Policy sets limits that apply to every widget in the cluster.
 * @kgen:resource scope=Cluster categories=ops
 * @kgen:printcolumn name=Enforcement type=string jsonPath=.spec.enforcement
 * @kgen:printcolumn name=MaxReplicas type=integer jsonPath=.spec.maxReplicas
 */
export interface Policy {
  spec: PolicySpec;
}

/**
 * PolicySpec holds the limits.
 * @kgen:validation rule="!has(self.minReplicas) || self.minReplicas <= self.maxReplicas" message="minReplicas must not exceed maxReplicas"
 */
export interface PolicySpec {
  /**
   * What happens when a widget breaks the policy.
   * @default "Warn"
   */
  enforcement?: 'Warn' | 'Deny';
  /**
   * Most replicas any widget may ask for.
   * @minimum 1
   */
  maxReplicas: int32;
  /**
   * Fewest replicas any widget may ask for.
   * @minimum 0
   */
  minReplicas?: int32;
  /** Objects the policy does not apply to. */
  exemptions?: ObjectReference[];
}
