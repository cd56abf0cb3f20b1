/**
 * Server-side field validation of decoded bodies (kube's fieldValidation directive): unknown and
 * duplicate fields are an error under Strict, `Warning` headers under Warn, silent under Ignore;
 * in every case unknown fields are pruned before the object reaches the registry. Also the
 * `<path>: deprecated` warnings for fields the schema marks deprecated.
 */
import type { KubeObject } from '../api/meta.js';
import { newBadRequest } from '../api/status.js';
import type { SchemaValidator } from '../registry/strategy.js';
import { jsonDuplicateMessage, yamlDuplicateMessage, type DuplicateField } from './duplicatefields.js';
import { fieldType, type TypeNode } from './fieldmanager/index.js';
import type { FieldValidationDirective } from './queryparams.js';

export interface DecodeTarget {
  kind: string;
  version: string;
  validator: SchemaValidator;
}

/** kube's strict decoding failure: `Widget in version "v1" cannot be handled as a Widget: strict decoding error: …`. */
export function strictDecodingError(target: DecodeTarget, problems: readonly string[]): Error {
  return newBadRequest(
    `${target.kind} in version ${JSON.stringify(target.version)} cannot be handled as a ${target.kind}: strict decoding error: ${problems.join(', ')}`,
  );
}

/**
 * Applies the directive to obj (mutating it: unknown fields are pruned), adding warnings.
 * `duplicates` are the body's repeated-key problems (`duplicate field "x"`), reported first as
 * kube reports them.
 */
export function checkUnknownFields(
  obj: KubeObject,
  target: DecodeTarget,
  directive: FieldValidationDirective,
  warnings: string[],
  duplicates: readonly string[] = [],
): void {
  if (directive !== 'Ignore') {
    const found = target.validator.unknownFields(obj);
    const unknown = found.map((f) => `unknown field ${JSON.stringify(f)}`);
    const problems = [...duplicates, ...unknown];
    if (problems.length > 0) {
      if (directive === 'Strict') throw strictDecodingError(target, problems);
      warnings.push(...problems);
    }
    // prune() removes exactly the fields unknownFields() finds (one walk serves both).
    if (found.length === 0) return;
  }
  target.validator.prune(obj);
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const deprecatedReach = new WeakMap<TypeNode, boolean>();

/** Whether a field marked deprecated can occur at or under node (so most walks stop at the root). */
function reachesDeprecated(node: TypeNode): boolean {
  let known = deprecatedReach.get(node);
  if (known === undefined) {
    known = false;
    // Every type reachable from node, once each (types may be recursive).
    const seen = new Set<TypeNode>([node]);
    const pending = [node];
    const visit = (t: TypeNode | undefined) => {
      if (t && !seen.has(t)) {
        seen.add(t);
        pending.push(t);
      }
    };
    while (!known && pending.length > 0) {
      const t = pending.pop()!;
      if (t.kind === 'map') {
        for (const field of t.fields.values()) {
          if (field.deprecated) known = true;
          visit(field.type);
        }
        visit(t.elements);
      } else if (t.kind === 'list') {
        visit(t.elements);
      }
    }
    deprecatedReach.set(node, known);
  }
  return known;
}

/**
 * `spec.old: deprecated` for every field of value (at path) whose schema says `deprecated: true`,
 * in document order.
 */
export function deprecatedFieldWarnings(value: unknown, t: TypeNode | undefined, path = ''): string[] {
  const out: string[] = [];
  const walk = (v: unknown, node: TypeNode | undefined, at: string) => {
    if (!node || !reachesDeprecated(node)) return;
    if (isMap(v) && (node.kind === 'map' || node.kind === 'untyped')) {
      for (const [key, child] of Object.entries(v)) {
        const childPath = at ? `${at}.${key}` : key;
        if (node.kind === 'map' && node.fields.get(key)?.deprecated && child !== undefined) out.push(`${childPath}: deprecated`);
        walk(child, fieldType(node, key), childPath);
      }
    } else if (Array.isArray(v) && node.kind === 'list') {
      v.forEach((item, i) => walk(item, node.elements, `${at}[${i}]`));
    }
  };
  walk(value, t, path);
  return out;
}

/**
 * Deprecation warnings for the values a JSON patch writes: each add/replace/copy/move target's
 * value walked from the type at its pointer.
 */
export function deprecatedJSONPatchWarnings(ops: unknown, root: TypeNode): string[] {
  if (!Array.isArray(ops)) return [];
  const out: string[] = [];
  for (const op of ops) {
    if (!isMap(op) || (op.op !== 'add' && op.op !== 'replace') || typeof op.path !== 'string') continue;
    const tokens = op.path.split('/').slice(1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    let node: TypeNode | undefined = root;
    let path = '';
    let deprecated = false;
    for (const token of tokens) {
      if (!node) break;
      if (node.kind === 'list') {
        path += `[${token}]`;
        node = node.elements;
        deprecated = false;
      } else {
        deprecated = node.kind === 'map' && node.fields.get(token)?.deprecated === true;
        path = path ? `${path}.${token}` : token;
        node = fieldType(node, token);
      }
    }
    if (deprecated) out.push(`${path}: deprecated`);
    out.push(...deprecatedFieldWarnings(op.value, node, path));
  }
  return out;
}

/** A decoded body's repeated keys as kube words them for its format. */
export function bodyProblems(body: { duplicates: readonly DuplicateField[]; format: string }): string[] {
  return body.duplicates.map(body.format === 'yaml' ? yamlDuplicateMessage : jsonDuplicateMessage);
}
