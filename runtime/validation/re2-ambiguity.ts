/**
 * Whether V8's backtracking matcher may take super-linear time on a translated Go pattern (the JS
 * `u` source re2.ts emits), so that re2.ts routes it to re2js (linear time, Go's answers).
 *
 * Backtracking explores every path of the pattern's automaton that reads a prefix of the value; a
 * near-miss value makes it explore all of them. Their number grows
 * - exponentially when one state can loop back to itself in two different ways on the same word
 *   (`^(a+)+$`, `^(a|a)*$`: "EDA" in Weber and Seidl's terms, the star-height/ambiguity analysis of
 *   ReDoS checkers such as recheck), and
 * - polynomially when two different looping states p and q read the same word v as p→p, p→q and
 *   q→q ("IDA"): the value can be split between the two loops in as many ways as it is long
 *   (`^a*a*$`, `^\s*.*\s*$`, `^[a-z]+[a-z0-9]*x$`; each further such loop multiplies by n again).
 *   An unanchored pattern is tried from every start: a leading loop on any character.
 * Neither happens when a mandatory character outside both loops' sets sits between them: Quantity's
 * `[0-9]+(\.[0-9]*)?` (the `\.`), DNS-1123 subdomains' `(\.[a-z0-9]…)*` (the `\.`).
 *
 * The check runs on the Glushkov (position) automaton, with one position per character set and
 * duplicate edges kept (nested loops `(a+)+` reach `a` twice: ambiguous at once), over the product
 * of the automaton with itself: for p on a loop, F(p) = pairs reachable from (p,p), R(p) = pairs
 * from which (p,p) is reachable. EDA: an off-diagonal pair in F(p) ∩ R(p). IDA (over-approximated,
 * so sound): p ≠ q with (p,q) ∈ F(p) ∩ R(q) (p→p and p→q on one word, p→q and q→q on another).
 * It over-approximates in the safe direction: assertions (`^` inside, `$`, `\b`, lookarounds) are
 * treated as matching anywhere, `\p{…}` as any character, bounded repeats over MAX_UNROLL as
 * unbounded, and a pattern too large to analyse (MAX_POSITIONS), a loop whose body can match empty,
 * or anything not parsed here counts as ambiguous. Compile-time only; the answer is cached with the
 * compiled pattern.
 */
import { type Range, complement, foldedRanges, mergeRanges } from './re2-ranges.js';

const ALL: Range[] = [[0, 0x10ffff]];
/** Bounded repeats up to this count are unrolled; larger ones are analysed as unbounded. */
const MAX_UNROLL = 10;
/** Patterns with loops and more positions than this (after unrolling) are not analysed: ambiguous. */
const MAX_POSITIONS = 160;
/** Positions built at most (unrolled nested bounded repeats grow as a product): beyond, ambiguous. */
const MAX_BUILT = 20_000;
/**
 * Steps of the product search (pair transitions looked at) before giving up: ambiguous. Kube's
 * Quantity pattern takes ~850; a hostile pattern would otherwise cost seconds at compile time.
 */
const MAX_STEPS = 400_000;

type Node =
  | { k: 'set'; ranges: Range[] }
  | { k: 'empty'; start?: boolean }
  | { k: 'seq'; items: Node[] }
  | { k: 'alt'; alts: Node[] }
  | { k: 'rep'; min: number; max: number; body: Node };

class Unsure extends Error {}

class Parser {
  pos = 0;
  constructor(private readonly s: string, private readonly fold: boolean) {}

  parse(): Node {
    const n = this.alt();
    if (this.pos < this.s.length) throw new Unsure();
    return n;
  }

  private alt(): Node {
    const alts = [this.seq()];
    while (this.s[this.pos] === '|') {
      this.pos++;
      alts.push(this.seq());
    }
    return alts.length === 1 ? alts[0]! : { k: 'alt', alts };
  }

  private seq(): Node {
    const items: Node[] = [];
    while (this.pos < this.s.length && this.s[this.pos] !== '|' && this.s[this.pos] !== ')') items.push(this.quantified(this.atom()));
    return { k: 'seq', items };
  }

  private quantified(atom: Node): Node {
    const c = this.s[this.pos];
    let min: number;
    let max: number;
    if (c === '*' || c === '+' || c === '?') {
      this.pos++;
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.s.slice(this.pos, this.pos + 16));
      if (!m) throw new Unsure();
      this.pos += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    } else return atom;
    if (this.s[this.pos] === '?') this.pos++; // lazy: the same paths, in another order
    return this.quantified({ k: 'rep', min, max, body: atom });
  }

  private set(ranges: Range[]): Node {
    return { k: 'set', ranges: this.fold ? foldedRanges(ranges) : mergeRanges(ranges) };
  }

  private atom(): Node {
    const s = this.s;
    const c = s[this.pos]!;
    if (c === '(') {
      if (s.startsWith('(?<=', this.pos) || s.startsWith('(?<!', this.pos) || s.startsWith('(?=', this.pos) || s.startsWith('(?!', this.pos)) {
        // Lookarounds (re2.ts emits `(?<=\n)` and `(?=\n)` for (?m)): zero width, taken as matching anywhere.
        const close = s.indexOf(')', this.pos);
        if (close < 0) throw new Unsure();
        this.pos = close + 1;
        return { k: 'empty' };
      }
      this.pos += s.startsWith('(?:', this.pos) ? 3 : 1;
      const inner = this.alt();
      if (s[this.pos] !== ')') throw new Unsure();
      this.pos++;
      return inner;
    }
    if (c === '[') return this.set(this.charClass());
    if (c === '^') {
      this.pos++;
      return { k: 'empty', start: true };
    }
    if (c === '$') {
      this.pos++;
      return { k: 'empty' };
    }
    if (c === '\\') {
      if (s[this.pos + 1] === 'b' || s[this.pos + 1] === 'B') {
        this.pos += 2;
        return { k: 'empty' };
      }
      return this.set(this.escape());
    }
    if (c === '*' || c === '+' || c === '?' || c === '{' || c === ')') throw new Unsure();
    const cp = s.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return this.set([[cp, cp]]);
  }

  /** An escape at pos: its ranges (`\p{…}`: any character). */
  private escape(): Range[] {
    const s = this.s;
    const n = s[this.pos + 1];
    if ((n === 'u' || n === 'p' || n === 'P') && s[this.pos + 2] === '{') {
      const close = s.indexOf('}', this.pos + 3);
      if (close < 0) throw new Unsure();
      const body = s.slice(this.pos + 3, close);
      this.pos = close + 1;
      if (n !== 'u') return ALL;
      const cp = parseInt(body, 16);
      return [[cp, cp]];
    }
    const simple: Record<string, number> = { n: 10, t: 9, r: 13, f: 12, v: 11 };
    if (n !== undefined && simple[n] !== undefined) {
      this.pos += 2;
      return [[simple[n], simple[n]]];
    }
    if (n !== undefined && /[^0-9A-Za-z]/.test(n)) {
      this.pos += 2;
      const cp = n.codePointAt(0)!;
      return [[cp, cp]];
    }
    throw new Unsure();
  }

  private charClass(): Range[] {
    const s = this.s;
    this.pos++;
    let negated = false;
    if (s[this.pos] === '^') {
      negated = true;
      this.pos++;
    }
    const ranges: Range[] = [];
    const one = (): Range[] => {
      if (s[this.pos] === '\\') return this.escape();
      const cp = s.codePointAt(this.pos)!;
      this.pos += cp > 0xffff ? 2 : 1;
      return [[cp, cp]];
    };
    while (s[this.pos] !== ']') {
      if (this.pos >= s.length) throw new Unsure();
      const lo = one();
      if (s[this.pos] === '-' && s[this.pos + 1] !== ']' && lo.length === 1 && lo[0]![0] === lo[0]![1]) {
        this.pos++;
        const hi = one();
        if (hi.length !== 1 || hi[0]![0] !== hi[0]![1]) throw new Unsure();
        ranges.push([lo[0]![0], hi[0]![0]]);
      } else ranges.push(...lo);
    }
    this.pos++;
    if (ranges.some(([lo, hi]) => lo === 0 && hi === 0x10ffff)) return ALL; // \p{…} inside, negated or not: any character
    return negated ? complement(ranges) : ranges;
  }
}

/** The Glushkov automaton: positions (a character set each), first positions, follow lists (with duplicates). */
interface Glushkov {
  sets: Range[][];
  first: number[];
  follow: number[][];
  loops: boolean;
}

/**
 * A sub-pattern's part of the automaton. `nullable` counts its ways to match empty (0, 1, or 2 for
 * more): each is a separate path for V8, so positions reached through two of them are listed twice.
 */
interface Frag {
  nullable: number;
  first: number[];
  last: number[];
}

const EMPTY: Frag = { nullable: 1, first: [], last: [] };

function times<T>(list: T[], count: number): T[] {
  return count === 0 ? [] : count === 1 ? list : [...list, ...list];
}

class Builder {
  readonly sets: Range[][] = [];
  readonly follow: number[][] = [];
  loops = false;

  build(n: Node): Frag {
    switch (n.k) {
      case 'set': {
        if (this.sets.length >= MAX_BUILT) throw new Unsure();
        const p = this.sets.length;
        this.sets.push(n.ranges);
        this.follow.push([]);
        return { nullable: 0, first: [p], last: [p] };
      }
      case 'empty':
        return EMPTY;
      case 'seq': {
        let acc = EMPTY;
        for (const item of n.items) acc = this.concat(acc, this.build(item));
        return acc;
      }
      case 'alt': {
        const frags = n.alts.map((a) => this.build(a));
        return { nullable: Math.min(2, frags.reduce((sum, f) => sum + f.nullable, 0)), first: frags.flatMap((f) => f.first), last: frags.flatMap((f) => f.last) };
      }
      case 'rep': {
        const { min, max, body } = n;
        if (max === 0) return EMPTY;
        if (max === Infinity || max > MAX_UNROLL) {
          // body{min,} as body^(min-1) body+ (min ≥ 1), or body* (min = 0).
          let acc = EMPTY;
          for (let i = 1; i < Math.min(min, MAX_UNROLL); i++) acc = this.concat(acc, this.build(body));
          const loop = this.build(body);
          if (loop.nullable > 0) throw new Unsure(); // a loop matching empty: left to re2js
          this.loops = true;
          for (const l of loop.last) this.follow[l]!.push(...loop.first);
          return this.concat(acc, { nullable: min === 0 ? 1 : 0, first: loop.first, last: loop.last });
        }
        // body{min,max}: min copies, then max-min nested optional copies.
        let acc = EMPTY;
        for (let i = 0; i < min; i++) acc = this.concat(acc, this.build(body));
        let tail: Frag | undefined;
        for (let i = max - min; i > 0; i--) {
          const copy = this.build(body);
          const opt: Frag = tail ? this.concat(copy, tail) : copy;
          tail = { nullable: Math.min(2, 1 + opt.nullable), first: opt.first, last: opt.last };
        }
        return tail ? this.concat(acc, tail) : acc;
      }
    }
  }

  private concat(a: Frag, b: Frag): Frag {
    for (const l of a.last) this.follow[l]!.push(...b.first);
    return {
      nullable: Math.min(2, a.nullable * b.nullable),
      first: [...a.first, ...times(b.first, a.nullable)],
      last: [...b.last, ...times(a.last, b.nullable)],
    };
  }
}

/** Whether the pattern can only match from the value's start (every path begins with `^`). */
function anchored(n: Node): boolean {
  switch (n.k) {
    case 'empty':
      return n.start === true;
    case 'seq':
      for (const item of n.items) {
        if (anchored(item)) return true;
        if (!(item.k === 'empty')) return false;
      }
      return false;
    case 'alt':
      return n.alts.every(anchored);
    default:
      return false;
  }
}

function overlaps(a: Range[], b: Range[]): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [alo, ahi] = a[i]!;
    const [blo, bhi] = b[j]!;
    if (alo <= bhi && blo <= ahi) return true;
    if (ahi < bhi) i++;
    else j++;
  }
  return false;
}

/** The automaton for a translated source; an unanchored one gets a leading loop on any character. */
function glushkov(source: string, flags: string): Glushkov {
  const tree = new Parser(source, flags.includes('i')).parse();
  const b = new Builder();
  let frag = b.build(tree);
  if (!anchored(tree)) {
    const u = b.sets.length;
    b.sets.push(ALL);
    b.follow.push([u, ...frag.first]);
    frag = { nullable: frag.nullable, first: [u, ...frag.first], last: frag.last };
    b.loops = true;
  }
  return { sets: b.sets, first: frag.first, follow: b.follow, loops: b.loops };
}

/**
 * Whether V8 may backtrack super-linearly (exponentially or polynomially) on the translated source:
 * true when unsure. See the file comment.
 */
export function mayBacktrackSuperLinearly(source: string, flags = 'u'): boolean {
  let g: Glushkov;
  try {
    g = glushkov(source, flags);
  } catch {
    return true;
  }
  if (!g.loops) return false;
  const n = g.sets.length;
  if (n > MAX_POSITIONS) return true;
  // Two edges to the same position from one place: two paths reading the same characters.
  for (const list of [g.first, ...g.follow]) if (new Set(list).size !== list.length) return true;
  // Product transitions: (p,q) → (p',q') when p' ∈ follow(p), q' ∈ follow(q) and their sets overlap.
  const overlap: boolean[][] = g.sets.map((a) => g.sets.map((b) => overlaps(a, b)));
  const pred: number[][] = g.sets.map(() => []);
  for (let p = 0; p < n; p++) for (const q of g.follow[p]!) pred[q]!.push(p);
  let steps = 0;
  const search = (from: number, edges: number[][]): Uint8Array => {
    const seen = new Uint8Array(n * n);
    const stack = [from * n + from];
    seen[from * n + from] = 1;
    while (stack.length) {
      const pair = stack.pop()!;
      const a = Math.floor(pair / n);
      const b = pair % n;
      steps += edges[a]!.length * edges[b]!.length;
      if (steps > MAX_STEPS) throw new Unsure();
      for (const a2 of edges[a]!) {
        for (const b2 of edges[b]!) {
          // Forward, the pair moves onto positions reading one character; backward, off them.
          const ok = edges === g.follow ? overlap[a2]![b2] : overlap[a]![b];
          const next = a2 * n + b2;
          if (ok && !seen[next]) {
            seen[next] = 1;
            stack.push(next);
          }
        }
      }
    }
    return seen;
  };
  // Positions on a loop: reachable from themselves.
  const cyclic: number[] = [];
  for (let p = 0; p < n; p++) if (g.follow[p]!.some((q) => q === p || reaches(g.follow, q, p))) cyclic.push(p);
  const backward: (Uint8Array | undefined)[] = [];
  const back = (p: number): Uint8Array => (backward[p] ??= search(p, pred));
  const onLoop = new Set(cyclic);
  try {
    for (const p of cyclic) {
      const f = search(p, g.follow);
      const r = back(p);
      for (let a = 0; a < n; a++) {
        for (let b = 0; b < n; b++) {
          if (a === b || !f[a * n + b]) continue;
          if (r[a * n + b]) return true; // EDA: p loops back to itself on one word by two paths
          if (a === p && onLoop.has(b) && back(b)[a * n + b]) return true; // IDA: p→p, p→b and b→b
        }
      }
    }
  } catch (err) {
    if (err instanceof Unsure) return true;
    throw err;
  }
  return false;
}

function reaches(follow: number[][], from: number, to: number): boolean {
  const seen = new Set([from]);
  const stack = [from];
  while (stack.length) {
    const x = stack.pop()!;
    if (x === to) return true;
    for (const y of follow[x]!) if (!seen.has(y)) (seen.add(y), stack.push(y));
  }
  return false;
}
