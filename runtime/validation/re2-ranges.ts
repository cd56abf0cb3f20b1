/**
 * Code point ranges for the RE2 translation (re2.ts): merging, complement over all of Unicode,
 * case folding (as Go's appendFoldedClass, for classes under a scoped `(?i)`), and their source
 * in a JS `u` character class.
 */

/** An inclusive code point range. */
export type Range = [number, number];

const MAX_CP = 0x10ffff;
/** Ranges longer than this are not case-folded point by point (they hold both cases already in practice). */
const MAX_FOLDED_RANGE = 5000;
/** Case pairs JS case mapping does not reach from the ASCII side (Unicode simple case folding orbits). */
const EXTRA_FOLDS: Record<number, number[]> = {
  0x4b: [0x212a], 0x6b: [0x212a], 0x212a: [0x4b, 0x6b],
  0x53: [0x17f], 0x73: [0x17f], 0x17f: [0x53, 0x73],
  0xc5: [0x212b], 0xe5: [0x212b], 0x212b: [0xc5, 0xe5],
  0x3a9: [0x2126], 0x3c9: [0x2126], 0x2126: [0x3a9, 0x3c9],
  // ß upper-cases to "SS" (two characters); Go's orbit, and JS's simple case folding, pair it with ẞ.
  0xdf: [0x1e9e],
};

export function mergeRanges(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/** Every code point not in `ranges`. */
export function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of mergeRanges(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CP) out.push([next, MAX_CP]);
  return out;
}

function singleCodePoint(s: string): number | undefined {
  const cp = s.codePointAt(0);
  return cp !== undefined && String.fromCodePoint(cp) === s ? cp : undefined;
}

/** The code points equal to `cp` ignoring case. */
function foldOrbit(cp: number): number[] {
  const seen = new Set([cp]);
  const queue = [cp];
  while (queue.length) {
    const c = queue.pop()!;
    const ch = String.fromCodePoint(c);
    const next = [singleCodePoint(ch.toLowerCase()), singleCodePoint(ch.toUpperCase()), ...(EXTRA_FOLDS[c] ?? [])];
    for (const n of next) {
      if (n !== undefined && !seen.has(n)) {
        seen.add(n);
        queue.push(n);
      }
    }
  }
  return [...seen];
}

/** The ranges plus every code point case-equivalent to one of theirs. */
export function foldedRanges(ranges: readonly Range[]): Range[] {
  const out: Range[] = [...ranges];
  for (const [lo, hi] of ranges) {
    if (hi - lo > MAX_FOLDED_RANGE) continue;
    for (let cp = lo; cp <= hi; cp++) for (const f of foldOrbit(cp)) if (f < lo || f > hi) out.push([f, f]);
  }
  return mergeRanges(out);
}

function cpSource(cp: number): string {
  return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) ? String.fromCharCode(cp) : `\\u{${cp.toString(16)}}`;
}

/** The ranges as the inside of a JS `u` class (also a valid atom when a single code point). */
export function rangesSource(ranges: readonly Range[]): string {
  return mergeRanges(ranges)
    .map(([lo, hi]) => (lo === hi ? cpSource(lo) : `${cpSource(lo)}-${cpSource(hi)}`))
    .join('');
}
