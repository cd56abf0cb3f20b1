/**
 * Field selectors (k8s.io/apimachinery/pkg/fields/selector.go): `f=v`, `f==v`, `f!=v`, comma
 * separated and ANDed, `\` escaping `,` `=` `!` and `\`. Which fields may be selected is the
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

function splitTerms(input: string): string[] {
  const terms: string[] = [];
  let current = '';
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!;
    if (ch === '\\' && i + 1 < input.length) {
      current += ch + input[i + 1];
      i++;
    } else if (ch === ',') {
      terms.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  terms.push(current);
  return terms;
}

function unescape(value: string, whole: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (ch === '\\') {
      const nextCh = value[i + 1];
      if (nextCh === undefined || !'\\,=!'.includes(nextCh)) {
        throw newBadRequest(`invalid field selector: invalid escape sequence in '${whole}'`);
      }
      out += nextCh;
      i++;
    } else if ('=!,'.includes(ch)) {
      throw newBadRequest(`invalid field selector: unescaped '${ch}' in '${whole}'`);
    } else {
      out += ch;
    }
  }
  return out;
}

function parseTerm(term: string, whole: string): FieldRequirement {
  for (const op of ['!=', '==', '='] as const) {
    const at = findUnescaped(term, op);
    if (at > 0) {
      return {
        field: term.slice(0, at),
        operator: op === '!=' ? '!=' : '=',
        value: unescape(term.slice(at + op.length), whole),
      };
    }
  }
  throw newBadRequest(`invalid selector: '${whole}'; can't understand '${term}'`);
}

function findUnescaped(term: string, op: string): number {
  for (let i = 0; i < term.length; i++) {
    if (term[i] === '\\') {
      i++;
      continue;
    }
    if (term.startsWith(op, i)) return i;
  }
  return -1;
}

/** The field's value as a string, as kube's GetAttrs flattens it (numbers and booleans printed). */
function fieldValue(obj: KubeObject, field: string): string {
  if (field === 'metadata.name') return obj.metadata?.name ?? '';
  if (field === 'metadata.namespace') return obj.metadata?.namespace ?? '';
  const [value] = evaluateJSONPath(obj, `.${field}`);
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * Parses a fieldSelector query value and checks every field against what the resource supports.
 * `selectableFields` are JSONPaths such as `.spec.color`.
 */
export function parseFieldSelector(input: string | undefined, selectableFields: readonly string[] = []): FieldSelector {
  const supported = new Set(['metadata.name', 'metadata.namespace', ...selectableFields.map((f) => f.replace(/^\./, ''))]);
  const requirements = input ? splitTerms(input).filter((t) => t.trim() !== '').map((t) => parseTerm(t.trim(), input)) : [];
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
