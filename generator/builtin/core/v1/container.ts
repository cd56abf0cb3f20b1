// Built-in: core/v1 Container (and EphemeralContainer) with everything it holds, from
// k8s.io/api/core/v1 (field names, documentation and generated.proto numbers), written in the kgen
// input language for pod templates. Probe embeds ProbeHandler (fields 1.M).
import type { IntOrString, Quantity, int32, int64 } from 'kgen';
import type { ObjectFieldSelector, ResourceFieldSelector } from './volume.js';

/**
 * A single application container that you want to run within a pod.
 */
export interface Container {
  /**
   * Name of the container specified as a DNS_LABEL.
   * Each container in a pod must have a unique name (DNS_LABEL).
   * Cannot be updated.
   * @kgen:protobuf 1
   */
  name: string;
  /**
   * Container image name.
   * More info: https://kubernetes.io/docs/concepts/containers/images
   * This field is optional to allow higher level config management to default or override
   * container images in workload controllers like Deployments and StatefulSets.
   * @kgen:protobuf 2
   */
  image?: string;
  /**
   * Entrypoint array. Not executed within a shell.
   * The container image's ENTRYPOINT is used if this is not provided.
   * Variable references $(VAR_NAME) are expanded using the container's environment. If a variable
   * cannot be resolved, the reference in the input string will be unchanged. Double $$ are reduced
   * to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e. "$$(VAR_NAME)" will
   * produce the string literal "$(VAR_NAME)". Escaped references will never be expanded, regardless
   * of whether the variable exists or not. Cannot be updated.
   * More info: https://kubernetes.io/docs/tasks/inject-data-application/define-command-argument-container/#running-a-command-in-a-shell
   * @kgen:listType atomic
   * @kgen:protobuf 3
   */
  command?: string[];
  /**
   * Arguments to the entrypoint.
   * The container image's CMD is used if this is not provided.
   * Variable references $(VAR_NAME) are expanded using the container's environment. If a variable
   * cannot be resolved, the reference in the input string will be unchanged. Double $$ are reduced
   * to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e. "$$(VAR_NAME)" will
   * produce the string literal "$(VAR_NAME)". Escaped references will never be expanded, regardless
   * of whether the variable exists or not. Cannot be updated.
   * More info: https://kubernetes.io/docs/tasks/inject-data-application/define-command-argument-container/#running-a-command-in-a-shell
   * @kgen:listType atomic
   * @kgen:protobuf 4
   */
  args?: string[];
  /**
   * Container's working directory.
   * If not specified, the container runtime's default will be used, which
   * might be configured in the container image.
   * Cannot be updated.
   * @kgen:protobuf 5
   */
  workingDir?: string;
  /**
   * List of ports to expose from the container. Not specifying a port here
   * DOES NOT prevent that port from being exposed. Any port which is
   * listening on the default "0.0.0.0" address inside a container will be
   * accessible from the network.
   * Modifying this array with strategic merge patch may corrupt the data.
   * For more information See https://github.com/kubernetes/kubernetes/issues/108255.
   * Cannot be updated.
   * @kgen:listType map
   * @kgen:listMapKey containerPort
   * @kgen:listMapKey protocol
   * @kgen:protobuf 6
   */
  ports?: ContainerPort[];
  /**
   * List of sources to populate environment variables in the container.
   * The keys defined within a source may consist of any printable ASCII characters except '='.
   * When a key exists in multiple
   * sources, the value associated with the last source will take precedence.
   * Values defined by an Env with a duplicate key will take precedence.
   * Cannot be updated.
   * @kgen:listType atomic
   * @kgen:protobuf 19
   */
  envFrom?: EnvFromSource[];
  /**
   * List of environment variables to set in the container.
   * Cannot be updated.
   * @kgen:listType map
   * @kgen:listMapKey name
   * @kgen:protobuf 7
   */
  env?: EnvVar[];
  /**
   * Compute Resources required by this container.
   * Cannot be updated.
   * More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
   * @kgen:protobuf 8
   */
  resources?: ResourceRequirements;
  /**
   * Resources resize policy for the container.
   * @kgen:listType atomic
   * @kgen:protobuf 23
   */
  resizePolicy?: ContainerResizePolicy[];
  /**
   * RestartPolicy defines the restart behavior of individual containers in a pod.
   * This overrides the pod-level restart policy. When this field is not specified,
   * the restart behavior is defined by the Pod's restart policy and the container type.
   * Additionally, setting the RestartPolicy as "Always" for the init container will
   * have the following effect:
   * this init container will be continually restarted on
   * exit until all regular containers have terminated. Once all regular
   * containers have completed, all init containers with restartPolicy "Always"
   * will be shut down. This lifecycle differs from normal init containers and
   * is often referred to as a "sidecar" container. Although this init
   * container still starts in the init container sequence, it does not wait
   * for the container to complete before proceeding to the next init
   * container. Instead, the next init container starts immediately after this
   * init container is started, or after any startupProbe has successfully
   * completed.
   * @kgen:protobuf 24 pointer
   */
  restartPolicy?: string;
  /**
   * Represents a list of rules to be checked to determine if the
   * container should be restarted on exit. The rules are evaluated in
   * order. Once a rule matches a container exit condition, the remaining
   * rules are ignored. If no rule matches the container exit condition,
   * the Container-level restart policy determines the whether the container
   * is restarted or not. Constraints on the rules:
   * - At most 20 rules are allowed.
   * - Rules can have the same action.
   * - Identical rules are not forbidden in validations.
   * When rules are specified, container MUST set RestartPolicy explicitly
   * even it if matches the Pod's RestartPolicy.
   * @kgen:listType atomic
   * @kgen:protobuf 25
   */
  restartPolicyRules?: ContainerRestartRule[];
  /**
   * Pod volumes to mount into the container's filesystem.
   * Cannot be updated.
   * @kgen:listType map
   * @kgen:listMapKey mountPath
   * @kgen:protobuf 9
   */
  volumeMounts?: VolumeMount[];
  /**
   * volumeDevices is the list of block devices to be used by the container.
   * @kgen:listType map
   * @kgen:listMapKey devicePath
   * @kgen:protobuf 21
   */
  volumeDevices?: VolumeDevice[];
  /**
   * Periodic probe of container liveness.
   * Container will be restarted if the probe fails.
   * Cannot be updated.
   * More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
   * @kgen:protobuf 10
   */
  livenessProbe?: Probe;
  /**
   * Periodic probe of container service readiness.
   * Container will be removed from service endpoints if the probe fails.
   * Cannot be updated.
   * More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
   * @kgen:protobuf 11
   */
  readinessProbe?: Probe;
  /**
   * StartupProbe indicates that the Pod has successfully initialized.
   * If specified, no other probes are executed until this completes successfully.
   * If this probe fails, the Pod will be restarted, just as if the livenessProbe failed.
   * This can be used to provide different probe parameters at the beginning of a Pod's lifecycle,
   * when it might take a long time to load data or warm a cache, than during steady-state operation.
   * This cannot be updated.
   * More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
   * @kgen:protobuf 22
   */
  startupProbe?: Probe;
  /**
   * Actions that the management system should take in response to container lifecycle events.
   * Cannot be updated.
   * @kgen:protobuf 12
   */
  lifecycle?: Lifecycle;
  /**
   * Optional: Path at which the file to which the container's termination message
   * will be written is mounted into the container's filesystem.
   * Message written is intended to be brief final status, such as an assertion failure message.
   * Will be truncated by the node if greater than 4096 bytes. The total message length across
   * all containers will be limited to 12kb.
   * Defaults to /dev/termination-log.
   * Cannot be updated.
   * @default "/dev/termination-log"
   * @kgen:protobuf 13
   */
  terminationMessagePath?: string;
  /**
   * Indicate how the termination message should be populated. File will use the contents of
   * terminationMessagePath to populate the container status message on both success and failure.
   * FallbackToLogsOnError will use the last chunk of container log output if the termination
   * message file is empty and the container exited with an error.
   * The log output is limited to 2048 bytes or 80 lines, whichever is smaller.
   * Defaults to File.
   * Cannot be updated.
   * @default "File"
   * @kgen:protobuf 20
   */
  terminationMessagePolicy?: string;
  /**
   * Image pull policy.
   * One of Always, Never, IfNotPresent.
   * Defaults to Always if :latest tag is specified, or IfNotPresent otherwise.
   * Cannot be updated.
   * More info: https://kubernetes.io/docs/concepts/containers/images#updating-images
   * @kgen:protobuf 14
   */
  imagePullPolicy?: string;
  /**
   * SecurityContext defines the security options the container should be run with.
   * If set, the fields of SecurityContext override the equivalent fields of PodSecurityContext.
   * More info: https://kubernetes.io/docs/tasks/configure-pod-container/security-context/
   * @kgen:protobuf 15
   */
  securityContext?: SecurityContext;
  /**
   * Whether this container should allocate a buffer for stdin in the container runtime. If this
   * is not set, reads from stdin in the container will always result in EOF.
   * Default is false.
   * @kgen:protobuf 16
   */
  stdin?: boolean;
  /**
   * Whether the container runtime should close the stdin channel after it has been opened by
   * a single attach. When stdin is true the stdin stream will remain open across multiple attach
   * sessions. If stdinOnce is set to true, stdin is opened on container start, is empty until the
   * first client attaches to stdin, and then remains open and accepts data until the client disconnects,
   * at which time stdin is closed and remains closed until the container is restarted. If this
   * flag is false, a container processes that reads from stdin will never receive an EOF.
   * Default is false
   * @kgen:protobuf 17
   */
  stdinOnce?: boolean;
  /**
   * Whether this container should allocate a TTY for itself, also requires 'stdin' to be true.
   * Default is false.
   * @kgen:protobuf 18
   */
  tty?: boolean;
}

/**
 * An EphemeralContainer is a temporary container that you may add to an existing Pod for
 * user-initiated activities such as debugging. Ephemeral containers have no resource or
 * scheduling guarantees, and they will not be restarted when they exit or when a Pod is
 * removed or restarted. The kubelet may evict a Pod if an ephemeral container causes the
 * Pod to exceed its resource allocation.
 *
 * To add an ephemeral container, use the ephemeralcontainers subresource of an existing
 * Pod. Ephemeral containers may not be removed or restarted.
 */
export interface EphemeralContainer {
  /**
   * Name of the ephemeral container specified as a DNS_LABEL.
   * This name must be unique among all containers, init containers and ephemeral containers.
   * @kgen:protobuf 1.1
   */
  name: string;
  /**
   * Container image name.
   * More info: https://kubernetes.io/docs/concepts/containers/images
   * @kgen:protobuf 1.2
   */
  image?: string;
  /**
   * Entrypoint array. Not executed within a shell.
   * The image's ENTRYPOINT is used if this is not provided.
   * Variable references $(VAR_NAME) are expanded using the container's environment. If a variable
   * cannot be resolved, the reference in the input string will be unchanged. Double $$ are reduced
   * to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e. "$$(VAR_NAME)" will
   * produce the string literal "$(VAR_NAME)". Escaped references will never be expanded, regardless
   * of whether the variable exists or not. Cannot be updated.
   * More info: https://kubernetes.io/docs/tasks/inject-data-application/define-command-argument-container/#running-a-command-in-a-shell
   * @kgen:listType atomic
   * @kgen:protobuf 1.3
   */
  command?: string[];
  /**
   * Arguments to the entrypoint.
   * The image's CMD is used if this is not provided.
   * Variable references $(VAR_NAME) are expanded using the container's environment. If a variable
   * cannot be resolved, the reference in the input string will be unchanged. Double $$ are reduced
   * to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e. "$$(VAR_NAME)" will
   * produce the string literal "$(VAR_NAME)". Escaped references will never be expanded, regardless
   * of whether the variable exists or not. Cannot be updated.
   * More info: https://kubernetes.io/docs/tasks/inject-data-application/define-command-argument-container/#running-a-command-in-a-shell
   * @kgen:listType atomic
   * @kgen:protobuf 1.4
   */
  args?: string[];
  /**
   * Container's working directory.
   * If not specified, the container runtime's default will be used, which
   * might be configured in the container image.
   * Cannot be updated.
   * @kgen:protobuf 1.5
   */
  workingDir?: string;
  /**
   * Ports are not allowed for ephemeral containers.
   * @kgen:listType map
   * @kgen:listMapKey containerPort
   * @kgen:listMapKey protocol
   * @kgen:protobuf 1.6
   */
  ports?: ContainerPort[];
  /**
   * List of sources to populate environment variables in the container.
   * The keys defined within a source may consist of any printable ASCII characters except '='.
   * When a key exists in multiple
   * sources, the value associated with the last source will take precedence.
   * Values defined by an Env with a duplicate key will take precedence.
   * Cannot be updated.
   * @kgen:listType atomic
   * @kgen:protobuf 1.19
   */
  envFrom?: EnvFromSource[];
  /**
   * List of environment variables to set in the container.
   * Cannot be updated.
   * @kgen:listType map
   * @kgen:listMapKey name
   * @kgen:protobuf 1.7
   */
  env?: EnvVar[];
  /**
   * Resources are not allowed for ephemeral containers. Ephemeral containers use spare resources
   * already allocated to the pod.
   * @kgen:protobuf 1.8
   */
  resources?: ResourceRequirements;
  /**
   * Resources resize policy for the container.
   * @kgen:listType atomic
   * @kgen:protobuf 1.23
   */
  resizePolicy?: ContainerResizePolicy[];
  /**
   * Restart policy for the container to manage the restart behavior of each
   * container within a pod.
   * You cannot set this field on ephemeral containers.
   * @kgen:protobuf 1.24
   */
  restartPolicy?: string;
  /**
   * Represents a list of rules to be checked to determine if the
   * container should be restarted on exit. You cannot set this field on
   * ephemeral containers.
   * @kgen:listType atomic
   * @kgen:protobuf 1.25
   */
  restartPolicyRules?: ContainerRestartRule[];
  /**
   * Pod volumes to mount into the container's filesystem. Subpath mounts are not allowed for ephemeral containers.
   * Cannot be updated.
   * @kgen:listType map
   * @kgen:listMapKey mountPath
   * @kgen:protobuf 1.9
   */
  volumeMounts?: VolumeMount[];
  /**
   * volumeDevices is the list of block devices to be used by the container.
   * @kgen:listType map
   * @kgen:listMapKey devicePath
   * @kgen:protobuf 1.21
   */
  volumeDevices?: VolumeDevice[];
  /**
   * Probes are not allowed for ephemeral containers.
   * @kgen:protobuf 1.10
   */
  livenessProbe?: Probe;
  /**
   * Probes are not allowed for ephemeral containers.
   * @kgen:protobuf 1.11
   */
  readinessProbe?: Probe;
  /**
   * Probes are not allowed for ephemeral containers.
   * @kgen:protobuf 1.22
   */
  startupProbe?: Probe;
  /**
   * Lifecycle is not allowed for ephemeral containers.
   * @kgen:protobuf 1.12
   */
  lifecycle?: Lifecycle;
  /**
   * Optional: Path at which the file to which the container's termination message
   * will be written is mounted into the container's filesystem.
   * Message written is intended to be brief final status, such as an assertion failure message.
   * Will be truncated by the node if greater than 4096 bytes. The total message length across
   * all containers will be limited to 12kb.
   * Defaults to /dev/termination-log.
   * Cannot be updated.
   * @kgen:protobuf 1.13
   */
  terminationMessagePath?: string;
  /**
   * Indicate how the termination message should be populated. File will use the contents of
   * terminationMessagePath to populate the container status message on both success and failure.
   * FallbackToLogsOnError will use the last chunk of container log output if the termination
   * message file is empty and the container exited with an error.
   * The log output is limited to 2048 bytes or 80 lines, whichever is smaller.
   * Defaults to File.
   * Cannot be updated.
   * @kgen:protobuf 1.20
   */
  terminationMessagePolicy?: string;
  /**
   * Image pull policy.
   * One of Always, Never, IfNotPresent.
   * Defaults to Always if :latest tag is specified, or IfNotPresent otherwise.
   * Cannot be updated.
   * More info: https://kubernetes.io/docs/concepts/containers/images#updating-images
   * @kgen:protobuf 1.14
   */
  imagePullPolicy?: string;
  /**
   * Optional: SecurityContext defines the security options the ephemeral container should be run with.
   * If set, the fields of SecurityContext override the equivalent fields of PodSecurityContext.
   * @kgen:protobuf 1.15
   */
  securityContext?: SecurityContext;
  /**
   * Whether this container should allocate a buffer for stdin in the container runtime. If this
   * is not set, reads from stdin in the container will always result in EOF.
   * Default is false.
   * @kgen:protobuf 1.16
   */
  stdin?: boolean;
  /**
   * Whether the container runtime should close the stdin channel after it has been opened by
   * a single attach. When stdin is true the stdin stream will remain open across multiple attach
   * sessions. If stdinOnce is set to true, stdin is opened on container start, is empty until the
   * first client attaches to stdin, and then remains open and accepts data until the client disconnects,
   * at which time stdin is closed and remains closed until the container is restarted. If this
   * flag is false, a container processes that reads from stdin will never receive an EOF.
   * Default is false
   * @kgen:protobuf 1.17
   */
  stdinOnce?: boolean;
  /**
   * Whether this container should allocate a TTY for itself, also requires 'stdin' to be true.
   * Default is false.
   * @kgen:protobuf 1.18
   */
  tty?: boolean;
  /**
   * If set, the name of the container from PodSpec that this ephemeral container targets.
   * The ephemeral container will be run in the namespaces (IPC, PID, etc) of this container.
   * If not set then the ephemeral container uses the namespaces configured in the Pod spec.
   *
   * The container runtime must implement support for this feature. If the runtime does not
   * support namespace targeting then the result of setting this field is undefined.
   * @kgen:protobuf 2
   */
  targetContainerName?: string;
}

/**
 * ContainerPort represents a network port in a single container.
 */
export interface ContainerPort {
  /**
   * If specified, this must be an IANA_SVC_NAME and unique within the pod. Each
   * named port in a pod must have a unique name. Name for the port that can be
   * referred to by services.
   * @kgen:protobuf 1
   */
  name?: string;
  /**
   * Number of port to expose on the host.
   * If specified, this must be a valid port number, 0 < x < 65536.
   * If HostNetwork is specified, this must match ContainerPort.
   * Most containers do not need this.
   * @kgen:protobuf 2
   */
  hostPort?: int32;
  /**
   * Number of port to expose on the pod's IP address.
   * This must be a valid port number, 0 < x < 65536.
   * @kgen:protobuf 3
   */
  containerPort: int32;
  /**
   * Protocol for port. Must be UDP, TCP, or SCTP.
   * Defaults to "TCP".
   * @default "TCP"
   * @kgen:protobuf 4
   */
  protocol?: string;
  /**
   * What host IP to bind the external port to.
   * @kgen:protobuf 5
   */
  hostIP?: string;
}

/**
 * ContainerResizePolicy represents resource resize policy for the container.
 */
export interface ContainerResizePolicy {
  /**
   * Name of the resource to which this resource resize policy applies.
   * Supported values: cpu, memory.
   * @kgen:protobuf 1
   */
  resourceName: string;
  /**
   * Restart policy to apply when specified resource is resized.
   * If not specified, it defaults to NotRequired.
   * @kgen:protobuf 2
   */
  restartPolicy: string;
}

/**
 * ContainerRestartRule describes how a container exit is handled.
 */
export interface ContainerRestartRule {
  /**
   * Specifies the action taken on a container exit if the requirements
   * are satisfied. The only possible value is "Restart" to restart the
   * container.
   * @kgen:protobuf 1
   */
  action?: string;
  /**
   * Represents the exit codes to check on container exits.
   * @kgen:protobuf 2
   */
  exitCodes?: ContainerRestartRuleOnExitCodes;
}

/**
 * EnvFromSource represents the source of a set of ConfigMaps or Secrets
 */
export interface EnvFromSource {
  /**
   * Optional text to prepend to the name of each environment variable.
   * May consist of any printable ASCII characters except '='.
   * @kgen:protobuf 1
   */
  prefix?: string;
  /**
   * The ConfigMap to select from
   * @kgen:protobuf 2
   */
  configMapRef?: ConfigMapEnvSource;
  /**
   * The Secret to select from
   * @kgen:protobuf 3
   */
  secretRef?: SecretEnvSource;
}

/**
 * EnvVar represents an environment variable present in a Container.
 */
export interface EnvVar {
  /**
   * Name of the environment variable.
   * May consist of any printable ASCII characters except '='.
   * @kgen:protobuf 1
   */
  name: string;
  /**
   * Variable references $(VAR_NAME) are expanded
   * using the previously defined environment variables in the container and
   * any service environment variables. If a variable cannot be resolved,
   * the reference in the input string will be unchanged. Double $$ are reduced
   * to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e.
   * "$$(VAR_NAME)" will produce the string literal "$(VAR_NAME)".
   * Escaped references will never be expanded, regardless of whether the variable
   * exists or not.
   * Defaults to "".
   * @kgen:protobuf 2
   */
  value?: string;
  /**
   * Source for the environment variable's value. Cannot be used if value is not empty.
   * @kgen:protobuf 3
   */
  valueFrom?: EnvVarSource;
}

/**
 * Lifecycle describes actions that the management system should take in response to container lifecycle
 * events. For the PostStart and PreStop lifecycle handlers, management of the container blocks
 * until the action is complete, unless the container process fails, in which case the handler is aborted.
 */
export interface Lifecycle {
  /**
   * PostStart is called immediately after a container is created. If the handler fails,
   * the container is terminated and restarted according to its restart policy.
   * Other management of the container blocks until the hook completes.
   * More info: https://kubernetes.io/docs/concepts/containers/container-lifecycle-hooks/#container-hooks
   * @kgen:protobuf 1
   */
  postStart?: LifecycleHandler;
  /**
   * PreStop is called immediately before a container is terminated due to an
   * API request or management event such as liveness/startup probe failure,
   * preemption, resource contention, etc. The handler is not called if the
   * container crashes or exits. The Pod's termination grace period countdown begins before the
   * PreStop hook is executed. Regardless of the outcome of the handler, the
   * container will eventually terminate within the Pod's termination grace
   * period (unless delayed by finalizers). Other management of the container blocks until the hook completes
   * or until the termination grace period is reached.
   * More info: https://kubernetes.io/docs/concepts/containers/container-lifecycle-hooks/#container-hooks
   * @kgen:protobuf 2
   */
  preStop?: LifecycleHandler;
  /**
   * StopSignal defines which signal will be sent to a container when it is being stopped.
   * If not specified, the default is defined by the container runtime in use.
   * StopSignal can only be set for Pods with a non-empty .spec.os.name
   * @kgen:protobuf 3 pointer
   */
  stopSignal?: string;
}

/**
 * Probe describes a health check to be performed against a container to determine whether it is
 * alive or ready to receive traffic.
 */
export interface Probe {
  /**
   * Exec specifies a command to execute in the container.
   * @kgen:protobuf 1.1
   */
  exec?: ExecAction;
  /**
   * HTTPGet specifies an HTTP GET request to perform.
   * @kgen:protobuf 1.2
   */
  httpGet?: HTTPGetAction;
  /**
   * TCPSocket specifies a connection to a TCP port.
   * @kgen:protobuf 1.3
   */
  tcpSocket?: TCPSocketAction;
  /**
   * GRPC specifies a GRPC HealthCheckRequest.
   * @kgen:protobuf 1.4
   */
  grpc?: GRPCAction;
  /**
   * Number of seconds after the container has started before liveness probes are initiated.
   * More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
   * @kgen:protobuf 2
   */
  initialDelaySeconds?: int32;
  /**
   * Number of seconds after which the probe times out.
   * Defaults to 1 second. Minimum value is 1.
   * More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
   * @default 1
   * @kgen:protobuf 3
   */
  timeoutSeconds?: int32;
  /**
   * How often (in seconds) to perform the probe.
   * Default to 10 seconds. Minimum value is 1.
   * @default 10
   * @kgen:protobuf 4
   */
  periodSeconds?: int32;
  /**
   * Minimum consecutive successes for the probe to be considered successful after having failed.
   * Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.
   * @default 1
   * @kgen:protobuf 5
   */
  successThreshold?: int32;
  /**
   * Minimum consecutive failures for the probe to be considered failed after having succeeded.
   * Defaults to 3. Minimum value is 1.
   * @default 3
   * @kgen:protobuf 6
   */
  failureThreshold?: int32;
  /**
   * Optional duration in seconds the pod needs to terminate gracefully upon probe failure.
   * The grace period is the duration in seconds after the processes running in the pod are sent
   * a termination signal and the time when the processes are forcibly halted with a kill signal.
   * Set this value longer than the expected cleanup time for your process.
   * If this value is nil, the pod's terminationGracePeriodSeconds will be used. Otherwise, this
   * value overrides the value provided by the pod spec.
   * Value must be non-negative integer. The value zero indicates stop immediately via
   * the kill signal (no opportunity to shut down).
   * This is a beta field and requires enabling ProbeTerminationGracePeriod feature gate.
   * Minimum value is 1. spec.terminationGracePeriodSeconds is used if unset.
   * @kgen:protobuf 7 pointer
   */
  terminationGracePeriodSeconds?: int64;
}

/**
 * ResourceRequirements describes the compute resource requirements.
 */
export interface ResourceRequirements {
  /**
   * Limits describes the maximum amount of compute resources allowed.
   * More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
   * @kgen:protobuf 1
   */
  limits?: Record<string, Quantity>;
  /**
   * Requests describes the minimum amount of compute resources required.
   * If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
   * otherwise to an implementation-defined value. Requests cannot exceed Limits.
   * More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
   * @kgen:protobuf 2
   */
  requests?: Record<string, Quantity>;
  /**
   * Claims lists the names of resources, defined in spec.resourceClaims,
   * that are used by this container.
   *
   * This field depends on the
   * DynamicResourceAllocation feature gate.
   *
   * This field is immutable. It can only be set for containers.
   * @kgen:listType map
   * @kgen:listMapKey name
   * @kgen:protobuf 3
   */
  claims?: ResourceClaim[];
}

/**
 * SecurityContext holds security configuration that will be applied to a container.
 * Some fields are present in both SecurityContext and PodSecurityContext.  When both
 * are set, the values in SecurityContext take precedence.
 */
export interface SecurityContext {
  /**
   * The capabilities to add/drop when running containers.
   * Defaults to the default set of capabilities granted by the container runtime.
   * Note that this field cannot be set when spec.os.name is windows.
   * @kgen:protobuf 1
   */
  capabilities?: Capabilities;
  /**
   * Run container in privileged mode.
   * Processes in privileged containers are essentially equivalent to root on the host.
   * Defaults to false.
   * Note that this field cannot be set when spec.os.name is windows.
   * @kgen:protobuf 2 pointer
   */
  privileged?: boolean;
  /**
   * The SELinux context to be applied to the container.
   * If unspecified, the container runtime will allocate a random SELinux context for each
   * container.  May also be set in PodSecurityContext.  If set in both SecurityContext and
   * PodSecurityContext, the value specified in SecurityContext takes precedence.
   * Note that this field cannot be set when spec.os.name is windows.
   * @kgen:protobuf 3
   */
  seLinuxOptions?: SELinuxOptions;
  /**
   * The Windows specific settings applied to all containers.
   * If unspecified, the options from the PodSecurityContext will be used.
   * If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence.
   * Note that this field cannot be set when spec.os.name is linux.
   * @kgen:protobuf 10
   */
  windowsOptions?: WindowsSecurityContextOptions;
  /**
   * The UID to run the entrypoint of the container process.
   * Defaults to user specified in image metadata if unspecified.
   * May also be set in PodSecurityContext.  If set in both SecurityContext and
   * PodSecurityContext, the value specified in SecurityContext takes precedence.
   * Note that this field cannot be set when spec.os.name is windows.
   * @kgen:protobuf 4 pointer
   */
  runAsUser?: int64;
  /**
   * The GID to run the entrypoint of the container process.
   * Uses runtime default if unset.
   * May also be set in PodSecurityContext.  If set in both SecurityContext and
   * PodSecurityContext, the value specified in SecurityContext takes precedence.
   * Note that this field cannot be set when spec.os.name is windows.
   * @kgen:protobuf 8 pointer
   */
  runAsGroup?: int64;
  /**
   * Indicates that the container must run as a non-root user.
   * If true, the Kubelet will validate the image at runtime to ensure that it
   * does not run as UID 0 (root) and fail to start the container if it does.
   * If unset or false, no such validation will be performed.
   * May also be set in PodSecurityContext.  If set in both SecurityContext and
   * PodSecurityContext, the value specified in SecurityContext takes precedence.
   * @kgen:protobuf 5 pointer
   */
  runAsNonRoot?: boolean;
  /**
   * Whether this container has a read-only root filesystem.
   * Default is false.
   * Note that this field cannot be set when spec.os.name is windows.
   * @kgen:protobuf 6 pointer
   */
  readOnlyRootFilesystem?: boolean;
  /**
   * AllowPrivilegeEscalation controls whether a process can gain more
   * privileges than its parent process. This bool directly controls if
   * the no_new_privs flag will be set on the container process.
   * AllowPrivilegeEscalation is true always when the container is:
   * 1) run as Privileged
   * 2) has CAP_SYS_ADMIN
   * Note that this field cannot be set when spec.os.name is windows.
   * @kgen:protobuf 7 pointer
   */
  allowPrivilegeEscalation?: boolean;
  /**
   * procMount denotes the type of proc mount to use for the containers.
   * The default value is Default which uses the container runtime defaults for
   * readonly paths and masked paths.
   * This requires the ProcMountType feature flag to be enabled.
   * Note that this field cannot be set when spec.os.name is windows.
   * @kgen:protobuf 9 pointer
   */
  procMount?: string;
  /**
   * The seccomp options to use by this container. If seccomp options are
   * provided at both the pod & container level, the container options
   * override the pod options.
   * Note that this field cannot be set when spec.os.name is windows.
   * @kgen:protobuf 11
   */
  seccompProfile?: SeccompProfile;
  /**
   * appArmorProfile is the AppArmor options to use by this container. If set, this profile
   * overrides the pod's appArmorProfile.
   * Note that this field cannot be set when spec.os.name is windows.
   * @kgen:protobuf 12
   */
  appArmorProfile?: AppArmorProfile;
}

/**
 * volumeDevice describes a mapping of a raw block device within a container.
 */
export interface VolumeDevice {
  /**
   * name must match the name of a persistentVolumeClaim in the pod
   * @kgen:protobuf 1
   */
  name: string;
  /**
   * devicePath is the path inside of the container that the device will be mapped to.
   * @kgen:protobuf 2
   */
  devicePath: string;
}

/**
 * VolumeMount describes a mounting of a Volume within a container.
 */
export interface VolumeMount {
  /**
   * This must match the Name of a Volume.
   * @kgen:protobuf 1
   */
  name: string;
  /**
   * Mounted read-only if true, read-write otherwise (false or unspecified).
   * Defaults to false.
   * @kgen:protobuf 2
   */
  readOnly?: boolean;
  /**
   * RecursiveReadOnly specifies whether read-only mounts should be handled
   * recursively.
   *
   * If ReadOnly is false, this field has no meaning and must be unspecified.
   *
   * If ReadOnly is true, and this field is set to Disabled, the mount is not made
   * recursively read-only.  If this field is set to IfPossible, the mount is made
   * recursively read-only, if it is supported by the container runtime.  If this
   * field is set to Enabled, the mount is made recursively read-only if it is
   * supported by the container runtime, otherwise the pod will not be started and
   * an error will be generated to indicate the reason.
   *
   * If this field is set to IfPossible or Enabled, MountPropagation must be set to
   * None (or be unspecified, which defaults to None).
   *
   * If this field is not specified, it is treated as an equivalent of Disabled.
   * @kgen:protobuf 7 pointer
   */
  recursiveReadOnly?: string;
  /**
   * Path within the container at which the volume should be mounted.  Must
   * not contain ':'.
   * @kgen:protobuf 3
   */
  mountPath: string;
  /**
   * Path within the volume from which the container's volume should be mounted.
   * Defaults to "" (volume's root).
   * @kgen:protobuf 4
   */
  subPath?: string;
  /**
   * mountPropagation determines how mounts are propagated from the host
   * to container and the other way around.
   * When not set, MountPropagationNone is used.
   * This field is beta in 1.10.
   * When RecursiveReadOnly is set to IfPossible or to Enabled, MountPropagation must be None or unspecified
   * (which defaults to None).
   * @kgen:protobuf 5 pointer
   */
  mountPropagation?: string;
  /**
   * Expanded path within the volume from which the container's volume should be mounted.
   * Behaves similarly to SubPath but environment variable references $(VAR_NAME) are expanded using the container's environment.
   * Defaults to "" (volume's root).
   * SubPathExpr and SubPath are mutually exclusive.
   * @kgen:protobuf 6
   */
  subPathExpr?: string;
}

/**
 * ContainerRestartRuleOnExitCodes describes the condition
 * for handling an exited container based on its exit codes.
 */
export interface ContainerRestartRuleOnExitCodes {
  /**
   * Represents the relationship between the container exit code(s) and the
   * specified values. Possible values are:
   * - In: the requirement is satisfied if the container exit code is in the
   * set of specified values.
   * - NotIn: the requirement is satisfied if the container exit code is
   * not in the set of specified values.
   * @kgen:protobuf 1
   */
  operator?: string;
  /**
   * Specifies the set of values to check for container exit codes.
   * At most 255 elements are allowed.
   * @kgen:listType set
   * @kgen:protobuf 2
   */
  values?: int32[];
}

/**
 * ConfigMapEnvSource selects a ConfigMap to populate the environment
 * variables with.
 *
 * The contents of the target ConfigMap's Data field will represent the
 * key-value pairs as environment variables.
 */
export interface ConfigMapEnvSource {
  /**
   * Name of the referent.
   * This field is effectively required, but due to backwards compatibility is
   * allowed to be empty. Instances of this type with an empty value here are
   * almost certainly wrong.
   * More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
   * @default ""
   * @kgen:protobuf 1.1
   */
  name?: string;
  /**
   * Specify whether the ConfigMap must be defined
   * @kgen:protobuf 2 pointer
   */
  optional?: boolean;
}

/**
 * SecretEnvSource selects a Secret to populate the environment
 * variables with.
 *
 * The contents of the target Secret's Data field will represent the
 * key-value pairs as environment variables.
 */
export interface SecretEnvSource {
  /**
   * Name of the referent.
   * This field is effectively required, but due to backwards compatibility is
   * allowed to be empty. Instances of this type with an empty value here are
   * almost certainly wrong.
   * More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
   * @default ""
   * @kgen:protobuf 1.1
   */
  name?: string;
  /**
   * Specify whether the Secret must be defined
   * @kgen:protobuf 2 pointer
   */
  optional?: boolean;
}

/**
 * EnvVarSource represents a source for the value of an EnvVar.
 */
export interface EnvVarSource {
  /**
   * Selects a field of the pod: supports metadata.name, metadata.namespace, `metadata.labels['<KEY>']`, `metadata.annotations['<KEY>']`,
   * spec.nodeName, spec.serviceAccountName, status.hostIP, status.podIP, status.podIPs.
   * @kgen:protobuf 1
   */
  fieldRef?: ObjectFieldSelector;
  /**
   * Selects a resource of the container: only resources limits and requests
   * (limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory and requests.ephemeral-storage) are currently supported.
   * @kgen:protobuf 2
   */
  resourceFieldRef?: ResourceFieldSelector;
  /**
   * Selects a key of a ConfigMap.
   * @kgen:protobuf 3
   */
  configMapKeyRef?: ConfigMapKeySelector;
  /**
   * Selects a key of a secret in the pod's namespace
   * @kgen:protobuf 4
   */
  secretKeyRef?: SecretKeySelector;
  /**
   * FileKeyRef selects a key of the env file.
   * Requires the EnvFiles feature gate to be enabled.
   * @kgen:protobuf 5
   */
  fileKeyRef?: FileKeySelector;
}

/**
 * LifecycleHandler defines a specific action that should be taken in a lifecycle
 * hook. One and only one of the fields, except TCPSocket must be specified.
 */
export interface LifecycleHandler {
  /**
   * Exec specifies a command to execute in the container.
   * @kgen:protobuf 1
   */
  exec?: ExecAction;
  /**
   * HTTPGet specifies an HTTP GET request to perform.
   * @kgen:protobuf 2
   */
  httpGet?: HTTPGetAction;
  /**
   * Deprecated. TCPSocket is NOT supported as a LifecycleHandler and kept
   * for backward compatibility. There is no validation of this field and
   * lifecycle hooks will fail at runtime when it is specified.
   * @kgen:protobuf 3
   */
  tcpSocket?: TCPSocketAction;
  /**
   * Sleep represents a duration that the container should sleep.
   * @kgen:protobuf 4
   */
  sleep?: SleepAction;
}

/**
 * ExecAction describes a "run in container" action.
 */
export interface ExecAction {
  /**
   * Command is the command line to execute inside the container, the working directory for the
   * command  is root ('/') in the container's filesystem. The command is simply exec'd, it is
   * not run inside a shell, so traditional shell instructions ('|', etc) won't work. To use
   * a shell, you need to explicitly call out to that shell.
   * Exit status of 0 is treated as live/healthy and non-zero is unhealthy.
   * @kgen:listType atomic
   * @kgen:protobuf 1
   */
  command?: string[];
}

/**
 * GRPCAction specifies an action involving a GRPC service.
 */
export interface GRPCAction {
  /**
   * Port number of the gRPC service. Number must be in the range 1 to 65535.
   * @kgen:protobuf 1
   */
  port: int32;
  /**
   * Service is the name of the service to place in the gRPC HealthCheckRequest
   * (see https://github.com/grpc/grpc/blob/master/doc/health-checking.md).
   *
   * If this is not specified, the default behavior is defined by gRPC.
   * @default ""
   * @kgen:protobuf 2 pointer
   */
  service?: string;
}

/**
 * HTTPGetAction describes an action based on HTTP Get requests.
 */
export interface HTTPGetAction {
  /**
   * Path to access on the HTTP server.
   * @default "/"
   * @kgen:protobuf 1
   */
  path?: string;
  /**
   * Name or number of the port to access on the container.
   * Number must be in the range 1 to 65535.
   * Name must be an IANA_SVC_NAME.
   * @kgen:protobuf 2
   */
  port: IntOrString;
  /**
   * Host name to connect to, defaults to the pod IP. You probably want to set
   * "Host" in httpHeaders instead.
   * @kgen:protobuf 3
   */
  host?: string;
  /**
   * Scheme to use for connecting to the host.
   * Defaults to HTTP.
   * @default "HTTP"
   * @kgen:protobuf 4
   */
  scheme?: string;
  /**
   * Custom headers to set in the request. HTTP allows repeated headers.
   * @kgen:listType atomic
   * @kgen:protobuf 5
   */
  httpHeaders?: HTTPHeader[];
}

/**
 * TCPSocketAction describes an action based on opening a socket
 */
export interface TCPSocketAction {
  /**
   * Number or name of the port to access on the container.
   * Number must be in the range 1 to 65535.
   * Name must be an IANA_SVC_NAME.
   * @kgen:protobuf 1
   */
  port: IntOrString;
  /**
   * Optional: Host name to connect to, defaults to the pod IP.
   * @kgen:protobuf 2
   */
  host?: string;
}

/**
 * ResourceClaim references one entry in PodSpec.ResourceClaims.
 */
export interface ResourceClaim {
  /**
   * Name must match the name of one entry in pod.spec.resourceClaims of
   * the Pod where this field is used. It makes that resource available
   * inside a container.
   * @kgen:protobuf 1
   */
  name: string;
  /**
   * Request is the name chosen for a request in the referenced claim.
   * If empty, everything from the claim is made available, otherwise
   * only the result of this request.
   * @kgen:protobuf 2
   */
  request?: string;
}

/**
 * AppArmorProfile defines a pod or container's AppArmor settings.
 */
export interface AppArmorProfile {
  /**
   * type indicates which kind of AppArmor profile will be applied.
   * Valid options are:
   * Localhost - a profile pre-loaded on the node.
   * RuntimeDefault - the container runtime's default profile.
   * Unconfined - no AppArmor enforcement.
   * @kgen:protobuf 1
   */
  type: string;
  /**
   * localhostProfile indicates a profile loaded on the node that should be used.
   * The profile must be preconfigured on the node to work.
   * Must match the loaded name of the profile.
   * Must be set if and only if type is "Localhost".
   * @kgen:protobuf 2 pointer
   */
  localhostProfile?: string;
}

/**
 * Adds and removes POSIX capabilities from running containers.
 */
export interface Capabilities {
  /**
   * Added capabilities
   * @kgen:listType atomic
   * @kgen:protobuf 1
   */
  add?: string[];
  /**
   * Removed capabilities
   * @kgen:listType atomic
   * @kgen:protobuf 2
   */
  drop?: string[];
}

/**
 * SELinuxOptions are the labels to be applied to the container
 */
export interface SELinuxOptions {
  /**
   * User is a SELinux user label that applies to the container.
   * @kgen:protobuf 1
   */
  user?: string;
  /**
   * Role is a SELinux role label that applies to the container.
   * @kgen:protobuf 2
   */
  role?: string;
  /**
   * Type is a SELinux type label that applies to the container.
   * @kgen:protobuf 3
   */
  type?: string;
  /**
   * Level is SELinux level label that applies to the container.
   * @kgen:protobuf 4
   */
  level?: string;
}

/**
 * SeccompProfile defines a pod/container's seccomp profile settings.
 * Only one profile source may be set.
 */
export interface SeccompProfile {
  /**
   * type indicates which kind of seccomp profile will be applied.
   * Valid options are:
   *
   * Localhost - a profile defined in a file on the node should be used.
   * RuntimeDefault - the container runtime default profile should be used.
   * Unconfined - no profile should be applied.
   * @kgen:protobuf 1
   */
  type: string;
  /**
   * localhostProfile indicates a profile defined in a file on the node should be used.
   * The profile must be preconfigured on the node to work.
   * Must be a descending path, relative to the kubelet's configured seccomp profile location.
   * Must be set if type is "Localhost". Must NOT be set for any other type.
   * @kgen:protobuf 2 pointer
   */
  localhostProfile?: string;
}

/**
 * WindowsSecurityContextOptions contain Windows-specific options and credentials.
 */
export interface WindowsSecurityContextOptions {
  /**
   * GMSACredentialSpecName is the name of the GMSA credential spec to use.
   * @kgen:protobuf 1 pointer
   */
  gmsaCredentialSpecName?: string;
  /**
   * GMSACredentialSpec is where the GMSA admission webhook
   * (https://github.com/kubernetes-sigs/windows-gmsa) inlines the contents of the
   * GMSA credential spec named by the GMSACredentialSpecName field.
   * @kgen:protobuf 2 pointer
   */
  gmsaCredentialSpec?: string;
  /**
   * The UserName in Windows to run the entrypoint of the container process.
   * Defaults to the user specified in image metadata if unspecified.
   * May also be set in PodSecurityContext. If set in both SecurityContext and
   * PodSecurityContext, the value specified in SecurityContext takes precedence.
   * @kgen:protobuf 3 pointer
   */
  runAsUserName?: string;
  /**
   * HostProcess determines if a container should be run as a 'Host Process' container.
   * All of a Pod's containers must have the same effective HostProcess value
   * (it is not allowed to have a mix of HostProcess containers and non-HostProcess containers).
   * In addition, if HostProcess is true then HostNetwork must also be set to true.
   * @kgen:protobuf 4 pointer
   */
  hostProcess?: boolean;
}

/**
 * Selects a key from a ConfigMap.
 */
export interface ConfigMapKeySelector {
  /**
   * Name of the referent.
   * This field is effectively required, but due to backwards compatibility is
   * allowed to be empty. Instances of this type with an empty value here are
   * almost certainly wrong.
   * More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
   * @default ""
   * @kgen:protobuf 1.1
   */
  name?: string;
  /**
   * The key to select.
   * @kgen:protobuf 2
   */
  key: string;
  /**
   * Specify whether the ConfigMap or its key must be defined
   * @kgen:protobuf 3 pointer
   */
  optional?: boolean;
}

/**
 * FileKeySelector selects a key of the env file.
 */
export interface FileKeySelector {
  /**
   * The name of the volume mount containing the env file.
   * @kgen:protobuf 1
   */
  volumeName: string;
  /**
   * The path within the volume from which to select the file.
   * Must be relative and may not contain the '..' path or start with '..'.
   * @kgen:protobuf 2
   */
  path: string;
  /**
   * The key within the env file. An invalid key will prevent the pod from starting.
   * The keys defined within a source may consist of any printable ASCII characters except '='.
   * During Alpha stage of the EnvFiles feature gate, the key size is limited to 128 characters.
   * @kgen:protobuf 3
   */
  key: string;
  /**
   * Specify whether the file or its key must be defined. If the file or key
   * does not exist, then the env var is not published.
   * If optional is set to true and the specified key does not exist,
   * the environment variable will not be set in the Pod's containers.
   *
   * If optional is set to false and the specified key does not exist,
   * an error will be returned during Pod creation.
   * @default false
   * @kgen:protobuf 4 pointer
   */
  optional?: boolean;
}

/**
 * SecretKeySelector selects a key of a Secret.
 */
export interface SecretKeySelector {
  /**
   * Name of the referent.
   * This field is effectively required, but due to backwards compatibility is
   * allowed to be empty. Instances of this type with an empty value here are
   * almost certainly wrong.
   * More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
   * @default ""
   * @kgen:protobuf 1.1
   */
  name?: string;
  /**
   * The key of the secret to select from.  Must be a valid secret key.
   * @kgen:protobuf 2
   */
  key: string;
  /**
   * Specify whether the Secret or its key must be defined
   * @kgen:protobuf 3 pointer
   */
  optional?: boolean;
}

/**
 * SleepAction describes a "sleep" action.
 */
export interface SleepAction {
  /**
   * Seconds is the number of seconds to sleep.
   * @kgen:protobuf 1
   */
  seconds: int64;
}

/**
 * HTTPHeader describes a custom header to be used in HTTP probes
 */
export interface HTTPHeader {
  /**
   * The header field name.
   * This will be canonicalized upon output, so case-variant names will be understood as the same header.
   * @kgen:protobuf 1
   */
  name: string;
  /**
   * The header field value
   * @kgen:protobuf 2
   */
  value: string;
}
