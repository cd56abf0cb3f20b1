/**
 * Label selectors with kube's full string syntax (k8s.io/apimachinery/pkg/labels/selector.go):
 * `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x,y)`, `a`, `!a`, `a>1`, `a<1`, comma-separated
 * and ANDed. Parse errors are thrown as 400 BadRequest with kube's wording.
 */
import { newBadRequest } from '../api/status.js';

export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  values: string[];
}

export interface LabelSelector {
  readonly requirements: readonly LabelRequirement[];
  matches(labels: Record<string, string> | undefined): boolean;
  empty(): boolean;
}

type Token =
  | { kind: 'id'; value: string }
  | { kind: 'op'; value: '=' | '==' | '!=' | '!' | '>' | '<' | '(' | ')' | ',' }
  | { kind: 'end' };

const SPECIAL = new Set(['=', '!', '(', ')', ',', '>', '<']);

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (SPECIAL.has(ch)) {
      const two = input.slice(i, i + 2);
      if (two === '==' || two === '!=') {
        tokens.push({ kind: 'op', value: two });
        i += 2;
      } else {
        tokens.push({ kind: 'op', value: ch as '=' });
        i++;
      }
      continue;
    }
    let j = i;
    while (j < input.length && !SPECIAL.has(input[j]!) && !/\s/.test(input[j]!)) j++;
    tokens.push({ kind: 'id', value: input.slice(i, j) });
    i = j;
  }
  tokens.push({ kind: 'end' });
  return tokens;
}

function describe(t: Token): string {
  return t.kind === 'end' ? '' : t.value;
}

function parseError(detail: string): Error {
  return newBadRequest(`unable to parse requirement: ${detail}`);
}

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Returns kube's message for an invalid label key, or undefined when valid. */
export function validateLabelKey(key: string): string | undefined {
  const parts = key.split('/');
  const name = parts.length === 2 ? parts[1]! : parts[0]!;
  const prefix = parts.length === 2 ? parts[0]! : undefined;
  if (parts.length > 2 || name.length === 0 || name.length > 63 || !QUALIFIED_NAME.test(name)) {
    return `key: Invalid value: "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`;
  }
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) {
    return `key: Invalid value: "${key}": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`;
  }
  return undefined;
}

function validateLabelValue(value: string, index: number): string | undefined {
  if (value.length > 63 || !LABEL_VALUE.test(value)) {
    return `values[${index}]: Invalid value: "${value}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`;
  }
  return undefined;
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.pos]!;
  }

  private next(): Token {
    return this.tokens[this.pos++]!;
  }

  parse(): LabelRequirement[] {
    const out: LabelRequirement[] = [];
    if (this.peek().kind === 'end') return out;
    for (;;) {
      out.push(this.requirement());
      const t = this.next();
      if (t.kind === 'end') return out;
      if (!(t.kind === 'op' && t.value === ',')) throw parseError(`found '${describe(t)}', expected: ',' or 'end of string'`);
    }
  }

  private requirement(): LabelRequirement {
    let negated = false;
    let t = this.next();
    if (t.kind === 'op' && t.value === '!') {
      negated = true;
      t = this.next();
    }
    if (t.kind !== 'id') throw parseError(`found '${describe(t)}', expected: !, identifier, or 'end of string'`);
    const key = t.value;
    const keyError = validateLabelKey(key);
    if (keyError) throw parseError(keyError);
    const after = this.peek();
    if (negated || after.kind === 'end' || (after.kind === 'op' && after.value === ',')) {
      return { key, operator: negated ? '!' : 'exists', values: [] };
    }
    const operator = this.operator();
    const values = operator === 'in' || operator === 'notin' ? this.valueSet() : [this.singleValue()];
    values.forEach((v, i) => {
      const err = validateLabelValue(v, i);
      if (err) throw parseError(err);
    });
    if ((operator === 'gt' || operator === 'lt') && !/^-?\d+$/.test(values[0]!)) {
      throw parseError(`for 'Gt', 'Lt' operators, the value must be an integer`);
    }
    return { key, operator, values };
  }

  private operator(): LabelOperator {
    const t = this.next();
    if (t.kind === 'id' && (t.value === 'in' || t.value === 'notin')) return t.value;
    if (t.kind === 'op') {
      if (t.value === '=' || t.value === '==' || t.value === '!=') return t.value;
      if (t.value === '>') return 'gt';
      if (t.value === '<') return 'lt';
    }
    throw parseError(`found '${describe(t)}', expected: in, notin, =, ==, !=, gt, lt`);
  }

  private singleValue(): string {
    const t = this.peek();
    if (t.kind === 'id') {
      this.pos++;
      return t.value;
    }
    if (t.kind === 'end' || (t.kind === 'op' && t.value === ',')) return '';
    throw parseError(`found '${describe(t)}', expected: identifier`);
  }

  private valueSet(): string[] {
    const open = this.next();
    if (!(open.kind === 'op' && open.value === '(')) throw parseError(`found '${describe(open)}', expected: '('`);
    const values: string[] = [];
    for (;;) {
      let t = this.next();
      if (t.kind === 'op' && t.value === ')' && values.length === 0) return [''];
      if (t.kind === 'id') {
        values.push(t.value);
        t = this.next();
      } else if (t.kind === 'op' && (t.value === ',' || t.value === ')')) {
        values.push('');
      } else {
        throw parseError(`found '${describe(t)}', expected: ',', ')' or identifier`);
      }
      if (t.kind === 'op' && t.value === ')') return values;
      if (!(t.kind === 'op' && t.value === ',')) throw parseError(`found '${describe(t)}', expected: ',' or ')'`);
    }
  }
}

function matchesRequirement(r: LabelRequirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = labels[r.key];
  switch (r.operator) {
    case 'exists':
      return has;
    case '!':
      return !has;
    case '=':
    case '==':
    case 'in':
      return has && r.values.includes(value!);
    case '!=':
    case 'notin':
      return !has || !r.values.includes(value!);
    case 'gt':
    case 'lt': {
      if (!has || !/^-?\d+$/.test(value!)) return false;
      const n = Number(value);
      const bound = Number(r.values[0]);
      return r.operator === 'gt' ? n > bound : n < bound;
    }
    default: {
      const never: never = r.operator;
      throw new Error(`unknown operator ${String(never)}`);
    }
  }
}

/** Parses a labelSelector query value; '' or undefined selects everything. */
export function parseLabelSelector(input: string | undefined): LabelSelector {
  const requirements = input ? new Parser(tokenize(input)).parse() : [];
  return {
    requirements,
    empty: () => requirements.length === 0,
    matches: (labels) => requirements.every((r) => matchesRequirement(r, labels ?? {})),
  };
}
