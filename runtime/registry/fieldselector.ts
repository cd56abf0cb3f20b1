/**
 * Field selectors (k8s.io/apimachinery/pkg/fields/selector.go): `f=v`, `f==v`, `f!=v`, comma
 * separated and ANDed, `\` escaping `,` `=` and `\` in values. Which fields may be selected is the
 * resource's business: `metadata.name`, `metadata.namespace` and its declared selectableFields;
 * anything else is 400 `field label not supported: <f>`, as kube's field label conversion says.
 */
import type { KubeObject } from '../api/meta.js';
import { newBadRequest } from '../api/status.js';
import { evaluateJSONPath } from './jsonpath.js';

export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

export interface FieldSelector {
  readonly requirements: readonly FieldRequirement[];
  matches(obj: KubeObject): boolean;
  /** The value of `field=value` when the selector pins that field to one value. */
  requiresExactMatch(field: string): string | undefined;
  empty(): boolean;
}

/** splitTerms: commas split terms unless escaped with `\`. */
function splitTerms(input: string): string[] {
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!;
    if (inSlash) inSlash = false;
    else if (ch === '\\') inSlash = true;
    else if (ch === ',') {
      terms.push(input.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(input.slice(start));
  return terms;
}

/** UnescapeValue: `\\`, `\,` and `\=` are the only escapes; a bare `,` or `=` is an error. */
function unescapeValue(value: string): string {
  let out = '';
  let inSlash = false;
  for (const ch of value) {
    if (inSlash) {
      if (ch !== '\\' && ch !== ',' && ch !== '=') throw newBadRequest(`invalid field selector: invalid escape sequence: \\${ch}`);
      out += ch;
      inSlash = false;
    } else if (ch === '\\') {
      inSlash = true;
    } else if (ch === ',' || ch === '=') {
      // Go prints the rune with %v, i.e. as its code point.
      throw newBadRequest(`invalid field selector: unescaped character in value: ${ch.codePointAt(0)}`);
    } else {
      out += ch;
    }
  }
  if (inSlash) throw newBadRequest('invalid field selector: invalid escape sequence: \\');
  return out;
}

const TERM_OPERATORS = ['!=', '==', '='] as const;

/** splitTerm: the first position where an operator starts splits the term; no escaping on the left. */
function parseTerm(term: string, whole: string): FieldRequirement {
  for (let i = 0; i < term.length; i++) {
    const op = TERM_OPERATORS.find((o) => term.startsWith(o, i));
    if (op) return { field: term.slice(0, i), operator: op === '!=' ? '!=' : '=', value: unescapeValue(term.slice(i + op.length)) };
  }
  throw newBadRequest(`invalid selector: '${whole}'; can't understand '${term}'`);
}

/**
 * Field labels that name another field (kube's field label conversion): core/v1 events select
 * `source` for source.component. An alias is supported where its target is selectable.
 */
const FIELD_LABEL_ALIASES: Readonly<Record<string, string>> = { source: 'source.component' };

/** The field's value as a string, as kube's GetAttrs flattens it (numbers and booleans printed). */
function fieldValue(obj: KubeObject, field: string): string {
  if (field === 'metadata.name') return obj.metadata?.name ?? '';
  if (field === 'metadata.namespace') return obj.metadata?.namespace ?? '';
  const [value] = evaluateJSONPath(obj, `.${FIELD_LABEL_ALIASES[field] ?? field}`);
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * Parses a fieldSelector query value and checks every field against what the resource supports.
 * `selectableFields` are JSONPaths such as `.spec.color`.
 */
export function parseFieldSelector(input: string | undefined, selectableFields: readonly string[] = []): FieldSelector {
  const supported = new Set(['metadata.name', 'metadata.namespace', ...selectableFields.map((f) => f.replace(/^\./, ''))]);
  for (const [alias, target] of Object.entries(FIELD_LABEL_ALIASES)) if (supported.has(target)) supported.add(alias);
  // Terms are parsed in sorted order (and not trimmed), so the first error is the one kube reports.
  const terms = input ? splitTerms(input).sort().filter((t) => t !== '') : [];
  const requirements = terms.map((t) => parseTerm(t, input!));
  for (const r of requirements) {
    if (!supported.has(r.field)) throw newBadRequest(`field label not supported: ${r.field}`);
  }
  return {
    requirements,
    empty: () => requirements.length === 0,
    matches: (obj) =>
      requirements.every((r) => (fieldValue(obj, r.field) === r.value) === (r.operator === '=')),
    requiresExactMatch: (field) => {
      const hits = requirements.filter((r) => r.field === field && r.operator === '=');
      return hits.length === 1 ? hits[0]!.value : undefined;
    },
  };
}

/**
 * The requirements of a field selector in kube's (sorted) order, without checking which fields
 * the resource supports: what fields.ParseSelector gives the request info resolver.
 */
export function parseFieldRequirements(input: string): FieldRequirement[] {
  return splitTerms(input)
    .sort()
    .filter((t) => t !== '')
    .map((t) => parseTerm(t, input));
}
