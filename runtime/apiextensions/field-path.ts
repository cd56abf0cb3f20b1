/**
 * cel.ValidFieldPath (apiextensions-apiserver pkg/apiserver/schema/cel/validation.go): a JSON path
 * of `.name` and `['quoted name']` steps through a structural schema's properties (or a map's
 * additionalProperties), as x-kubernetes-validations fieldPath and spec.versions[].selectableFields
 * use it. Returns the field.Path string it names and the schema it reaches, or kube's error text.
 */
import { isObject } from './structural-rules.js';

type Props = Record<string, unknown>;

export type FieldPathResult = { path: string; root: string; schema: Props | undefined } | { error: string };

const ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

/** unescapeSingleQuote. */
function unescape(s: string): string | { error: string } {
  let err: string | undefined;
  const out = s.replace(/\\./g, (m) => {
    const r = ESCAPES[m[1]!];
    if (r === undefined) err ??= `invalid escape char ${m}`;
    return r ?? '';
  });
  return err ? { error: err } : out;
}

/** The scanner's tokens: '.', '[', ']' alone, single-quoted strings whole, other text between them. */
function tokens(jsonPath: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < jsonPath.length) {
    if (jsonPath[i] === "'") {
      let j = i + 1;
      while (j < jsonPath.length && !(jsonPath[j] === "'" && jsonPath[j - 1] !== '\\')) j++;
      out.push(jsonPath.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    if ('.[]'.includes(jsonPath[i]!)) {
      out.push(jsonPath[i]!);
      i++;
      continue;
    }
    let j = i;
    while (j < jsonPath.length && !'.[]'.includes(jsonPath[j]!)) j++;
    out.push(jsonPath.slice(i, j));
    i = j;
  }
  return out;
}

/** field.Path's String(): children joined by dots, keys in brackets. */
function child(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

export function validFieldPath(jsonPath: string, schema: Props | undefined, allowArrayNotation = true): FieldPathResult {
  let path = '';
  let root = '';
  let s: Props | undefined = schema;
  const step = (name: string): string | undefined => {
    if (s && isObject(s.properties)) {
      path = child(path, name);
      if (!root) root = name;
      const next = (s.properties as Props)[name];
      if (!isObject(next)) return 'does not refer to a valid field';
      s = next;
    } else if (s && isObject(s.additionalProperties)) {
      path = `${path}[${name}]`;
      if (!root) root = `[${name}]`;
      s = s.additionalProperties;
    } else return 'does not refer to a valid field';
    return undefined;
  };
  const toks = tokens(jsonPath);
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i]!;
    if (tok === '[') {
      if (!allowArrayNotation) return { error: 'array notation is not allowed' };
      const quoted = toks[++i];
      if (quoted === undefined) return { error: 'unexpected end of JSON path' };
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) return { error: `expected single quoted string but got ${quoted}` };
      const name = unescape(quoted.slice(1, -1));
      if (typeof name !== 'string') return { error: `invalid string literal: ${name.error}` };
      const err = step(name);
      if (err) return { error: err };
      const close = toks[++i];
      if (close === undefined) return { error: 'unexpected end of JSON path' };
      if (close !== ']') return { error: `expected ] but got ${close}` };
    } else if (tok === '.') {
      const name = toks[++i];
      if (name === undefined) return { error: 'unexpected end of JSON path' };
      const err = step(name);
      if (err) return { error: err };
    } else return { error: `expected [ or . but got: ${tok}` };
  }
  return { path, root, schema: s };
}
