/** The meta.k8s.io Table wire types (kube's metav1.Table), shared by the table convertor and the built-in printers. */
import type { ListMeta } from '../api/meta.js';

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableRow {
  cells: unknown[];
  object?: unknown;
}

export interface Table {
  kind: 'Table';
  apiVersion: string;
  metadata: ListMeta;
  columnDefinitions?: TableColumnDefinition[];
  rows?: TableRow[];
}
