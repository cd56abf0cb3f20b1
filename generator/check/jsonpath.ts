/**
 * Resolves the simple JSONPaths used by markers (`.spec.replicas`, `.status.conditions[0].type`,
 * `.status.conditions[?(@.type=="Ready")].status`) against a kind's schema.
 */
import type { Kind, NamedType, Schema } from '../model.js';

/** metadata fields a path may name. */
const METADATA_FIELDS: Record<string, Schema['type']> = {
  name: 'string',
  namespace: 'string',
  uid: 'string',
  generation: 'integer',
  resourceVersion: 'string',
  creationTimestamp: 'time',
  deletionTimestamp: 'time',
  labels: 'map',
  annotations: 'map',
  generateName: 'string',
};

export type PathResult = { ok: true; type: Schema['type'] } | { ok: false; detail: string };

/** Splits `.a.b[0].c` into ['a','b','[]','c']; undefined when the path is not of that form. */
export function splitPath(path: string): string[] | undefined {
  if (!path.startsWith('.')) return undefined;
  const out: string[] = [];
  const re = /\.([A-Za-z_$][\w$-]*)|\[(\d+|\*|\?\(.*?\))\]|\['([^']+)'\]/y;
  let i = 0;
  while (i < path.length) {
    re.lastIndex = i;
    const m = re.exec(path);
    if (!m) return undefined;
    out.push(m[1] ?? m[3] ?? '[]');
    i = re.lastIndex;
  }
  return out;
}

export function resolvePath(kind: Kind, types: NamedType[], path: string): PathResult {
  const parts = splitPath(path);
  if (!parts || parts.length === 0) return { ok: false, detail: ' (not a JSONPath of the form .field.sub[0].name)' };
  if (parts[0] === 'metadata') {
    if (parts.length === 1) return { ok: true, type: 'wellKnown' };
    const t = METADATA_FIELDS[parts[1]!];
    if (!t) return { ok: false, detail: ` (metadata has no field "${parts[1]}")` };
    return { ok: true, type: parts.length === 2 ? t : 'string' };
  }
  if (parts[0] === 'apiVersion' || parts[0] === 'kind') return { ok: true, type: 'string' };
  const byName = new Map(types.map((t) => [t.name, t.schema]));
  let current: Schema = kind.schema;
  let walked = '';
  for (const part of parts) {
    current = deref(current, byName);
    if (part === '[]') {
      if (current.type !== 'array') return { ok: false, detail: ` ("${walked || '.'}" is not a list)` };
      current = current.items;
      walked += '[]';
      continue;
    }
    if (current.type === 'map') {
      current = current.values;
    } else if (current.type === 'unknown' || current.type === 'wellKnown') {
      return { ok: true, type: 'unknown' };
    } else if (current.type === 'object') {
      const prop = current.properties.find((p) => p.name === part);
      if (!prop) return { ok: false, detail: ` ("${walked || kind.name}" has no field "${part}")` };
      current = prop.schema;
    } else {
      return { ok: false, detail: ` ("${walked}" is a ${current.type}, not an object)` };
    }
    walked += `.${part}`;
  }
  return { ok: true, type: deref(current, byName).type };
}

export function deref(schema: Schema, byName: Map<string, Schema>): Schema {
  let current = schema;
  for (let i = 0; current.type === 'ref' && i < 64; i++) {
    const next = byName.get(current.name);
    if (!next) break;
    current = next;
  }
  return current;
}
