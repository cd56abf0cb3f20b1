/**
 * The apimachinery and core schemas kgen kinds and CRDs refer to, with kube-apiserver's names and
 * descriptions (shortened), so `kubectl explain` reads as it does against a real cluster. The
 * generator adds them to compiled group/versions' documents, apiextensions to CRD versions'.
 */
import type { OpenAPIV3 } from 'openapi-types';
import { QUANTITY_PATTERN } from './quantity.js';

export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
export const ref = (name: string): OpenAPIV3.ReferenceObject => ({ $ref: `#/components/schemas/${name}` });
const str = (description: string): OpenAPIV3.SchemaObject => ({ type: 'string', description });
const strMap = (description: string): OpenAPIV3.SchemaObject => ({ type: 'object', additionalProperties: { type: 'string', default: '' }, description });
const refd = (name: string, description: string, extra: Record<string, unknown> = {}): OpenAPIV3.SchemaObject =>
  ({ allOf: [ref(name)], description, ...extra }) as OpenAPIV3.SchemaObject;

export const API_VERSION_DESCRIPTION =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
export const KIND_DESCRIPTION =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
export const METADATA_DESCRIPTION =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
export const LIST_METADATA_DESCRIPTION =
  'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

const time = `${META}.Time`;

/** intstr.IntOrString's and resource.Quantity's component names, as kube-apiserver publishes them. */
export const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
export const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';

export const META_SCHEMAS: Record<string, OpenAPIV3.SchemaObject> = {
  [`${META}.ObjectMeta`]: {
    description: 'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
    type: 'object',
    properties: {
      annotations: strMap('Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata.'),
      creationTimestamp: refd(time, 'CreationTimestamp is a timestamp representing the server time when this object was created. Populated by the system. Read-only.'),
      deletionGracePeriodSeconds: { type: 'integer', format: 'int64', description: 'Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Only set when deletionTimestamp is also set.' },
      deletionTimestamp: refd(time, 'DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. Populated by the system when a graceful deletion is requested. Read-only.'),
      finalizers: { type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge', description: 'Must be empty before the object is deleted from the registry.' } as OpenAPIV3.SchemaObject,
      generateName: str('GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided.'),
      generation: { type: 'integer', format: 'int64', description: 'A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.' },
      labels: strMap('Map of string keys and values that can be used to organize and categorize (scope and select) objects.'),
      managedFields: { type: 'array', items: ref(`${META}.ManagedFieldsEntry`), 'x-kubernetes-list-type': 'atomic', description: 'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.' } as OpenAPIV3.SchemaObject,
      name: str('Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically.'),
      namespace: str('Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the "default" namespace, but "default" is the canonical representation.'),
      ownerReferences: {
        type: 'array',
        items: ref(`${META}.OwnerReference`),
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['uid'],
        'x-kubernetes-patch-merge-key': 'uid',
        'x-kubernetes-patch-strategy': 'merge',
        description: 'List of objects depended by this object. If ALL objects in the list have been deleted, this object will be garbage collected.',
      } as OpenAPIV3.SchemaObject,
      resourceVersion: str('An opaque value that represents the internal version of this object that can be used by clients to determine when objects have changed. Populated by the system. Read-only.'),
      selfLink: str('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
      uid: str('UID is the unique in time and space value for this object. It is typically generated by the server on successful creation of a resource and is not allowed to change on PUT operations. Populated by the system. Read-only.'),
    },
  },
  [`${META}.ListMeta`]: {
    description: 'ListMeta describes metadata that synthetic resources must have, including lists and various status objects.',
    type: 'object',
    properties: {
      continue: str('continue may be set if the user set a limit on the number of items returned, and indicates that the server has more data available.'),
      remainingItemCount: { type: 'integer', format: 'int64', description: 'remainingItemCount is the number of subsequent items in the list which are not included in this list response.' },
      resourceVersion: str("String that identifies the server's internal version of this object that can be used by clients to determine when objects have changed."),
      selfLink: str('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
    },
  },
  [`${META}.ManagedFieldsEntry`]: {
    description: 'ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.',
    type: 'object',
    properties: {
      apiVersion: str('APIVersion defines the version of this resource that this field set applies to.'),
      fieldsType: str('FieldsType is the discriminator for the different fields format and version. There is currently only one possible value: "FieldsV1"'),
      fieldsV1: refd(`${META}.FieldsV1`, 'FieldsV1 holds the first JSON version format as described in the "FieldsV1" type.'),
      manager: str('Manager is an identifier of the workflow managing these fields.'),
      operation: str("Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'."),
      subresource: str('Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource.'),
      time: refd(time, "Time is the timestamp of when the ManagedFields entry was added."),
    },
  },
  [`${META}.FieldsV1`]: { description: 'FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.', type: 'object' },
  [`${META}.OwnerReference`]: {
    description: 'OwnerReference contains enough information to let you identify an owning object. An owning object must be in the same namespace as the dependent, or be cluster-scoped, so there is no namespace field.',
    type: 'object',
    required: ['apiVersion', 'kind', 'name', 'uid'],
    properties: {
      apiVersion: { type: 'string', default: '', description: 'API version of the referent.' },
      blockOwnerDeletion: { type: 'boolean', description: 'If true, AND if the owner has the "foregroundDeletion" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed.' },
      controller: { type: 'boolean', description: 'If true, this reference points to the managing controller.' },
      kind: { type: 'string', default: '', description: 'Kind of the referent.' },
      name: { type: 'string', default: '', description: 'Name of the referent.' },
      uid: { type: 'string', default: '', description: 'UID of the referent.' },
    },
    'x-kubernetes-map-type': 'atomic',
  } as OpenAPIV3.SchemaObject,
  [time]: { description: 'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON. Wrappers are provided for many of the factory methods that the time package offers.', type: 'string', format: 'date-time' },
  [`${META}.Status`]: {
    description: 'Status is a return value for calls that don\'t return other objects.',
    type: 'object',
    properties: {
      apiVersion: str(API_VERSION_DESCRIPTION),
      code: { type: 'integer', format: 'int32', description: 'Suggested HTTP return code for this status, 0 if not set.' },
      details: refd(`${META}.StatusDetails`, 'Extended data associated with the reason.'),
      kind: str(KIND_DESCRIPTION),
      message: str('A human-readable description of the status of this operation.'),
      metadata: refd(`${META}.ListMeta`, LIST_METADATA_DESCRIPTION, { default: {} }),
      reason: str('A machine-readable description of why this operation is in the "Failure" status.'),
      status: str('Status of the operation. One of: "Success" or "Failure".'),
    },
    'x-kubernetes-group-version-kind': [{ group: '', kind: 'Status', version: 'v1' }],
  } as OpenAPIV3.SchemaObject,
  [`${META}.StatusDetails`]: {
    description: 'StatusDetails is a set of additional properties that MAY be set by the server to provide additional information about a response.',
    type: 'object',
    properties: {
      causes: { type: 'array', items: ref(`${META}.StatusCause`), 'x-kubernetes-list-type': 'atomic', description: 'The Causes array includes more details associated with the StatusReason failure.' } as OpenAPIV3.SchemaObject,
      group: str('The group attribute of the resource associated with the status StatusReason.'),
      kind: str('The kind attribute of the resource associated with the status StatusReason.'),
      name: str('The name attribute of the resource associated with the status StatusReason (when there is a single name which can be described).'),
      retryAfterSeconds: { type: 'integer', format: 'int32', description: 'If specified, the time in seconds before the operation should be retried.' },
      uid: str('UID of the resource.'),
    },
  },
  [`${META}.StatusCause`]: {
    description: 'StatusCause provides more information about an api.Status failure, including cases when multiple errors are encountered.',
    type: 'object',
    properties: {
      field: str('The field of the resource that has caused this error, as named by its JSON serialization.'),
      message: str('A human-readable description of the cause of the error.'),
      reason: str('A machine-readable description of the cause of the error.'),
    },
  },
  [`${META}.DeleteOptions`]: {
    description: 'DeleteOptions may be provided when deleting an API object.',
    type: 'object',
    properties: {
      apiVersion: str(API_VERSION_DESCRIPTION),
      dryRun: { type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'atomic', description: 'When present, indicates that modifications should not be persisted. Valid values are: All.' } as OpenAPIV3.SchemaObject,
      gracePeriodSeconds: { type: 'integer', format: 'int64', description: 'The duration in seconds before the object should be deleted.' },
      kind: str(KIND_DESCRIPTION),
      preconditions: refd(`${META}.Preconditions`, 'Must be fulfilled before a deletion is carried out. If not possible, a 409 Conflict status will be returned.'),
      propagationPolicy: str("Whether and how garbage collection will be performed. Acceptable values are: 'Orphan', 'Background', 'Foreground'."),
    },
  },
  [`${META}.Preconditions`]: {
    description: 'Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.',
    type: 'object',
    properties: {
      resourceVersion: str('Specifies the target ResourceVersion'),
      uid: str('Specifies the target UID.'),
    },
  },
  [`${META}.Patch`]: { description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.', type: 'object' },
  [`${META}.Condition`]: {
    description: 'Condition contains details for one aspect of the current state of this API Resource.',
    type: 'object',
    required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'],
    properties: {
      lastTransitionTime: refd(time, 'lastTransitionTime is the last time the condition transitioned from one status to another.'),
      message: { type: 'string', default: '', maxLength: 32768, description: 'message is a human readable message indicating details about the transition. This may be an empty string.' },
      observedGeneration: { type: 'integer', format: 'int64', minimum: 0, description: 'observedGeneration represents the .metadata.generation that the condition was set based upon.' },
      reason: { type: 'string', default: '', maxLength: 1024, minLength: 1, pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$', description: "reason contains a programmatic identifier indicating the reason for the condition's last transition." },
      status: { type: 'string', default: '', enum: ['True', 'False', 'Unknown'], description: 'status of the condition, one of True, False, Unknown.' },
      type: { type: 'string', default: '', maxLength: 316, pattern: '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$', description: 'type of condition in CamelCase or in foo.example.com/CamelCase.' },
    },
  },
  [`${META}.LabelSelector`]: {
    description: 'A label selector is a label query over a set of resources. The result of matchLabels and matchExpressions are ANDed. An empty label selector matches all objects. A null label selector matches no objects.',
    type: 'object',
    properties: {
      matchExpressions: { type: 'array', items: ref(`${META}.LabelSelectorRequirement`), 'x-kubernetes-list-type': 'atomic', description: 'matchExpressions is a list of label selector requirements. The requirements are ANDed.' } as OpenAPIV3.SchemaObject,
      matchLabels: strMap('matchLabels is a map of {key,value} pairs.'),
    },
    'x-kubernetes-map-type': 'atomic',
  } as OpenAPIV3.SchemaObject,
  [`${META}.LabelSelectorRequirement`]: {
    description: 'A label selector requirement is a selector that contains values, a key, and an operator that relates the key and values.',
    type: 'object',
    required: ['key', 'operator'],
    properties: {
      key: { type: 'string', default: '', description: 'key is the label key that the selector applies to.' },
      operator: { type: 'string', default: '', description: "operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists and DoesNotExist." },
      values: { type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'atomic', description: 'values is an array of string values.' } as OpenAPIV3.SchemaObject,
    },
  },
  [`${META}.WatchEvent`]: {
    description: 'Event represents a single event to a watched resource.',
    type: 'object',
    required: ['type', 'object'],
    properties: {
      object: refd('io.k8s.apimachinery.pkg.runtime.RawExtension', 'Object is: * If Type is Added or Modified: the new state of the object. * If Type is Deleted: the state of the object immediately before deletion. * If Type is Error: *Status is recommended; other types may make sense depending on context.'),
      type: { type: 'string', default: '' },
    },
  },
  // Without a `type`, so that kubectl explain names the field after them (`<IntOrString>`,
  // `<map[string]Quantity>`), as against kube. Their shape is kgen's int-or-string (anyOf and the
  // flag, as a CRD writes it) rather than kube's `oneOf` with `format: int-or-string`: every
  // consumer of compiled kinds' schemas reads that shape, and CRDs inline it unchanged.
  [INT_OR_STRING]: {
    description:
      'IntOrString is a type that can hold an int32 or a string.  When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type.  This allows you to have, for example, a JSON field that can accept a name or number.',
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    'x-kubernetes-int-or-string': true,
  } as OpenAPIV3.SchemaObject,
  [QUANTITY]: {
    description:
      'Quantity is a fixed-point representation of a number. It provides convenient marshaling/unmarshaling in JSON and YAML, in addition to String() and AsInt64() accessors.',
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    pattern: QUANTITY_PATTERN,
    'x-kubernetes-int-or-string': true,
  } as OpenAPIV3.SchemaObject,
  'io.k8s.apimachinery.pkg.runtime.RawExtension': { description: 'RawExtension is used to hold extensions in external versions.', type: 'object' },
  'io.k8s.api.core.v1.ObjectReference': {
    description: 'ObjectReference contains enough information to let you inspect or modify the referred object.',
    type: 'object',
    properties: {
      apiVersion: str('API version of the referent.'),
      fieldPath: str('If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement.'),
      kind: str('Kind of the referent.'),
      name: str('Name of the referent.'),
      namespace: str('Namespace of the referent.'),
      resourceVersion: str('Specific resourceVersion to which this reference is made, if any.'),
      uid: str('UID of the referent.'),
    },
    'x-kubernetes-map-type': 'atomic',
  } as OpenAPIV3.SchemaObject,
  'io.k8s.api.autoscaling.v1.Scale': {
    description: 'Scale represents a scaling request for a resource.',
    type: 'object',
    properties: {
      apiVersion: str(API_VERSION_DESCRIPTION),
      kind: str(KIND_DESCRIPTION),
      metadata: refd(`${META}.ObjectMeta`, METADATA_DESCRIPTION, { default: {} }),
      spec: refd('io.k8s.api.autoscaling.v1.ScaleSpec', 'spec defines the behavior of the scale.', { default: {} }),
      status: refd('io.k8s.api.autoscaling.v1.ScaleStatus', 'status is the current status of the scale. Read-only.', { default: {} }),
    },
    'x-kubernetes-group-version-kind': [{ group: 'autoscaling', kind: 'Scale', version: 'v1' }],
  } as OpenAPIV3.SchemaObject,
  'io.k8s.api.autoscaling.v1.ScaleSpec': {
    description: 'ScaleSpec describes the attributes of a scale subresource.',
    type: 'object',
    properties: { replicas: { type: 'integer', format: 'int32', description: 'replicas is the desired number of instances for the scaled object.' } },
  },
  'io.k8s.api.autoscaling.v1.ScaleStatus': {
    description: 'ScaleStatus represents the current status of a scale subresource.',
    type: 'object',
    required: ['replicas'],
    properties: {
      replicas: { type: 'integer', format: 'int32', default: 0, description: 'replicas is the actual number of observed instances of the scaled object.' },
      selector: str('selector is the label query over pods that should match the replicas count.'),
    },
  },
};

/**
 * `own` plus every meta schema reachable from it or named in `extra`, through `$ref`s
 * (`#/components/schemas/<name>`), in the order found. Used for each group/version's OpenAPI
 * document and, at run time, for each CRD version's.
 */
export function withMetaSchemas<T>(own: Record<string, T>, extra: Iterable<string> = []): Record<string, T | OpenAPIV3.SchemaObject> {
  const all: Record<string, T | OpenAPIV3.SchemaObject> = { ...own };
  const queue: string[] = [];
  const want = (name: string) => {
    if (!(name in all) && name in META_SCHEMAS) {
      all[name] = META_SCHEMAS[name]!;
      queue.push(name);
    }
  };
  refsIn(own, want);
  for (const name of extra) want(name);
  while (queue.length) {
    const name = queue.pop()!;
    for (const ref of metaRefs(all[name] as OpenAPIV3.SchemaObject)) want(ref);
  }
  return all;
}

/** Calls `found` with the name of every `$ref` in `value`, in document order. */
function refsIn(value: unknown, found: (name: string) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) refsIn(item, found);
  } else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const k in o) {
      if (!Object.hasOwn(o, k)) continue;
      const v = o[k];
      if (k === '$ref' && typeof v === 'string') found(v.replace('#/components/schemas/', ''));
      else refsIn(v, found);
    }
  }
}

/** The `$ref` names in a meta schema, in document order: found once per schema object (they are constant). */
const metaRefNames = new WeakMap<object, string[]>();

function metaRefs(schema: OpenAPIV3.SchemaObject): string[] {
  let refs = metaRefNames.get(schema);
  if (!refs) {
    const found: string[] = [];
    refsIn(schema, (ref) => found.push(ref));
    metaRefNames.set(schema, (refs = found));
  }
  return refs;
}
