/**
 * Compiles OpenAPI v3 component schemas into SchemaNode graphs. Each named schema compiles once
 * (cached, so recursive types terminate); `$ref` and `allOf` (kube's `allOf: [{$ref}]` beside
 * `description`/`default`) are merged into one node after every reachable node exists, because a
 * recursive type refers to itself before it is complete.
 */
import type { OpenAPIV3 } from 'openapi-types';
import { emptyNode, type JsonKind, type SchemaNode } from './node.js';
import { SUPPORTED_FORMATS, normalizeFormat } from './formats.js';
import { readValidationRules } from './cel-rules.js';
import type { ProtobufFieldNumber } from '../api/resource.js';

export type SchemaInput = OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject;

/**
 * The Go types' fields by schema name and JSON field name, as a built-in kind's protobuf table
 * gives them (ResourceDefinition.protobuf): an entry `{ pointer: true }` is a Go pointer, any
 * other entry a plain field (see SchemaNode.zeroIsUnset).
 */
export type GoFields = Readonly<Record<string, Readonly<Record<string, ProtobufFieldNumber>>>>;
type RawSchema = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';
const JSON_KINDS = new Set<string>(['string', 'integer', 'number', 'boolean', 'array', 'object']);

export class SchemaCompiler {
  private readonly byName = new Map<string, SchemaNode>();
  /** Nodes whose $ref/allOf parts still have to be merged in, with those parts. */
  private readonly pendingParts = new Map<SchemaNode, SchemaNode[]>();
  /** Every node this compiler created, for the post-compile passes. */
  readonly nodes: SchemaNode[] = [];

  constructor(
    private readonly schemas: Record<string, SchemaInput>,
    private readonly goFields?: GoFields,
  ) {}

  /** Compiles a named schema (and everything it reaches) and finishes every pending merge. */
  compileNamed(name: string): SchemaNode {
    const node = this.resolve(name);
    this.finish();
    return node;
  }

  private resolve(name: string): SchemaNode {
    const cached = this.byName.get(name);
    if (cached) return cached;
    const raw = this.schemas[name];
    if (raw === undefined || raw === null || typeof raw !== 'object') {
      throw new Error(`schema ${JSON.stringify(name)} is not defined in components.schemas`);
    }
    const node = this.newNode();
    this.byName.set(name, node);
    this.fill(node, raw as RawSchema);
    // A named schema of a Go-typed kind is a Go type: `io.k8s.api.apps.v1.DeploymentSpec` is v1.DeploymentSpec.
    // ([]byte is written as a named base64 string, Base64Bytes: Go prints it []uint8.)
    if (this.goFields) node.goType = (raw as RawSchema).format === 'byte' ? '[]uint8' : name.split('.').slice(-2).join('.');
    const fields = this.goFields?.[name];
    if (fields) {
      node.zeroIsUnset = new Set(Object.keys(fields).filter((key) => !isPointer(fields[key]!)));
      node.goTimes = this.goTimesOf(raw as RawSchema, fields);
    }
    return node;
  }

  /**
   * The Go type's metav1.Time and MicroTime fields: a date-time string property is a Time unless
   * its entry says `microTime` (the same rule as the protobuf tables, protobuf-schema.ts).
   */
  private goTimesOf(raw: RawSchema, fields: GoFields[string]): SchemaNode['goTimes'] {
    const props = raw.properties as Record<string, RawSchema> | undefined;
    let times: Map<string, 'time' | 'microTime'> | undefined;
    for (const key of Object.keys(fields)) {
      if (props?.[key] === undefined || !this.isDateTime(props[key]!)) continue;
      const entry = fields[key]!;
      (times ??= new Map()).set(key, typeof entry === 'object' && !Array.isArray(entry) && 'microTime' in entry && entry.microTime ? 'microTime' : 'time');
    }
    return times;
  }

  /** A string of format date-time, written inline or through `$ref` / `allOf: [{$ref}]`. */
  private isDateTime(raw: RawSchema): boolean {
    if (raw.type === 'string' && raw.format === 'date-time') return true;
    const ref = raw.$ref ?? (Array.isArray(raw.allOf) && raw.allOf.length === 1 ? (raw.allOf[0] as RawSchema).$ref : undefined);
    if (typeof ref !== 'string' || !ref.startsWith(REF_PREFIX)) return false;
    const target = this.schemas[this.refName(ref)] as RawSchema | undefined;
    return target !== undefined && target.type === 'string' && target.format === 'date-time';
  }

  private refName(ref: unknown): string {
    if (typeof ref !== 'string' || !ref.startsWith(REF_PREFIX)) {
      throw new Error(`unsupported $ref ${JSON.stringify(ref)}: only '${REF_PREFIX}<name>' is supported`);
    }
    return decodeURIComponent(ref.slice(REF_PREFIX.length).replace(/~1/g, '/').replace(/~0/g, '~'));
  }

  private compile(raw: RawSchema): SchemaNode {
    if (raw === null || typeof raw !== 'object') throw new Error(`invalid schema ${JSON.stringify(raw)}`);
    if (raw.$ref !== undefined && Object.keys(raw).length === 1) return this.resolve(this.refName(raw.$ref));
    const node = this.newNode();
    this.fill(node, raw);
    return node;
  }

  private newNode(): SchemaNode {
    const node = emptyNode();
    this.nodes.push(node);
    return node;
  }

  /** Fills a node from its own keywords; $ref siblings and allOf parts are merged in by finish(). */
  private fill(node: SchemaNode, raw: RawSchema): void {
    fillScalars(node, raw);
    if (this.goFields) node.goType = goScalarType(raw);
    this.fillStructure(node, raw);
    const parts: SchemaNode[] = [];
    if (raw.$ref !== undefined) parts.push(this.resolve(this.refName(raw.$ref)));
    if (Array.isArray(raw.allOf)) for (const sub of raw.allOf) parts.push(this.compile(sub as RawSchema));
    if (parts.length > 0) this.pendingParts.set(node, parts);
  }

  private fillStructure(node: SchemaNode, raw: RawSchema): void {
    if (raw.items !== undefined && raw.items !== null && typeof raw.items === 'object' && !Array.isArray(raw.items)) {
      node.items = this.compile(raw.items as RawSchema);
    }
    if (raw.properties !== undefined && raw.properties !== null && typeof raw.properties === 'object') {
      node.properties = new Map();
      for (const [key, sub] of Object.entries(raw.properties as Record<string, RawSchema>)) {
        node.properties.set(key, this.compile(sub));
      }
    }
    if (typeof raw.additionalProperties === 'boolean') node.additional = raw.additionalProperties;
    else if (raw.additionalProperties && typeof raw.additionalProperties === 'object') {
      node.additional = this.compile(raw.additionalProperties as RawSchema);
    }
  }

  /** Merges every pending node, parts first, so a chain of aliases resolves; alias cycles are cut. */
  private finish(): void {
    const visiting = new Set<SchemaNode>();
    const mergeNode = (node: SchemaNode): void => {
      const parts = this.pendingParts.get(node);
      if (!parts || visiting.has(node)) return;
      visiting.add(node);
      for (const part of parts) {
        mergeNode(part);
        mergeInto(node, part);
      }
      this.pendingParts.delete(node);
    };
    for (const node of [...this.pendingParts.keys()]) mergeNode(node);
  }
}

/** The Go type of a scalar schema of a built-in kind, as kube-openapi maps Go types to type/format. */
function goScalarType(raw: RawSchema): string | undefined {
  switch (raw.type) {
    case 'string':
      return raw.format === 'byte' ? '[]uint8' : 'string';
    case 'boolean':
      return 'bool';
    case 'integer':
      return raw.format === 'int32' ? 'int32' : 'int64';
    case 'number':
      return raw.format === 'float' ? 'float32' : 'float64';
    default:
      return undefined;
  }
}

function isPointer(entry: ProtobufFieldNumber): boolean {
  return typeof entry === 'object' && !Array.isArray(entry) && (entry as { pointer?: true }).pointer === true;
}

/** Keywords that do not refer to other schemas. */
function fillScalars(node: SchemaNode, raw: RawSchema): void {
  if (typeof raw.type === 'string' && JSON_KINDS.has(raw.type)) node.types = [raw.type as JsonKind];
  if (Array.isArray(raw.type)) node.types = raw.type.filter((t): t is JsonKind => JSON_KINDS.has(t as string));
  if (raw['x-kubernetes-int-or-string'] === true) {
    node.intOrString = true;
    node.types = ['integer', 'string'];
  }
  if (raw.nullable === true) node.nullable = true;
  if (typeof raw.format === 'string' && SUPPORTED_FORMATS.has(normalizeFormat(raw.format))) node.format = raw.format;
  if (Array.isArray(raw.enum)) node.enumValues = raw.enum;
  fillNumeric(node, raw);
  if (typeof raw.maxLength === 'number') node.maxLength = raw.maxLength;
  if (typeof raw.minLength === 'number') node.minLength = raw.minLength;
  if (typeof raw.pattern === 'string') node.pattern = raw.pattern;
  if (typeof raw.maxItems === 'number') node.maxItems = raw.maxItems;
  if (typeof raw.minItems === 'number') node.minItems = raw.minItems;
  if (raw.uniqueItems === true) node.uniqueItems = true;
  if (typeof raw.maxProperties === 'number') node.maxProperties = raw.maxProperties;
  if (typeof raw.minProperties === 'number') node.minProperties = raw.minProperties;
  if (Array.isArray(raw.required)) node.required = raw.required.filter((r): r is string => typeof r === 'string');
  const listType = raw['x-kubernetes-list-type'];
  if (listType === 'atomic' || listType === 'set' || listType === 'map') node.listType = listType;
  const mapKeys = raw['x-kubernetes-list-map-keys'];
  if (Array.isArray(mapKeys)) node.listMapKeys = mapKeys.filter((k): k is string => typeof k === 'string');
  if (typeof raw['x-kubernetes-map-type'] === 'string') node.mapType = raw['x-kubernetes-map-type'];
  if (Array.isArray(raw['x-kubernetes-validations'])) node.validations = readValidationRules(raw['x-kubernetes-validations']);
  if (raw['x-kubernetes-preserve-unknown-fields'] === true) node.preserveUnknown = true;
  if (raw['x-kubernetes-embedded-resource'] === true) node.embedded = true;
  if (raw.default !== undefined && raw.default !== null) {
    node.hasDefault = true;
    node.defaultValue = raw.default;
  }
}

/** OpenAPI 3.0 boolean exclusiveMinimum/Maximum, and the 3.1 numeric form for convenience. */
function fillNumeric(node: SchemaNode, raw: RawSchema): void {
  if (typeof raw.maximum === 'number') node.maximum = raw.maximum;
  if (typeof raw.minimum === 'number') node.minimum = raw.minimum;
  if (raw.exclusiveMaximum === true) node.exclusiveMaximum = true;
  if (raw.exclusiveMinimum === true) node.exclusiveMinimum = true;
  if (typeof raw.exclusiveMaximum === 'number') {
    node.maximum = raw.exclusiveMaximum;
    node.exclusiveMaximum = true;
  }
  if (typeof raw.exclusiveMinimum === 'number') {
    node.minimum = raw.exclusiveMinimum;
    node.exclusiveMinimum = true;
  }
  if (typeof raw.multipleOf === 'number') node.multipleOf = raw.multipleOf;
}

/** allOf/$ref merge: the node's own keywords win; properties and required are unions. */
function mergeInto(node: SchemaNode, part: SchemaNode): void {
  const target = node as unknown as Record<string, unknown>;
  const source = part as unknown as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    if (key === 'properties' || key === 'required' || key === 'needsStructuralPass' || key === 'keepsTypeMeta') continue;
    // The referenced type's CEL rules, then the field's own: both apply, in the order a CRD lists them.
    if (key === 'validations' && node.validations && part.validations) {
      node.validations = [...part.validations, ...node.validations];
      continue;
    }
    const mine = target[key];
    if (mine === undefined || mine === false) target[key] = source[key];
  }
  if (!node.hasDefault && part.hasDefault) node.defaultValue = part.defaultValue;
  if (part.properties) {
    const props = new Map(part.properties);
    if (node.properties) for (const [k, v] of node.properties) props.set(k, v);
    node.properties = props;
  }
  if (part.required) node.required = [...new Set([...(node.required ?? []), ...part.required])];
}
