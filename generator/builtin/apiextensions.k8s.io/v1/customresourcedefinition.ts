// Built-in: apiextensions.k8s.io/v1 CustomResourceDefinition (k8s.io/apiextensions-apiserver
// pkg/apis/apiextensions/v1), written in the kgen input language and compiled by kgen like any
// user API. kgen's extensions server (runtime/apiextensions) serves the resources they define.
import type { int32, int64, Time } from 'kgen';
import type { CustomResourceConversion } from './conversion.js';
import type { JSONSchemaProps } from './jsonschemaprops.js';

/**
 * CustomResourceDefinition represents a resource that should be exposed on the API server. Its
 * name MUST be in the format <.spec.name>.<.spec.group>.
 * @kgen:resource scope=Cluster shortNames=crd,crds categories=api-extensions
 * @kgen:subresource status
 * @kgen:printcolumn name="Created At" type=string jsonPath=.metadata.creationTimestamp
 */
export interface CustomResourceDefinition {
  /**
   * spec describes how the user wants the resources to appear
   * @kgen:protobuf 2
   */
  spec: CustomResourceDefinitionSpec;
  /**
   * status indicates the actual state of the CustomResourceDefinition
   * @kgen:protobuf 3
   */
  status?: CustomResourceDefinitionStatus;
}

/** CustomResourceDefinitionSpec describes how a user wants their resource to appear */
export interface CustomResourceDefinitionSpec {
  /**
   * group is the API group of the defined custom resource. The custom resources are served under
   * `/apis/<group>/...`. Must match the name of the CustomResourceDefinition (in the form
   * `<names.plural>.<group>`).
   * @kgen:protobuf 1
   */
  group: string;
  /**
   * names specify the resource and kind names for the custom resource.
   * @kgen:protobuf 3
   */
  names: CustomResourceDefinitionNames;
  /**
   * scope indicates whether the defined custom resource is cluster- or namespace-scoped. Allowed
   * values are `Cluster` and `Namespaced`.
   * @kgen:protobuf 4
   */
  scope: string;
  /**
   * versions is the list of all API versions of the defined custom resource. Version names are
   * used to compute the order in which served versions are listed in API discovery.
   * @kgen:listType atomic
   * @kgen:protobuf 7
   */
  versions: CustomResourceDefinitionVersion[];
  /**
   * conversion defines conversion settings for the CRD.
   * @default {"strategy":"None"}
   * @kgen:protobuf 9
   */
  conversion?: CustomResourceConversion;
  /**
   * preserveUnknownFields indicates that object fields which are not specified in the OpenAPI
   * schema should be preserved when persisting to storage. apiVersion, kind, metadata and known
   * fields inside metadata are always preserved. This field is deprecated in favor of setting
   * `x-preserve-unknown-fields` to true in `spec.versions[*].schema.openAPIV3Schema`.
   * @kgen:protobuf 10
   */
  preserveUnknownFields?: boolean;
}

/** CustomResourceDefinitionNames indicates the names to serve this CustomResourceDefinition */
export interface CustomResourceDefinitionNames {
  /**
   * plural is the plural name of the resource to serve. The custom resources are served under
   * `/apis/<group>/<version>/.../<plural>`. Must match the name of the CustomResourceDefinition
   * (in the form `<names.plural>.<group>`). Must be all lowercase.
   * @kgen:protobuf 1
   */
  plural: string;
  /**
   * singular is the singular name of the resource. It must be all lowercase. Defaults to lowercased `kind`.
   * @kgen:protobuf 2
   */
  singular?: string;
  /**
   * shortNames are short names for the resource, exposed in API discovery documents, and used by
   * clients to support invocations like `kubectl get <shortname>`. It must be all lowercase.
   * @kgen:listType atomic
   * @kgen:protobuf 3
   */
  shortNames?: string[];
  /**
   * kind is the serialized kind of the resource. It is normally CamelCase and singular. Custom
   * resource instances will use this value as the `kind` attribute in API calls.
   * @kgen:protobuf 4
   */
  kind: string;
  /**
   * listKind is the serialized kind of the list for this resource. Defaults to "`kind`List".
   * @kgen:protobuf 5
   */
  listKind?: string;
  /**
   * categories is a list of grouped resources this custom resource belongs to (e.g. 'all'). This
   * is published in API discovery documents, and used by clients to support invocations like
   * `kubectl get all`.
   * @kgen:listType atomic
   * @kgen:protobuf 6
   */
  categories?: string[];
}

/** CustomResourceDefinitionVersion describes a version for CRD. */
export interface CustomResourceDefinitionVersion {
  /**
   * name is the version name, e.g. “v1”, “v2beta1”, etc. The custom resources are served under
   * this version at `/apis/<group>/<version>/...` if `served` is true.
   * @kgen:protobuf 1
   */
  name: string;
  /**
   * served is a flag enabling/disabling this version from being served via REST APIs
   * @kgen:protobuf 2
   */
  served: boolean;
  /**
   * storage indicates this version should be used when persisting custom resources to storage. There must be exactly one version with storage=true.
   * @kgen:protobuf 3
   */
  storage: boolean;
  /**
   * deprecated indicates this version of the custom resource API is deprecated. When set to true,
   * API requests to this version receive a warning header in the server response. Defaults to false.
   * @kgen:protobuf 7
   */
  deprecated?: boolean;
  /**
   * deprecationWarning overrides the default warning returned to API clients. May only be set
   * when `deprecated` is true. The default warning indicates this version is deprecated and
   * recommends use of the newest served version of equal or greater stability, if one exists.
   * @kgen:protobuf 8
   */
  deprecationWarning?: string;
  /**
   * schema describes the schema used for validation, pruning, and defaulting of this version of the custom resource.
   * @kgen:protobuf 4
   */
  schema?: CustomResourceValidation;
  /**
   * subresources specify what subresources this version of the defined custom resource have.
   * @kgen:protobuf 5
   */
  subresources?: CustomResourceSubresources;
  /**
   * additionalPrinterColumns specifies additional columns returned in Table output. If no
   * columns are specified, a single column displaying the age of the custom resource is used.
   * @kgen:listType atomic
   * @kgen:protobuf 6
   */
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  /**
   * selectableFields specifies paths to fields that may be used as field selectors. A maximum of
   * 8 selectable fields are allowed.
   * @kgen:listType atomic
   * @kgen:protobuf 9
   */
  selectableFields?: SelectableField[];
}

/** SelectableField specifies the JSON path of a field that may be used with field selectors. */
export interface SelectableField {
  /**
   * jsonPath is a simple JSON path which is evaluated against each custom resource to produce a
   * field selector value. Must point to a field of type string, boolean or integer.
   * @kgen:protobuf 1
   */
  jsonPath: string;
}

/** CustomResourceColumnDefinition specifies a column for server side printing. */
export interface CustomResourceColumnDefinition {
  /**
   * name is a human readable name for the column.
   * @kgen:protobuf 1
   */
  name: string;
  /**
   * type is an OpenAPI type definition for this column: integer, number, string, boolean or
   * date. See https://github.com/OAI/OpenAPI-Specification/blob/master/versions/2.0.md#data-types for details.
   * @kgen:protobuf 2
   */
  type: string;
  /**
   * format is an optional OpenAPI type definition for this column. The 'name' format is applied to the primary identifier column to assist in clients identifying column is the resource name.
   * @kgen:protobuf 3
   */
  format?: string;
  /**
   * description is a human readable description of this column.
   * @kgen:protobuf 4
   */
  description?: string;
  /**
   * priority is an integer defining the relative importance of this column compared to others.
   * Lower numbers are considered higher priority. Columns that may be omitted in limited space
   * scenarios should be given a priority greater than 0.
   * @kgen:protobuf 5
   */
  priority?: int32;
  /**
   * jsonPath is a simple JSON path (i.e. with array notation) which is evaluated against each custom resource to produce the value for this column.
   * @kgen:protobuf 6
   */
  jsonPath: string;
}

/** CustomResourceValidation is a list of validation methods for CustomResources. */
export interface CustomResourceValidation {
  /**
   * openAPIV3Schema is the OpenAPI v3 schema to use for validation and pruning.
   * @kgen:protobuf 1
   */
  openAPIV3Schema?: JSONSchemaProps;
}

/** CustomResourceSubresources defines the status and scale subresources for CustomResources. */
export interface CustomResourceSubresources {
  /**
   * status indicates the custom resource should serve a `/status` subresource. When enabled:
   * 1. requests to the custom resource primary endpoint ignore changes to the `status` stanza of the object.
   * 2. requests to the custom resource `/status` subresource ignore changes to anything other than the `status` stanza of the object.
   * @kgen:protobuf 1
   */
  status?: CustomResourceSubresourceStatus;
  /**
   * scale indicates the custom resource should serve a `/scale` subresource that returns an `autoscaling/v1` Scale object.
   * @kgen:protobuf 2
   */
  scale?: CustomResourceSubresourceScale;
}

/**
 * CustomResourceSubresourceStatus defines how to serve the status subresource for CustomResources.
 * Status is represented by the `.status` JSON path inside of a CustomResource. When set,
 * * exposes a /status subresource for the custom resource
 * * PUT requests to the /status subresource take a custom resource object, and ignore changes to anything except the status stanza
 * * PUT/POST/PATCH requests to the custom resource ignore changes to the status stanza
 */
export interface CustomResourceSubresourceStatus {}

/** CustomResourceSubresourceScale defines how to serve the scale subresource for CustomResources. */
export interface CustomResourceSubresourceScale {
  /**
   * specReplicasPath defines the JSON path inside of a custom resource that corresponds to
   * Scale `spec.replicas`. Only JSON paths without the array notation are allowed. Must be a JSON
   * Path under `.spec`.
   * @kgen:protobuf 1
   */
  specReplicasPath: string;
  /**
   * statusReplicasPath defines the JSON path inside of a custom resource that corresponds to
   * Scale `status.replicas`. Only JSON paths without the array notation are allowed. Must be a
   * JSON Path under `.status`.
   * @kgen:protobuf 2
   */
  statusReplicasPath: string;
  /**
   * labelSelectorPath defines the JSON path inside of a custom resource that corresponds to
   * Scale `status.selector`. Only JSON paths without the array notation are allowed. Must be a
   * JSON Path under `.status` or `.spec`. Must be set to work with HorizontalPodAutoscaler.
   * @kgen:protobuf 3
   */
  labelSelectorPath?: string;
}

/** CustomResourceDefinitionStatus indicates the state of the CustomResourceDefinition */
export interface CustomResourceDefinitionStatus {
  /**
   * conditions indicate state for particular aspects of a CustomResourceDefinition
   * @kgen:listType map
   * @kgen:listMapKey type
   * @kgen:protobuf 1
   */
  conditions?: CustomResourceDefinitionCondition[];
  /**
   * acceptedNames are the names that are actually being used to serve discovery. They may be different than the names in spec.
   * @kgen:protobuf 2
   */
  acceptedNames?: CustomResourceDefinitionNames;
  /**
   * storedVersions lists all versions of CustomResources that were ever persisted. Tracking
   * these versions allows a migration path for stored versions in etcd. The field is mutable so
   * a migration controller can finish a migration to another version (ensuring no old objects
   * are left in storage), and then remove the rest of the versions from this list. Versions may
   * not be removed from `spec.versions` while they exist in this list.
   * @kgen:listType atomic
   * @kgen:protobuf 3
   */
  storedVersions?: string[];
}

/** CustomResourceDefinitionCondition contains details for the current condition of this pod. */
export interface CustomResourceDefinitionCondition {
  /**
   * type is the type of the condition. Types include Established, NamesAccepted and Terminating.
   * @kgen:protobuf 1
   */
  type: string;
  /**
   * status is the status of the condition. Can be True, False, Unknown.
   * @kgen:protobuf 2
   */
  status: string;
  /**
   * lastTransitionTime last time the condition transitioned from one status to another.
   * @kgen:protobuf 3
   */
  lastTransitionTime?: Time;
  /**
   * reason is a unique, one-word, CamelCase reason for the condition's last transition.
   * @kgen:protobuf 4
   */
  reason?: string;
  /**
   * message is a human-readable message indicating details about last transition.
   * @kgen:protobuf 5
   */
  message?: string;
  /**
   * observedGeneration represents the .metadata.generation that the condition was set based upon.
   * For instance, if .metadata.generation is currently 12, but the .status.conditions[x].observedGeneration
   * is 9, the condition is out of date with respect to the current state of the instance.
   * @kgen:protobuf 6
   */
  observedGeneration?: int64;
}
