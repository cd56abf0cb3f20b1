/**
 * Static cost estimation of x-kubernetes-validations rules, after Kubernetes' model: cel-go's
 * checker cost estimator (checker/cost.go) over the declared types kube derives from a schema
 * (apiserver/pkg/cel/common/schemas.go), the costs of kube's CEL libraries
 * (apiserver/pkg/cel/library/cost.go), and the limits apiextensions-apiserver enforces when a CRD
 * is created (pkg/apis/apiextensions/validation): a rule's estimated cost times the number of
 * times it can run (its cardinality) must stay within StaticEstimatedCostLimit, and the sum over a
 * version's schema within StaticEstimatedCRDCostLimit.
 *
 * Sizes nobody bounded are estimated from the request size limit, as kube does: an unbounded
 * string may be 3 MiB long and an unbounded list may hold as many of its smallest items as fit in
 * 3 MiB. Those are what make a rule expensive, so every estimate carries the paths of the
 * unbounded lists, maps and strings it used; they are the places to add @maxItems or @maxLength.
 *
 * The estimate follows kube's constants and formulas closely but is not bit-exact (cel-go's
 * estimator tracks min/max ranges and a few more overloads); it is exact for the rule shapes
 * Kubernetes' documentation uses as examples and errs on the high side elsewhere.
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import { parseRule } from './cel-env.js';
import { isTwoVarComprehension } from './cel-comprehensions.js';
import { OPTIONAL_MACROS } from './cel-optional.js';

/** celconfig.MaxRequestSizeBytes: the 3 MiB a request body may hold. */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
/** apiextensions validation.StaticEstimatedCostLimit: per rule, times its cardinality. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** apiextensions validation.StaticEstimatedCRDCostLimit: all rules of one version's schema. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;
/** celconfig.PerCallLimit: the runtime cost one evaluation of one rule may use. */
export const PER_CALL_LIMIT = 1_000_000;
/** celconfig.RuntimeCELCostBudget: the runtime cost all rules of one object's validation may use. */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;

// cel-go common/cost.go
const STRING_TRAVERSAL_COST_FACTOR = 0.1;
const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;
const LIST_CREATE_BASE_COST = 10;
/** Functions of kube's libraries named with a namespace, which cel-js parses as a method call on an identifier. */
const NAMESPACED_FUNCTIONS = new Set([
  'ip.isCanonical',
  'sets.contains',
  'sets.equivalent',
  'sets.intersects',
  'format.named',
  'strings.quote',
  'optional.of',
  'optional.none',
  'optional.ofNonZeroValue',
  'optional.unwrap',
  ...['dns1123Label', 'dns1123Subdomain', 'dns1035Label', 'qualifiedName', 'dns1123LabelPrefix', 'dns1123SubdomainPrefix', 'dns1035LabelPrefix', 'labelValue', 'uri', 'uuid', 'byte', 'date', 'datetime'].map((n) => `format.${n}`),
]);
/** cel.MaxNameFormatRegexSize: the regex size kube assumes when it estimates a format's validate(). */
const MAX_NAME_FORMAT_REGEX_SIZE = 128;
const MAP_CREATE_BASE_COST = 30;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A declared type with kube's size estimates. */
interface SizedType {
  kind: 'string' | 'int' | 'double' | 'bool' | 'list' | 'map' | 'object' | 'dyn';
  /** Characters of a string, items of a list, entries of a map. */
  maxElements: number;
  minSerializedSize: number;
  /** Set when maxElements was estimated from the request size (no maxLength/maxItems/maxProperties). */
  unboundedAt?: string | undefined;
  elem?: SizedType;
  /** An object's or a map's field by name (set when the type has named fields). */
  field?: (name: string) => SizedType | undefined;
  /** Every named field. */
  fields?: () => Iterable<[string, SizedType]>;
}

const DYN: SizedType = { kind: 'dyn', maxElements: 0, minSerializedSize: 1 };
const fixedString = (length: number): SizedType => ({ kind: 'string', maxElements: length, minSerializedSize: 2 });

/** SchemaDeclType with its size estimates; `path` is the JSON path shown in hints (.spec.foo[*]). */
export function sizedType(schema: Json, path: string, depth = 0): SizedType {
  if (depth > 64) return DYN;
  if (schema['x-kubernetes-int-or-string'] === true) return { kind: 'dyn', maxElements: 0, minSerializedSize: 1 };
  switch (schema.type) {
    case 'string': {
      if (Array.isArray(schema.enum) && schema.enum.length > 0) {
        return fixedString(Math.max(...schema.enum.map((v) => String(v).length)));
      }
      if (schema.format === 'date-time' || schema.format === 'date' || schema.format === 'duration') return fixedString(64);
      // kube's estimateMaxStringEncodedLength: maxLength counts code points, sizes count bytes (up to 4 each).
      if (typeof schema.maxLength === 'number') return fixedString(schema.maxLength * 4);
      return { kind: 'string', maxElements: MAX_REQUEST_SIZE_BYTES - 2, minSerializedSize: 2, unboundedAt: path };
    }
    case 'integer':
      return { kind: 'int', maxElements: 0, minSerializedSize: 1 };
    case 'number':
      return { kind: 'double', maxElements: 0, minSerializedSize: 1 };
    case 'boolean':
      return { kind: 'bool', maxElements: 0, minSerializedSize: 4 };
    case 'array': {
      const elem = isObject(schema.items) ? sizedType(schema.items, `${path}[*]`, depth + 1) : DYN;
      if (typeof schema.maxItems === 'number') return { kind: 'list', maxElements: schema.maxItems, minSerializedSize: 2, elem };
      // estimateMaxArrayItemsFromMinSize: the brackets, then one comma per item.
      const max = Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (elem.minSerializedSize + 1));
      return { kind: 'list', maxElements: max, minSerializedSize: 2, elem, unboundedAt: path };
    }
    case 'object': {
      if (isObject(schema.additionalProperties)) {
        const elem = sizedType(schema.additionalProperties, `${path}[*]`, depth + 1);
        if (typeof schema.maxProperties === 'number') return { kind: 'map', maxElements: schema.maxProperties, minSerializedSize: 2, elem };
        // estimateMaxAdditionalPropertiesFromMinSize: a 2-byte key in quotes, a colon, a comma and the value.
        const max = Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (elem.minSerializedSize + 6));
        return { kind: 'map', maxElements: max, minSerializedSize: 2, elem, unboundedAt: path };
      }
      const properties = isObject(schema.properties) ? schema.properties : {};
      let fields: Map<string, SizedType> | undefined;
      const fieldMap = () =>
        (fields ??= new Map(
          Object.entries(properties).filter(([, s]) => isObject(s)).map(([name, s]) => [name, sizedType(s as Json, `${path}.${name}`, depth + 1)]),
        ));
      // kube's SchemaDeclType: {} plus, per required property without a default, "name":value and a comma.
      const required = new Set(Array.isArray(schema.required) ? schema.required : []);
      let minSerializedSize = 2;
      for (const [name, s] of Object.entries(properties)) {
        if (isObject(s) && required.has(name) && s.default === undefined) minSerializedSize += name.length + sizedType(s, `${path}.${name}`, depth + 1).minSerializedSize + 4;
      }
      return {
        kind: 'object',
        maxElements: 0,
        minSerializedSize,
        field: (name) => fieldMap().get(name),
        fields: fieldMap,
      };
    }
    default:
      return DYN;
  }
}

interface Estimate {
  cost: number;
  type: SizedType;
  /** Size of a string, list or map value (characters, items, entries). */
  size: number;
  /** Paths of unbounded strings, lists and maps this cost depends on. */
  unbounded: ReadonlySet<string>;
}

/**
 * No unbounded paths: shared, never written. A value's sizes (callCost) have none, so pricing a call
 * allocates no set; union allocates only when one of its sets holds a path.
 */
const NONE: ReadonlySet<string> = new Set();

function union(...sets: ReadonlySet<string>[]): ReadonlySet<string> {
  let out: Set<string> | undefined;
  let first: ReadonlySet<string> = NONE;
  for (const s of sets) {
    if (s.size === 0 || s === first) continue;
    if (first === NONE) {
      first = s;
      continue;
    }
    out ??= new Set(first);
    for (const p of s) out.add(p);
  }
  return out ?? first;
}

const withPath = (set: ReadonlySet<string>, path: string | undefined): ReadonlySet<string> => (path === undefined || set.has(path) ? set : union(set, new Set([path])));
const ceil = (n: number) => Math.ceil(n);

/**
 * The longest text string() gives for a value of a kind: a double in Go's shortest form
 * ("-1.7976931348623157e+308", 24), longer than an int64's (20; a whole JSON number may be a double
 * in the schema, so both get 24), a bool ("false").
 */
const CONVERSION_SIZE: Partial<Record<SizedType['kind'], number>> = { int: 24, double: 24, bool: 5 };

class Estimator {
  /**
   * valueSizes: the types are a concrete value's (callCost), so string() of a scalar has a known
   * longest text, where the static estimate (cel-go's) knows no size of a conversion's result.
   */
  constructor(private readonly valueSizes = false) {}

  estimate(node: ASTNode, env: Map<string, SizedType>): Estimate {
    switch (node.op) {
      case 'value': {
        const v = node.args;
        if (typeof v === 'string') return leaf(0, fixedString(v.length), v.length);
        if (typeof v === 'boolean') return leaf(0, { kind: 'bool', maxElements: 0, minSerializedSize: 4 });
        if (typeof v === 'bigint') return leaf(0, { kind: 'int', maxElements: 0, minSerializedSize: 1 });
        if (typeof v === 'number') return leaf(0, { kind: 'double', maxElements: 0, minSerializedSize: 1 });
        return leaf(0, DYN);
      }
      case 'id': {
        const type = env.get(node.args) ?? DYN;
        return { cost: 1, type, size: type.maxElements, unbounded: type.unboundedAt ? new Set([type.unboundedAt]) : NONE };
      }
      case '.':
      case '.?': {
        const [target, name] = node.args;
        const t = this.estimate(target, env);
        const type = t.type.field ? (t.type.field(name) ?? t.type.elem ?? DYN) : t.type.kind === 'map' ? (t.type.elem ?? DYN) : DYN;
        return withType(t.cost + 1, type, t.unbounded);
      }
      case '[]':
      case '[?]': {
        const [target, index] = node.args;
        const t = this.estimate(target, env);
        const i = this.estimate(index, env);
        let type: SizedType = DYN;
        if ((t.type.kind === 'list' || t.type.kind === 'map') && !(t.type.field && index.op === 'value' && typeof index.args === 'string')) type = t.type.elem ?? DYN;
        else if (t.type.field && index.op === 'value' && typeof index.args === 'string') type = t.type.field(index.args) ?? DYN;
        return withType(t.cost + i.cost + 1, type, union(t.unbounded, i.unbounded));
      }
      case '!_':
      case '-_': {
        const e = this.estimate(node.args, env);
        return { ...e, cost: e.cost + 1 };
      }
      case '&&':
      case '||': {
        const [a, b] = node.args.map((n) => this.estimate(n, env)) as [Estimate, Estimate];
        return { cost: a.cost + b.cost, type: a.type, size: 0, unbounded: union(a.unbounded, b.unbounded) };
      }
      case '?:': {
        const [c, t, e] = node.args.map((n) => this.estimate(n, env)) as [Estimate, Estimate, Estimate];
        const worse = t.cost >= e.cost ? t : e;
        return { cost: c.cost + worse.cost, type: t.type, size: Math.max(t.size, e.size), unbounded: union(c.unbounded, t.unbounded, e.unbounded) };
      }
      case '==':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const [a, b] = node.args.map((n) => this.estimate(n, env)) as [Estimate, Estimate];
        let compare = 1;
        let unbounded = union(a.unbounded, b.unbounded);
        if (a.type.kind === 'string' || b.type.kind === 'string') compare = Math.max(1, ceil(Math.min(a.size, b.size) * STRING_TRAVERSAL_COST_FACTOR));
        // Lists and maps: cel-go prices equality as a string's, the smaller size × 0.1 (checker/cost.go
        // and runtimecost.go, overloads.Equals), whatever the members are.
        else if (a.type.kind === 'list' || b.type.kind === 'list' || a.type.kind === 'map' || b.type.kind === 'map') compare = Math.max(1, ceil(Math.min(a.size, b.size) * STRING_TRAVERSAL_COST_FACTOR));
        else unbounded = union(a.unbounded, b.unbounded);
        return { cost: a.cost + b.cost + compare, type: { kind: 'bool', maxElements: 0, minSerializedSize: 4 }, size: 0, unbounded };
      }
      case '+': {
        const [a, b] = node.args.map((n) => this.estimate(n, env)) as [Estimate, Estimate];
        const size = a.size + b.size;
        const unbounded = union(a.unbounded, b.unbounded);
        if (a.type.kind === 'string') return { cost: a.cost + b.cost + Math.max(1, ceil(size * STRING_TRAVERSAL_COST_FACTOR)), type: fixedString(size), size, unbounded };
        if (a.type.kind === 'list') return { cost: a.cost + b.cost + 1, type: { kind: 'list', maxElements: size, minSerializedSize: a.type.minSerializedSize, elem: a.type.elem }, size, unbounded };
        return { cost: a.cost + b.cost + 1, type: a.type, size: 0, unbounded };
      }
      case '-':
      case '*':
      case '/':
      case '%': {
        const [a, b] = node.args.map((n) => this.estimate(n, env)) as [Estimate, Estimate];
        return { cost: a.cost + b.cost + 1, type: a.type, size: 0, unbounded: union(a.unbounded, b.unbounded) };
      }
      case 'in': {
        const [a, b] = node.args.map((n) => this.estimate(n, env)) as [Estimate, Estimate];
        const traversal = b.type.kind === 'list' ? Math.max(1, b.size) : 1;
        return { cost: a.cost + b.cost + traversal, type: { kind: 'bool', maxElements: 0, minSerializedSize: 4 }, size: 0, unbounded: union(a.unbounded, b.unbounded) };
      }
      case 'list': {
        const items = node.args.map((n) => this.estimate(n, env));
        const elem = items[0]?.type ?? DYN;
        return {
          cost: LIST_CREATE_BASE_COST + items.reduce((s, e) => s + e.cost, 0),
          type: { kind: 'list', maxElements: items.length, minSerializedSize: 2, elem },
          size: items.length,
          unbounded: union(...items.map((e) => e.unbounded)),
        };
      }
      case 'map': {
        const entries = node.args.flatMap(([k, v]) => [this.estimate(k, env), this.estimate(v, env)]);
        return {
          cost: MAP_CREATE_BASE_COST + entries.reduce((s, e) => s + e.cost, 0),
          type: { kind: 'map', maxElements: node.args.length, minSerializedSize: 2, elem: entries[1]?.type ?? DYN },
          size: node.args.length,
          unbounded: union(...entries.map((e) => e.unbounded)),
        };
      }
      case 'call':
        return this.call(node.args[0], undefined, node.args[1], env);
      case 'rcall':
        return this.call(node.args[0], node.args[1], node.args[2], env);
      default:
        return leaf(1, DYN);
    }
  }

  private call(name: string, target: ASTNode | undefined, args: ASTNode[], env: Map<string, SizedType>): Estimate {
    if (target && isTwoVarComprehension(name, args.length) && args[0]!.op === 'id' && args[1]!.op === 'id') return this.twoVarComprehension(name, target, args, env);
    if (target && MACROS.has(name) && args.length >= 2 && args[0]!.op === 'id') return this.comprehension(name, target, args, env);
    if (target && OPTIONAL_MACROS.has(name) && args.length === 2 && args[0]!.op === 'id') return this.optionalMacro(name, target, args, env);
    // A function of a namespace (ip.isCanonical): cel-go resolves the qualified name, no variable is read.
    if (target?.op === 'id' && !env.has(target.args) && NAMESPACED_FUNCTIONS.has(`${target.args}.${name}`)) {
      name = `${target.args}.${name}`;
      target = undefined;
    }
    const t = target ? this.estimate(target, env) : undefined;
    const a = args.map((n) => this.estimate(n, env));
    const base = (t?.cost ?? 0) + a.reduce((s, e) => s + e.cost, 0);
    const unbounded = union(t?.unbounded ?? NONE, ...a.map((e) => e.unbounded));
    const subject = t ?? a[0];
    const strCost = (e: Estimate | undefined) => Math.max(1, ceil((e?.size ?? 0) * STRING_TRAVERSAL_COST_FACTOR));
    const bool = { kind: 'bool', maxElements: 0, minSerializedSize: 4 } as const;
    const int = { kind: 'int', maxElements: 0, minSerializedSize: 1 } as const;
    switch (name) {
      case 'has':
        return { cost: base, type: bool, size: 0, unbounded: a[0]?.unbounded ?? NONE };
      case 'size':
        return { cost: base + 1, type: int, size: 0, unbounded: NONE };
      case 'matches':
      case 'find':
      case 'findAll': {
        const str = t ?? a[0];
        const re = t ? a[0] : a[1];
        // cel-go's checker/cost.go and runtimecost.go for matches, kube's library/cost.go for find
        // and findAll, statically and at run time: the string's length plus one, so a 10-character
        // string is 2 steps per regex step, not 1.
        const traversal = ceil((1 + (str?.size ?? 0)) * STRING_TRAVERSAL_COST_FACTOR);
        const cost = traversal * Math.max(1, ceil((re?.size ?? 0) * REGEX_STRING_LENGTH_COST_FACTOR));
        const type = name === 'findAll' ? { kind: 'list' as const, maxElements: str?.size ?? 0, minSerializedSize: 2, elem: str?.type ?? DYN } : name === 'find' ? (str?.type ?? DYN) : bool;
        return { cost: base + cost, type, size: str?.size ?? 0, unbounded };
      }
      case 'contains':
        return { cost: base + strCost(t) * strCost(a[0]), type: bool, size: 0, unbounded };
      case 'ip.isCanonical':
        // Parsed, then printed and compared: twice the traversal (kube's library/cost.go).
        return { cost: base + Math.max(1, ceil((a[0]?.size ?? 0) * 2 * STRING_TRAVERSAL_COST_FACTOR)), type: bool, size: 0, unbounded };
      case 'validate':
        // A regex match of the argument against a name-format-sized regex (kube's library/cost.go).
        // On a value, kube's runtime price counts the string's length plus one.
        return { cost: base + ceil(((a[0]?.size ?? 0) + (this.valueSizes ? 1 : 0)) * STRING_TRAVERSAL_COST_FACTOR) * ceil(MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR), type: DYN, size: 0, unbounded };
      case 'sets.contains':
      case 'sets.intersects':
      case 'sets.equivalent': {
        // cel-go ext/sets.go: size × size, twice for equivalent, plus the call.
        const factor = name === 'sets.equivalent' ? 2 : 1;
        return { cost: base + ceil((a[0]?.size ?? 0) * (a[1]?.size ?? 0) * factor) + 1, type: bool, size: 0, unbounded };
      }
      case 'containsIP':
      case 'containsCIDR': {
        // Two addresses of at most 16 bytes compared (ceil(32 × 0.1) = 4); containsCIDR masks and
        // compares the prefix too (+ ceil(16 × 0.1) + 1); a string argument is parsed first.
        const compare = name === 'containsIP' ? 4 : 4 + 2 + 1;
        const parse = a[0]?.type.kind === 'string' ? ceil(a[0].size * STRING_TRAVERSAL_COST_FACTOR) : 0;
        return { cost: base + compare + parse, type: bool, size: 0, unbounded };
      }
      case 'startsWith':
      case 'endsWith':
        // cel-go's estimate traverses the prefix; its runtime cost (runtimecost.go) the receiver:
        // on a value, kgen charges the receiver as kube does.
        if (this.valueSizes && t) return { cost: base + strCost(t), type: bool, size: 0, unbounded };
        return { cost: base + strCost(a[0]), type: bool, size: 0, unbounded: union(...a.map((e) => e.unbounded)) };
      case 'replace':
        // kube's library/cost.go: the traversal plus the result's construction, twice a traversal,
        // statically and at run time.
        if (t?.type.kind === 'string') return { cost: base + Math.max(1, ceil(t.size * 2 * STRING_TRAVERSAL_COST_FACTOR)), type: DYN, size: t.size, unbounded };
        return { cost: base + (subject?.type.kind === 'string' ? strCost(subject) : 1), type: DYN, size: subject?.size ?? 0, unbounded };
      case 'lowerAscii':
      case 'upperAscii':
      case 'trim':
      case 'substring':
      case 'charAt':
      case 'reverse':
      case 'quantity':
      case 'isQuantity':
      case 'url':
      case 'isURL':
      case 'ip':
      case 'isIP':
      case 'cidr':
      case 'isCIDR':
      case 'semver':
      case 'isSemver':
      case 'int':
      case 'uint':
      case 'double':
      case 'duration':
      case 'timestamp':
      // bytes(string): a traversal (cel-go's StringToBytes, statically and at run time).
      case 'bytes':
        return { cost: base + (subject?.type.kind === 'string' ? strCost(subject) : 1), type: subject?.type.kind === 'string' && name.endsWith('Ascii') ? subject.type : DYN, size: subject?.size ?? 0, unbounded };
      case 'format':
        // ext.Strings' format (cel-go checker/cost.go, ExtFormatString; kube's library adds no
        // cost of its own): a traversal of the format string, no call cost; cel-go bounds no size
        // of the result, so it is priced as unbounded, as a conversion's below.
        if (t?.type.kind === 'string' && this.valueSizes && args[0]) {
          // On a concrete value, kgen also charges the text it prints, as a concatenation of the
          // same pieces is charged (a traversal of the result): cel-go charges the format string
          // only, so '%s'.format([self]) inside a loop over self builds a list-sized text per item
          // at a cost of ~1 (quadratic memory and time; kube is stopped by its request deadline,
          // a synchronous evaluation here by nothing). The result's size is that bound.
          const precision = args[0] && target?.op === 'value' && typeof target.args === 'string' ? maxPrecision(target!) : MAX_FORMAT_PRECISION;
          const pieces = args[0].op === 'list' ? args[0].args.map((n) => this.estimate(n, env)) : undefined;
          const printed = pieces ? pieces.reduce((s, e) => s + printedSize(e.type, e.size, precision), 0) : printedSize(a[0]!.type, a[0]!.size, precision);
          const size = t.size + printed;
          return { cost: base + ceil(t.size * STRING_TRAVERSAL_COST_FACTOR) + ceil(size * STRING_TRAVERSAL_COST_FACTOR), type: fixedString(size), size, unbounded };
        }
        if (t?.type.kind === 'string') return { cost: base + ceil(t.size * STRING_TRAVERSAL_COST_FACTOR), type: { kind: 'string', maxElements: Number.MAX_SAFE_INTEGER, minSerializedSize: 2 }, size: Number.MAX_SAFE_INTEGER, unbounded };
        return { cost: base + 1, type: DYN, size: 0, unbounded };
      case 'strings.quote':
        // cel-go's ExtQuoteString, statically and at run time: a traversal of the string; the
        // result is at most every character escaped, plus the quotes.
        return { cost: base + (a[0]?.type.kind === 'string' ? strCost(a[0]) : 1), type: fixedString((a[0]?.size ?? 0) * 2 + 2), size: (a[0]?.size ?? 0) * 2 + 2, unbounded };
      case 'string': {
        // On a concrete value (callCost), the result is at most the string itself or a scalar's
        // longest text: kube's runtime cost prices what follows by the actual result's size.
        const known = this.valueSizes && subject ? (subject.type.kind === 'string' ? subject.size : CONVERSION_SIZE[subject.type.kind]) : undefined;
        if (known !== undefined) return { cost: base + 1, type: fixedString(known), size: known, unbounded };
        // cel-go knows no size of a conversion's result: its estimate is unbounded, so
        // concatenating it is priced at cel-go's maximum (kube: MaxUint64 saturates the limits).
        return { cost: base + 1, type: { kind: 'string', maxElements: Number.MAX_SAFE_INTEGER, minSerializedSize: 2 }, size: Number.MAX_SAFE_INTEGER, unbounded };
      }
      case 'split':
        // kube's library/cost.go: twice a traversal of the receiver (see replace).
        return { cost: base + Math.max(1, ceil((t?.size ?? 0) * 2 * STRING_TRAVERSAL_COST_FACTOR)), type: { kind: 'list', maxElements: t?.size ?? 0, minSerializedSize: 2, elem: t?.type ?? DYN }, size: t?.size ?? 0, unbounded };
      case 'join': {
        // kube's library/cost.go: the result is at most the items' size times their count, plus
        // the separators; building it is a traversal of it (×2 at run time, where kube prices the
        // actual result: a join's output is what a rule can make large from a short text).
        const items = t?.size ?? 0;
        const size = items * (t?.type.elem?.maxElements ?? 0) + (a[0]?.size ?? 0) * Math.max(0, items - 1);
        return { cost: base + ceil(size * (this.valueSizes ? 2 : 1) * STRING_TRAVERSAL_COST_FACTOR), type: fixedString(size), size, unbounded: withPath(unbounded, t?.type.elem?.unboundedAt) };
      }
      case 'indexOf':
      case 'lastIndexOf':
      case 'isSorted':
      case 'sum':
      case 'min':
      case 'max': {
        // On a list: a traversal, each step a comparison (kube's library/cost.go).
        if (t?.type.kind === 'list') {
          const step = t.type.elem?.kind === 'string' ? Math.max(1, ceil((t.type.elem.maxElements ?? 0) * STRING_TRAVERSAL_COST_FACTOR)) : 1;
          return { cost: base + Math.max(1, t.size) * step, type: t.type.elem ?? DYN, size: 0, unbounded };
        }
        return { cost: base + strCost(t), type: int, size: 0, unbounded };
      }
      // The optional library (cel-optional.ts), at cel-go's default call cost. An optional is
      // priced as the value it holds, as `.?` is above.
      case 'optional.of':
      case 'optional.ofNonZeroValue':
        return { cost: base + 1, type: a[0]?.type ?? DYN, size: a[0]?.size ?? 0, unbounded };
      case 'first':
      case 'last':
        if (t?.type.kind === 'list') return withType(base + 1, t.type.elem ?? DYN, unbounded);
        return { cost: base + 1, type: DYN, size: 0, unbounded };
      case 'optional.unwrap':
      case 'unwrapOpt':
        return { cost: base + 1, type: subject?.type ?? DYN, size: subject?.size ?? 0, unbounded };
      default:
        return { cost: base + 1, type: DYN, size: 0, unbounded };
    }
  }

  /**
   * optMap and optFlatMap (cel-optional.ts), as cel-go expands and prices them:
   * `t.hasValue() ? optional.of(<comprehension over [] whose accumulator v is t.value(), result e>)
   * : optional.none()` (optFlatMap without the optional.of). The target is priced twice (cel-go
   * copies it into value()), hasValue and value 1 each, the empty list 10, the loop never runs;
   * the ternary takes the costlier branch.
   */
  private optionalMacro(name: string, target: ASTNode, args: ASTNode[], env: Map<string, SizedType>): Estimate {
    const t = this.estimate(target, env);
    const inner = new Map(env).set((args[0] as Extract<ASTNode, { op: 'id' }>).args, t.type);
    const e = this.estimate(args[1]!, inner);
    const comprehension = LIST_CREATE_BASE_COST + t.cost + 1 + e.cost;
    const present = name === 'optMap' ? 1 + comprehension : comprehension;
    return { cost: t.cost + 1 + Math.max(present, 1), type: e.type, size: e.size, unbounded: union(t.unbounded, e.unbounded) };
  }

  /**
   * all, exists, exists_one, map and filter, as cel-go expands and prices them: the range, the
   * accumulator's initial value, then per element the loop condition and step, then the result.
   */
  /**
   * On a value (callCost), a walk that answers a bool (all, exists, exists_one, existsOne) and
   * whose bodies cost the same whatever their variables hold (hasConstantCost) is priced without
   * its members' types: the largest member is not looked for (an O(n) search per call). Its cost
   * is the same; the static estimate keeps the types for its hints of unbounded paths.
   */
  private memberBlind(name: string, bodies: ASTNode[]): boolean {
    return this.valueSizes && BOOL_WALKS.has(name) && bodies.every(constantBody);
  }

  private comprehension(name: string, target: ASTNode, args: ASTNode[], env: Map<string, SizedType>): Estimate {
    const range = this.estimate(target, env);
    const iterVar = (args[0] as Extract<ASTNode, { op: 'id' }>).args;
    const elem = this.memberBlind(name, args.slice(1))
      ? DYN
      : range.type.kind === 'list'
        ? (range.type.elem ?? DYN)
        : range.type.kind === 'map'
          ? fixedString(range.type.elem ? 63 : 0)
          : DYN;
    const inner = new Map(env).set(iterVar, elem);
    const bodies = args.slice(1).map((n) => this.estimate(n, inner));
    const body = bodies.reduce((s, e) => s + e.cost, 0);
    const n = Math.max(0, range.size);
    let init = 0;
    let perElement: number;
    let result = 1;
    switch (name) {
      case 'all':
      case 'exists':
        perElement = 2 + 1 + body; // @not_strictly_false(__result__), then __result__ && / || body
        break;
      case 'exists_one':
        perElement = body + 2; // body ? __result__ + 1 : __result__
        result = 2; // __result__ == 1
        break;
      case 'map':
        init = LIST_CREATE_BASE_COST;
        perElement = body + 1 + LIST_CREATE_BASE_COST + 1; // __result__ + [f(x)]
        break;
      default: // filter
        init = LIST_CREATE_BASE_COST;
        perElement = body + 1 + 1 + LIST_CREATE_BASE_COST + 1; // p ? __result__ + [x] : __result__
        break;
    }
    const unbounded = withPath(union(range.unbounded, ...bodies.map((e) => e.unbounded)), range.type.unboundedAt);
    const type: SizedType =
      name === 'map' || name === 'filter'
        ? { kind: 'list', maxElements: n, minSerializedSize: 2, elem: name === 'map' ? (bodies[bodies.length - 1]?.type ?? DYN) : elem }
        : { kind: name === 'exists_one' || name === 'all' || name === 'exists' ? 'bool' : 'dyn', maxElements: 0, minSerializedSize: 1 };
    return { cost: range.cost + init + n * perElement + result, type, size: type.kind === 'list' ? n : 0, unbounded };
  }

  /**
   * The two-variable comprehensions (cel-comprehensions.ts), as cel-go expands and prices them
   * (ext/comprehensions.go, checker/cost.go): the first variable is a list's index (int) or a map's
   * key, the second the item or value. all/exists/existsOne loop as their one-variable forms;
   * transformList as map(); transformMap's step is `cel.@mapInsert(__result__, k, t)` and
   * transformMapEntry's `cel.@mapInsert(__result__, t)` (a call kube's estimator leaves to
   * cel-go's default: 1 plus its arguments), each behind `filter ? step : __result__` when filtered.
   */
  private twoVarComprehension(name: string, target: ASTNode, args: ASTNode[], env: Map<string, SizedType>): Estimate {
    const range = this.estimate(target, env);
    const [k, v] = [(args[0] as Extract<ASTNode, { op: 'id' }>).args, (args[1] as Extract<ASTNode, { op: 'id' }>).args];
    const int: SizedType = { kind: 'int', maxElements: 0, minSerializedSize: 1 };
    const blind = this.memberBlind(name, args.slice(2));
    const key = blind ? DYN : range.type.kind === 'list' ? int : range.type.kind === 'map' ? fixedString(range.type.elem ? 63 : 0) : DYN;
    const value = blind ? DYN : range.type.kind === 'list' || range.type.kind === 'map' ? (range.type.elem ?? DYN) : DYN;
    const inner = new Map(env).set(k, key).set(v, value);
    const bodies = args.slice(2).map((n) => this.estimate(n, inner));
    const body = bodies.reduce((s, e) => s + e.cost, 0);
    const transform = bodies[bodies.length - 1]!;
    const n = Math.max(0, range.size);
    let init = 0;
    let perElement: number;
    let result = 1;
    let type: SizedType;
    switch (name) {
      case 'all':
      case 'exists':
        perElement = 2 + 1 + body; // @not_strictly_false(__result__), then __result__ && / || body
        type = { kind: 'bool', maxElements: 0, minSerializedSize: 1 };
        break;
      case 'existsOne':
      case 'exists_one':
        perElement = body + 2; // body ? __result__ + 1 : __result__
        result = 2; // __result__ == 1
        type = { kind: 'bool', maxElements: 0, minSerializedSize: 1 };
        break;
      case 'transformList':
        init = LIST_CREATE_BASE_COST;
        perElement = body + 1 + LIST_CREATE_BASE_COST + 1; // __result__ + [t]
        type = { kind: 'list', maxElements: n, minSerializedSize: 2, elem: transform.type };
        break;
      case 'transformMap':
        init = MAP_CREATE_BASE_COST;
        perElement = body + 3; // cel.@mapInsert(__result__, k, t)
        type = { kind: 'map', maxElements: n, minSerializedSize: 2, elem: transform.type };
        break;
      default: // transformMapEntry
        init = MAP_CREATE_BASE_COST;
        perElement = body + 2; // cel.@mapInsert(__result__, t)
        type = { kind: 'map', maxElements: n, minSerializedSize: 2, elem: transform.type.elem ?? DYN };
        break;
    }
    const unbounded = withPath(union(range.unbounded, ...bodies.map((e) => e.unbounded)), range.type.unboundedAt);
    return { cost: range.cost + init + n * perElement + result, type, size: type.kind === 'list' || type.kind === 'map' ? n : 0, unbounded };
  }
}

/** cel-strings-format.ts refuses a precision above 1000. */
const MAX_FORMAT_PRECISION = 1000;

/** The largest precision (`%.3f`) a literal format string asks for. */
function maxPrecision(format: ASTNode): number {
  let max = 0;
  for (const m of String(format.args).matchAll(/%\.(\d+)/g)) max = Math.max(max, Math.min(Number(m[1]), MAX_FORMAT_PRECISION));
  return max;
}

/**
 * A bound of the text format() prints for a value (callCost: the types are a concrete value's):
 * a string as itself, quoted in a list or map; a number at most 24 characters, or a `%f` of
 * 1e308 (309 digits) with the precision asked for; a list or map as its members, with their
 * separators and a key's text.
 */
function printedSize(type: SizedType, size: number, precision: number, depth = 0): number {
  if (depth > 64) return 0;
  switch (type.kind) {
    case 'string':
      return size + 2;
    case 'list':
      return 2 + size * (printedSize(type.elem ?? DYN, type.elem?.maxElements ?? 0, precision, depth + 1) + 2);
    case 'map':
    case 'object': {
      let total = 2;
      for (const [key, field] of type.fields?.() ?? []) total += key.length + 6 + printedSize(field, field.maxElements, precision, depth + 1);
      return total;
    }
    default:
      return 24 + (precision > 0 ? 310 + precision : 0);
  }
}

const BOOL_WALKS = new Set(['all', 'exists', 'exists_one', 'existsOne']);

/** hasConstantCost of a comprehension's body, once per AST. */
const constantBodies = new WeakMap<ASTNode, boolean>();
function constantBody(node: ASTNode): boolean {
  let known = constantBodies.get(node);
  if (known === undefined) constantBodies.set(node, (known = hasConstantCost(node)));
  return known;
}

const MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

function leaf(cost: number, type: SizedType, size = 0): Estimate {
  return { cost, type, size, unbounded: NONE };
}

function withType(cost: number, type: SizedType, unbounded: ReadonlySet<string>): Estimate {
  return { cost, type, size: type.maxElements, unbounded: withPath(unbounded, type.unboundedAt) };
}

/** One rule's estimate, where it sits, and what to bound. */
export interface RuleCost {
  /** Path of the rule in the schema, kube's form: `properties[spec].properties[foo].x-kubernetes-validations[0].rule`. */
  schemaPath: string;
  /** The JSON path of the value the rule is written on (`.spec.foo`). */
  jsonPath: string;
  index: number;
  rule: string;
  /** The rule's own estimated cost (cel.CompilationResult.MaxCost). */
  maxCost: number;
  /** How many times it can run in one object. */
  cardinality: number;
  /** maxCost × cardinality: what kube compares with StaticEstimatedCostLimit. */
  expressionCost: number;
  /** Unbounded lists, maps and strings that make it expensive (to bound with maxItems, maxProperties, maxLength). */
  unbounded: string[];
}

/** A messageExpression's own estimated cost (cel.CompilationResult.MessageExpressionMaxCost; kube does not multiply it by cardinality). */
export interface MessageExpressionCost {
  /** `properties[spec].x-kubernetes-validations[0].messageExpression`. */
  schemaPath: string;
  maxCost: number;
}

export interface SchemaCost {
  rules: RuleCost[];
  messageExpressions: MessageExpressionCost[];
  /** The rules' expression costs summed (kube's total adds the messageExpressions' too). */
  total: number;
}

/**
 * Estimates every rule of a version's openAPIV3Schema (structural, refs resolved). Rules that do
 * not parse are skipped (their compile error is reported elsewhere).
 */
export function estimateSchemaCost(root: Json): SchemaCost {
  const rules: RuleCost[] = [];
  const messageExpressions: MessageExpressionCost[] = [];
  const estimator = new Estimator();
  const visit = (schema: Json, schemaPath: string, jsonPath: string, cardinality: number | undefined, cardinalityFrom: string[], depth: number) => {
    if (depth > 64) return;
    const validations = schema['x-kubernetes-validations'];
    if (Array.isArray(validations) && validations.length > 0) {
      const self = sizedType(schema, jsonPath || '.');
      // An unbounded cardinality is estimated from the value's smallest serialized form.
      const times = cardinality ?? Math.floor(MAX_REQUEST_SIZE_BYTES / (self.minSerializedSize + 1));
      validations.forEach((v, index) => {
        if (!isObject(v) || typeof v.rule !== 'string') return;
        let ast: ASTNode;
        try {
          ast = parseRule(v.rule).ast;
        } catch {
          return;
        }
        const env = new Map<string, SizedType>([['self', self], ['oldSelf', self]]);
        const estimate = estimator.estimate(ast, env);
        const maxCost = Math.max(0, estimate.cost);
        const expressionCost = maxCost === 0 ? 0 : Math.min(Number.MAX_SAFE_INTEGER, maxCost * times);
        const unbounded = [...new Set([...cardinalityFrom, ...estimate.unbounded])].sort();
        rules.push({ schemaPath: `${schemaPath}${schemaPath ? '.' : ''}x-kubernetes-validations[${index}].rule`, jsonPath: jsonPath || '.', index, rule: v.rule, maxCost, cardinality: times, expressionCost, unbounded });
        if (typeof v.messageExpression === 'string' && v.messageExpression.trim() !== '') {
          try {
            const message = estimator.estimate(parseRule(v.messageExpression).ast, env);
            messageExpressions.push({ schemaPath: `${schemaPath}${schemaPath ? '.' : ''}x-kubernetes-validations[${index}].messageExpression`, maxCost: Math.max(0, message.cost) });
          } catch {
            // A messageExpression that does not parse is reported by its compile error.
          }
        }
      });
    }
    const sub = (s: unknown, step: string, jp: string, factor: number | undefined, unboundedAt?: string) => {
      if (!isObject(s)) return;
      const next = cardinality === undefined || factor === undefined ? undefined : cardinality * factor;
      visit(s, `${schemaPath}${schemaPath ? '.' : ''}${step}`, jp, next, unboundedAt ? [...cardinalityFrom, unboundedAt] : cardinalityFrom, depth + 1);
    };
    if (isObject(schema.properties)) for (const [name, s] of Object.entries(schema.properties)) sub(s, `properties[${name}]`, `${jsonPath}.${name}`, 1);
    if (isObject(schema.items)) {
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : undefined;
      sub(schema.items, 'items', `${jsonPath}[*]`, max, max === undefined ? jsonPath || '.' : undefined);
    }
    if (isObject(schema.additionalProperties)) {
      const max = typeof schema.maxProperties === 'number' ? schema.maxProperties : undefined;
      sub(schema.additionalProperties, 'additionalProperties', `${jsonPath}[*]`, max, max === undefined ? jsonPath || '.' : undefined);
    }
  };
  visit(root, '', '', 1, [], 0);
  return { rules, messageExpressions, total: rules.reduce((s, r) => Math.min(Number.MAX_SAFE_INTEGER, s + r.expressionCost), 0) };
}

/** getCostErrorMessage of apiextensions validation, word for word. */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const text = factor > 100 ? 'more than 100x' : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/**
 * The cost of one evaluation of a rule on a concrete value: the same model with the value's own
 * sizes (string lengths, list and map lengths) instead of the schema's bounds. The server refuses
 * a call over PER_CALL_LIMIT and stops validating the object, as kube's runtime cost limit does
 * ("actual cost limit exceeded"); cel-go counts the steps it takes, this prices them in advance.
 */
export function callCost(ast: ASTNode, self: unknown, oldSelf: unknown): number {
  let known = constantCosts.get(ast);
  if (known === undefined) {
    known = hasConstantCost(ast) ? estimateCallCost(ast, self, oldSelf) : false;
    constantCosts.set(ast, known);
  }
  return known === false ? estimateCallCost(ast, self, oldSelf) : known;
}

/** callCost without the figure kept for a rule whose cost cannot depend on the value (tests compare the two). */
export function estimateCallCost(ast: ASTNode, self: unknown, oldSelf: unknown): number {
  const env = new Map<string, SizedType>([['self', valueType(self)]]);
  if (oldSelf !== undefined) env.set('oldSelf', valueType(oldSelf));
  return new Estimator(true).estimate(ast, env).cost;
}

/** A rule's cost when hasConstantCost proved it the same for every value; false when it was not. */
const constantCosts = new WeakMap<ASTNode, number | false>();

/**
 * Calls Estimator.call prices at its default, their operands plus 1, whatever their types and
 * sizes (none is one of its cases).
 */
const FLAT_CALLS = new Set([
  'hasValue', 'value', 'orValue', 'or', 'isLessThan', 'isGreaterThan', 'compareTo', 'sign', 'isInteger', 'asInteger', 'asApproximateFloat',
  'add', 'sub', 'major', 'minor', 'patch', 'getScheme', 'getHostname', 'getHost', 'getPort', 'getEscapedPath', 'getQuery', 'dyn', 'type',
]);
/** Calls Estimator.call prices by their subject's (receiver's, else first argument's) kind and size. */
const SUBJECT_CALLS = new Set([
  'lowerAscii', 'upperAscii', 'trim', 'replace', 'substring', 'charAt', 'reverse', 'quantity', 'isQuantity', 'url', 'isURL', 'ip', 'isIP',
  'cidr', 'isCIDR', 'semver', 'isSemver', 'int', 'uint', 'double', 'duration', 'timestamp', 'bytes',
]);

/** A literal at most 10 characters long (a string) or sizeless: compared with anything, the comparison costs 1. */
const shortLiteral = (n: ASTNode) => n.op === 'value' && (typeof n.args !== 'string' || n.args.length <= 10);

/**
 * Whether the Estimator gives `node` the same cost on every value, decided from the rule's text
 * alone and conservatively (false when in doubt): literals and variables (cost 0 and 1),
 * selections, indexing, logic, arithmetic other than '+', list and map literals, size() and has()
 * cost the same whatever they read; a comparison does when one side is a short or sizeless literal
 * (the traversal is of the smaller side); 'in' when the right side is a list or map literal; a
 * string test or conversion when what it reads is a literal. No comprehension, no '+' (a string
 * concatenation is priced by its operands' sizes), no other function.
 */
export function hasConstantCost(node: ASTNode): boolean {
  const all = (nodes: readonly ASTNode[]) => nodes.every(hasConstantCost);
  switch (node.op) {
    case 'value':
    case 'id':
      return true;
    case '.':
    case '.?':
      return hasConstantCost(node.args[0]);
    case '[]':
    case '[?]':
    case '&&':
    case '||':
    case '-':
    case '*':
    case '/':
    case '%':
      return all(node.args);
    case '!_':
    case '-_':
      return hasConstantCost(node.args);
    case '?:':
      return all(node.args);
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
      return all(node.args) && (shortLiteral(node.args[0]) || shortLiteral(node.args[1]));
    case 'in':
      return all(node.args) && (node.args[1].op === 'list' || node.args[1].op === 'map');
    case 'list':
      return all(node.args);
    case 'map':
      return node.args.every(([k, v]) => hasConstantCost(k) && hasConstantCost(v));
    case 'call':
    case 'rcall': {
      const [name, target, args] = node.op === 'call' ? [node.args[0], undefined, node.args[1]] : node.args;
      // A receiver that is neither a variable of the rule nor a value may be a namespace (optional.of).
      if (target?.op === 'id' && target.args !== 'self' && target.args !== 'oldSelf') return false;
      if (!(target === undefined || hasConstantCost(target)) || !all(args)) return false;
      if (name === 'size' || FLAT_CALLS.has(name)) return true;
      if (name === 'has') return target === undefined;
      // Priced by the receiver on a value (kube's runtime cost), by the prefix statically.
      if (name === 'startsWith' || name === 'endsWith') return target?.op === 'value' && args[0]?.op === 'value';
      if (SUBJECT_CALLS.has(name)) return (target ?? args[0])?.op === 'value';
      return false;
    }
    default:
      return false;
  }
}

/**
 * Sizes of a concrete value; list items and map values merged to the largest (the first of the
 * largest), lazily: an object's fields are looked up by name, and a list's or map's largest member
 * is found by its size before its type is built.
 */
function valueType(value: unknown, depth = 0): SizedType {
  if (depth > 64) return DYN;
  if (typeof value === 'string') return fixedString(value.length);
  if (typeof value === 'boolean') return { kind: 'bool', maxElements: 0, minSerializedSize: 4 };
  if (typeof value === 'number' || typeof value === 'bigint') return { kind: Number.isInteger(Number(value)) ? 'int' : 'double', maxElements: 0, minSerializedSize: 1 };
  if (Array.isArray(value)) return new ValueList(value, depth);
  if (value instanceof Map) return mapType(value, depth);
  if (value !== null && typeof value === 'object') return new ValueObject(value as Json, depth);
  return DYN;
}

/** valueType(v, depth).maxElements, without building the type. */
function sizeOf(v: unknown, depth: number): number {
  if (depth > 64) return 0;
  if (typeof v === 'string' || Array.isArray(v)) return v.length;
  if (v instanceof Map) return v.size;
  if (v !== null && typeof v === 'object') return Object.keys(v).length;
  return 0;
}

class ValueList implements SizedType {
  readonly kind = 'list';
  readonly minSerializedSize = 2;
  private merged: SizedType | undefined;
  constructor(
    private readonly items: readonly unknown[],
    private readonly depth: number,
  ) {}
  get maxElements(): number {
    return this.items.length;
  }
  get elem(): SizedType {
    if (this.merged) return this.merged;
    const depth = this.depth + 1;
    let best = -1;
    let max = -1;
    for (let i = 0; i < this.items.length; i++) {
      const size = sizeOf(this.items[i], depth);
      if (size > max) [best, max] = [i, size];
    }
    return (this.merged = best < 0 ? DYN : valueType(this.items[best], depth));
  }
}

/** A JSON object: a map of its keys (the same type whether the schema says object or map). */
class ValueObject implements SizedType {
  readonly kind = 'map';
  readonly minSerializedSize = 2;
  readonly maxElements: number;
  private readonly keys: string[];
  private merged: SizedType | undefined;
  constructor(
    private readonly value: Json,
    private readonly depth: number,
  ) {
    this.keys = Object.keys(value);
    this.maxElements = this.keys.length;
  }
  field(name: string): SizedType | undefined {
    return Object.hasOwn(this.value, name) ? valueType(this.value[name], this.depth + 1) : undefined;
  }
  *fields(): Iterable<[string, SizedType]> {
    for (const key of this.keys) yield [key, valueType(this.value[key], this.depth + 1)];
  }
  get elem(): SizedType {
    if (this.merged) return this.merged;
    const depth = this.depth + 1;
    let best: string | undefined;
    let max = -1;
    for (const key of this.keys) {
      const size = sizeOf(this.value[key], depth);
      if (size > max) [best, max] = [key, size];
    }
    return (this.merged = best === undefined ? DYN : valueType(this.value[best], depth));
  }
}

/** A Map (not a JSON value; kept for completeness): its keys as strings, the last of equal ones winning as a field. */
function mapType(value: Map<unknown, unknown>, depth: number): SizedType {
  const entries: [string, unknown][] = [...value.entries()].map(([k, v]) => [String(k), v]);
  let fields: Map<string, SizedType> | undefined;
  let elem: SizedType | undefined;
  const fieldMap = () => (fields ??= new Map(entries.map(([k, v]) => [k, valueType(v, depth + 1)])));
  return {
    kind: 'map',
    maxElements: entries.length,
    minSerializedSize: 2,
    field: (name) => fieldMap().get(name),
    fields: fieldMap,
    get elem() {
      return (elem ??= mergeTypes(entries.map(([, v]) => valueType(v, depth + 1))));
    },
  };
}

function mergeTypes(types: SizedType[]): SizedType {
  if (types.length === 0) return DYN;
  return types.reduce((a, b) => (b.maxElements > a.maxElements ? b : a));
}
