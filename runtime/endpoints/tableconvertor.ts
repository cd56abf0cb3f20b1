/**
 * The Table a resource is printed as (kube's customresource tableconvertor): a Name column and the
 * printer columns; cells through the JSONPath evaluator. A custom resource's columns are exactly
 * its CRD's (exactPrinterColumns); a compiled kind's declared columns are followed by Age, as
 * kube's built-in printers end with AGE, unless one already shows the creation timestamp. Rows carry the object
 * as PartialObjectMetadata (includeObject=Metadata, the default), whole (Object) or not at all (None).
 */
import type { KubeObject, ListMeta } from '../api/meta.js';
import type { PrinterColumn, ResourceDefinition } from '../api/resource.js';
import { newBadRequest } from '../api/status.js';
import { evaluateJSONPath } from '../registry/jsonpath.js';
import { translateTimestampSince } from './duration.js';
import { builtinPrinter } from './printers.js';
import type { Table, TableColumnDefinition, TableRow } from './table.js';

export type { Table, TableColumnDefinition, TableRow } from './table.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableOptions {
  includeObject: IncludeObject;
  /** Omit columnDefinitions (every watch event after the first). */
  noHeaders?: boolean;
  /** `meta.k8s.io/v1` unless the client asked for v1beta1. */
  apiVersion?: string;
  now?: number;
}

const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const AGE_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

export function parseIncludeObject(value: string | null): IncludeObject {
  if (value === null || value === '' || value === 'Metadata') return 'Metadata';
  if (value === 'None' || value === 'Object') return value;
  throw newBadRequest(`includeObject: Unsupported value: ${JSON.stringify(value)}: supported values: "Metadata", "None", "Object"`);
}

const CREATION_TIMESTAMP = '.metadata.creationTimestamp';

/** The Age column (kube's serveDefaultColumnsIfEmpty column, and the last column of its built-in printers). */
export function ageColumn(): PrinterColumn {
  return { name: 'Age', type: 'date', jsonPath: CREATION_TIMESTAMP, description: AGE_DESCRIPTION, priority: 0 };
}

/**
 * The printer columns after Name: exactly the declared ones for a custom resource; for a compiled
 * kind the declared ones, then Age unless one is called Age or shows the creation timestamp
 * (`Created At`, as kube's default table convertor).
 */
function printerColumns(def: ResourceDefinition): PrinterColumn[] {
  const declared = def.printerColumns ?? [];
  if (def.exactPrinterColumns) return declared;
  return declared.some((c) => c.name === 'Age' || c.jsonPath === CREATION_TIMESTAMP) ? declared : [...declared, ageColumn()];
}

export function columnDefinitions(def: ResourceDefinition): TableColumnDefinition[] {
  const printer = builtinPrinter(def);
  if (printer) return printer.columns;
  return [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 },
    ...printerColumns(def).map((c) => ({
      name: c.name,
      type: c.type,
      format: c.format ?? '',
      description: c.description ?? '',
      priority: c.priority ?? 0,
    })),
  ];
}

/** metav1.Time's UnmarshalQueryParameter: RFC 3339 with seconds, in UTC or with an offset. */
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i;

/**
 * A cell as kube's customresource tableconvertor computes it: a `string` column prints whatever
 * the path found (objects and arrays as JSON); the other types take only a value of their type
 * (an integer column truncates a float) and are null otherwise, as cellForJSONValue does.
 */
export function cellForJSONValue(type: PrinterColumn['type'], value: unknown, now: number): unknown {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
    case 'integer':
      return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      if (typeof value !== 'string') return null;
      return RFC3339.test(value) && !Number.isNaN(Date.parse(value)) ? translateTimestampSince(value, now) : '<invalid>';
    default: {
      const never: never = type;
      return never;
    }
  }
}

function cellValue(obj: KubeObject, column: PrinterColumn, now: number): unknown {
  let value: unknown;
  try {
    // Only the first result counts, as kube assumes a simple path.
    value = evaluateJSONPath(obj, column.jsonPath)[0];
  } catch {
    return null;
  }
  return cellForJSONValue(column.type, value, now);
}

export function partialObjectMetadata(obj: KubeObject, apiVersion = 'meta.k8s.io/v1'): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: obj.metadata };
}

function rowOf(obj: KubeObject, columns: PrinterColumn[], opts: TableOptions, now: number): TableRow {
  return withObject({ cells: [obj.metadata?.name ?? '', ...columns.map((c) => cellValue(obj, c, now))] }, obj, opts);
}

function withObject(row: TableRow, obj: KubeObject, opts: TableOptions): TableRow {
  if (opts.includeObject === 'Metadata') row.object = partialObjectMetadata(obj, opts.apiVersion);
  else if (opts.includeObject === 'Object') row.object = obj;
  return row;
}

export function convertToTable(def: ResourceDefinition, objects: KubeObject[], listMeta: ListMeta, opts: TableOptions): Table {
  const now = opts.now ?? Date.now();
  const columns = printerColumns(def);
  const table: Table = { kind: 'Table', apiVersion: opts.apiVersion ?? 'meta.k8s.io/v1', metadata: listMeta };
  if (!opts.noHeaders) table.columnDefinitions = columnDefinitions(def);
  const printer = builtinPrinter(def);
  table.rows = objects.map((o) => (printer ? withObject({ cells: printer.cells(o, now) }, o, opts) : rowOf(o, columns, opts, now)));
  return table;
}
