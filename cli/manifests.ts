/**
 * The objects of a manifest file, each with the line it starts on: every YAML document (JSON is
 * YAML), and the items of a List (`kind: List` or `<Kind>List` with `items`), as kubectl reads them.
 */
import { isMap, isSeq, LineCounter, parseAllDocuments, type Node } from 'yaml';
import { inexactYAMLIntegerOf } from '../runtime/endpoints/yaml-integers.js';
import { inexactIntegerMessage } from '../runtime/api/json-integers.js';

export interface ManifestObject {
  line: number;
  /** The parsed object, or a parse error. */
  value?: unknown;
  error?: string;
}

export function manifestObjects(text: string): ManifestObject[] {
  const lines = new LineCounter();
  const out: ManifestObject[] = [];
  for (const doc of parseAllDocuments(text, { lineCounter: lines })) {
    const start = lines.linePos(doc.contents?.range?.[0] ?? doc.range[0]).line;
    if (doc.errors.length > 0) {
      out.push({ line: start, error: doc.errors[0]!.message.split('\n')[0] });
      continue;
    }
    // The server refuses an integer a double cannot hold (beyond 2^53) rather than store another number.
    const inexact = inexactYAMLIntegerOf(text, doc);
    if (inexact !== undefined) {
      out.push({ line: start, error: inexactIntegerMessage(inexact, 'yaml') });
      continue;
    }
    const value = doc.toJS() as Record<string, unknown> | null;
    if (value === null || value === undefined) continue;
    const items = isMap(doc.contents) ? doc.contents.get('items', true) : undefined;
    if (typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items) && isSeq(items)) {
      items.items.forEach((node, i) => out.push({ line: lines.linePos((node as Node).range?.[0] ?? 0).line, value: (value.items as unknown[])[i] }));
      continue;
    }
    out.push({ line: start, value });
  }
  return out;
}
