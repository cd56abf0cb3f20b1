/**
 * JSON numbers beyond float64. JSON.parse turns `1e400` (or a 309-digit integer) into Infinity,
 * which JSON.stringify would store as null; kube's decoder refuses such a body instead of storing
 * something the client did not send. Used for request bodies (serializer.ts) and for the JSON
 * bytes inside protobuf (RawExtension, FieldsV1; protobuf.ts).
 */

/**
 * Number literals JSON.parse may turn into Infinity: an exponent of three digits or more, or an
 * integer of 309 digits or more. A cheap test of the raw text; only a body that passes it is
 * walked for the values themselves.
 */
const EXPONENT_OF_THREE_DIGITS = /[0-9][eE][+-]?[0-9]{3}/;
const DIGITS_309 = /[0-9]{309}/;

/** The first number in value that is not finite (JSON beyond float64, YAML's .inf and .nan), without recursion. */
export function firstNonFiniteNumber(value: unknown): number | undefined {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return v;
    } else if (typeof v === 'object' && v !== null) {
      for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push(child);
    }
  }
  return undefined;
}

/**
 * Go's decode error for a number of `text` (parsed as `value`) beyond float64, or undefined when
 * every number is in range: `json: cannot unmarshal number 1e400 into Go value of type float64`.
 */
export function numberOutOfRangeError(text: string, value: unknown): string | undefined {
  if (!EXPONENT_OF_THREE_DIGITS.test(text) && (text.length < 309 || !DIGITS_309.test(text))) return undefined;
  if (firstNonFiniteNumber(value) === undefined) return undefined;
  const literal = /-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/g;
  let shown = 'out of range';
  for (let m = literal.exec(text); m !== null; m = literal.exec(text)) {
    if (!Number.isFinite(Number(m[0]))) {
      shown = m[0].length > 40 ? `${m[0].slice(0, 40)}...` : m[0];
      break;
    }
  }
  return `json: cannot unmarshal number ${shown} into Go value of type float64`;
}
