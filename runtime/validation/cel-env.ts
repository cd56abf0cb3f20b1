/**
 * The CEL environment of x-kubernetes-validations rules, shared by the generator (which rejects
 * rules that do not compile) and the server (which evaluates them): `self` and `oldSelf`, CEL's
 * standard library, and the parts of kube's extension libraries (k8s.io/apiserver/pkg/cel/library:
 * lists, regex, strings) the base library lacks.
 */
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import type * as CelJs from '@marcbachmann/cel-js';
import { KubeLibraryError } from './cel-errors.js';
import {
  CelCIDR,
  CelIP,
  cidrContainsCIDR,
  cidrContainsIP,
  cidrEquals,
  cidrMasked,
  cidrString,
  ipEquals,
  ipFamily,
  ipIsCanonical,
  ipIsGlobalUnicast,
  ipIsLinkLocalMulticast,
  ipIsLinkLocalUnicast,
  ipIsLoopback,
  ipIsUnspecified,
  ipString,
  isCIDR,
  isIP,
  parseCIDR,
  parseIP,
} from './cel-ip.js';
import {
  CelQuantity,
  parseQuantity,
  quantityAdd,
  quantityAsApproximateFloat,
  quantityAsInt64,
  quantityCompare,
  quantityOfInt,
  quantitySign,
  quantitySub,
} from './cel-quantity.js';
import { compileRE2, findAllRE2, RE2SyntaxError } from './re2.js';
import { CEL_FORMATS, CelFormat } from './cel-format.js';
import { CelSemver, compareSemver, isSemver, normalizeAndParseSemver, parseSemver, semverInt } from './cel-semver.js';
import { stringFormat } from './cel-strings-format.js';
import { CelURL, isURL, parseURL, urlEscapedPath, urlHostname, urlPort, urlQuery } from './cel-url.js';
import { TextKeyedCache } from './text-cache.js';
import { registerTwoVarComprehensions } from './cel-comprehensions.js';
import { registerOptionalLibrary } from './cel-optional.js';
import { formatLiteralError, homogeneousLiteralError, mayHaveFormatCalls, mayHaveFormatLiterals, mayHaveLiterals, nodesOf, stringFormatCallError, type LiteralError } from './cel-literals.js';

type Environment = CelJs.Environment;

/**
 * cel-js, loaded when the first rule is compiled: importing it costs ~15-25 ms, which a server
 * whose schemas have no x-kubernetes-validations never needs to pay at start. It is an ES module
 * without top-level await, so Node's require(esm) loads it synchronously and compiling a rule
 * stays synchronous.
 */
let celJs: typeof CelJs | undefined;
const loadCelJs = (): typeof CelJs => {
  if (!celJs) {
    // kube's CEL regexes are RE2 (linear time); cel-js's matches() is a V8 RegExp (no flags), and
    // a rule such as self.matches('^(a+)+$') took exponential time on a near-miss value, stopping
    // the server. With this V8 flag, a flagless RegExp that backtracks too much (V8's default:
    // 50,000 backtracks) is re-run on V8's linear-time engine, with the same answer. It does not
    // cover RegExps with flags (`u`, `i`); find() and findAll() below go through re2.ts instead.
    setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
    celJs = createRequire(import.meta.url)('@marcbachmann/cel-js') as typeof CelJs;
  }
  return celJs;
};

/** Called with a message when a library function fails; cel-js reports it as an evaluation error. */
function fail(message: string): never {
  throw new Error(message);
}

type Num = bigint | number;

function compare(a: unknown, b: unknown): number {
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    return Number(a) < Number(b) ? -1 : Number(a) > Number(b) ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  return fail(`no such overload: comparison of ${typeof a} and ${typeof b}`);
}

/** CEL equality over converted values: numbers compare by value across int and double. */
export function celEquals(a: unknown, b: unknown): boolean {
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) return Number(a) === Number(b);
  if (a === b) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => celEquals(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    const bo = b as Record<string, unknown>;
    return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && celEquals((a as Record<string, unknown>)[k], bo[k]));
  }
  return false;
}

function sum(list: unknown[]): Num {
  if (list.length === 0) return 0n;
  if (list.every((x) => typeof x === 'bigint')) return (list as bigint[]).reduce((s, x) => s + x, 0n);
  if (list.every((x) => typeof x === 'number')) return (list as number[]).reduce((s, x) => s + x, 0);
  return fail('no such overload: sum of mixed or non-numeric list');
}

function extreme(list: unknown[], sign: 1 | -1, name: string): unknown {
  if (list.length === 0) fail(`${name} called on empty list`);
  return list.reduce((best, x) => (compare(x, best) * sign > 0 ? x : best));
}

/** kube's regex library: the pattern is RE2 (Go syntax, linear time for risky patterns: re2.ts). */
function findAll(s: string, pattern: string, limit: number): string[] {
  return findAllRE2(pattern, s, limit);
}

function replace(s: string, from: string, to: string, n: number): string {
  if (n < 0) return s.split(from).join(to);
  let out = s;
  let index = 0;
  for (let i = 0; i < n; i++) {
    const at = out.indexOf(from, index);
    if (at < 0) break;
    out = out.slice(0, at) + to + out.slice(at + from.length);
    index = at + to.length + (from === '' ? 1 : 0);
  }
  return out;
}

function charAt(s: string, i: bigint): string {
  const chars = [...s];
  const n = Number(i);
  if (n < 0 || n > chars.length) fail(`index out of range: ${n}`);
  return chars[n] ?? '';
}

/**
 * kube's Quantity library (1.28): the type is kubernetes.Quantity, as cel-go names it; sign() is a
 * global function there (`sign(q)`, not `q.sign()`), as kube declares it.
 */
function registerQuantityLibrary(env: Environment): Environment {
  const Q = 'kubernetes.Quantity';
  return env
    .registerType(Q, CelQuantity)
    .registerFunction(`quantity(string): ${Q}`, (s: string) => parseQuantity(s))
    .registerFunction('isQuantity(string): bool', (s: string) => {
      try {
        parseQuantity(s);
        return true;
      } catch {
        return false;
      }
    })
    .registerFunction(`sign(${Q}): int`, quantitySign)
    .registerFunction(`${Q}.isGreaterThan(${Q}): bool`, (a: CelQuantity, b: CelQuantity) => quantityCompare(a, b) === 1)
    .registerFunction(`${Q}.isLessThan(${Q}): bool`, (a: CelQuantity, b: CelQuantity) => quantityCompare(a, b) === -1)
    .registerFunction(`${Q}.compareTo(${Q}): int`, (a: CelQuantity, b: CelQuantity) => BigInt(quantityCompare(a, b)))
    .registerFunction(`${Q}.asApproximateFloat(): double`, quantityAsApproximateFloat)
    .registerFunction(`${Q}.asInteger(): int`, (q: CelQuantity) => {
      const v = quantityAsInt64(q);
      if (v === undefined) throw new KubeLibraryError('cannot convert value to integer');
      return v;
    })
    .registerFunction(`${Q}.isInteger(): bool`, (q: CelQuantity) => quantityAsInt64(q) !== undefined)
    .registerFunction(`${Q}.add(${Q}): ${Q}`, quantityAdd)
    .registerFunction(`${Q}.add(int): ${Q}`, (a: CelQuantity, i: bigint) => quantityAdd(a, quantityOfInt(i)))
    .registerFunction(`${Q}.sub(${Q}): ${Q}`, quantitySub)
    .registerFunction(`${Q}.sub(int): ${Q}`, (a: CelQuantity, i: bigint) => quantitySub(a, quantityOfInt(i)))
    .registerOperator(`${Q} == ${Q}`, (a: CelQuantity, b: CelQuantity) => quantityCompare(a, b) === 0);
}

/**
 * The namespace of kube's `ip.isCanonical(s)`: cel-go resolves the qualified name to a function;
 * cel-js calls a method of a constant, as it does for `optional.of` (cel-cost prices it as the
 * function, not as a variable and a call).
 */
class IPNamespace {}

/** kube's IP and CIDR libraries (1.30); the types are net.IP and net.CIDR, as cel-go names them. */
function registerIPLibraries(env: Environment): Environment {
  const IP = 'net.IP';
  const CIDR = 'net.CIDR';
  return env
    .registerType(IP, CelIP)
    .registerType(CIDR, CelCIDR)
    .registerType('kubernetes.IPNamespace', IPNamespace)
    .registerConstant('ip', 'kubernetes.IPNamespace', new IPNamespace())
    .registerFunction(`ip(string): ${IP}`, parseIP)
    .registerFunction('isIP(string): bool', isIP)
    .registerFunction('kubernetes.IPNamespace.isCanonical(string): bool', (_: IPNamespace, s: string) => ipIsCanonical(s))
    .registerFunction(`string(${IP}): string`, ipString)
    .registerFunction(`${IP}.family(): int`, ipFamily)
    .registerFunction(`${IP}.isUnspecified(): bool`, ipIsUnspecified)
    .registerFunction(`${IP}.isLoopback(): bool`, ipIsLoopback)
    .registerFunction(`${IP}.isLinkLocalMulticast(): bool`, ipIsLinkLocalMulticast)
    .registerFunction(`${IP}.isLinkLocalUnicast(): bool`, ipIsLinkLocalUnicast)
    .registerFunction(`${IP}.isGlobalUnicast(): bool`, ipIsGlobalUnicast)
    .registerOperator(`${IP} == ${IP}`, ipEquals)
    .registerFunction(`cidr(string): ${CIDR}`, parseCIDR)
    .registerFunction('isCIDR(string): bool', isCIDR)
    .registerFunction(`string(${CIDR}): string`, cidrString)
    .registerFunction(`${CIDR}.containsIP(string): bool`, (c: CelCIDR, s: string) => cidrContainsIP(c, parseIP(s)))
    .registerFunction(`${CIDR}.containsIP(${IP}): bool`, cidrContainsIP)
    .registerFunction(`${CIDR}.containsCIDR(string): bool`, (c: CelCIDR, s: string) => cidrContainsCIDR(c, parseCIDR(s)))
    .registerFunction(`${CIDR}.containsCIDR(${CIDR}): bool`, cidrContainsCIDR)
    .registerFunction(`${CIDR}.ip(): ${IP}`, (c: CelCIDR) => c.ip)
    .registerFunction(`${CIDR}.masked(): ${CIDR}`, cidrMasked)
    .registerFunction(`${CIDR}.prefixLength(): int`, (c: CelCIDR) => BigInt(c.bits))
    .registerOperator(`${CIDR} == ${CIDR}`, cidrEquals);
}

/** The namespace of cel-go's ext.Sets functions (sets.contains(a, b)), as IPNamespace above. */
class SetsNamespace {}

/** cel-js's uint values (3u) as their bigint, in lists too, so that 1 == 1u == 1.0 as in cel-go. */
function unwrapUint(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(unwrapUint);
  if (v !== null && typeof v === 'object' && v.constructor?.name === 'UnsignedInt') return (v as { value: bigint }).value;
  return v;
}
const setEquals = (x: unknown, y: unknown): boolean => celEquals(unwrapUint(x), unwrapUint(y));
const setContains = (a: unknown[], b: unknown[]): boolean => b.every((y) => a.some((x) => setEquals(x, y)));

/** cel-go's ext.Sets (kube 1.29): set relations of lists, under CEL equality (1 == 1.0). */
function registerSetsLibrary(env: Environment): Environment {
  return env
    .registerType('kubernetes.SetsNamespace', SetsNamespace)
    .registerConstant('sets', 'kubernetes.SetsNamespace', new SetsNamespace())
    .registerFunction('kubernetes.SetsNamespace.contains(list, list): bool', (_: SetsNamespace, a: unknown[], b: unknown[]) => setContains(a, b))
    .registerFunction('kubernetes.SetsNamespace.equivalent(list, list): bool', (_: SetsNamespace, a: unknown[], b: unknown[]) => setContains(a, b) && setContains(b, a))
    .registerFunction('kubernetes.SetsNamespace.intersects(list, list): bool', (_: SetsNamespace, a: unknown[], b: unknown[]) => a.some((x) => b.some((y) => setEquals(x, y))));
}

/**
 * kube's URL library (in every kube CEL environment). No == between URLs: kube compares their
 * String(), which this port does not rebuild.
 */
function registerURLLibrary(env: Environment): Environment {
  const URL = 'kubernetes.URL';
  return env
    .registerType(URL, CelURL)
    .registerFunction(`url(string): ${URL}`, parseURL)
    .registerFunction('isURL(string): bool', isURL)
    .registerFunction(`${URL}.getScheme(): string`, (u: CelURL) => u.scheme)
    .registerFunction(`${URL}.getHost(): string`, (u: CelURL) => u.host)
    .registerFunction(`${URL}.getHostname(): string`, urlHostname)
    .registerFunction(`${URL}.getPort(): string`, urlPort)
    .registerFunction(`${URL}.getEscapedPath(): string`, urlEscapedPath)
    .registerFunction(`${URL}.getQuery(): map<string, list<string>>`, urlQuery);
}

/** kube's Semver library (1.33, SemverVersion(1): with the normalize argument). */
function registerSemverLibrary(env: Environment): Environment {
  const S = 'kubernetes.Semver';
  return env
    .registerType(S, CelSemver)
    .registerFunction(`semver(string): ${S}`, (s: string) => parseSemver(s))
    .registerFunction(`semver(string, bool): ${S}`, (s: string, normalize: boolean) => (normalize ? normalizeAndParseSemver(s) : parseSemver(s)))
    .registerFunction('isSemver(string): bool', (s: string) => isSemver(s))
    .registerFunction('isSemver(string, bool): bool', (s: string, normalize: boolean) => isSemver(s, normalize))
    .registerFunction(`${S}.major(): int`, (v: CelSemver) => semverInt(v.major))
    .registerFunction(`${S}.minor(): int`, (v: CelSemver) => semverInt(v.minor))
    .registerFunction(`${S}.patch(): int`, (v: CelSemver) => semverInt(v.patch))
    .registerFunction(`${S}.isGreaterThan(${S}): bool`, (a: CelSemver, b: CelSemver) => compareSemver(a, b) === 1)
    .registerFunction(`${S}.isLessThan(${S}): bool`, (a: CelSemver, b: CelSemver) => compareSemver(a, b) === -1)
    .registerFunction(`${S}.compareTo(${S}): int`, (a: CelSemver, b: CelSemver) => BigInt(compareSemver(a, b)))
    .registerOperator(`${S} == ${S}`, (a: CelSemver, b: CelSemver) => compareSemver(a, b) === 0);
}

/** The namespace of kube's format.named() and format.<name>(), as IPNamespace above. */
class FormatNamespace {}

/** kube's Format library (1.31): validate() gives optional.none() or optional.of(the messages). */
function registerFormatLibrary(env: Environment): Environment {
  const F = 'kubernetes.NamedFormat';
  const NS = 'kubernetes.FormatNamespace';
  const { Optional } = loadCelJs();
  env
    .registerType(F, CelFormat)
    .registerType(NS, FormatNamespace)
    .registerConstant('format', NS, new FormatNamespace())
    .registerFunction(`${NS}.named(string): optional<${F}>`, (_: FormatNamespace, name: string) => {
      const f = CEL_FORMATS.get(name);
      return f ? Optional.of(f) : Optional.none();
    })
    .registerFunction(`${F}.validate(string): optional<list<string>>`, (f: CelFormat, s: string) => {
      const errs = f.validate(s);
      return errs.length === 0 ? Optional.none() : Optional.of(errs);
    })
    .registerOperator(`${F} == ${F}`, (a: CelFormat, b: CelFormat) => a.name === b.name);
  for (const [name, f] of CEL_FORMATS) env.registerFunction(`${NS}.${name}(): ${F}`, () => f);
  return env;
}

/** The namespace of ext.Strings' strings.quote(), as IPNamespace above. */
class StringsNamespace {}

const QUOTE_ESCAPES: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\', '"': '\\"' };

/** cel-go ext.Strings (version 2 in kube 1.33) strings.quote: a CEL string literal of s (lone surrogates as U+FFFD, as Go's sanitize). */
export function celQuote(s: string): string {
  let out = '"';
  for (const ch of s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')) out += QUOTE_ESCAPES[ch] ?? ch;
  return `${out}"`;
}

/** ext.Strings (version 2) beyond cel-js's own string functions: strings.quote() and format() (cel-strings-format.ts). */
function registerStringsLibrary(env: Environment): Environment {
  return env
    .registerType('kubernetes.StringsNamespace', StringsNamespace)
    .registerConstant('strings', 'kubernetes.StringsNamespace', new StringsNamespace())
    .registerFunction('kubernetes.StringsNamespace.quote(string): string', (_: StringsNamespace, s: string) => celQuote(s))
    .registerFunction('string.format(list): string', (s: string, args: unknown[]) => stringFormat(s, args));
}

/** kube's lists, regex, strings, URL, quantity, IP, CIDR, sets, format and semver libraries (the functions cel-js does not already provide), cel-go's two-variable comprehensions (cel-comprehensions.ts) and what cel-js lacks of cel-go's optional library (cel-optional.ts). */
function registerKubeLibraries(env: Environment): Environment {
  return registerOptionalLibrary(registerTwoVarComprehensions(registerStringsLibrary(registerFormatLibrary(registerSemverLibrary(registerSetsLibrary(registerIPLibraries(registerQuantityLibrary(registerURLLibrary(env)))))))), loadCelJs().Optional)
    .registerFunction('list.isSorted(): bool', (l: unknown[]) => l.every((x, i) => i === 0 || compare(l[i - 1], x) <= 0))
    .registerFunction('list.sum(): dyn', (l: unknown[]) => sum(l))
    .registerFunction('list.min(): dyn', (l: unknown[]) => extreme(l, -1, 'min'))
    .registerFunction('list.max(): dyn', (l: unknown[]) => extreme(l, 1, 'max'))
    .registerFunction('list.indexOf(dyn): int', (l: unknown[], v: unknown) => BigInt(l.findIndex((x) => celEquals(x, v))))
    .registerFunction('list.lastIndexOf(dyn): int', (l: unknown[], v: unknown) => {
      for (let i = l.length - 1; i >= 0; i--) if (celEquals(l[i], v)) return BigInt(i);
      return -1n;
    })
    // CEL's global form of matches (cel-go's stdlib declares matches(string, string) beside
    // string.matches(string)); cel-js has only the member form. Go's regexp, as find() below.
    .registerFunction('matches(string, string): bool', (s: string, p: string) => compileRE2(p).test(s))
    .registerFunction(`string.${GO_MATCHES}(string): bool`, (s: string, p: string) => compileRE2(p).test(s))
    .registerFunction('string.find(string): string', (s: string, p: string) => compileRE2(p).exec(s)?.[0] ?? '')
    .registerFunction('string.findAll(string): list<string>', (s: string, p: string) => findAll(s, p, -1))
    .registerFunction('string.findAll(string, int): list<string>', (s: string, p: string, n: bigint) => findAll(s, p, Number(n)))
    .registerFunction('string.charAt(int): string', (s: string, i: bigint) => charAt(s, i))
    .registerFunction('string.replace(string, string): string', (s: string, a: string, b: string) => replace(s, a, b, -1))
    .registerFunction('string.replace(string, string, int): string', (s: string, a: string, b: string, n: bigint) => replace(s, a, b, Number(n)))
    .registerFunction('string.reverse(): string', (s: string) => [...s].reverse().join(''));
}

/**
 * cel-js options of every environment: mixed list literals as kube's rules write them, and CEL's
 * optional types (`self.?x.orValue(y)`, `m[?k]`, `optional.of/none`), which kube's environment has
 * had since 1.28 (cel.OptionalTypes()). Without them cel-js accepted `optional.of(1)` when a CRD
 * was written and failed every evaluation with "unknown variable: optional".
 */
const ENV_OPTIONS = { homogeneousAggregateLiterals: false, enableOptionalTypes: true } as const;

let libraries: Environment | undefined;

/**
 * A new environment with kube's libraries: a child of one environment that holds them (cel-js's
 * clone() shares its parent's registry), so the ~100 functions and types are registered once, not
 * once per self type (registering them took ~0.8 ms of CPU per environment).
 */
function withKubeLibraries(): Environment {
  libraries ??= registerKubeLibraries(new (loadCelJs().Environment)(ENV_OPTIONS));
  return libraries.clone(ENV_OPTIONS);
}

const byVariables = new Map<string, Environment>();

/**
 * An environment with the same libraries and the given `dyn` variables, for CEL outside schemas
 * (authentication's `claims` and `user`). One per set of names.
 */
export function celEnvironmentWithVariables(names: readonly string[]): Environment {
  const key = names.join(',');
  let env = byVariables.get(key);
  if (!env) {
    env = withKubeLibraries();
    for (const name of names) env.registerVariable(name, 'dyn');
    byVariables.set(key, env);
  }
  return env;
}

let shared: Environment | undefined;

/** The one environment every rule is parsed and checked in (self and oldSelf are dyn). */
export function celEnvironment(): Environment {
  shared ??= withKubeLibraries()
    .registerVariable('self', 'dyn')
    .registerVariable('oldSelf', 'dyn');
  return shared;
}

type Parsed = ReturnType<Environment['parse']>;
type Checked = ReturnType<Parsed['check']>;

/**
 * Texts, and characters of text, kept by each cache below (text-cache.ts): a rule may be as long
 * as a request, and its AST and check take tens of bytes per character.
 */
const MAX_CACHED_TEXTS = 10_000;
export const MAX_CACHED_RULE_CHARS = 1_000_000;
const parsedRules = new TextKeyedCache<{ parsed: Parsed } | { error: unknown }>(MAX_CACHED_TEXTS, MAX_CACHED_RULE_CHARS);
const checkedRules = new WeakMap<Parsed, Checked>();

/**
 * The name `s.matches(p)` is evaluated under. cel-js's own string.matches is a JavaScript RegExp
 * (`(?i)x`, `\z` or `[[:alpha:]]` are refused, and the syntax differs); kube's is Go's RE2.
 * cel-js does not let a built-in overload be replaced, so the program that is evaluated has its
 * member calls of matches renamed to this function (evaluationProgram); the program that is
 * checked, costed and reported on keeps the name.
 */
export const GO_MATCHES = 'kgenMatchesRE2';
const evaluationPrograms = new TextKeyedCache<Parsed>(MAX_CACHED_TEXTS, MAX_CACHED_RULE_CHARS);

/**
 * The program to evaluate for a checked rule `parsed` of text: parsed itself, or, when the rule
 * calls `s.matches(p)`, its own parse with those calls going to Go's regular expressions.
 */
export function evaluationProgram(text: string, parsed: Parsed, env: Environment = celEnvironment()): Parsed {
  if (!text.includes('matches')) return parsed;
  const memberMatches = (ast: CelJs.ASTNode) => nodesOf(ast).filter(([n]) => n.op === 'rcall' && Array.isArray(n.args) && n.args[0] === 'matches');
  if (memberMatches(parsed.ast).length === 0) return parsed;
  const cacheable = env === celEnvironment();
  let program = cacheable ? evaluationPrograms.get(text) : undefined;
  if (!program) {
    program = env.parse(text);
    for (const [node] of memberMatches(program.ast)) (node.args as unknown[])[0] = GO_MATCHES;
    if (!program.check().valid) return parsed;
    if (cacheable) evaluationPrograms.set(text, program);
  }
  return program;
}

/**
 * celEnvironment().parse(text), once per text (the same error thrown again for a text that does not
 * parse): a rule is parsed when the generator checks it, when its cost is estimated and when its
 * CRD is validated. The result is shared: cel-js notes checked types on the AST, the same ones
 * whoever checks it in this environment, and evaluation does not change it.
 */
export function parseRule(text: string): Parsed {
  let found = parsedRules.get(text);
  if (!found) {
    try {
      found = { parsed: celEnvironment().parse(text) };
    } catch (error) {
      found = { error };
    }
    parsedRules.set(text, found);
  }
  if ('error' in found) throw found.error;
  return found.parsed;
}

/** parsed.check() of a parseRule result, once. */
export function checkRule(parsed: Parsed): Checked {
  let checked = checkedRules.get(parsed);
  if (!checked) checkedRules.set(parsed, (checked = parsed.check()));
  return checked;
}

/**
 * Checks by environment and text, keyed `<environment's number>\0<text>`: one bound for every
 * environment's texts together (up to 512 environments are kept).
 */
const checkedInSelfEnv = new TextKeyedCache<CheckedInEnvironment>(MAX_CACHED_TEXTS, MAX_CACHED_RULE_CHARS);
const environmentNumbers = new WeakMap<Environment, number>();
let environmentsNumbered = 0;

/** A check in a self-type environment, with what cel-go's AST validators found (cel-literals.ts). */
export type CheckedInEnvironment = Checked & { literalError?: LiteralError | undefined };

/**
 * env.parse(text).check() in an environment of celEnvironmentForSelf, once per environment and
 * text, with the literal validators run on the checked AST (which is not kept). `dynIsExact` is a
 * property of the environment's self type (homogeneousLiteralError), the same at every call.
 */
export function checkInEnvironment(env: Environment, text: string, dynIsExact = false): CheckedInEnvironment {
  let n = environmentNumbers.get(env);
  if (n === undefined) environmentNumbers.set(env, (n = environmentsNumbered++));
  const key = `${n}\0${text}`;
  let checked = checkedInSelfEnv.get(key);
  if (!checked) {
    const parsed = env.parse(text);
    const result: CheckedInEnvironment = parsed.check();
    const literalError = result.valid ? literalErrors(parsed.ast, text, dynIsExact) : undefined;
    checked = literalError ? { ...result, literalError } : result;
    checkedInSelfEnv.set(key, checked);
  }
  return checked;
}

/** duration(x) and timestamp(x) over one literal, for formatLiteralError. */
const conversions = new Map<string, (vars: { literal: unknown }) => unknown>();

function converts(fn: 'duration' | 'timestamp', literal: unknown): boolean {
  let program = conversions.get(fn);
  if (!program) conversions.set(fn, (program = celEnvironmentWithVariables(['literal']).parse(`${fn}(literal)`) as unknown as (vars: { literal: unknown }) => unknown));
  try {
    program({ literal });
    return true;
  } catch {
    return false;
  }
}

/**
 * Go's regexp.Compile, through re2.ts's cache: a pattern it refuses (not Go syntax, too large for
 * V8, or one needing re2js when re2js is missing: fail closed, as for schema patterns) is refused.
 */
function regexCompiles(pattern: string): boolean {
  try {
    compileRE2(pattern);
    return true;
  } catch (err) {
    return !(err instanceof RE2SyntaxError);
  }
}

/**
 * What kube's AST validators (cel-literals.ts) refuse in a checked rule, the first by position
 * as cel-go lists its issues; undefined when the rule passes them.
 */
export function literalErrors(ast: Parsed['ast'], text: string, dynIsExact: boolean): LiteralError | undefined {
  const mixedWanted = mayHaveLiterals(text);
  const formatWanted = mayHaveFormatLiterals(text);
  const formatCallWanted = mixedWanted && mayHaveFormatCalls(text);
  if (!mixedWanted && !formatWanted) return undefined;
  const nodes = nodesOf(ast);
  let first: LiteralError | undefined;
  for (const found of [
    mixedWanted ? homogeneousLiteralError(nodes, dynIsExact) : undefined,
    formatWanted ? formatLiteralError(nodes, converts, regexCompiles) : undefined,
    formatCallWanted ? stringFormatCallError(nodes, text) : undefined,
  ]) {
    if (found && (!first || found.pos < first.pos)) first = found;
  }
  return first;
}

/** Characters of rule text the two caches above hold (for tests of the bound). */
export function celRuleCacheChars(): { parsed: number; checked: number } {
  return { parsed: parsedRules.size.chars, checked: checkedInSelfEnv.size.chars };
}

/** An object type for the checker: its fields' CEL type names (scalars, list<…>, map<string, …>, other object types, dyn). */
export interface CelObjectType {
  name: string;
  fields: Record<string, string>;
}

/**
 * Environments by self type, least recently used first; bounded, as a server is fed CRDs for ever:
 * at most 512, and at most MAX_SELF_TYPE_CHARS characters of keys (an environment holds every
 * object type of its key: a schema of 50,000 properties, a 2 MB CRD, costs ~8 MB, so the count
 * alone let 512 of them hold gigabytes).
 */
export const MAX_SELF_TYPE_CHARS = 4_000_000;
const bySelfType = new TextKeyedCache<Environment>(512, MAX_SELF_TYPE_CHARS);

/**
 * The rule environment with `self` and `oldSelf` of a declared CEL type (`string`, `list<int>`,
 * an object type of `objects`, which come dependencies first), for type-checking a rule as cel-go
 * checks it against the schema's declared type. Object types compare with == as CEL values do.
 * Programs to evaluate still come from celEnvironment(). One per distinct type.
 */
export function celEnvironmentForSelf(type: string, objects: readonly CelObjectType[] = [], oldSelfType = type): Environment {
  const key = JSON.stringify([type, objects, oldSelfType]);
  let env = bySelfType.get(key);
  if (!env) {
    env = withKubeLibraries();
    for (const o of objects) {
      env.registerType(o.name, { fields: o.fields });
      env.registerOperator(`${o.name} == ${o.name}`, celEquals);
    }
    env.registerVariable('self', type).registerVariable('oldSelf', oldSelfType);
    bySelfType.set(key, env);
  }
  return env;
}

/** How many self-type environments are kept (for tests of the bound). */
export function celSelfEnvironmentCount(): number {
  return bySelfType.size.entries;
}

/** Characters of the kept environments' keys (for tests of the bound). */
export function celSelfEnvironmentChars(): number {
  return bySelfType.size.chars;
}
