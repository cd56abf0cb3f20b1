/**
 * Integers a double cannot hold. kube keeps int64 values exactly (in custom resources too); a
 * JavaScript number is a float64, exact for whole numbers up to 2^53 only, so JSON.parse reads
 * `9007199254740993` as 9007199254740992. The server refuses such a literal rather than store
 * another number (serializer.ts and the other decoders); the client (packages/client) notes the
 * objects it read with one, so as not to write the other number back to a cluster.
 *
 * Here, at the bottom of the layers, because both the server and the client need it.
 */

/**
 * Sixteen digits in a row: an integer whose double may be another integer has them (2^53 has 16
 * digits). Text inside strings can pass; the scan decides. Every JSON body is tested, so this is
 * the cheapest test that holds (0.4 µs for 1 KB, where a test anchored on `:` takes 1 µs).
 */
const SIXTEEN_DIGITS = /[0-9]{16}/;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const MAX_EXACT = 2 ** 53;

/** An integer a double cannot hold, as written, and where it stands (`spec.items[2].size`). */
export interface InexactInteger {
  literal: string;
  path: string;
  /** The same place as keys and indexes, when the scan that found it kept them. */
  places?: readonly (string | number)[];
}

/** Whether the whole number `n` is an int64 whose double is another number. */
export function isInexactInt64(n: bigint): boolean {
  return n >= INT64_MIN && n <= INT64_MAX && BigInt(Number(n)) !== n;
}

/** An integer literal (no fraction, no exponent) in int64 whose double is another number. */
function isInexactIntegerLiteral(literal: string): boolean {
  if (!/^-?[0-9]+$/.test(literal)) return false;
  // JSON has no leading zeros: more than 19 digits is beyond int64 (kube too reads a float64).
  if (literal.length - (literal.charCodeAt(0) === 0x2d ? 1 : 0) > 19) return false;
  const v = Number(literal);
  if (v > -MAX_EXACT && v < MAX_EXACT) return false;
  return isInexactInt64(BigInt(literal));
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The integer literals of `text` (a JSON text JSON.parse accepted) that kube keeps exactly (an
 * int64) and a double cannot (beyond 2^53), in text order, at most `limit`; none for most texts,
 * decided by one regular expression. Literals beyond int64 are left alone: kube too reads them as
 * float64. One pass that keeps only the stack of places (a 2.5 MB list of 16-digit numbers takes
 * ~30 ms). A repeated key's earlier value counts too, though JSON.parse drops it.
 */
export function inexactIntegersOf(text: string, limit = Infinity): InexactInteger[] {
  const found: InexactInteger[] = [];
  if (!SIXTEEN_DIGITS.test(text)) return found;
  scanJSON<ScanFrame>(text, [], () => ({ key: undefined, index: 0 }), {
    literal(start, end, stack) {
      if (end - start < 16) return false;
      const literal = text.slice(start, end);
      if (!isInexactIntegerLiteral(literal)) return false;
      const places = stack.map(placeIn);
      found.push({ literal, path: pathOf(places), places });
      return found.length >= limit;
    },
  });
  return found;
}

/** A container being scanned: its current key (an object's) or index (a list's). */
export interface ScanFrame {
  /** An object's current key, or undefined for a list. */
  key: string | undefined;
  /** A list's current index. */
  index: number;
}

/** The place of frame's current value in it. */
export const placeIn = (frame: ScanFrame): string | number => (frame.key === undefined ? frame.index : frame.key);

/**
 * One pass over `text` (a JSON text JSON.parse accepted) keeping the stack of containers in
 * `stack` (the caller's, empty), for the scanners of number literals (here and
 * validation/json-literals.ts). `frame` makes a
 * container's frame (`parent` is the enclosing one); `open` is called as a container starts at
 * the top frame's current place, before its frame is pushed; `literal` for each number literal
 * (text.slice(start, end)) standing as a value, and the scan stops when it answers true.
 */
export function scanJSON<F extends ScanFrame>(
  text: string,
  stack: F[],
  frame: (parent: F | undefined) => F,
  hooks: { open?(stack: F[]): void; literal(start: number, end: number, stack: F[]): boolean },
): void {
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (expectKey) {
        stack[stack.length - 1]!.key = decodeString(text, i, end);
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      // { or [
      hooks.open?.(stack);
      stack.push(frame(stack[stack.length - 1]));
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
      expectKey = false;
    } else if (c === 0x2c) {
      const top = stack[stack.length - 1];
      if (top !== undefined) {
        if (top.key === undefined) top.index++;
        else expectKey = true;
      }
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < text.length && isNumberChar(text.charCodeAt(j))) j++;
      if (hooks.literal(i, j, stack)) return;
      i = j - 1;
    }
  }
}

/** The first of inexactIntegersOf(text), or undefined. */
export function inexactIntegerOf(text: string): InexactInteger | undefined {
  return inexactIntegersOf(text, 1)[0];
}

/** `spec.items[2].size` for the places. */
export function pathOf(places: readonly (string | number)[]): string {
  let path = '';
  for (const place of places) path += typeof place === 'number' ? `[${place}]` : path === '' ? place : `.${place}`;
  return path;
}

/**
 * kgen's 400 for such an integer. kgen holds JSON numbers as doubles; it refuses a number it
 * would store as another one, where kube-apiserver keeps it.
 */
export function inexactIntegerMessage(found: InexactInteger, language = 'json'): string {
  const at = found.path === '' ? '' : ` at ${found.path}`;
  return `${language}: number ${found.literal}${at} cannot be kept exactly: kgen holds numbers as float64, exact for whole numbers up to 2^53 (9007199254740992); it refuses rather than store another number`;
}

/** A character of a JSON number literal (the scanners here and in validation/json-literals.ts). */
export function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}

/** The index of the closing quote of the string opening at i. */
export function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j;
  }
  return text.length;
}

/** The JSON string between the quotes at start and end, decoded. */
export function decodeString(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end);
  return raw.includes('\\') ? (JSON.parse(text.slice(start, end + 1)) as string) : raw;
}
