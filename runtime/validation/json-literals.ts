/**
 * The text of the JSON number literals whose value JSON.parse does not keep, for the Go decoding
 * of built-in kinds (go-decode.ts). Go's encoding/json decodes a number into an integer field with
 * strconv.ParseInt on the literal's text, so `1.0`, `1e3` and `-0.0` are refused though their
 * values are whole, `9223372036854775807` fits an int64 though its double does not, and the error
 * prints the literal (`number 1.50`). JSON.parse keeps only the double.
 *
 * Most bodies hold no such literal, so the text is first tested with one regular expression (a
 * literal with a fraction or an exponent, or of 16 digits or more, standing as a value: after `:`,
 * `,` or `[`, before `,`, `}` or `]`); only a body that passes is scanned, once, for those
 * literals and where they are (a tree the decoder walks beside the value: no paths are built). Text inside strings can pass the test (`"a:1.0,"`), never fail it:
 * the scan is what decides.
 */
import { placeIn, scanJSON, type ScanFrame } from '../api/json-integers.js';

/**
 * A literal that may not be what its double says, standing as a value. Each digit run is matched
 * atomically (`(?=(D+))\1`), so the test is linear whatever the text holds (a plain `[0-9]+`
 * followed by alternatives that also start with digits backtracks quadratically through a long
 * run of digits inside a string).
 */
const LITERAL_THAT_MATTERS =
  /[:,[][ \t\r\n]*-?(?=([0-9]+))\1(?:\.(?=([0-9]+))\2(?:[eE][+-]?(?=([0-9]+))\3)?|[eE][+-]?(?=([0-9]+))\4|(?<=[0-9]{16}))[ \t\r\n]*[,}\]]/;

/**
 * Where the literals are: a tree following the body's objects (by key) and lists (by index), only
 * as deep as some literal is; `literal` is the text of the number at that place. The decoder
 * walks it beside the value and leaves it as soon as no literal lies below.
 */
export interface NumberLiterals {
  literal?: string;
  children?: Map<string | number, NumberLiterals>;
}

/** A literal JSON.parse may not keep: a fraction, an exponent, or 16 digits and more. */
export function matters(literal: string): boolean {
  for (let i = 0; i < literal.length; i++) {
    const c = literal.charCodeAt(i);
    if (c === 0x2e || c === 0x65 || c === 0x45) return true;
  }
  return literal.length - (literal.charCodeAt(0) === 0x2d ? 1 : 0) >= 16;
}

interface Frame extends ScanFrame {
  /** Where this container stands in its parent (undefined at the root). */
  at: string | number | undefined;
  /** Its node in the tree, made when a literal is found below. */
  node: NumberLiterals | undefined;
}

/**
 * The literals of `text` (a JSON text JSON.parse accepted) that JSON.parse may not keep, as a
 * tree; undefined when there is none (the common case, decided by one regular expression). A
 * repeated key's later value replaces the earlier one's literals, as in JSON.parse. One pass;
 * the tree holds only the places on the way to a literal.
 */
export function numberLiteralsOf(text: string): NumberLiterals | undefined {
  if (!LITERAL_THAT_MATTERS.test(text)) return undefined;
  let root: NumberLiterals | undefined;
  const stack: Frame[] = [];
  /** The node of stack[i], made (with its parents) when missing. */
  const nodeOf = (i: number): NumberLiterals => {
    const frame = stack[i]!;
    if (frame.node !== undefined) return frame.node;
    if (i === 0) return (frame.node = root = {});
    const node: NumberLiterals = {};
    (nodeOf(i - 1).children ??= new Map()).set(frame.at!, node);
    frame.node = node;
    return node;
  };
  /** A value starts at the top frame's current place: what an earlier value of a repeated key left there goes. */
  const replaced = () => {
    const top = stack[stack.length - 1];
    if (top?.node?.children !== undefined) top.node.children.delete(placeIn(top));
  };
  scanJSON<Frame>(text, stack, (top) => ({ key: undefined, index: 0, at: top === undefined ? undefined : placeIn(top), node: undefined }), {
    open: replaced,
    literal(start, end) {
      if (stack.length === 0) return false;
      const literal = text.slice(start, end);
      if (matters(literal)) {
        const top = stack.length - 1;
        (nodeOf(top).children ??= new Map()).set(placeIn(stack[top]!), { literal });
      } else {
        replaced();
      }
      return false;
    },
  });
  return root;
}

const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * What Go's decoder answers for the literal into an integer type: `number <literal>` when
 * strconv.ParseInt refuses it (a fraction or an exponent, or beyond int64) or it overflows int32;
 * `exact` when it decodes in Go but its double is another number (beyond 2^53), which kgen, keeping
 * JSON numbers as doubles, cannot store as sent; undefined when it decodes and is kept.
 */
export function integerLiteralError(literal: string, goType: 'int32' | 'int64'): string | 'exact' | undefined {
  if (!/^-?[0-9]+$/.test(literal)) return `number ${literal}`;
  // JSON has no leading zeros, so more than 19 digits is beyond int64 (and a BigInt of a 3 MB
  // literal costs ~0.5 s: V8's parse is not linear).
  if (literal.length - (literal.charCodeAt(0) === 0x2d ? 1 : 0) > 19) return `number ${literal}`;
  const n = BigInt(literal);
  if (goType === 'int32' ? n < INT32_MIN || n > INT32_MAX : n < INT64_MIN || n > INT64_MAX) return `number ${literal}`;
  return BigInt(Number(literal)) === n ? undefined : 'exact';
}
