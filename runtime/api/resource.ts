/**
 * The contract between generated code and the runtime: what the generator knows about a
 * resource, as plain data. Generated storage modules export one ResourceDefinition per kind;
 * generated route installers hand a GroupVersionDefinition to the server.
 */

export type Scope = 'Namespaced' | 'Cluster';

export interface PrinterColumn {
  name: string;
  type: 'integer' | 'number' | 'string' | 'boolean' | 'date';
  format?: string;
  description?: string;
  /** A simple JSONPath such as `.spec.replicas` or `.status.conditions[0].type`. */
  jsonPath: string;
  priority: number;
}

/**
 * A subresource served by a user handler (`@kgen:subresource custom`, `kgen serve --handlers`):
 * `get` answers GET (an object or a stream, as pods/log), `connect` accepts a WebSocket upgrade
 * speaking Kubernetes' channel protocols (as pods/exec).
 */
export interface CustomSubresourceDefinition {
  name: string;
  verbs: ('get' | 'connect')[];
}

export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface ResourceDefinition {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  scope: Scope;
  shortNames: string[];
  categories: string[];
  subresources: { status: boolean; scale?: ScaleSubresource; custom?: CustomSubresourceDefinition[] };
  printerColumns: PrinterColumn[];
  /**
   * True when printerColumns are exactly the Table's columns after Name, as kube's customresource
   * table convertor prints a CRD's additionalPrinterColumns. Otherwise (compiled kinds, as kube's
   * built-in printers end with AGE) an Age column follows the declared ones.
   */
  exactPrinterColumns?: boolean;
  /**
   * Served from a CustomResourceDefinition created at runtime. kube-apiserver serves those
   * without strategic merge patch (415) and without protobuf (JSON and YAML only); every compiled
   * kind, built-in or not, has both.
   */
  customResource?: boolean;
  /** JSONPaths of fields usable in field selectors besides metadata.name/namespace. */
  selectableFields: string[];
  /** Name of the kind's schema under components.schemas in the group/version's OpenAPI v3 document. */
  schemaName: string;
  /**
   * kube's protobuf field numbers (generated.proto) of the kind and of the types it uses, from
   * @kgen:protobuf, by schema name and JSON field name: N, or [N, M] for field M of the
   * Go-embedded message held in field N. The server derives the kind's protobuf messages from
   * these and its schema; a kind without them (every user kind) is served as JSON only. A field
   * whose @kgen:protobuf has wire words is `{ number, pointer?, microTime? }` (ProtobufField).
   */
  protobuf?: Readonly<Record<string, Readonly<Record<string, ProtobufFieldNumber>>>>;
  /** True for the version objects are stored in. */
  storageVersion: boolean;
  /**
   * Set for a deprecated version (@kgen:deprecatedversion): the text of the `Warning: 299` header
   * every request to this version is answered with, as kube does for deprecated CRD versions.
   */
  deprecationWarning?: string;
  verbs: string[];
  /**
   * Create-only and never stored (@kgen:virtual): the server answers a POST with an object its
   * registered Creater computes (kube's rest.Creater), as SelfSubjectAccessReview.
   */
  virtual?: boolean;
}

export interface GroupVersionDefinition {
  group: string;
  version: string;
  /** OpenAPI v3 document of this group/version, relative to the generated directory. */
  openapiPath: string;
  /**
   * Its component schemas alone, compact, relative to the generated directory: what the server
   * reads to build the kinds' validators, defaulters and field managers (a sixth of the document's
   * bytes to read and parse). Absent in code generated before kgen wrote it: the document then.
   */
  schemasPath?: string;
  resources: ResourceDefinition[];
}

/** `apps/v1`, or `v1` for the legacy core group. */
export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** A protobuf field number: N, or [N, M] for field M of the Go-embedded message held in field N. */
export type ProtobufNumber = number | readonly [number, number];

/**
 * A field's entry in ResourceDefinition.protobuf: its number, or its number with the facts of its
 * Go type the wire cannot tell (from the words of @kgen:protobuf): `pointer`, a Go pointer scalar
 * (gogo writes it only when set, so a decoded zero was set and is kept), and `microTime`, a
 * metav1.MicroTime (microsecond precision; a Time keeps seconds).
 */
export type ProtobufFieldNumber = ProtobufNumber | { readonly number: ProtobufNumber; readonly pointer?: true; readonly microTime?: true };
