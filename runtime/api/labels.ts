/**
 * Label selectors, the one implementation (k8s.io/apimachinery/pkg/labels and
 * metav1.LabelSelectorAsSelector), for the server (`?labelSelector=`), webhook namespace and
 * object selectors, ClusterRole aggregation and the client's listers:
 *
 * - parseLabelSelector: kube's full string syntax (labels/selector.go): `a=b`, `a==b`, `a!=b`,
 *   `a in (x,y)`, `a notin (x,y)`, `a`, `!a`, `a>1`, `a<1`, comma-separated and ANDed. Parse
 *   errors are thrown as 400 BadRequest with kube's wording.
 * - labelSelectorAsSelector: a metav1.LabelSelector (`matchLabels`, `matchExpressions` with In,
 *   NotIn, Exists, DoesNotExist) as the same Selector, checked as labels.NewRequirement checks
 *   (LabelSelectorError with kube's message).
 *
 * Both match the same way: a missing label fails `=`, `in`, `exists`, `gt`, `lt` and passes `!=`,
 * `notin`, `!`.
 */
import { newBadRequest } from './status.js';
import { isQualifiedName, isValidLabelValue } from './names.js';

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

/** kube's lexer tokens; `in`/`notin` are keywords only where an operator is expected. */
type Token =
  | { kind: 'id'; value: string }
  | { kind: 'op'; value: '=' | '==' | '!=' | '!' | '>' | '<' | '(' | ')' | ',' }
  | { kind: 'end'; value: '' };

const SPECIAL = new Set(['=', '!', '(', ')', ',', '>', '<']);
const OPERATOR_TOKENS = new Set(['=', '==', '!=', '!', '>', '<', '(', ')', ',']);
/** Only these separate tokens (the lexer's isWhitespace), not every Unicode space. */
const WHITESPACE = new Set([' ', '\t', '\r', '\n']);

/** The longest run of special symbols that is still a token (scanSpecialSymbol). */
function scanSpecial(input: string, start: number): [Token, number] {
  let end = start;
  let last: Token | undefined;
  let lastEnd = start;
  while (end < input.length && SPECIAL.has(input[end]!)) {
    end++;
    const text = input.slice(start, end);
    if (OPERATOR_TOKENS.has(text)) {
      last = { kind: 'op', value: text as '=' };
      lastEnd = end;
    } else if (last) {
      break;
    }
  }
  // Every single special symbol is a token, so `last` is always set.
  return [last!, lastEnd];
}

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  for (;;) {
    while (i < input.length && WHITESPACE.has(input[i]!)) i++;
    if (i >= input.length) break;
    if (SPECIAL.has(input[i]!)) {
      const [token, next] = scanSpecial(input, i);
      tokens.push(token);
      i = next;
      continue;
    }
    let j = i;
    while (j < input.length && !SPECIAL.has(input[j]!) && !WHITESPACE.has(input[j]!)) j++;
    tokens.push({ kind: 'id', value: input.slice(i, j) });
    i = j;
  }
  tokens.push({ kind: 'end', value: '' });
  return tokens;
}

const isOp = (t: Token, value: string) => t.kind === 'op' && t.value === value;

/** A field.Invalid error's text: `<path>: Invalid value: "<value>": <detail>`. */
function invalidValue(path: string, value: string, detail: string): string {
  return `${path}: Invalid value: ${JSON.stringify(value)}: ${detail}`;
}

/**
 * Returns kube's message for an invalid label key, or undefined when valid. The parser checks keys
 * with a nil field path, so kube's message really starts with `<nil>:`.
 */
export function validateLabelKey(key: string): string | undefined {
  const errs = isQualifiedName(key);
  return errs.length === 0 ? undefined : invalidValue('<nil>', key, errs.join('; '));
}

/** labels.NewRequirement's checks after parsing: Gt/Lt need integers, values must be label values. */
function requirementErrors(operator: LabelOperator, values: string[]): string[] {
  const errs: string[] = [];
  if (operator === 'gt' || operator === 'lt') {
    values.forEach((v, i) => {
      if (!/^[+-]?\d+$/.test(v)) errs.push(invalidValue(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
    });
  }
  values.forEach((v, i) => {
    const valueErrs = isValidLabelValue(v);
    if (valueErrs.length > 0) errs.push(invalidValue(`values[${i}]`, v, valueErrs.join('; ')));
  });
  return errs;
}

/** utilerrors.NewAggregate(...).Error(): one message as is, several as `[a, b]`. */
function aggregate(errs: string[]): string {
  return errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`;
}

/**
 * kube's recursive-descent Parser (labels/selector.go). Errors inside one requirement are
 * prefixed `unable to parse requirement: `; errors between requirements are not.
 */
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
    for (;;) {
      const t = this.peek();
      if (t.kind === 'end') return out;
      if (t.kind !== 'id' && !isOp(t, '!')) throw newBadRequest(`found '${t.value}', expected: !, identifier, or 'end of string'`);
      try {
        out.push(this.requirement());
      } catch (err) {
        throw newBadRequest(`unable to parse requirement: ${(err as Error).message}`);
      }
      const after = this.next();
      if (after.kind === 'end') return out;
      if (!isOp(after, ',')) throw newBadRequest(`found '${after.value}', expected: ',' or 'end of string'`);
      const following = this.peek();
      if (following.kind !== 'id' && !isOp(following, '!')) {
        throw newBadRequest(`found '${following.value}', expected: identifier after ','`);
      }
    }
  }

  private requirement(): LabelRequirement {
    let t = this.next();
    const negated = isOp(t, '!');
    if (negated) t = this.next();
    if (t.kind !== 'id') throw new Error(`found '${t.value}', expected: identifier`);
    const key = t.value;
    const keyError = validateLabelKey(key);
    if (keyError) throw new Error(keyError);
    const after = this.peek();
    if (negated || after.kind === 'end' || isOp(after, ',')) return { key, operator: negated ? '!' : 'exists', values: [] };
    const operator = this.operator();
    const values = operator === 'in' || operator === 'notin' ? this.valueSet() : this.exactValue();
    const errs = requirementErrors(operator, values);
    if (errs.length > 0) throw new Error(aggregate(errs));
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
    throw new Error(`found '${t.value}', expected: in, notin, =, ==, !=, gt, lt`);
  }

  /** parseExactValue: nothing before `,` or the end is the empty value. */
  private exactValue(): string[] {
    const t = this.peek();
    if (t.kind === 'end' || isOp(t, ',')) return [''];
    this.pos++;
    if (t.kind === 'id') return [t.value];
    throw new Error(`found '${t.value}', expected: identifier`);
  }

  /** parseValues + parseIdentifiersList: `(a,b)`, `()` and empty members, as a sorted set. */
  private valueSet(): string[] {
    const open = this.next();
    if (!isOp(open, '(')) throw new Error(`found '${open.value}' expected: '('`);
    const first = this.peek();
    if (isOp(first, ')')) {
      this.pos++;
      return [''];
    }
    if (first.kind !== 'id' && !isOp(first, ',')) throw new Error(`found '${first.value}', expected: ',', ')' or identifier`);
    const values = new Set<string>();
    for (;;) {
      const t = this.next();
      if (t.kind === 'id') {
        values.add(t.value);
        const t2 = this.peek();
        if (isOp(t2, ',')) continue;
        if (isOp(t2, ')')) break;
        throw new Error(`found '${t2.value}', expected: ',' or ')'`);
      } else if (isOp(t, ',')) {
        if (values.size === 0) values.add('');
        const t2 = this.peek();
        if (isOp(t2, ')')) {
          values.add('');
          break;
        }
        if (isOp(t2, ',')) values.add('');
      } else {
        throw new Error(`found '${t.value}', expected: ',', or identifier`);
      }
    }
    this.pos++; // the ')' the loop stopped at
    return [...values].sort();
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
      if (!has || !/^[+-]?\d+$/.test(value!)) return false;
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

function selectorOf(requirements: LabelRequirement[]): LabelSelector {
  return {
    requirements,
    empty: () => requirements.length === 0,
    matches: (labels) => requirements.every((r) => matchesRequirement(r, labels ?? {})),
  };
}

/** Parses a labelSelector query value; '' or undefined selects everything. */
export function parseLabelSelector(input: string | undefined): LabelSelector {
  return selectorOf(input ? new Parser(tokenize(input)).parse() : []);
}

/** metav1.LabelSelector, as webhooks, ClusterRole aggregation rules and workloads carry it. */
export interface MetaLabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: readonly { key: string; operator: string; values?: readonly string[] }[];
}

/** A metav1.LabelSelector that cannot be a selector (LabelSelectorAsSelector's error). */
export class LabelSelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LabelSelectorError';
  }
}

/** labels.Nothing(): matches no label set, and is not empty. */
const NOTHING: LabelSelector = { requirements: [], empty: () => false, matches: () => false };

const META_OPERATORS: Readonly<Record<string, LabelOperator>> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/** Go's %#v of a []string, as field.Invalid prints one: `[]string{"a", "b"}`. */
const goStrings = (values: readonly string[]) => `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;

/** labels.NewRequirement's checks, with the paths it gives them (`key`, `values`, `values[i]`). */
function newRequirement(key: string, operator: LabelOperator, values: readonly string[]): LabelRequirement {
  const errs: string[] = [];
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length > 0) errs.push(invalidValue('key', key, keyErrs.join('; ')));
  if ((operator === 'in' || operator === 'notin') && values.length === 0) {
    errs.push(`values: Invalid value: ${goStrings(values)}: for 'in', 'notin' operators, values set can't be empty`);
  } else if (operator === '=' && values.length !== 1) {
    errs.push(`values: Invalid value: ${goStrings(values)}: exact-match compatibility requires one single value`);
  } else if ((operator === 'exists' || operator === '!') && values.length !== 0) {
    errs.push(`values: Invalid value: ${goStrings(values)}: values set must be empty for exists and does not exist`);
  }
  errs.push(...requirementErrors(operator, [...values]));
  if (errs.length > 0) throw new LabelSelectorError(aggregate([...new Set(errs)]));
  return { key, operator, values: [...new Set(values)].sort() };
}

/**
 * metav1.LabelSelectorAsSelector: undefined (Go's nil) selects nothing, `{}` everything;
 * matchLabels are `key=value` requirements and matchExpressions' operators map to in, notin,
 * exists and !; all are ANDed. Throws LabelSelectorError for an unknown operator or a requirement
 * labels.NewRequirement refuses (In/NotIn without values, Exists/DoesNotExist with values, a bad
 * key or value).
 */
export function labelSelectorAsSelector(selector: MetaLabelSelector | undefined | null): LabelSelector {
  if (!selector) return NOTHING;
  const requirements: LabelRequirement[] = [];
  // Go ranges over the map in random order; sorted keys make the first error deterministic.
  const matchLabels = selector.matchLabels ?? {};
  for (const key of Object.keys(matchLabels).sort()) requirements.push(newRequirement(key, '=', [matchLabels[key]!]));
  for (const expr of selector.matchExpressions ?? []) {
    const operator = Object.prototype.hasOwnProperty.call(META_OPERATORS, expr.operator) ? META_OPERATORS[expr.operator] : undefined;
    if (!operator) throw new LabelSelectorError(`${JSON.stringify(expr.operator)} is not a valid label selector operator`);
    requirements.push(newRequirement(expr.key, operator, expr.values ?? []));
  }
  // As selector.Add: requirements in key order.
  requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return selectorOf(requirements);
}

/**
 * labels.Selector.String() of a selector made by labelSelectorAsSelector (requirements in key
 * order): `app=web,tier in (a,b),!legacy` — what kube puts in a workload's Scale status.selector.
 */
export function selectorString(selector: LabelSelector): string {
  return selector.requirements
    .map((r) => {
      switch (r.operator) {
        case 'exists':
          return r.key;
        case '!':
          return `!${r.key}`;
        case 'in':
        case 'notin':
          return `${r.key} ${r.operator} (${r.values.join(',')})`;
        case 'gt':
          return `${r.key}>${r.values[0] ?? ''}`;
        case 'lt':
          return `${r.key}<${r.values[0] ?? ''}`;
        default:
          return `${r.key}${r.operator}${r.values[0] ?? ''}`;
      }
    })
    .join(',');
}
