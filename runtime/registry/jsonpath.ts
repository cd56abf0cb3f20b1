/**
 * The small JSONPath subset printer columns, selectable fields and the scale subresource use
 * (as kube's CRD validation allows): `.a.b`, `.a[0]`, `.a[-1]`, `.a[*].b`, `.a['x.y/z']`,
 * `.a[?(@.type=="Ready")].status`, optionally wrapped in `{…}`. Missing fields yield no results;
 * evaluation never throws on data, only on a malformed expression.
 */

type Segment =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'wildcard' }
  | { kind: 'filter'; path: string[]; op: '==' | '!='; value: unknown };

const cache = new Map<string, Segment[]>();

export class JSONPathError extends Error {}

function parseLiteral(raw: string): unknown {
  const text = raw.trim();
  if (/^(["']).*\1$/s.test(text)) return text.slice(1, -1);
  if (text === 'true' || text === 'false') return text === 'true';
  if (text !== '' && !Number.isNaN(Number(text))) return Number(text);
  throw new JSONPathError(`unrecognized literal ${raw}`);
}

function parseBracket(body: string, expr: string): Segment {
  const inner = body.trim();
  if (inner === '*') return { kind: 'wildcard' };
  if (/^-?\d+$/.test(inner)) return { kind: 'index', index: Number(inner) };
  if (/^(["']).*\1$/s.test(inner)) return { kind: 'field', name: inner.slice(1, -1).replace(/\\(.)/g, '$1') };
  const filter = /^\?\(\s*@((?:\.[^.=!\s]+)+)\s*(==|!=)\s*(.+?)\s*\)$/s.exec(inner);
  if (filter) {
    return { kind: 'filter', path: filter[1]!.slice(1).split('.'), op: filter[2] as '==' | '!=', value: parseLiteral(filter[3]!) };
  }
  throw new JSONPathError(`unsupported JSONPath expression ${expr}`);
}

function findClosingBracket(expr: string, from: number): number {
  let quote: string | undefined;
  for (let i = from; i < expr.length; i++) {
    const ch = expr[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === ']') {
      return i;
    }
  }
  throw new JSONPathError(`unterminated [ in ${expr}`);
}

export function parseJSONPath(expression: string): Segment[] {
  const cached = cache.get(expression);
  if (cached) return cached;
  let expr = expression.trim();
  if (expr.startsWith('{') && expr.endsWith('}')) expr = expr.slice(1, -1).trim();
  if (expr.startsWith('$')) expr = expr.slice(1);
  const segments: Segment[] = [];
  let i = 0;
  while (i < expr.length) {
    const ch = expr[i]!;
    if (ch === '.') {
      let j = i + 1;
      while (j < expr.length && expr[j] !== '.' && expr[j] !== '[') j++;
      const name = expr.slice(i + 1, j);
      if (name === '*') segments.push({ kind: 'wildcard' });
      else if (name !== '') segments.push({ kind: 'field', name });
      else if (j < expr.length && expr[j] === '.') throw new JSONPathError(`recursive descent is not supported in ${expression}`);
      i = j;
    } else if (ch === '[') {
      const end = findClosingBracket(expr, i + 1);
      segments.push(parseBracket(expr.slice(i + 1, end), expression));
      i = end + 1;
    } else {
      throw new JSONPathError(`unexpected '${ch}' in JSONPath ${expression}`);
    }
  }
  cache.set(expression, segments);
  return segments;
}

function child(value: unknown, name: string): unknown[] {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, name)) {
    return [(value as Record<string, unknown>)[name]];
  }
  return [];
}

function getPath(value: unknown, path: string[]): unknown {
  let current: unknown = value;
  for (const name of path) {
    const [next] = child(current, name);
    if (next === undefined) return undefined;
    current = next;
  }
  return current;
}

function step(values: unknown[], segment: Segment): unknown[] {
  const out: unknown[] = [];
  for (const value of values) {
    switch (segment.kind) {
      case 'field':
        out.push(...child(value, segment.name));
        break;
      case 'index':
        if (Array.isArray(value)) {
          const idx = segment.index < 0 ? value.length + segment.index : segment.index;
          if (idx >= 0 && idx < value.length) out.push(value[idx]);
        }
        break;
      case 'wildcard':
        if (Array.isArray(value)) out.push(...value);
        else if (value !== null && typeof value === 'object') out.push(...Object.values(value));
        break;
      case 'filter':
        if (Array.isArray(value)) {
          out.push(...value.filter((item) => (getPath(item, segment.path) === segment.value) === (segment.op === '==')));
        }
        break;
      default: {
        const never: never = segment;
        throw new JSONPathError(`unknown segment ${JSON.stringify(never)}`);
      }
    }
  }
  return out;
}

/** Every value the expression selects from obj, in document order. */
export function evaluateJSONPath(obj: unknown, expression: string): unknown[] {
  return parseJSONPath(expression).reduce<unknown[]>((values, segment) => step(values, segment), [obj]);
}

/** The field names of a simple dotted path such as `.spec.replicas`, or undefined if it is not one. */
export function simpleFieldPath(expression: string): string[] | undefined {
  const segments = parseJSONPath(expression);
  if (segments.some((s) => s.kind !== 'field')) return undefined;
  return segments.map((s) => (s as { name: string }).name);
}
