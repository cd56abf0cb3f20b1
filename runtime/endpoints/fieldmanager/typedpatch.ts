/**
 * An applied configuration that structured-merge-diff cannot make a typed value of, as kube's
 * field manager words it (`failed to create typed patch object (…): <errors>`): SMD's typed
 * validate.go errors behind the path SMD prints (fieldpath.PathElement.String: `.name` for a
 * field, `[name="c"]` for an item of a `map` list (its key fields sorted by name, a missing one
 * with its schema default, strings quoted), `[="x"]` for a set item, `[0]` for an atomic list's
 * item), printed as its ValidationErrors.Error prints them: one error alone, several as `errors:`
 * and one indented line each. Two of SMD's errors are checked here:
 * - a field the schema does not declare (`field not declared in schema`). Which fields those are
 *   is the schema validator's decision (kgen's unknown-field walk, the same for every verb); this
 *   walk only names them as SMD does. SMD visits a map's keys in Go's random order and stops at
 *   its first undeclared key (so kube names one per map, at random); kgen names each, in the
 *   body's order;
 * - two items of a `map` list with the same key (`duplicate entries for key [name="c"]`), which
 *   the configuration may not hold (SMD allows them in the live object only).
 * A `map` list's item that lacks every key field ends SMD's walk of that list (its own error,
 * which kgen leaves to validation: `Required value`); fields below it keep the validator's path.
 */
import type { ListNode, TypeNode } from './typeschema.js';

type JSONMap = Record<string, unknown>;

const isMap = (v: unknown): v is JSONMap => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * SMD's errors for the configuration: `unknown` (the validator's paths of its undeclared fields,
 * `spec.template.spec.containers[0].typo`) named along `structure`
 * (`.spec.template.spec.containers[name="c"].typo: field not declared in schema`), then its
 * duplicate `map` list items. Empty when SMD would take it.
 */
export function typedPatchErrors(config: unknown, structure: TypeNode | undefined, unknown: readonly string[]): string[] {
  const named = new Map<string, string>();
  const duplicates: string[] = [];
  if (structure !== undefined) nameAlong(config, structure, '', '', new Set(unknown), named, duplicates);
  const undeclared = [...new Set(unknown)]
    .sort((a, b) => order(a, unknown) - order(b, unknown))
    .map((path) => `${named.get(path) ?? `.${path}`}: field not declared in schema`);
  return [...undeclared, ...duplicates];
}

/** SMD's ValidationErrors.Error: one error alone, several under `errors:`. */
export function validationErrorsText(errors: readonly string[]): string {
  return errors.length === 1 ? errors[0]! : ['errors:', ...errors].join('\n  ');
}

/** Errors in the validator's order (sorted paths), as kgen has always listed them. */
const order = (path: string, unknown: readonly string[]) => unknown.indexOf(path);

/**
 * Walks `v` under `t`, keeping for each path in `wanted` (the validator's, `a.b[0].c`) its SMD
 * path (`.a.b[k="x"].c`).
 */
function nameAlong(v: unknown, t: TypeNode, path: string, smd: string, wanted: ReadonlySet<string>, named: Map<string, string>, duplicates: string[]): void {
  if (isMap(v)) {
    for (const key of Object.keys(v)) {
      const keyPath = path === '' ? key : `${path}.${key}`;
      const keySmd = `${smd}.${key}`;
      if (wanted.has(keyPath)) named.set(keyPath, keySmd);
      const child = t.kind === 'map' ? (t.fields.get(key)?.type ?? t.elements) : undefined;
      if (child !== undefined && child.kind !== 'untyped') nameAlong(v[key], child, keyPath, keySmd, wanted, named, duplicates);
    }
    return;
  }
  if (!Array.isArray(v) || t.kind !== 'list') return;
  const seen = t.listType === 'map' ? new Set<string>() : undefined;
  for (let i = 0; i < v.length; i++) {
    const element = itemElement(t, v[i], i);
    // SMD's walk of the list ends at an item it cannot name.
    if (element === undefined) return;
    if (seen !== undefined) {
      if (seen.has(element)) duplicates.push(`${smd}: duplicate entries for key ${element}`);
      seen.add(element);
    }
    nameAlong(v[i], t.elements, `${path}[${i}]`, smd + element, wanted, named, duplicates);
  }
}

/** fieldpath.PathElement.String of a list item, or undefined where SMD cannot name it. */
function itemElement(t: ListNode, item: unknown, i: number): string | undefined {
  if (t.listType === 'set') return `[=${smdString(item)}]`;
  if (t.listType !== 'map') return `[${i}]`;
  if (!isMap(item)) return undefined;
  const fields: string[] = [];
  for (const k of t.keys) {
    if (Object.hasOwn(item, k)) fields.push(`${k}=${smdString(item[k])}`);
    else if (t.keyDefaults?.has(k)) fields.push(`${k}=${smdString(t.keyDefaults.get(k))}`);
  }
  return fields.length === 0 ? undefined : `[${fields.join(',')}]`;
}

/** value.ToString: a string quoted (Go's %q), a number or boolean as Go's %v prints it, null as `null`. */
function smdString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}
