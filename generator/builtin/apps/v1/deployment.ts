// Built-in: apps/v1 Deployment (k8s.io/api/apps/v1 field names, documentation and generated.proto
// numbers), written in the kgen input language. kgen stores and serves Deployments with kube's
// defaults and validation (runtime/registry/apps/deployments.ts); no controller rolls them out.
import type { IntOrString, LabelSelector, Time, int32, int64 } from 'kgen';
import type { PodTemplateSpec } from '../../core/v1/podtemplate.js';

/**
 * Deployment enables declarative updates for Pods and ReplicaSets.
 * @kgen:resource scope=Namespaced shortNames=deploy categories=all
 * @kgen:subresource status
 * @kgen:subresource scale specReplicasPath=.spec.replicas statusReplicasPath=.status.replicas
 */
export interface Deployment {
  /**
   * Specification of the desired behavior of the Deployment.
   * @kgen:protobuf 2
   */
  spec?: DeploymentSpec;
  /**
   * Most recently observed status of the Deployment.
   * @kgen:protobuf 3
   */
  status?: DeploymentStatus;
}

/**
 * DeploymentSpec is the specification of the desired behavior of the Deployment.
 */
export interface DeploymentSpec {
  /**
   * Number of desired pods. This is a pointer to distinguish between explicit
   * zero and not specified. Defaults to 1.
   * @default 1
   * @kgen:protobuf 1 pointer
   */
  replicas?: int32;
  /**
   * Label selector for pods. Existing ReplicaSets whose pods are
   * selected by this will be the ones affected by this deployment.
   * It must match the pod template's labels.
   * @kgen:protobuf 2
   */
  selector?: LabelSelector;
  /**
   * Template describes the pods that will be created.
   * The only allowed template.spec.restartPolicy value is "Always".
   * @kgen:protobuf 3
   */
  template: PodTemplateSpec;
  /**
   * The deployment strategy to use to replace existing pods with new ones.
   * @kgen:protobuf 4
   */
  strategy?: DeploymentStrategy;
  /**
   * Minimum number of seconds for which a newly created pod should be ready
   * without any of its container crashing, for it to be considered available.
   * Defaults to 0 (pod will be considered available as soon as it is ready)
   * @kgen:protobuf 5
   */
  minReadySeconds?: int32;
  /**
   * The number of old ReplicaSets to retain to allow rollback.
   * This is a pointer to distinguish between explicit zero and not specified.
   * Defaults to 10.
   * @default 10
   * @kgen:protobuf 6 pointer
   */
  revisionHistoryLimit?: int32;
  /**
   * Indicates that the deployment is paused.
   * @kgen:protobuf 7
   */
  paused?: boolean;
  /**
   * The maximum time in seconds for a deployment to make progress before it
   * is considered to be failed. The deployment controller will continue to
   * process failed deployments and a condition with a ProgressDeadlineExceeded
   * reason will be surfaced in the deployment status. Note that progress will
   * not be estimated during the time a deployment is paused. Defaults to 600s.
   * @default 600
   * @kgen:protobuf 9 pointer
   */
  progressDeadlineSeconds?: int32;
}

/**
 * DeploymentStatus is the most recently observed status of the Deployment.
 */
export interface DeploymentStatus {
  /**
   * The generation observed by the deployment controller.
   * @kgen:protobuf 1
   */
  observedGeneration?: int64;
  /**
   * Total number of non-terminating pods targeted by this deployment (their labels match the selector).
   * @kgen:protobuf 2
   */
  replicas?: int32;
  /**
   * Total number of non-terminating pods targeted by this deployment that have the desired template spec.
   * @kgen:protobuf 3
   */
  updatedReplicas?: int32;
  /**
   * Total number of non-terminating pods targeted by this Deployment with a Ready Condition.
   * @kgen:protobuf 7
   */
  readyReplicas?: int32;
  /**
   * Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.
   * @kgen:protobuf 4
   */
  availableReplicas?: int32;
  /**
   * Total number of unavailable pods targeted by this deployment. This is the total number of
   * pods that are still required for the deployment to have 100% available capacity. They may
   * either be pods that are running but not yet available or pods that still have not been created.
   * @kgen:protobuf 5
   */
  unavailableReplicas?: int32;
  /**
   * Total number of terminating pods targeted by this deployment. Terminating pods have a non-null
   * .metadata.deletionTimestamp and have not yet reached the Failed or Succeeded .status.phase.
   *
   * This is an alpha field. Enable DeploymentReplicaSetTerminatingReplicas to be able to use this field.
   * @kgen:protobuf 9 pointer
   */
  terminatingReplicas?: int32;
  /**
   * Represents the latest available observations of a deployment's current state.
   * @kgen:listType map
   * @kgen:listMapKey type
   * @kgen:protobuf 6
   */
  conditions?: DeploymentCondition[];
  /**
   * Count of hash collisions for the Deployment. The Deployment controller uses this
   * field as a collision avoidance mechanism when it needs to create the name for the
   * newest ReplicaSet.
   * @kgen:protobuf 8 pointer
   */
  collisionCount?: int32;
}

/**
 * DeploymentStrategy describes how to replace existing pods with new ones.
 */
export interface DeploymentStrategy {
  /**
   * Type of deployment. Can be "Recreate" or "RollingUpdate". Default is RollingUpdate.
   * @kgen:protobuf 1
   */
  type?: string;
  /**
   * Rolling update config params. Present only if DeploymentStrategyType =
   * RollingUpdate.
   * @kgen:protobuf 2
   */
  rollingUpdate?: RollingUpdateDeployment;
}

/**
 * DeploymentCondition describes the state of a deployment at a certain point.
 */
export interface DeploymentCondition {
  /**
   * Type of deployment condition.
   * @kgen:protobuf 1
   */
  type: string;
  /**
   * Status of the condition, one of True, False, Unknown.
   * @kgen:protobuf 2
   */
  status: string;
  /**
   * The last time this condition was updated.
   * @kgen:protobuf 6
   */
  lastUpdateTime?: Time;
  /**
   * Last time the condition transitioned from one status to another.
   * @kgen:protobuf 7
   */
  lastTransitionTime?: Time;
  /**
   * The reason for the condition's last transition.
   * @kgen:protobuf 4
   */
  reason?: string;
  /**
   * A human readable message indicating details about the transition.
   * @kgen:protobuf 5
   */
  message?: string;
}

/**
 * Spec to control the desired behavior of rolling update.
 */
export interface RollingUpdateDeployment {
  /**
   * The maximum number of pods that can be unavailable during the update.
   * Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%).
   * Absolute number is calculated from percentage by rounding down.
   * This can not be 0 if MaxSurge is 0.
   * Defaults to 25%.
   * Example: when this is set to 30%, the old ReplicaSet can be scaled down to 70% of desired pods
   * immediately when the rolling update starts. Once new pods are ready, old ReplicaSet
   * can be scaled down further, followed by scaling up the new ReplicaSet, ensuring
   * that the total number of pods available at all times during the update is at
   * least 70% of desired pods.
   * @kgen:protobuf 1 pointer
   */
  maxUnavailable?: IntOrString;
  /**
   * The maximum number of pods that can be scheduled above the desired number of
   * pods.
   * Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%).
   * This can not be 0 if MaxUnavailable is 0.
   * Absolute number is calculated from percentage by rounding up.
   * Defaults to 25%.
   * Example: when this is set to 30%, the new ReplicaSet can be scaled up immediately when
   * the rolling update starts, such that the total number of old and new pods do not exceed
   * 130% of desired pods. Once old pods have been killed,
   * new ReplicaSet can be scaled up further, ensuring that total number of pods running
   * at any time during the update is at most 130% of desired pods.
   * @kgen:protobuf 2 pointer
   */
  maxSurge?: IntOrString;
}
