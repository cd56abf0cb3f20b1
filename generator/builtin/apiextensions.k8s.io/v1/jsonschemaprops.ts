// Built-in: JSONSchemaProps, the schema of a CustomResourceDefinition version
// (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1). The real type is recursive; a
// structural schema cannot be, so the fields that hold nested schemas (properties, items,
// allOf, …) and arbitrary JSON values (default, enum, example) are kept as given
// (x-kubernetes-preserve-unknown-fields) and checked by the extensions server's CRD validation
// (runtime/apiextensions/validation.ts), as kube-apiserver checks them.
import type { int64 } from 'kgen';

/** JSONSchemaProps is a JSON-Schema following Specification Draft 4 (http://json-schema.org/). */
export interface JSONSchemaProps {
  // `$schema` and `$ref` are left out: a CRD may not use them (kube answers "$ref is not
  // supported"), and a property named `$ref` reads as a reference to OpenAPI tools.
  /** @kgen:protobuf 1 */
  id?: string;
  /** @kgen:protobuf 4 */
  description?: string;
  /** @kgen:protobuf 5 */
  type?: string;
  /**
   * format is an OpenAPI v3 format string. Unknown formats are ignored. The following formats are
   * validated: bsonobjectid, uri, email, hostname, ipv4, ipv6, cidr, mac, uuid, uuid3, uuid4,
   * uuid5, isbn, isbn10, isbn13, creditcard, ssn, hexcolor, rgbcolor, byte, password, date,
   * duration, datetime.
   * @kgen:protobuf 6
   */
  format?: string;
  /** @kgen:protobuf 7 */
  title?: string;
  /**
   * default is a default value for undefined object fields. Defaulting is a beta feature under
   * the CustomResourceDefaulting feature gate. Defaulting requires spec.preserveUnknownFields to be false.
   * @kgen:protobuf 8
   */
  default?: JSONValue;
  /** @kgen:protobuf 9 */
  maximum?: number;
  /** @kgen:protobuf 10 */
  exclusiveMaximum?: boolean;
  /** @kgen:protobuf 11 */
  minimum?: number;
  /** @kgen:protobuf 12 */
  exclusiveMinimum?: boolean;
  /** @kgen:protobuf 13 */
  maxLength?: int64;
  /** @kgen:protobuf 14 */
  minLength?: int64;
  /** @kgen:protobuf 15 */
  pattern?: string;
  /** @kgen:protobuf 16 */
  maxItems?: int64;
  /** @kgen:protobuf 17 */
  minItems?: int64;
  /** @kgen:protobuf 18 */
  uniqueItems?: boolean;
  /** @kgen:protobuf 19 */
  multipleOf?: number;
  /**
   * The values this schema allows (JSON values).
   * @kgen:listType atomic
   * @kgen:protobuf 20
   */
  enum?: JSONValue[];
  /** @kgen:protobuf 21 */
  maxProperties?: int64;
  /** @kgen:protobuf 22 */
  minProperties?: int64;
  /**
   * @kgen:listType atomic
   * @kgen:protobuf 23
   */
  required?: string[];
  /**
   * The schema of array items (a JSONSchemaProps).
   * @kgen:protobuf 24
   */
  items?: JSONSchemaPropsOrArray;
  /**
   * Schemas that all must match (JSONSchemaProps).
   * @kgen:listType atomic
   * @kgen:protobuf 25
   */
  allOf?: NestedJSONSchemaProps[];
  /**
   * Schemas of which exactly one must match (JSONSchemaProps).
   * @kgen:listType atomic
   * @kgen:protobuf 26
   */
  oneOf?: NestedJSONSchemaProps[];
  /**
   * Schemas of which at least one must match (JSONSchemaProps).
   * @kgen:listType atomic
   * @kgen:protobuf 27
   */
  anyOf?: NestedJSONSchemaProps[];
  /**
   * A schema that must not match (a JSONSchemaProps).
   * @kgen:protobuf 28
   */
  not?: NestedJSONSchemaProps;
  /**
   * The schema of each named field (JSONSchemaProps by field name).
   * @kgen:protobuf 29
   */
  properties?: Record<string, NestedJSONSchemaProps>;
  /**
   * The schema of the values of a map (a JSONSchemaProps), or a boolean.
   * @kgen:protobuf 30
   */
  additionalProperties?: JSONSchemaPropsOrBool;
  /**
   * JSONSchemaProps by regular expression of field names.
   * @kgen:protobuf 31
   */
  patternProperties?: Record<string, NestedJSONSchemaProps>;
  /**
   * JSONSchemaProps or string arrays by field name.
   * @kgen:protobuf 32
   */
  dependencies?: Record<string, JSONSchemaPropsOrStringArray>;
  /**
   * A JSONSchemaProps, or a boolean.
   * @kgen:protobuf 33
   */
  additionalItems?: JSONSchemaPropsOrBool;
  /**
   * JSONSchemaProps by name.
   * @kgen:protobuf 34
   */
  definitions?: Record<string, NestedJSONSchemaProps>;
  /** @kgen:protobuf 35 */
  externalDocs?: ExternalDocumentation;
  /** @kgen:protobuf 36 */
  example?: JSONValue;
  /** @kgen:protobuf 37 */
  nullable?: boolean;
  /**
   * x-kubernetes-preserve-unknown-fields stops the API server decoding step from pruning fields
   * which are not specified in the validation schema. This affects fields recursively, but
   * switches back to normal pruning behaviour if nested properties or additionalProperties are
   * specified in the schema. This can either be true or undefined. False is forbidden.
   * @kgen:protobuf 38
   */
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  /**
   * x-kubernetes-embedded-resource defines that the value is an embedded Kubernetes
   * runtime.Object, with TypeMeta and ObjectMeta. The type must be object. It is allowed to
   * further restrict the embedded object. kind, apiVersion and metadata are validated
   * automatically. x-kubernetes-preserve-unknown-fields is allowed to be true, but does not have
   * to be if the object is fully specified (up to kind, apiVersion, metadata).
   * @kgen:protobuf 39
   */
  'x-kubernetes-embedded-resource'?: boolean;
  /**
   * x-kubernetes-int-or-string specifies that this value is either an integer or a string. If
   * this is true, an empty type is allowed and type as child of anyOf is permitted if following
   * one of the following patterns:
   * 1) anyOf: - type: integer - type: string
   * 2) allOf: - anyOf: - type: integer - type: string - ... zero or more
   * @kgen:protobuf 40
   */
  'x-kubernetes-int-or-string'?: boolean;
  /**
   * x-kubernetes-list-map-keys annotates an array with the x-kubernetes-list-type `map` by
   * specifying the keys used as the index of the map.
   * @kgen:listType atomic
   * @kgen:protobuf 41
   */
  'x-kubernetes-list-map-keys'?: string[];
  /**
   * x-kubernetes-list-type annotates an array to further describe its topology: atomic, set or map.
   * @kgen:protobuf 42
   */
  'x-kubernetes-list-type'?: string;
  /**
   * x-kubernetes-map-type annotates an object to further describe its topology: granular or atomic.
   * @kgen:protobuf 43
   */
  'x-kubernetes-map-type'?: string;
  /**
   * x-kubernetes-validations describes a list of validation rules written in the CEL expression language.
   * @kgen:listType map
   * @kgen:listMapKey rule
   * @kgen:protobuf 44
   */
  'x-kubernetes-validations'?: ValidationRule[];
}

/** ExternalDocumentation allows referencing an external resource for extended documentation. */
export interface ExternalDocumentation {
  /** @kgen:protobuf 1 */
  description?: string;
  /** @kgen:protobuf 2 */
  url?: string;
}

/** ValidationRule describes a validation rule written in the CEL expression language. */
export interface ValidationRule {
  /**
   * rule represents the expression which will be evaluated by CEL. The `self` variable in the CEL expression is bound to the scoped value.
   * @kgen:protobuf 1
   */
  rule: string;
  /**
   * message represents the message displayed when validation fails.
   * @kgen:protobuf 2
   */
  message?: string;
  /**
   * messageExpression declares a CEL expression that evaluates to the validation failure message that is returned when this rule fails.
   * @kgen:protobuf 3
   */
  messageExpression?: string;
  /**
   * reason provides a machine-readable validation failure reason that is returned to the caller
   * when a request fails this validation rule: FieldValueInvalid, FieldValueForbidden,
   * FieldValueRequired or FieldValueDuplicate. Defaults to FieldValueInvalid.
   * @kgen:protobuf 4
   */
  reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
  /**
   * fieldPath represents the field path returned when the validation fails.
   * @kgen:protobuf 5
   */
  fieldPath?: string;
  /**
   * optionalOldSelf is used to opt a transition rule into evaluation even when the object is first created, or if the old object is missing the value.
   * @kgen:protobuf 6
   */
  optionalOldSelf?: boolean;
}

/**
 * JSONValue represents any valid JSON value (kube's apiextensions v1 JSON): kept as given.
 * @kgen:preserveUnknownFields
 */
export type JSONValue = unknown;

/**
 * A JSONSchemaProps nested in another: kept as given, since a structural schema cannot recurse;
 * the extensions server checks it when a CustomResourceDefinition is written.
 * @kgen:preserveUnknownFields
 */
export type NestedJSONSchemaProps = unknown;

/**
 * JSONSchemaPropsOrArray represents a value that can either be a JSONSchemaProps or an array of
 * JSONSchemaProps. Mainly here for serialization purposes.
 * @kgen:preserveUnknownFields
 */
export type JSONSchemaPropsOrArray = unknown;

/**
 * JSONSchemaPropsOrBool represents JSONSchemaProps or a boolean value. Defaults to true for the boolean property.
 * @kgen:preserveUnknownFields
 */
export type JSONSchemaPropsOrBool = unknown;

/**
 * JSONSchemaPropsOrStringArray represents a JSONSchemaProps or a string array.
 * @kgen:preserveUnknownFields
 */
export type JSONSchemaPropsOrStringArray = unknown;
