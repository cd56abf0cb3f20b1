/**
 * kube's CEL Semver library (k8s.io/apiserver/pkg/cel/library/semverlib.go, in CRD rules since
 * 1.33): semver(), isSemver() (each with an optional `normalize`), major/minor/patch and the
 * comparisons, over a port of github.com/blang/semver/v4's Parse and Compare, with its error texts.
 */
import { KubeLibraryError } from './cel-errors.js';

type PR = { num: bigint } | { str: string };

/** semver.Version: build metadata is parsed (and validated) but not compared. */
export class CelSemver {
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: readonly PR[],
  ) {}
}

const NUMBERS = /^[0-9]*$/;
const ALPHANUM = /^[0-9A-Za-z-]*$/;
const hasLeadingZeroes = (s: string): boolean => s.length > 1 && s[0] === '0';
const UINT64_MAX = (1n << 64n) - 1n;

/** strconv.ParseUint(s, 10, 64), with its errors. */
function parseUint(s: string): bigint {
  if (s === '' || !NUMBERS.test(s)) throw new KubeLibraryError(`strconv.ParseUint: parsing "${s}": invalid syntax`);
  const v = BigInt(s);
  if (v > UINT64_MAX) throw new KubeLibraryError(`strconv.ParseUint: parsing "${s}": value out of range`);
  return v;
}

function part(s: string, name: string, Name: string): bigint {
  if (!NUMBERS.test(s)) throw new KubeLibraryError(`Invalid character(s) found in ${name} number "${s}"`);
  if (hasLeadingZeroes(s)) throw new KubeLibraryError(`${Name} number must not contain leading zeroes "${s}"`);
  return parseUint(s);
}

/** semver.Parse. */
export function parseSemver(s: string): CelSemver {
  if (s.length === 0) throw new KubeLibraryError('Version string empty');
  const first = s.indexOf('.');
  const second = first < 0 ? -1 : s.indexOf('.', first + 1);
  if (second < 0) throw new KubeLibraryError('No Major.Minor.Patch elements found');
  const major = part(s.slice(0, first), 'major', 'Major');
  const minor = part(s.slice(first + 1, second), 'minor', 'Minor');
  let patchStr = s.slice(second + 1);
  let build: string[] = [];
  let prerelease: string[] = [];
  const plus = patchStr.indexOf('+');
  if (plus !== -1) {
    build = patchStr.slice(plus + 1).split('.');
    patchStr = patchStr.slice(0, plus);
  }
  const dash = patchStr.indexOf('-');
  if (dash !== -1) {
    prerelease = patchStr.slice(dash + 1).split('.');
    patchStr = patchStr.slice(0, dash);
  }
  const patch = part(patchStr, 'patch', 'Patch');
  const pre = prerelease.map((p): PR => {
    if (p.length === 0) throw new KubeLibraryError('Prerelease is empty');
    if (NUMBERS.test(p)) {
      if (hasLeadingZeroes(p)) throw new KubeLibraryError(`Numeric PreRelease version must not contain leading zeroes "${p}"`);
      return { num: parseUint(p) };
    }
    if (ALPHANUM.test(p)) return { str: p };
    throw new KubeLibraryError(`Invalid character(s) found in prerelease "${p}"`);
  });
  for (const b of build) {
    if (b.length === 0) throw new KubeLibraryError('Build meta data is empty');
    if (!ALPHANUM.test(b)) throw new KubeLibraryError(`Invalid character(s) found in build meta data "${b}"`);
  }
  return new CelSemver(major, minor, patch, pre);
}

/** kube's normalizeAndParse: no "v" prefix, missing minor/patch as 0, leading zeros removed. */
export function normalizeAndParseSemver(input: string): CelSemver {
  const s = input.startsWith('v') ? input.slice(1) : input;
  const first = s.indexOf('.');
  const second = first < 0 ? -1 : s.indexOf('.', first + 1);
  const parts = first < 0 ? [s] : second < 0 ? [s.slice(0, first), s.slice(first + 1)] : [s.slice(0, first), s.slice(first + 1, second), s.slice(second + 1)];
  for (let i = 0; i < parts.length; i++) {
    let p = parts[i]!;
    if (p.length > 1) {
      p = p.replace(/^0+/, '');
      if (p.length === 0 || !/[0-9]/.test(p[0]!)) p = `0${p}`;
      parts[i] = p;
    }
  }
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1]!)) throw new KubeLibraryError('short version cannot contain PreRelease/Build meta data');
    while (parts.length < 3) parts.push('0');
  }
  return parseSemver(parts.join('.'));
}

const succeeds = (f: () => unknown): boolean => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};

export const isSemver = (s: string, normalize = false): boolean => succeeds(() => (normalize ? normalizeAndParseSemver(s) : parseSemver(s)));

const cmp = (a: bigint, b: bigint): -1 | 0 | 1 => (a > b ? 1 : a < b ? -1 : 0);

function comparePR(a: PR, b: PR): -1 | 0 | 1 {
  if ('num' in a && 'num' in b) return cmp(a.num, b.num);
  if ('num' in a) return -1;
  if ('num' in b) return 1;
  return a.str > b.str ? 1 : a.str < b.str ? -1 : 0;
}

/** Version.Compare (build metadata ignored). */
export function compareSemver(v: CelSemver, o: CelSemver): -1 | 0 | 1 {
  const c = cmp(v.major, o.major) || cmp(v.minor, o.minor) || cmp(v.patch, o.patch);
  if (c !== 0) return c;
  if (v.pre.length === 0 && o.pre.length === 0) return 0;
  if (v.pre.length === 0) return 1;
  if (o.pre.length === 0) return -1;
  for (let i = 0; i < v.pre.length && i < o.pre.length; i++) {
    const p = comparePR(v.pre[i]!, o.pre[i]!);
    if (p !== 0) return p;
  }
  return v.pre.length === o.pre.length ? 0 : v.pre.length < o.pre.length ? -1 : 1;
}

/** types.Int(v.Major): the uint64 as an int64, as Go converts it. */
export const semverInt = (n: bigint): bigint => BigInt.asIntN(64, n);
