/**
 * Go's fmt rendering of JSON values, so messages read byte-for-byte like kube-apiserver's:
 * %v for numbers and booleans, %q (strconv.Quote) for strings and %#v for maps and slices
 * (`map[string]interface {}{"name":"a"}`), as field.Error.ErrorBody prints a bad value.
 */

const INT64_LIMIT = 2 ** 63;

/** A JSON number as Go prints it after decoding: integers as int64, others as float64 with %v. */
export function goNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < INT64_LIMIT) return BigInt(n).toString();
  return goFloat(n);
}

/**
 * float64 with %v: strconv 'g' with the shortest precision, which switches to exponent form when the
 * decimal exponent is < -4 or >= 6 (so 1e6 prints as `1e+06`), exponent at least two digits.
 */
export function goFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mantissa, expPart] = f.toExponential().split('e');
  const exp = Number(expPart);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  return String(f);
}

const PRINTABLE = /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u;

/** strconv.Quote: double quotes, Go escapes, printable Unicode kept as is. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    out += quoteRune(ch, cp);
  }
  return out + '"';
}

function quoteRune(ch: string, cp: number): string {
  switch (ch) {
    case '"':
      return '\\"';
    case '\\':
      return '\\\\';
    case '\x07':
      return '\\a';
    case '\b':
      return '\\b';
    case '\f':
      return '\\f';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    case '\v':
      return '\\v';
  }
  if (cp === 0x20 || (cp > 0x20 && cp < 0x7f)) return ch;
  if (cp < 0x20 || cp === 0x7f) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp >= 0xd800 && cp <= 0xdfff) return '\ufffd'; // a lone surrogate decodes to U+FFFD in Go
  if (PRINTABLE.test(ch)) return ch;
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\U${cp.toString(16).padStart(8, '0')}`;
}

/** %#v of a decoded JSON value (map[string]interface{}, []interface{}, scalars). */
export function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  switch (typeof v) {
    case 'string':
      return goQuote(v);
    case 'number':
      return goNumber(v);
    case 'boolean':
      return String(v);
  }
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  const obj = v as Record<string, unknown>;
  const entries = Object.keys(obj)
    .sort()
    .map((k) => `${goQuote(k)}:${goSharpV(obj[k])}`);
  return `map[string]interface {}{${entries.join(', ')}}`;
}

/** A bad value as field.Error.ErrorBody prints it: %v for numbers/bools, %q for strings, %#v otherwise. */
export function goBadValue(v: unknown): string {
  if (v === null || v === undefined) return '"null"';
  switch (typeof v) {
    case 'string':
      return goQuote(v);
    case 'number':
      return goNumber(v);
    case 'boolean':
      return String(v);
  }
  return goSharpV(v);
}

/** %#v of a Go map[string]string: `map[string]string{"a":"b", "c":"d"}`, `map[string]string(nil)` when absent. */
export function goStringMap(m: unknown): string {
  if (m === null || m === undefined || typeof m !== 'object') return 'map[string]string(nil)';
  const obj = m as Record<string, unknown>;
  return `map[string]string{${Object.keys(obj)
    .sort()
    .map((k) => `${goQuote(k)}:${goQuote(String(obj[k]))}`)
    .join(', ')}}`;
}

/** %#v of a Go []string: `[]string{"a", "b"}`, `[]string(nil)` when absent. */
export function goStringSlice(v: unknown): string {
  if (!Array.isArray(v)) return '[]string(nil)';
  return `[]string{${v.map((x) => goQuote(String(x))).join(', ')}}`;
}

/**
 * %#v of a metav1.LabelSelector value, as field.Invalid prints a *LabelSelector (dereferenced; the
 * value type has no String method): `v1.LabelSelector{MatchLabels:map[string]string{"app":"a"},
 * MatchExpressions:[]v1.LabelSelectorRequirement(nil)}`.
 */
export function goLabelSelector(sel: unknown): string {
  const s = (sel ?? {}) as { matchLabels?: unknown; matchExpressions?: unknown };
  const exprs = Array.isArray(s.matchExpressions)
    ? `[]v1.LabelSelectorRequirement{${s.matchExpressions
        .map((e: { key?: unknown; operator?: unknown; values?: unknown }) => `v1.LabelSelectorRequirement{Key:${goQuote(String(e?.key ?? ''))}, Operator:${goQuote(String(e?.operator ?? ''))}, Values:${goStringSlice(e?.values)}}`)
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${goStringMap(s.matchLabels)}, MatchExpressions:${exprs}}`;
}

/** %#v of an intstr.IntOrString value: `intstr.IntOrString{Type:1, IntVal:0, StrVal:"25%"}`. */
export function goIntOrString(v: unknown): string {
  if (typeof v === 'string') return `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v)}}`;
  const n = typeof v === 'number' ? v : 0;
  return `intstr.IntOrString{Type:0, IntVal:${goNumber(n)}, StrVal:""}`;
}

/**
 * %+v of a decoded JSON value (map[string]interface{} and friends), as kube prints a strategic
 * merge patch in its error: `map[spec:map[replicas:3]]`, keys sorted, strings bare, `<nil>`.
 */
export function goPlusV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goPlusV).join(' ')}]`;
  const o = v as Record<string, unknown>;
  return `map[${Object.keys(o).sort().map((k) => `${k}:${goPlusV(o[k])}`).join(' ')}]`;
}
