/**
 * The rules a CustomResourceDefinition's openAPIV3Schema must follow, as apiextensions-apiserver's
 * validateCustomResourceDefinitionValidation applies them (pkg/apis/apiextensions/validation):
 *
 * 1. with the status subresource, only kube's allowed fields at the root, of type object;
 * 2. when a structural schema is required: NewStructural's refusals (reported only when nothing
 *    else is wrong), then ValidateStructural (structural-rules.ts), then the defaults
 *    (default-rules.ts); only a schema that passes all three gets its CEL rules compiled;
 * 3. ValidateCustomResourceDefinitionOpenAPISchema over every node (specStandardValidatorV3 with
 *    its state: defaults allowed or not and why, inside resource metadata, under an uncorrelatable
 *    list or map), list and map type rules, and each x-kubernetes-validations entry: its fields,
 *    and (when no schema error was found at or below the node) its compilation, cost,
 *    messageExpression and oldSelf use;
 * 4. the CEL cost total of the whole schema.
 *
 * Paths and messages are kube's. The built-in kind keeps nested schemas as given (the type is
 * recursive), so these checks are where a nested schema is validated. The CEL cost estimate is
 * cel-go's order of magnitude, not its exact number (runtime/validation/cel-cost.ts).
 */
import { field, type FieldError } from '../validation/index.js';
import { costErrorMessage, STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT } from '../validation/cel-cost.js';
import { compileRule } from '../validation/cel.js';
import { RULE_REASONS } from '../validation/cel-rules.js';
import { declTypeOfNode } from '../validation/cel-value.js';
import { SchemaCompiler, type SchemaInput } from '../validation/compile.js';
import { finalizeNodes } from '../validation/finalize.js';
import type { SchemaNode } from '../validation/node.js';
import { validateDefaults, validateDefaultsLazily } from './default-rules.js';
import { validFieldPath } from './field-path.js';
import { SchemaFacts } from './schema-facts.js';
import { isObject, structuralConversionError, validateStructural } from './structural-rules.js';

type Props = Record<string, unknown>;

const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);
/** kube reports at most this many of the rules that contributed most to an exceeded total. */
const MOST_EXPENSIVE_REPORTED = 4;

/** allowedFieldsAtRootSchema, as JSON names, and every JSONSchemaProps field in Go's order. */
const ALLOWED_AT_ROOT_WITH_STATUS = ['description', 'type', 'format', 'title', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'required', 'items', 'properties', 'externalDocs', 'example', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-validations'];
const GO_FIELD_ORDER = ['id', '$schema', '$ref', 'description', 'type', 'format', 'title', 'default', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'enum', 'maxProperties', 'minProperties', 'required', 'items', 'allOf', 'oneOf', 'anyOf', 'not', 'properties', 'additionalProperties', 'patternProperties', 'dependencies', 'additionalItems', 'definitions', 'externalDocs', 'example', 'nullable', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string', 'x-kubernetes-list-map-keys', 'x-kubernetes-list-type', 'x-kubernetes-map-type', 'x-kubernetes-validations'];

/**
 * kube's validationOptions that change schema rules. A v1 CRD is created with all of them true
 * (V1_OPTIONS); an update keeps a rule off when the old CRD already broke it, and kube's unit
 * tests switch them individually (test/apiextensions/schema-rules-table.test.ts).
 */
export interface SchemaValidationOptions {
  requireStructuralSchema: boolean;
  requireValidPropertyType: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
  /** Whether `default` may be set (true for v1; kube's unit tests start from false). */
  allowDefaults?: boolean;
  /** Defaults must not carry fields their schema prunes (true for v1). */
  requirePrunedDefaults?: boolean;
  /** The per-expression cost limit is not applied (an update leaving this version's schema unchanged). */
  suppressPerExpressionCost?: boolean;
}

export const V1_OPTIONS: SchemaValidationOptions = {
  requireStructuralSchema: true,
  requireValidPropertyType: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
  allowDefaults: true,
  requirePrunedDefaults: true,
};

/** specStandardValidatorV3's state while walking down. */
interface Walker {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
  requireValidPropertyType: boolean;
  /** The highest path under which oldSelf cannot be correlated (an atomic/set list, an unknown map type). */
  uncorrelatablePath: string | undefined;
}

/** The compiled node of the schema part being walked, for CEL; undefined when CEL is off. */
interface CelContext {
  node: SchemaNode;
  /** kube's opts.suppressPerExpressionCost. */
  suppressPerExpressionCost?: boolean;
  isResourceRoot: boolean;
  /** Rule costs by schema path relative to the root (`properties[a].x-kubernetes-validations[0].rule`). */
  costs: Map<string, number>;
  observed: Array<{ path: string; cost: number }>;
  rootPath: string;
}

interface Found {
  schema: FieldError[];
  cel: FieldError[];
}

/**
 * Every problem of a version's openAPIV3Schema at `path` (`spec.versions[0].schema.openAPIV3Schema`).
 * `facts` are the schema's (schema-facts.ts), when the caller has them already.
 */
export function validateOpenAPISchema(schema: unknown, path: string, statusEnabled: boolean, opts: SchemaValidationOptions = V1_OPTIONS, facts?: SchemaFacts): FieldError[] {
  if (schema === undefined || schema === null) return [];
  if (!isObject(schema)) return [field.invalid(path, schema, 'must be an object')];
  const errs: FieldError[] = [];
  if (statusEnabled) errs.push(...rootFieldsWithStatus(schema, path));
  if (schema.nullable === true) errs.push(field.forbidden(`${path}.nullable`, 'nullable cannot be true at the root'));
  let cel: CelContext | undefined;
  let conversionErrs: FieldError[] = [];
  if (opts.requireStructuralSchema) {
    facts ??= new SchemaFacts(schema);
    const conversion = facts.conversionError();
    if (conversion) conversionErrs = [field.invalid(path, '', conversion)];
    else {
      const structural = validateStructural(schema, path, facts.unusualBelow);
      // Compiled nodes serve the defaults and the rules only: without either, both stages find
      // nothing, whether the schema compiles or not.
      // Defaults without rules need only the subtrees under them (validateDefaultsLazily).
      const lazily = structural.length === 0 && facts.hasDefaults && !facts.hasRules && facts.compilesAsTree;
      const compiled = structural.length === 0 && !lazily && (facts.hasDefaults || facts.hasRules) ? compileSchema(schema) : undefined;
      const requirePruned = opts.requirePrunedDefaults ?? false;
      const defaults = lazily
        ? validateDefaultsLazily(schema, path, requirePruned, facts.defaultsBelow, (raw) => compileSchema(raw)!.root)
        : compiled
          ? validateDefaults(schema, compiled.root, path, requirePruned, facts.defaultsBelow)
          : [];
      errs.push(...structural, ...defaults);
      if (compiled && defaults.length === 0 && facts.hasRules) cel = celContext(facts, compiled.root, path, opts.suppressPerExpressionCost === true);
    }
  }
  const walker: Walker = {
    allowDefaults: opts.allowDefaults ?? false,
    disallowDefaultsReason: '',
    insideResourceMeta: false,
    requireValidPropertyType: opts.requireValidPropertyType,
    uncorrelatablePath: undefined,
  };
  const found: Found = { schema: [], cel: [] };
  openAPISchema(schema, path, walker, true, opts, cel, '', gate((facts ??= new SchemaFacts(schema)).unusualBelow, schema), found);
  errs.push(...found.schema, ...found.cel);
  if (errs.length === 0) errs.push(...conversionErrs);
  if (cel) errs.push(...totalCostErrors(cel, path));
  return errs;
}

/** With the status subresource, the root may only hold kube's allowed fields, and be an object. */
function rootFieldsWithStatus(schema: Props, path: string): FieldError[] {
  for (const key of GO_FIELD_ORDER) {
    const value = schema[key];
    if (value === undefined || value === null || value === false || value === '') continue;
    if (key === 'type') {
      if (value !== 'object') return [field.invalid(`${path}.type`, value, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')];
      continue;
    }
    if (!ALLOWED_AT_ROOT_WITH_STATUS.includes(key)) {
      const goNames = ['Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum', 'ExclusiveMinimum', 'MaxLength', 'MinLength', 'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required', 'Items', 'Properties', 'ExternalDocs', 'Example', 'XPreserveUnknownFields', 'XValidations'];
      return [field.invalid(path, '', `only [${goNames.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`)];
    }
  }
  return [];
}

function compileSchema(schema: Props): { root: SchemaNode; nodes: SchemaNode[] } | undefined {
  try {
    const rootName = '\u0000root';
    const compiler = new SchemaCompiler({ [rootName]: schema as SchemaInput });
    const root = compiler.compileNamed(rootName);
    finalizeNodes(compiler.nodes, undefined);
    return { root, nodes: compiler.nodes };
  } catch {
    return undefined;
  }
}

function celContext(facts: SchemaFacts, root: SchemaNode, rootPath: string, suppressPerExpressionCost: boolean): CelContext {
  const cost = facts.cost();
  const costs = new Map<string, number>();
  for (const r of cost.rules) costs.set(r.schemaPath, r.expressionCost);
  for (const m of cost.messageExpressions) costs.set(m.schemaPath, m.maxCost);
  return { node: root, suppressPerExpressionCost, isResourceRoot: true, costs, observed: [], rootPath };
}

/** The context of a child node: its own node and root flag, the rest shared (written out: a spread is slow on this path). */
function childContext(ctx: CelContext | undefined, node: SchemaNode | undefined, embedded: boolean): CelContext | undefined {
  if (!ctx || !node) return undefined;
  return { node, suppressPerExpressionCost: ctx.suppressPerExpressionCost, isResourceRoot: embedded, costs: ctx.costs, observed: ctx.observed, rootPath: ctx.rootPath };
}

/** uint64's maximum as a float64 (2^64): where kube's total cost saturates. */
const MAX_UINT64 = 2 ** 64;

/**
 * kube's TotalCost.ObserveExpressionCost over the observed costs: the saturating sum, and the
 * MOST_EXPENSIVE_REPORTED most expensive, most expensive first, ignoring those under 1% of the
 * per-CRD limit.
 */
export function totalCost<T extends { cost: number }>(observed: readonly T[]): { total: number; mostExpensive: T[] } {
  const total = observed.reduce((s, o) => Math.min(MAX_UINT64, s + o.cost), 0);
  const mostExpensive = observed
    .filter((o) => o.cost >= STATIC_ESTIMATED_CRD_COST_LIMIT / 100)
    .sort((a, b) => b.cost - a.cost)
    .slice(0, MOST_EXPENSIVE_REPORTED);
  return { total, mostExpensive };
}

/** The errors of a schema whose rules' total cost is beyond the per-CRD limit. */
function totalCostErrors(ctx: CelContext, path: string): FieldError[] {
  const { total, mostExpensive: expensive } = totalCost(ctx.observed);
  if (total <= STATIC_ESTIMATED_CRD_COST_LIMIT) return [];
  return [
    ...expensive.map((e) => field.forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema')),
    field.forbidden(path, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', total, STATIC_ESTIMATED_CRD_COST_LIMIT)),
  ];
}

const join = (rel: string, step: string) => (rel ? `${rel}.${step}` : step);

/**
 * ValidateCustomResourceDefinitionOpenAPISchema: the schema errors and CEL errors of one node and
 * below, appended to `out` (each list in kube's order: this node's, its children's, then this
 * node's list, map and rule checks). `unusual` is true when no node here or below has a keyword
 * only unusual schemas have, and the checks of those are skipped, as they find nothing; otherwise
 * it is the set of nodes that do (SchemaFacts.unusualBelow), to ask about each child.
 */
function openAPISchema(s: Props, path: string, w: Walker, isRoot: boolean, opts: SchemaValidationOptions, ctx: CelContext | undefined, rel: string, unusual: true | WeakSet<Props>, out: Found): void {
  const common = unusual === true;
  const below = (child: Props) => gate(unusual, child);
  const schemaErrs = out.schema;
  const before = schemaErrs.length;
  standardRules(s, path, w, common, schemaErrs);
  if (!common && s.uniqueItems === true) schemaErrs.push(field.forbidden(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  const props = isObject(s.properties) ? s.properties : undefined;
  const ap = s.additionalProperties;
  if (ap !== undefined && ap !== null) {
    // Only a map schema (additionalProperties: false, or a schema) contradicts properties; `true` does not.
    if (props && Object.keys(props).length > 0 && ap !== true) schemaErrs.push(field.forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
    const sub = w.insideResourceMeta ? forbidDefaults(w, 'inside additionalProperties applying to object metadata') : w;
    if (isObject(ap)) {
      const node = ctx && typeof ctx.node.additional === 'object' ? ctx.node.additional : undefined;
      const child = childContext(ctx, node, ap['x-kubernetes-embedded-resource'] === true);
      openAPISchema(ap, `${path}.additionalProperties`, sub, false, opts, child, child ? join(rel, 'additionalProperties') : '', below(ap), out);
    }
  }
  if (props) {
    const correlatable = mapIsCorrelatable(s['x-kubernetes-map-type']);
    const resource = isRoot || s['x-kubernetes-embedded-resource'] === true;
    for (const name in props) {
      if (!Object.hasOwn(props, name)) continue;
      const prop = props[name];
      if (!isObject(prop)) continue;
      let sub = w;
      if (!correlatable) sub = forbidOldSelf(sub, path);
      if (resource && META_FIELDS.has(name)) {
        sub = { ...sub, insideResourceMeta: true };
        if (isRoot) sub = forbidDefaults(sub, `in top-level ${name}`);
      }
      const child = ctx ? childContext(ctx, ctx.node.properties?.get(name), prop['x-kubernetes-embedded-resource'] === true) : undefined;
      openAPISchema(prop, `${path}.properties[${name}]`, sub, false, opts, child, child ? join(rel, `properties[${name}]`) : '', below(prop), out);
    }
  }
  if (!common) {
    if (isObject(s.not)) openAPISchema(s.not, `${path}.not`, w, false, opts, undefined, '', below(s.not), out);
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
      const list = s[key];
      if (Array.isArray(list)) list.forEach((sub, i) => isObject(sub) && openAPISchema(sub, `${path}.${key}[${i}]`, w, false, opts, undefined, '', below(sub), out));
    }
    if (isObject(s.definitions)) {
      for (const [name, sub] of Object.entries(s.definitions)) if (isObject(sub)) openAPISchema(sub, `${path}.definitions[${name}]`, w, false, opts, undefined, '', below(sub), out);
    }
  }
  const items = s.items;
  if (items !== undefined && items !== null) {
    // Only list-type=map items correlate with old items; set and atomic (the default) lists do not.
    const sub = s['x-kubernetes-list-type'] !== 'map' ? forbidOldSelf(w, path) : w;
    if (isObject(items)) {
      const child = childContext(ctx, ctx?.node.items, items['x-kubernetes-embedded-resource'] === true);
      openAPISchema(items, `${path}.items`, sub, false, opts, child, child ? join(rel, 'items') : '', below(items), out);
    } else if (Array.isArray(items)) {
      items.forEach((item, i) => isObject(item) && openAPISchema(item, `${path}.items[${i}]`, sub, false, opts, undefined, '', below(item), out));
    }
  }
  if (!common && isObject(s.dependencies)) {
    for (const [name, dep] of Object.entries(s.dependencies)) if (isObject(dep)) openAPISchema(dep, `${path}.dependencies[${name}]`, w, false, opts, undefined, '', below(dep), out);
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    schemaErrs.push(field.invalid(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  }
  listAndMapRules(s, path, opts, schemaErrs);
  const rules = s['x-kubernetes-validations'];
  if (Array.isArray(rules) && rules.length > 0) {
    schemaErrs.push(...ruleFieldRules(rules, s, path));
    // Schema errors at or below this node make CEL errors unhelpful: kube skips compiling then.
    if (schemaErrs.length === before && ctx) out.cel.push(...celRules(rules, path, w, ctx, rel));
  }
}

/** What to tell a child about unusual keywords: true when there are none at or below it. */
function gate(unusual: true | WeakSet<Props>, child: Props): true | WeakSet<Props> {
  return unusual === true || !unusual.has(child) ? true : unusual;
}

function forbidDefaults(w: Walker, reason: string): Walker {
  return { ...w, allowDefaults: false, disallowDefaultsReason: reason };
}

/** The highest uncorrelatable path is kept. */
function forbidOldSelf(w: Walker, path: string): Walker {
  return w.uncorrelatablePath !== undefined ? w : { ...w, uncorrelatablePath: path };
}

/** cel.MapIsCorrelatable: granular (the default) and atomic maps correlate; an unknown type does not. */
function mapIsCorrelatable(mapType: unknown): boolean {
  return mapType === undefined || mapType === null || mapType === 'granular' || mapType === 'atomic';
}

/** specStandardValidatorV3.validate, appended to `errs`; `common`: no unusual keyword here (see openAPISchema). */
function standardRules(s: Props, path: string, w: Walker, common: boolean, errs: FieldError[]): void {
  const type = s.type;
  if (w.requireValidPropertyType && type !== undefined && type !== '' && (typeof type !== 'string' || !OPENAPI_V3_TYPES.includes(type))) {
    errs.push(field.notSupported(`${path}.type`, type, OPENAPI_V3_TYPES));
  }
  if (s.default !== undefined && !w.allowDefaults) {
    errs.push(field.forbidden(`${path}.default`, `must not be set${w.disallowDefaultsReason ? ` ${w.disallowDefaultsReason}` : ''}`));
  }
  if (!common) {
    if (typeof s.id === 'string' && s.id !== '') errs.push(field.forbidden(`${path}.id`, 'id is not supported'));
    if (s.additionalItems !== undefined && s.additionalItems !== null) errs.push(field.forbidden(`${path}.additionalItems`, 'additionalItems is not supported'));
    if (isObject(s.patternProperties) && Object.keys(s.patternProperties).length > 0) errs.push(field.forbidden(`${path}.patternProperties`, 'patternProperties is not supported'));
    if (isObject(s.definitions) && Object.keys(s.definitions).length > 0) errs.push(field.forbidden(`${path}.definitions`, 'definitions is not supported'));
    if (s.dependencies !== undefined && s.dependencies !== null) errs.push(field.forbidden(`${path}.dependencies`, 'dependencies is not supported'));
    if (s.$ref !== undefined && s.$ref !== null) errs.push(field.forbidden(`${path}.$ref`, '$ref is not supported'));
  }
  if (type === 'null') errs.push(field.forbidden(`${path}.type`, 'type cannot be set to null, use nullable as an alternative'));
  if (!common && Array.isArray(s.items) && s.items.length > 0) errs.push(field.forbidden(`${path}.items`, 'items must be a schema object and not an array'));
  if (w.insideResourceMeta && s['x-kubernetes-embedded-resource'] === true) {
    errs.push(field.forbidden(`${path}.x-kubernetes-embedded-resource`, 'must not be used inside of resource meta'));
  }
}

/** x-kubernetes-list-type / list-map-keys / map-type consistency, and validateMapListKeysMapSet. */
function listAndMapRules(s: Props, path: string, opts: SchemaValidationOptions, errs: FieldError[]): void {
  const listType = s['x-kubernetes-list-type'];
  const mapType = s['x-kubernetes-map-type'];
  const keys = s['x-kubernetes-list-map-keys'];
  const typeMissing = s.type === undefined || s.type === '';
  if (mapType !== undefined && mapType !== null && s.type !== 'object') {
    errs.push(typeMissing ? field.required(`${path}.type`, 'must be object if x-kubernetes-map-type is specified') : field.invalid(`${path}.type`, s.type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (mapType !== undefined && mapType !== null && mapType !== 'atomic' && mapType !== 'granular') errs.push(field.notSupported(`${path}.x-kubernetes-map-type`, mapType, ['atomic', 'granular']));
  const hasListType = listType !== undefined && listType !== null;
  if (hasListType && s.type !== 'array') {
    errs.push(typeMissing ? field.required(`${path}.type`, 'must be array if x-kubernetes-list-type is specified') : field.invalid(`${path}.type`, s.type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (opts.requireAtomicSetType && listType === 'set' && isObject(s.items)) {
    const items = s.items;
    if (items.type === 'array' && items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic') {
      errs.push(field.invalid(`${path}.items.x-kubernetes-list-type`, items['x-kubernetes-list-type'], 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      errs.push(field.invalid(`${path}.items.x-kubernetes-map-type`, items['x-kubernetes-list-type'] ?? null, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (hasListType && listType !== 'atomic' && listType !== 'set' && listType !== 'map') errs.push(field.notSupported(`${path}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
  if (Array.isArray(keys) && keys.length > 0) {
    if (!hasListType) errs.push(field.required(`${path}.x-kubernetes-list-type`, 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errs.push(field.invalid(`${path}.x-kubernetes-list-type`, listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') errs.push(...listMapRules(s, path, Array.isArray(keys) ? keys : []));
  if (opts.requireMapListKeysMapSetValidation) errs.push(...mapListKeysMapSetRules(s, path));
}

function listMapRules(s: Props, path: string, keys: unknown[]): FieldError[] {
  const errs: FieldError[] = [];
  if (keys.length === 0) errs.push(field.required(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
  if (s.items === undefined || s.items === null) errs.push(field.required(`${path}.items`, 'must have a schema if x-kubernetes-list-type is map'));
  else if (Array.isArray(s.items)) errs.push(field.invalid(`${path}.items`, s.items, 'must only have a single schema if x-kubernetes-list-type is map'));
  else if (isObject(s.items)) {
    const items = s.items;
    if (items.type !== 'object') errs.push(field.invalid(`${path}.items.type`, items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    else {
      const props = isObject(items.properties) ? items.properties : {};
      const seen = new Set<unknown>();
      for (const k of keys) {
        const prop = typeof k === 'string' && Object.hasOwn(props, k) ? props[k] : undefined;
        if (!isObject(prop)) errs.push(field.invalid(`${path}.x-kubernetes-list-map-keys`, keys, 'entries must all be names of item properties'));
        else if (prop.type === 'array' || prop.type === 'object') {
          errs.push(field.invalid(`${path}.items.properties[${String(k)}].type`, items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
        }
        if (seen.has(k)) errs.push(field.invalid(`${path}.x-kubernetes-list-map-keys`, keys, 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
  return errs;
}

/** validateMapListKeysMapSet: set and map items are not nullable; map keys are required or defaulted, never nullable. */
export function mapListKeysMapSetRules(s: Props, path: string): FieldError[] {
  const listType = s['x-kubernetes-list-type'];
  if (!isObject(s.items) || (listType !== 'set' && listType !== 'map')) return [];
  const errs: FieldError[] = [];
  const items = s.items;
  if (items.nullable === true) errs.push(field.forbidden(`${path}.items.nullable`, `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType !== 'map') return errs;
  const required = new Set(Array.isArray(items.required) ? items.required : []);
  const props = isObject(items.properties) ? items.properties : {};
  for (const k of Array.isArray(s['x-kubernetes-list-map-keys']) ? (s['x-kubernetes-list-map-keys'] as unknown[]) : []) {
    const prop = typeof k === 'string' && Object.hasOwn(props, k) ? props[k] : undefined;
    if (!isObject(prop)) continue;
    if (!required.has(k) && prop.default === undefined) {
      errs.push(field.required(`${path}.items.properties[${String(k)}].default`, 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
    }
    if (prop.nullable === true) errs.push(field.forbidden(`${path}.items.properties[${String(k)}].nullable`, 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
  }
  return errs;
}

const hasNewlines = (s: string) => /[\r\n]/.test(s);

/** The x-kubernetes-validations field checks that need no compilation, in kube's order. */
function ruleFieldRules(rules: unknown[], schema: Props, path: string): FieldError[] {
  const errs: FieldError[] = [];
  rules.forEach((raw, i) => {
    const r = isObject(raw) ? raw : {};
    const at = `${path}.x-kubernetes-validations[${i}]`;
    const rule = typeof r.rule === 'string' ? r.rule.trim() : '';
    const message = typeof r.message === 'string' ? r.message : '';
    const messageExpression = typeof r.messageExpression === 'string' ? r.messageExpression : '';
    const fieldPath = typeof r.fieldPath === 'string' ? r.fieldPath : '';
    if (rule === '') errs.push(field.required(`${at}.rule`, 'rule is not specified'));
    else if (message.length > 0 && message.trim() === '') errs.push(field.invalid(`${at}.message`, message, 'must be non-empty if specified'));
    else if (hasNewlines(message.trim())) errs.push(field.invalid(`${at}.message`, message, 'must not contain line breaks'));
    else if (hasNewlines(rule) && message.trim() === '') errs.push(field.required(`${at}.message`, 'message must be specified if rule contains line breaks'));
    if (messageExpression.length > 0 && messageExpression.trim() === '') errs.push(field.required(`${at}.messageExpression`, 'messageExpression must be non-empty if specified'));
    if (r.reason !== undefined && r.reason !== null && !(RULE_REASONS as readonly unknown[]).includes(r.reason)) errs.push(field.notSupported(`${at}.reason`, r.reason, [...RULE_REASONS]));
    if (fieldPath.length > 0 && fieldPath.trim() === '') errs.push(field.invalid(`${at}.fieldPath`, fieldPath, 'must be non-empty if specified'));
    if (hasNewlines(fieldPath)) errs.push(field.invalid(`${at}.fieldPath`, fieldPath, 'must not contain line breaks'));
    if (fieldPath.length > 0 && !pathValid(schema, fieldPath)) errs.push(field.invalid(`${at}.fieldPath`, fieldPath, 'must be a valid path'));
  });
  return errs;
}

/** pathValid: cel.ValidFieldPath over the schema, when it is structural (otherwise any path passes, as in kube). */
function pathValid(schema: Props, jsonPath: string): boolean {
  if (structuralConversionError(schema) !== undefined) return true;
  return !('error' in validFieldPath(jsonPath, schema));
}

/** The per-node CEL stage: compilation, per-expression cost, messageExpression, oldSelf use. */
function celRules(rules: unknown[], path: string, w: Walker, ctx: CelContext, rel: string): FieldError[] {
  const errs: FieldError[] = [];
  const self = declTypeOfNode(ctx.node, ctx.isResourceRoot);
  rules.forEach((raw, i) => {
    if (!isObject(raw) || typeof raw.rule !== 'string' || raw.rule.trim() === '') return;
    const at = `${path}.x-kubernetes-validations[${i}]`;
    const compiled = compileRule(
      {
        rule: raw.rule,
        ...(typeof raw.messageExpression === 'string' && raw.messageExpression.trim() !== '' ? { messageExpression: raw.messageExpression } : {}),
        ...(raw.optionalOldSelf === true ? { optionalOldSelf: true } : {}),
      },
      self,
      { typeCheck: true },
    );
    const ruleCost = compiled.errorIn === 'rule' ? 0 : (ctx.costs.get(join(rel, `x-kubernetes-validations[${i}].rule`)) ?? 0);
    if (!ctx.suppressPerExpressionCost && ruleCost > STATIC_ESTIMATED_COST_LIMIT) errs.push(field.forbidden(`${at}.rule`, costErrorMessage('estimated rule cost', ruleCost, STATIC_ESTIMATED_COST_LIMIT)));
    ctx.observed.push({ path: `${at}.rule`, cost: ruleCost });
    if (compiled.errorIn === 'rule') errs.push(field.invalid(`${at}.rule`, raw, compileDetail(compiled.error ?? '', '', 'bool')));
    if (compiled.errorIn === 'messageExpression') errs.push(field.invalid(`${at}.messageExpression`, raw, compileDetail(compiled.error ?? '', 'messageExpression ', 'string')));
    else if (compiled.messageProgram) {
      const messageCost = ctx.costs.get(join(rel, `x-kubernetes-validations[${i}].messageExpression`)) ?? 0;
      if (!ctx.suppressPerExpressionCost && messageCost > STATIC_ESTIMATED_COST_LIMIT) errs.push(field.forbidden(`${at}.messageExpression`, costErrorMessage('estimated messageExpression cost', messageCost, STATIC_ESTIMATED_COST_LIMIT)));
      ctx.observed.push({ path: `${at}.messageExpression`, cost: messageCost });
    }
    if (compiled.usesOldSelf) {
      if (w.uncorrelatablePath !== undefined) errs.push(field.invalid(`${at}.rule`, raw.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${w.uncorrelatablePath}`));
    } else if (raw.optionalOldSelf !== undefined && raw.optionalOldSelf !== null) {
      errs.push(field.invalid(`${at}.optionalOldSelf`, raw.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
    }
  });
  return errs;
}


/** cel.Compile's details: a wrong result type is said plainly, anything else is a compilation failure. */
function compileDetail(error: string, what: '' | 'messageExpression ', want: 'bool' | 'string'): string {
  if (error.startsWith('cel expression must evaluate to')) return what ? `messageExpression must evaluate to a ${want}` : `cel expression must evaluate to a ${want}`;
  return `${what}compilation failed: ${error}`;
}
