/**
 * Go regular expressions (RE2 syntax: what kube compiles a schema's `pattern` with) as JS RegExps.
 * The pattern is parsed as Go's regexp/syntax parses it (Perl flags) and re-emitted for a `u`
 * RegExp wherever the two differ:
 * - flag groups `(?i)`, `(?s)`, `(?m)`, `(?U)`, `(?i:…)`, `(?-i)`: JS has no inline flags, so `s`
 *   and `m` are rewritten into `.`, `^` and `$`, `U` swaps greediness, and `i` becomes the RegExp's
 *   `i` flag when every case-sensitive part is under it, and case-expanded classes otherwise;
 * - `.` (not `\n`, or anything with `s`), `^`/`$` (text, or lines with `m`: `\n` only), `\A`, `\z`;
 * - `\s` (`[\t\n\f\r ]`), `\d`, `\w`, their negations and `[[:alpha:]]`-style ASCII classes;
 * - `(?P<name>…)`, `\Q…\E`, `\x{10FFFF}`, octal `\123`, `\a`, escaped punctuation (`\:`), a
 *   literal `{`, `}` or `]`, `\pL` and script names (`\p{Greek}`).
 * What Go refuses (lookaround, backreferences, `\Z`, repeat counts over 1000, …) is refused with
 * Go's message, `error parsing regexp: <reason>: \`<fragment>\``.
 *
 * Go's engine runs in linear time; V8's backtracks. A pattern that can match one stretch of a
 * value in two ways inside a loop (`^(a+)+$`, `^([a-z0-9]+-?)*$`) takes exponential time on a
 * near-miss, and one whose loops can split a stretch between them (`^a*a*b$`, `^\s*.*\s*$`,
 * `^[a-z]+[a-z0-9]*x$`, or an unanchored `[a-z]+x`) polynomial time: a value of a few dozen
 * (exponential) or thousand (polynomial) characters then stops the server's event loop (patterns
 * come from CRDs; values from whoever may write the custom resources). re2-ambiguity.ts finds
 * both (sound: when unsure, it says yes); such patterns are matched by re2js, a port of RE2
 * (linear time, Go's syntax, loaded only when one is met). The others, nearly all (Quantity,
 * DNS-1123 names), keep V8's faster RegExp.
 */
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import { mayBacktrackSuperLinearly } from './re2-ambiguity.js';
import { type Range, complement, foldedRanges, rangesSource } from './re2-ranges.js';
import { TextKeyedCache } from './text-cache.js';

export class RE2SyntaxError extends Error {}

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  U: boolean;
}

const MAX_REPEAT = 1000;
const MAX_CP = 0x10ffff;
const DIGIT: Range[] = [[0x30, 0x39]];
const SPACE: Range[] = [[0x09, 0x0a], [0x0c, 0x0d], [0x20, 0x20]];
const WORD: Range[] = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
const POSIX: Record<string, Range[]> = {
  alnum: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]],
  alpha: [[0x41, 0x5a], [0x61, 0x7a]],
  ascii: [[0x00, 0x7f]],
  blank: [[0x09, 0x09], [0x20, 0x20]],
  cntrl: [[0x00, 0x1f], [0x7f, 0x7f]],
  digit: DIGIT,
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]],
  space: [[0x09, 0x0d], [0x20, 0x20]],
  upper: [[0x41, 0x5a]],
  word: WORD,
  xdigit: [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]],
};
const GENERAL_CATEGORY = /^(C|Cc|Cf|Co|Cs|L|Ll|Lm|Lo|Lt|Lu|M|Mc|Me|Mn|N|Nd|Nl|No|P|Pc|Pd|Pe|Pf|Pi|Po|Ps|S|Sc|Sk|Sm|So|Z|Zl|Zp|Zs)$/;

function fail(reason: string, fragment: string): never {
  throw new RE2SyntaxError(`error parsing regexp: ${reason}: \`${fragment}\``);
}

/** A class being built: code point ranges plus JS-native pieces (`\p{…}`). */
interface ClassItems {
  ranges: Range[];
  native: string[];
}

class Translator {
  private pos = 0;
  private out = '';
  private flags: Flags = { i: false, m: false, s: false, U: false };
  private readonly saved: Flags[] = [];
  /** Whether an atom whose matching depends on case was seen with `i` on / off. */
  caseOn = false;
  caseOff = false;
  private canRepeat = false;
  private repeated = false;

  constructor(
    private readonly src: string,
    /** Expand `i` into case-folded classes instead of using the RegExp's `i` flag. */
    private readonly expandCase: boolean,
  ) {}

  translate(): string {
    while (this.pos < this.src.length) this.step();
    if (this.saved.length > 0) fail('missing closing )', this.src);
    return this.out;
  }

  private step(): void {
    const c = this.src[this.pos]!;
    switch (c) {
      case '\\':
        return this.escape();
      case '[':
        return this.charClass();
      case '(':
        return this.openGroup();
      case ')':
        if (this.saved.length === 0) fail('unexpected )', this.src);
        this.flags = this.saved.pop()!;
        this.pos++;
        return this.atom(')');
      case '|':
        this.pos++;
        this.out += '|';
        this.canRepeat = false;
        this.repeated = false;
        return;
      case '.':
        this.pos++;
        return this.atom(this.flags.s ? `[\\u{0}-\\u{${MAX_CP.toString(16)}}]` : '[^\\n]');
      case '^':
        this.pos++;
        return this.atom(this.flags.m ? '(?:^|(?<=\\n))' : '^', true);
      case '$':
        this.pos++;
        return this.atom(this.flags.m ? '(?:$|(?=\\n))' : '$', true);
      case '*':
      case '+':
      case '?':
        return this.repeat(c, 1);
      case '{': {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos));
        if (!m) return this.literal(this.nextCodePoint());
        const min = Number(m[1]);
        const max = m[3] ? Number(m[3]) : undefined;
        if (min > MAX_REPEAT || (max !== undefined && (max > MAX_REPEAT || max < min))) fail('invalid repeat count', m[0]);
        return this.repeat(m[0], m[0].length);
      }
      default:
        return this.literal(this.nextCodePoint());
    }
  }

  private nextCodePoint(): number {
    const cp = this.src.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  /** Where the last atom starts in `out` when it is an assertion (`^`, `$`, `\b`...), else -1. */
  private assertionAt = -1;

  private atom(js: string, assertion = false): void {
    this.assertionAt = assertion ? this.out.length : -1;
    this.out += js;
    this.canRepeat = true;
    this.repeated = false;
  }

  /** `*`, `+`, `?` or `{n,m}`, then an optional `?` (non-greedy; greedy under `U`). */
  private repeat(op: string, length: number): void {
    let text = this.src.slice(this.pos, this.pos + length);
    this.pos += length;
    let lazy = false;
    if (this.src[this.pos] === '?') {
      lazy = true;
      this.pos++;
      text += '?';
    }
    if (this.repeated) fail('invalid nested repetition operator', `${this.lastRepeat}${text}`);
    if (!this.canRepeat) fail('missing argument to repetition operator', text);
    // Go repeats an assertion (`^*`, `\b+`: it matches empty); a JS `u` RegExp refuses a bare one.
    if (this.assertionAt >= 0) this.out = `${this.out.slice(0, this.assertionAt)}(?:${this.out.slice(this.assertionAt)})`;
    this.assertionAt = -1;
    this.out += op + (lazy !== this.flags.U ? '?' : '');
    this.repeated = true;
    this.lastRepeat = text;
  }

  private lastRepeat = '';

  private openGroup(): void {
    const rest = this.src.slice(this.pos);
    const named = /^\(\?P?<([^>]*)>/.exec(rest);
    if (named) {
      if (!/^[A-Za-z0-9_]+$/.test(named[1]!)) fail('invalid named capture', named[0]);
      return this.push(named[0].length, '(');
    }
    if (!rest.startsWith('(?')) return this.push(1, '(');
    const flags = /^\(\?([a-zA-Z-]*)([:)])/.exec(rest);
    if (!flags || !/^[imsU]*(-[imsU]+)?$/.test(flags[1]!) || flags[1] === '' && flags[2] === ')') {
      fail('invalid or unsupported Perl syntax', rest.slice(0, Math.min(rest.length, flags ? flags[0].length : 3)));
    }
    const next = { ...this.flags };
    let on = true;
    for (const f of flags[1]!) {
      if (f === '-') on = false;
      else next[f as keyof Flags] = on;
    }
    if (flags[2] === ')') {
      this.pos += flags[0].length;
      this.flags = next;
      this.canRepeat = false;
      return;
    }
    this.push(flags[0].length, '(?:');
    this.flags = next;
  }

  private push(length: number, js: string): void {
    this.pos += length;
    this.saved.push({ ...this.flags });
    this.out += js;
    this.canRepeat = false;
    this.repeated = false;
  }

  private literal(cp: number): void {
    const folded = foldedRanges([[cp, cp]]);
    const caseful = folded.length > 1 || folded[0]![0] !== folded[0]![1];
    if (caseful) {
      if (this.flags.i) this.caseOn = true;
      else this.caseOff = true;
    }
    if (caseful && this.flags.i && this.expandCase) return this.atom(`[${rangesSource(folded)}]`);
    this.atom(rangesSource([[cp, cp]]));
  }

  private escape(): void {
    const start = this.pos;
    this.pos++;
    if (this.pos >= this.src.length) fail('trailing backslash at end of expression', '');
    const c = this.src[this.pos]!;
    switch (c) {
      case 'A':
        this.pos++;
        return this.atom('^', true);
      case 'z':
        this.pos++;
        return this.atom('$', true);
      case 'b':
      case 'B':
        // Go's \b is ASCII; a JS RegExp with both `i` and `u` counts K (U+212A) and ſ (U+017F)
        // as word characters: a pattern with \b is never given the `i` flag.
        this.caseOff = true;
        this.pos++;
        return this.atom(`\\${c}`, true);
      case 'Q': {
        this.pos++;
        const end = this.src.indexOf('\\E', this.pos);
        const text = this.src.slice(this.pos, end < 0 ? undefined : end);
        this.pos = end < 0 ? this.src.length : end + 2;
        for (const ch of text) this.literal(ch.codePointAt(0)!);
        return;
      }
    }
    this.pos = start;
    const items = this.classEscape();
    if (typeof items === 'number') return this.literal(items);
    this.atom(this.classSource(items, false));
  }

  /**
   * An escape at `pos` (a backslash), inside or outside a class: a code point, or the items of a
   * Perl or Unicode class.
   */
  private classEscape(): number | ClassItems {
    const start = this.pos;
    this.pos++;
    if (this.pos >= this.src.length) fail('trailing backslash at end of expression', '');
    const c = this.src[this.pos]!;
    this.pos++;
    const perl: Record<string, [Range[], boolean]> = { d: [DIGIT, false], D: [DIGIT, true], s: [SPACE, false], S: [SPACE, true], w: [WORD, false], W: [WORD, true] };
    if (perl[c]) {
      const [ranges, negated] = perl[c];
      return { ranges: this.groupRanges(ranges, negated), native: [] };
    }
    const simple: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };
    if (simple[c] !== undefined) return simple[c];
    if (c === 'p' || c === 'P') return { ranges: [], native: [this.unicodeClass(c === 'P', start)] };
    if (c === 'x') return this.hexEscape(start);
    if (c >= '0' && c <= '7') {
      // Go: a single non-zero digit would be a backreference (unsupported); otherwise octal.
      const m = /^[0-7]{0,2}/.exec(this.src.slice(this.pos))![0];
      if (c !== '0' && m === '') fail('invalid escape sequence', this.src.slice(start, this.pos));
      this.pos += m.length;
      return parseInt(c + m, 8);
    }
    const cp = c.codePointAt(0)!;
    if (cp < 0x80 && !/[0-9A-Za-z]/.test(c)) return cp;
    return fail('invalid escape sequence', this.src.slice(start, this.pos));
  }

  private hexEscape(start: number): number {
    const braced = /^\{([0-9A-Fa-f]+)\}/.exec(this.src.slice(this.pos));
    const plain = /^[0-9A-Fa-f]{2}/.exec(this.src.slice(this.pos));
    const digits = braced ? braced[1]! : plain?.[0];
    if (digits === undefined) fail('invalid escape sequence', this.src.slice(start, this.pos + 1));
    this.pos += braced ? braced[0].length : 2;
    const cp = parseInt(digits, 16);
    if (cp > MAX_CP) fail('invalid escape sequence', this.src.slice(start, this.pos));
    return cp;
  }

  /** `\pL`, `\p{Greek}`, `\p{^Lu}`, `\PL` as JS `\p{…}` / `\P{…}`. */
  private unicodeClass(negated: boolean, start: number): string {
    let name: string;
    if (this.src[this.pos] === '{') {
      const end = this.src.indexOf('}', this.pos);
      if (end < 0) fail('invalid character class range', this.src.slice(start));
      name = this.src.slice(this.pos + 1, end);
      this.pos = end + 1;
    } else {
      if (this.pos >= this.src.length) fail('invalid character class range', this.src.slice(start));
      name = String.fromCodePoint(this.nextCodePoint());
    }
    if (name.startsWith('^')) {
      negated = !negated;
      name = name.slice(1);
    }
    if (!/^[A-Za-z_]+$/.test(name)) fail('invalid character class range', this.src.slice(start, this.pos));
    if (this.flags.i) this.caseOn = true;
    else this.caseOff = true;
    const property = GENERAL_CATEGORY.test(name) || name === 'Any' ? name : `Script=${name}`;
    return `\\${negated ? 'P' : 'p'}{${property}}`;
  }

  /** A bracketed class, `[…]` or `[^…]`, with ranges, escapes and `[:name:]` ASCII classes. */
  private charClass(): void {
    const start = this.pos;
    this.pos++;
    let negated = false;
    if (this.src[this.pos] === '^') {
      negated = true;
      this.pos++;
    }
    const items: ClassItems = { ranges: [], native: [] };
    let first = true;
    for (;;) {
      if (this.pos >= this.src.length) fail('missing closing ]', this.src.slice(start));
      if (this.src[this.pos] === ']' && !first) break;
      first = false;
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.src.slice(this.pos));
      if (posix) {
        const ranges = POSIX[posix[2]!];
        if (!ranges) fail('invalid character class range', posix[0]);
        items.ranges.push(...this.groupRanges(ranges, posix[1] === '^'));
        this.pos += posix[0].length;
        continue;
      }
      const lo = this.classAtom();
      if (typeof lo !== 'number') {
        items.ranges.push(...lo.ranges);
        items.native.push(...lo.native);
        continue;
      }
      if (this.src[this.pos] === '-' && this.src[this.pos + 1] !== ']' && this.pos + 1 < this.src.length) {
        const rangeStart = this.pos;
        this.pos++;
        const hi = this.classAtom();
        if (typeof hi !== 'number' || hi < lo) fail('invalid character class range', this.src.slice(rangeStart - 1, this.pos));
        items.ranges.push([lo, hi]);
      } else items.ranges.push([lo, lo]);
    }
    this.pos++;
    if (this.flags.i) this.caseOn = true;
    else this.caseOff = true;
    this.atom(this.classSource(items, negated));
  }

  /**
   * A Perl (`\w`, `\W`...) or ASCII (`[:alpha:]`, `[:^alpha:]`) class as Go's appendGroup makes
   * it: under `i`, the class case-folded first and then negated (`(?i)\W` holds neither K nor
   * U+212A), a set closed under case folding, which folding again (the RegExp's `i` flag, or the
   * expanded classes) leaves as it is. Without `i`, the class as written, which the `i` flag must
   * not fold (`\W` holds U+212A, and folded would hold k): marked case-sensitive.
   */
  private groupRanges(ranges: readonly Range[], negated: boolean): Range[] {
    if (this.flags.i) {
      const folded = foldedRanges(ranges);
      return negated ? complement(folded) : folded;
    }
    this.caseOff = true;
    return negated ? complement(ranges) : [...ranges];
  }

  private classAtom(): number | ClassItems {
    if (this.src[this.pos] === '\\') return this.classEscape();
    return this.nextCodePoint();
  }

  private classSource(items: ClassItems, negated: boolean): string {
    const ranges = this.flags.i && this.expandCase ? foldedRanges(items.ranges) : items.ranges;
    return `[${negated ? '^' : ''}${rangesSource(ranges)}${items.native.join('')}]`;
  }
}

export interface TranslatedRE2 {
  source: string;
  flags: string;
}

/** The JS source and flags matching what the Go pattern matches; throws RE2SyntaxError when Go would not compile it. */
export function translateRE2(pattern: string): TranslatedRE2 {
  const plain = new Translator(pattern, false);
  const source = plain.translate();
  if (!plain.caseOn) return { source, flags: 'u' };
  if (!plain.caseOff) return { source, flags: 'iu' };
  return { source: new Translator(pattern, true).translate(), flags: 'u' };
}

/**
 * Compiled patterns by pattern text (or the error compiling it raised). A set of schemas repeats
 * the same few patterns (a Quantity's, a Condition's fields') in every kind, and translating one is
 * the costly part. The RegExps carry no g or y flag, so they keep no state and one is shared.
 * Bounded (text-cache.ts): 2,048 patterns and 1,000,000 characters of pattern text (a server sees
 * patterns of CRDs it is given, and one pattern may be as long as a request).
 */
const compiled = new TextKeyedCache<RegExp | RE2SyntaxError>(2048, 1_000_000);

/** How many patterns and characters of pattern text are kept (for tests of the bounds). */
export function compiledRE2Size(): { patterns: number; chars: number } {
  const { entries, chars } = compiled.size;
  return { patterns: entries, chars };
}

/** A RegExp testing what Go's regexp.MatchString tests with this pattern. */
export function compileRE2(pattern: string): RegExp {
  const known = compiled.get(pattern);
  if (known instanceof RegExp) return known;
  if (known) throw known;
  try {
    const re = compileUncached(pattern);
    compiled.set(pattern, re);
    return re;
  } catch (err) {
    if (err instanceof RE2SyntaxError) compiled.set(pattern, err);
    throw err;
  }
}

/** re2js once loaded, or why it could not be (then every pattern that needs it is refused). */
let re2js: { engine: typeof RE2JS } | { error: string } | undefined;

/**
 * re2js, loaded on first need. A missing or broken module is not a reason to match with V8
 * after all (that is the super-linear matching the engine is there to prevent): it is logged
 * once, loudly, and every pattern that needs it is refused (linearEngine).
 */
function loadRE2JS(): { engine: typeof RE2JS } | { error: string } {
  if (re2js) return re2js;
  try {
    const engine = (createRequire(import.meta.url)('re2js') as { RE2JS?: typeof RE2JS }).RE2JS;
    if (typeof engine?.compile !== 'function') throw new Error('it has no RE2JS.compile');
    re2js = { engine };
  } catch (err) {
    re2js = { error: `the linear-time regular expression engine re2js cannot be loaded: ${(err as Error).message.split('\n')[0]}` };
    process.emitWarning(`${re2js.error}; patterns that V8 could match in super-linear time are refused until it is installed (npm install)`, { code: 'KGEN_RE2JS_UNAVAILABLE' });
  }
  return re2js;
}

/**
 * A RegExp whose test() runs Go's pattern on re2js (linear time). Only test() is used on
 * compiled patterns (validate.ts); exec() (and with it match, replace...) goes the same way.
 */
class LinearRegExp extends RegExp {
  readonly #re2: RE2JS;

  constructor(source: string, flags: string, re2: RE2JS) {
    super(source, flags);
    this.#re2 = re2;
  }

  get engine(): RE2JS {
    return this.#re2;
  }

  override test(input: string): boolean {
    return this.#re2.test(String(input));
  }

  override exec(input: string): RegExpExecArray | null {
    return this.#re2.exec(String(input)) as RegExpExecArray | null;
  }
}

/**
 * re2js's program for a Go pattern, or undefined when re2js does not take it (then V8 matches
 * it). Without re2js the pattern is refused (RE2SyntaxError, so a CRD holding it is refused when
 * written and a stored one refuses every value: fail closed), never matched by V8.
 */
function linearEngine(pattern: string): RE2JS | undefined {
  const loaded = loadRE2JS();
  if ('error' in loaded) throw new RE2SyntaxError(`error parsing regexp: ${loaded.error}; this pattern needs it (V8 could take super-linear time on it): \`${pattern}\``);
  try {
    return loaded.engine.compile(pattern);
  } catch {
    return undefined;
  }
}

function compileUncached(pattern: string): RegExp {
  const { source, flags } = translateRE2(pattern);
  try {
    const linear = mayBacktrackSuperLinearly(source, flags) ? linearEngine(pattern) : undefined;
    if (linear) {
      // Still compiled by V8 once, so a pattern V8 cannot hold is refused as before.
      new RegExp(source, flags).test('');
      return new LinearRegExp(source, flags, linear);
    }
    const re = new RegExp(source, flags);
    // V8 compiles a RegExp at its first use, and only then refuses one that is too large: use it
    // once here, so such a pattern is a syntax error now (a CRD refused when written), not an
    // exception in every later validation of a value against it.
    // (V8 compiles for one-byte and for two-byte subjects separately: both.)
    re.test('');
    re.test('\u0100');
    return re;
  } catch (err) {
    if (err instanceof RE2SyntaxError) throw err;
    const reason = (err instanceof Error ? err.message : String(err)).replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
    return fail(reason.toLowerCase(), pattern);
  }
}

/**
 * Every match of a Go pattern in s, in order (Go's FindAllString; limit < 0: all), on the same
 * engine compileRE2 chose: re2js for a pattern that could backtrack super-linearly, else V8.
 */
export function findAllRE2(pattern: string, s: string, limit: number): string[] {
  const out: string[] = [];
  if (limit === 0) return out;
  const re = compileRE2(pattern);
  if (re instanceof LinearRegExp) {
    const m = re.engine.matcher(s);
    while (m.find()) {
      out.push(m.group() ?? '');
      if (limit > 0 && out.length >= limit) break;
    }
    return out;
  }
  for (const m of s.matchAll(new RegExp(re.source, `${re.flags}g`))) {
    out.push(m[0]);
    if (limit > 0 && out.length >= limit) break;
  }
  return out;
}

