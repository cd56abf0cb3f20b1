/**
 * The API model: plain, serialisable data produced by the parser and consumed by the checker and
 * every emitter. No ts-morph types appear here. Every node carries its source location.
 */

export interface SourceLocation {
  file: string;
  line: number;
  col: number;
}

export interface ApiModel {
  /** Sorted: the core group ("") first, then by name. */
  groups: ApiGroup[];
  /**
   * The users' conversion functions: each `<group>/<version>/conversion.ts` (not an API types
   * file), sorted by path. See generator/check/conversion.ts.
   */
  conversionFiles?: ConversionFile[];
}

/** An exported function of a conversion.ts, such as `Convert_v1beta1_WidgetSpec_To_v1_WidgetSpec`. */
export interface ConversionFunction {
  name: string;
  loc: SourceLocation;
  /** Declared with a third parameter: the generated code passes its ConversionScope. */
  takesScope?: boolean;
}

export interface ConversionFile {
  path: string;
  group: string;
  version: string;
  /** Exported functions (and exported consts) whose name starts with `Convert_`, in source order. */
  functions: ConversionFunction[];
}

export interface ApiGroup {
  /** DNS name such as `widgets.example.com`, or "" for the legacy core group (folder `core`). */
  name: string;
  /** Sorted by Kubernetes version priority, preferred first. */
  versions: ApiVersion[];
}

export interface ApiVersion {
  group: string;
  name: string;
  /** Sorted by kind name. */
  kinds: Kind[];
  /** Named types (interfaces and aliases) reachable from the kinds, sorted by name. */
  types: NamedType[];
  loc: SourceLocation;
}

export type Scope = 'Namespaced' | 'Cluster';

export interface PrintColumn {
  name: string;
  type: 'integer' | 'number' | 'string' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  format?: string;
  priority: number;
  loc: SourceLocation;
}

/**
 * `@kgen:subresource custom name=logs verbs=get`: a subresource served by a user handler
 * (`kgen serve --handlers`), as kube's pods/log (get, streamed) or pods/exec (connect).
 */
export interface CustomSubresource {
  name: string;
  verbs: ('get' | 'connect')[];
  loc: SourceLocation;
}

export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
  loc: SourceLocation;
}

export interface SelectableField {
  jsonPath: string;
  loc: SourceLocation;
}

export interface Kind {
  /** The interface name, e.g. `Widget`. */
  name: string;
  group: string;
  version: string;
  plural: string;
  singular: string;
  scope: Scope;
  shortNames: string[];
  categories: string[];
  description?: string;
  subresources: { status?: SourceLocation; scale?: ScaleSubresource; custom?: CustomSubresource[] };
  printColumns: PrintColumn[];
  selectableFields: SelectableField[];
  storageVersion: boolean;
  /** Set by @kgen:unservedversion: not served (no routes, discovery or OpenAPI), still converted and stored. */
  unserved?: SourceLocation;
  /** Set by @kgen:deprecatedversion: every request to this version gets a `Warning` header. */
  deprecated?: { warning?: string; loc: SourceLocation };
  /**
   * Set by @kgen:virtual: create-only and never stored. The server answers each POST with a
   * computed object (kube's rest.Creater), as SelfSubjectAccessReview or TokenReview.
   */
  virtual?: SourceLocation;
  /** Set by @kgen:allowBreakingChange on the resource: accepts kind-level breaking changes (generator/evolve). */
  allowBreakingChange?: AllowBreakingChange;
  /** The kind's own fields, without apiVersion, kind and metadata (always implied). */
  schema: ObjectSchema;
  loc: SourceLocation;
}

export interface NamedType {
  name: string;
  /** Set when the type is declared outside this version (another version, group or a shared folder). */
  home?: TypeHome;
  description?: string;
  schema: Schema;
  loc: SourceLocation;
}

/** Validation and documentation that any schema node may carry (from JSDoc tags). */
export interface SchemaAnnotations {
  description?: string;
  nullable?: boolean;
  default?: unknown;
  example?: unknown;
  deprecated?: boolean;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  listType?: 'atomic' | 'set' | 'map';
  listMapKeys?: string[];
  preserveUnknownFields?: boolean;
  /**
   * Set by @kgen:protobuf on a field: its number in kube's generated.proto message, `N`, or
   * `N.M` for a field Go embeds (`json:",inline"`): field M of the message held in field N;
   * then its wire words, `pointer` (a Go pointer scalar: a decoded zero was set) and `microtime`
   * (a metav1.MicroTime: microsecond precision). `text` is all of it, e.g. `3 pointer`.
   */
  protobuf?: { text: string; loc: SourceLocation };
  /** Set by @kgen:allowBreakingChange: accepts the breaking changes found at this node (generator/evolve). */
  allowBreakingChange?: AllowBreakingChange;
  /** CEL rules from @kgen:validation and @kgen:immutable (x-kubernetes-validations), in source order. */
  validations?: ValidationRule[];
}

/** A deliberate breaking change, accepted with a reason (`@kgen:allowBreakingChange reason="…"`). */
export interface AllowBreakingChange {
  reason: string;
  loc: SourceLocation;
}

/** One x-kubernetes-validations entry (apiextensions v1 ValidationRule) and the marker it came from. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
  fieldPath?: string;
  loc: SourceLocation;
}

export type WellKnownName =
  | 'ObjectMeta'
  | 'Condition'
  | 'LabelSelector'
  | 'ObjectReference';

export type Schema =
  | StringSchema
  | IntegerSchema
  | NumberSchema
  | BooleanSchema
  | ArraySchema
  | MapSchema
  | ObjectSchema
  | RefSchema
  | WellKnownSchema
  | IntOrStringSchema
  | QuantitySchema
  | TimeSchema
  | DurationSchema
  | UnknownSchema;

interface SchemaBase extends SchemaAnnotations {
  loc: SourceLocation;
}

export interface StringSchema extends SchemaBase {
  type: 'string';
  enum?: string[];
}
/** `enum` from a numeric TypeScript enum or a union of integer literals (`1 | 2 | 3`). */
export interface IntegerSchema extends SchemaBase {
  type: 'integer';
  enum?: number[];
}
/** `enum` from a union of numeric literals of which one is not an integer (`0.5 | 1`). */
export interface NumberSchema extends SchemaBase {
  type: 'number';
  enum?: number[];
}
/** `enum` from a boolean literal (`true`, `false`). */
export interface BooleanSchema extends SchemaBase {
  type: 'boolean';
  enum?: boolean[];
}
export interface ArraySchema extends SchemaBase {
  type: 'array';
  items: Schema;
}
export interface MapSchema extends SchemaBase {
  type: 'map';
  values: Schema;
}
export interface Property {
  name: string;
  optional: boolean;
  schema: Schema;
  loc: SourceLocation;
}
export interface ObjectSchema extends SchemaBase {
  type: 'object';
  /** In declaration order. */
  properties: Property[];
  /**
   * Set when the object is a discriminated union (`HttpTarget | TcpTarget` sharing a literal
   * `type` field): `properties` then hold every member's fields, the discriminator required and
   * the rest optional, and `validations` start with the rules that enforce the members.
   */
  union?: DiscriminatedUnion;
}

export interface DiscriminatedUnion {
  /** The common string-literal field, e.g. `type`. */
  discriminator: string;
  /** In declaration order: each member's type (a ref, or an object for an inline type literal) and its tag values. */
  members: { tags: string[]; schema: RefSchema | ObjectSchema }[];
}

/**
 * Where a named type is declared: a group/version folder, or a shared folder under apis/ (the
 * folder's path relative to the apis folder, `/`-separated, e.g. `common` or `common/net`).
 */
export type TypeHome = { group: string; version: string } | { shared: string };

/** A named type: of the same version, or (with `home`) declared elsewhere and imported. */
export interface RefSchema extends SchemaBase {
  type: 'ref';
  name: string;
  /** Where the type is declared when that is not the version that uses it. */
  home?: TypeHome;
}
/** A Kubernetes type imported from 'kgen' (ObjectMeta, Condition, …). */
export interface WellKnownSchema extends SchemaBase {
  type: 'wellKnown';
  name: WellKnownName;
}
export interface IntOrStringSchema extends SchemaBase {
  type: 'intOrString';
}
export interface QuantitySchema extends SchemaBase {
  type: 'quantity';
}
export interface TimeSchema extends SchemaBase {
  type: 'time';
}
export interface DurationSchema extends SchemaBase {
  type: 'duration';
}
/** `unknown` or `Record<string, unknown>` under @kgen:preserveUnknownFields. */
export interface UnknownSchema extends SchemaBase {
  type: 'unknown';
}

export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
