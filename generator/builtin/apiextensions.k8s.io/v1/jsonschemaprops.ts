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
  id?: string;
  description?: string;
  type?: string;
  /**
   * format is an OpenAPI v3 format string. Unknown formats are ignored. The following formats are
   * validated: bsonobjectid, uri, email, hostname, ipv4, ipv6, cidr, mac, uuid, uuid3, uuid4,
   * uuid5, isbn, isbn10, isbn13, creditcard, ssn, hexcolor, rgbcolor, byte, password, date,
   * duration, datetime.
   */
  format?: string;
  title?: string;
  /**
   * default is a default value for undefined object fields. Defaulting is a beta feature under
   * the CustomResourceDefaulting feature gate. Defaulting requires spec.preserveUnknownFields to be false.
   */
  default?: JSONValue;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: int64;
  minLength?: int64;
  pattern?: string;
  maxItems?: int64;
  minItems?: int64;
  uniqueItems?: boolean;
  multipleOf?: number;
  /**
   * The values this schema allows (JSON values).
   * @kgen:listType atomic
   */
  enum?: JSONValue[];
  maxProperties?: int64;
  minProperties?: int64;
  /** @kgen:listType atomic */
  required?: string[];
  /**
   * The schema of array items (a JSONSchemaProps).
   */
  items?: JSONSchemaPropsOrArray;
  /**
   * Schemas that all must match (JSONSchemaProps).
   * @kgen:listType atomic
   */
  allOf?: NestedJSONSchemaProps[];
  /**
   * Schemas of which exactly one must match (JSONSchemaProps).
   * @kgen:listType atomic
   */
  oneOf?: NestedJSONSchemaProps[];
  /**
   * Schemas of which at least one must match (JSONSchemaProps).
   * @kgen:listType atomic
   */
  anyOf?: NestedJSONSchemaProps[];
  /**
   * A schema that must not match (a JSONSchemaProps).
   */
  not?: NestedJSONSchemaProps;
  /**
   * The schema of each named field (JSONSchemaProps by field name).
   */
  properties?: Record<string, NestedJSONSchemaProps>;
  /**
   * The schema of the values of a map (a JSONSchemaProps), or a boolean.
   */
  additionalProperties?: JSONSchemaPropsOrBool;
  /**
   * JSONSchemaProps by regular expression of field names.
   */
  patternProperties?: Record<string, NestedJSONSchemaProps>;
  /**
   * JSONSchemaProps or string arrays by field name.
   */
  dependencies?: Record<string, JSONSchemaPropsOrStringArray>;
  /**
   * A JSONSchemaProps, or a boolean.
   */
  additionalItems?: JSONSchemaPropsOrBool;
  /**
   * JSONSchemaProps by name.
   */
  definitions?: Record<string, NestedJSONSchemaProps>;
  externalDocs?: ExternalDocumentation;
  example?: JSONValue;
  nullable?: boolean;
  /**
   * x-kubernetes-preserve-unknown-fields stops the API server decoding step from pruning fields
   * which are not specified in the validation schema. This affects fields recursively, but
   * switches back to normal pruning behaviour if nested properties or additionalProperties are
   * specified in the schema. This can either be true or undefined. False is forbidden.
   */
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  /**
   * x-kubernetes-embedded-resource defines that the value is an embedded Kubernetes
   * runtime.Object, with TypeMeta and ObjectMeta. The type must be object. It is allowed to
   * further restrict the embedded object. kind, apiVersion and metadata are validated
   * automatically. x-kubernetes-preserve-unknown-fields is allowed to be true, but does not have
   * to be if the object is fully specified (up to kind, apiVersion, metadata).
   */
  'x-kubernetes-embedded-resource'?: boolean;
  /**
   * x-kubernetes-int-or-string specifies that this value is either an integer or a string. If
   * this is true, an empty type is allowed and type as child of anyOf is permitted if following
   * one of the following patterns:
   * 1) anyOf: - type: integer - type: string
   * 2) allOf: - anyOf: - type: integer - type: string - ... zero or more
   */
  'x-kubernetes-int-or-string'?: boolean;
  /**
   * x-kubernetes-list-map-keys annotates an array with the x-kubernetes-list-type `map` by
   * specifying the keys used as the index of the map.
   * @kgen:listType atomic
   */
  'x-kubernetes-list-map-keys'?: string[];
  /**
   * x-kubernetes-list-type annotates an array to further describe its topology: atomic, set or map.
   */
  'x-kubernetes-list-type'?: string;
  /**
   * x-kubernetes-map-type annotates an object to further describe its topology: granular or atomic.
   */
  'x-kubernetes-map-type'?: string;
  /**
   * x-kubernetes-validations describes a list of validation rules written in the CEL expression language.
   * @kgen:listType map
   * @kgen:listMapKey rule
   */
  'x-kubernetes-validations'?: ValidationRule[];
}

/** ExternalDocumentation allows referencing an external resource for extended documentation. */
export interface ExternalDocumentation {
  description?: string;
  url?: string;
}

/** ValidationRule describes a validation rule written in the CEL expression language. */
export interface ValidationRule {
  /** rule represents the expression which will be evaluated by CEL. The `self` variable in the CEL expression is bound to the scoped value. */
  rule: string;
  /** message represents the message displayed when validation fails. */
  message?: string;
  /** messageExpression declares a CEL expression that evaluates to the validation failure message that is returned when this rule fails. */
  messageExpression?: string;
  /**
   * reason provides a machine-readable validation failure reason that is returned to the caller
   * when a request fails this validation rule: FieldValueInvalid, FieldValueForbidden,
   * FieldValueRequired or FieldValueDuplicate. Defaults to FieldValueInvalid.
   */
  reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
  /** fieldPath represents the field path returned when the validation fails. */
  fieldPath?: string;
  /** optionalOldSelf is used to opt a transition rule into evaluation even when the object is first created, or if the old object is missing the value. */
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
