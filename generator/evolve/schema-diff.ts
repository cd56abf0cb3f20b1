/**
 * Compares one schema of the baseline with the same schema of the current model, field by field,
 * and records every change with the rule of Kubernetes' API change guidelines it falls under
 * (contributors/devel/sig-architecture/api_changes.md): removing, retyping or requiring a field,
 * removing an enum value, tightening validation and changing list semantics are breaking;
 * loosening validation and a new required field with a default are warnings.
 *
 * The baseline comes from a snapshot and has no source locations; every finding is located at
 * the current model's definition.
 */
import type { AllowBreakingChange, NamedType, Schema, SourceLocation } from '../model.js';
import type { ApiChange } from './changes.js';

export interface SchemaDiffContext {
  /** `widgets.example.com/v1 Widget`. */
  subject: string;
  oldTypes: Map<string, NamedType>;
  newTypes: Map<string, NamedType>;
  out: ApiChange[];
}

interface Site {
  path: string;
  /** Where the current definition is written (the field, or the kind). */
  loc: SourceLocation;
  /** The nearest @kgen:allowBreakingChange at or above this node. */
  accept?: AllowBreakingChange;
}

const MAX_DEPTH = 32;

/**
 * The schema a node stands for: named references followed, with the annotations written at the
 * reference (the field's own tags) laid over those of the named type, and both sets of CEL rules.
 * The named type's own location is kept (an object's loc is its interface).
 */
export function effective(schema: Schema, types: Map<string, NamedType>, depth = 0): Schema {
  if (schema.type !== 'ref' || depth > MAX_DEPTH) return schema;
  const target = types.get(schema.name);
  if (!target) return schema;
  const inner = effective(target.schema, types, depth + 1);
  const { type: _type, name: _name, loc: _loc, validations, ...annotations } = schema;
  const merged = { ...inner } as Schema & Record<string, unknown>;
  for (const [key, value] of Object.entries(annotations)) if (value !== undefined) merged[key] = value;
  const rules = [...(inner.validations ?? []), ...(validations ?? [])];
  if (rules.length) merged.validations = rules;
  return merged;
}

/** The type as a client sees it: JSON type, well-known type and format. */
function typeName(s: Schema): string {
  const base = s.type === 'wellKnown' ? s.name : s.type === 'ref' ? s.name : s.type;
  return s.format ? `${base} (format ${s.format})` : base;
}

const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'] as const;
const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'] as const;

const json = (v: unknown) => JSON.stringify(v);

export function diffSchema(oldSchema: Schema, newSchema: Schema, ctx: SchemaDiffContext, site: Site, depth = 0): void {
  if (depth > MAX_DEPTH) return;
  const o = effective(oldSchema, ctx.oldTypes);
  const n = effective(newSchema, ctx.newTypes);
  const here: Site = { ...site, accept: n.allowBreakingChange ?? site.accept };
  const record = (change: Omit<ApiChange, 'loc' | 'accepted' | 'subject' | 'path'> & { path?: string; loc?: SourceLocation }) =>
    push(ctx, here, change);
  if (typeName(o) !== typeName(n)) {
    record({ change: 'changed', code: 'KG062', args: { old: typeName(o), new: typeName(n) }, summary: `type ${typeName(o)} → ${typeName(n)}` });
    return;
  }
  diffValidation(o, n, record);
  switch (n.type) {
    case 'object': {
      if (o.type !== 'object') return;
      diffProperties(o, n, ctx, here, depth);
      return;
    }
    case 'array':
      if (o.type === 'array') diffSchema(o.items, n.items, ctx, { ...here, path: `${here.path}[*]` }, depth + 1);
      return;
    case 'map':
      if (o.type === 'map') diffSchema(o.values, n.values, ctx, { ...here, path: `${here.path}[*]` }, depth + 1);
      return;
    default:
      return;
  }
}

type Record_ = (change: Omit<ApiChange, 'loc' | 'accepted' | 'subject' | 'path'> & { path?: string; loc?: SourceLocation }) => void;

/** Enums, bounds, patterns, nullability, defaults, list semantics and CEL rules of one node. */
function diffValidation(o: Schema, n: Schema, record: Record_): void {
  const tightened = (detail: string) => record({ change: 'tightened', code: 'KG065', args: { detail }, summary: detail });
  const loosened = (detail: string) => record({ change: 'loosened', code: 'KG074', args: { detail }, summary: detail });
  if (o.type === 'string' && n.type === 'string') {
    if (o.enum && n.enum) {
      const removed = o.enum.filter((v) => !n.enum!.includes(v));
      const added = n.enum.filter((v) => !o.enum!.includes(v));
      if (removed.length) record({ change: 'removed', code: 'KG064', args: { values: removed.map(json).join(', ') }, summary: `enum values ${removed.map(json).join(', ')} removed` });
      if (added.length) loosened(`enum values ${added.map(json).join(', ')} added`);
    } else if (n.enum) tightened(`now one of ${n.enum.map(json).join(', ')}`);
    else if (o.enum) loosened('no longer an enum');
  }
  for (const key of UPPER_BOUNDS) {
    const a = o[key];
    const b = n[key];
    if (a === b) continue;
    if (b !== undefined && (a === undefined || b < a)) tightened(`${key} ${a ?? 'unset'} → ${b}`);
    else loosened(`${key} ${a} → ${b ?? 'unset'}`);
  }
  for (const key of LOWER_BOUNDS) {
    const a = o[key];
    const b = n[key];
    if (a === b) continue;
    if (b !== undefined && (a === undefined || b > a)) tightened(`${key} ${a ?? 'unset'} → ${b}`);
    else loosened(`${key} ${a} → ${b ?? 'unset'}`);
  }
  if (o.multipleOf !== n.multipleOf) {
    if (n.multipleOf !== undefined) tightened(`multipleOf ${o.multipleOf ?? 'unset'} → ${n.multipleOf}`);
    else loosened(`multipleOf ${o.multipleOf} → unset`);
  }
  if (o.pattern !== n.pattern) {
    if (n.pattern !== undefined) tightened(o.pattern === undefined ? `new pattern ${n.pattern}` : `pattern ${o.pattern} → ${n.pattern}`);
    else loosened(`pattern ${o.pattern} removed`);
  }
  if (!o.uniqueItems && n.uniqueItems) tightened('items must now be unique');
  if (o.nullable && !n.nullable) tightened('null is no longer allowed');
  if (!o.nullable && n.nullable) loosened('null is now allowed');
  if (o.preserveUnknownFields && !n.preserveUnknownFields) tightened('unknown fields are now pruned');
  if (o.default !== undefined && n.default !== undefined && json(o.default) !== json(n.default)) {
    record({ change: 'changed', code: 'KG072', args: { old: json(o.default), new: json(n.default) }, summary: `default ${json(o.default)} → ${json(n.default)}` });
  }
  if ((o.listType ?? 'atomic') !== (n.listType ?? 'atomic') && (o.type === 'array' || n.type === 'array')) {
    const detail = `listType changed from ${o.listType ?? 'atomic'} to ${n.listType ?? 'atomic'}`;
    record({ change: 'changed', code: 'KG067', args: { detail }, summary: detail });
  } else if ((o.listMapKeys ?? []).join(',') !== (n.listMapKeys ?? []).join(',')) {
    const detail = `list map keys changed from [${(o.listMapKeys ?? []).join(', ')}] to [${(n.listMapKeys ?? []).join(', ')}]`;
    record({ change: 'changed', code: 'KG067', args: { detail }, summary: detail });
  }
  const oldRules = new Set((o.validations ?? []).map((r) => r.rule));
  const newRules = new Set((n.validations ?? []).map((r) => r.rule));
  for (const rule of n.validations ?? []) {
    if (oldRules.has(rule.rule)) continue;
    if (ratchetingSafe(rule.rule)) record({ change: 'added', args: {}, summary: `transition rule "${rule.rule}" added`, loc: rule.loc });
    else record({ change: 'tightened', code: 'KG066', args: { rule: rule.rule }, summary: `rule "${rule.rule}" added`, loc: rule.loc });
  }
  for (const rule of oldRules) if (!newRules.has(rule)) loosened(`rule "${rule}" removed`);
}

/**
 * A new rule is safe for stored objects when it is a transition rule: it is evaluated only on
 * updates, against the old value, so an object that is not changed keeps passing (the form kube's
 * validation ratcheting recommends, e.g. `self == oldSelf || self.size() <= 10`).
 */
export function ratchetingSafe(rule: string): boolean {
  return /\boldSelf\b/.test(rule);
}

function diffProperties(o: Extract<Schema, { type: 'object' }>, n: Extract<Schema, { type: 'object' }>, ctx: SchemaDiffContext, site: Site, depth: number): void {
  const current = new Map(n.properties.map((p) => [p.name, p]));
  const before = new Map(o.properties.map((p) => [p.name, p]));
  for (const old of o.properties) {
    const now = current.get(old.name);
    const path = `${site.path}.${old.name}`;
    if (!now) {
      // Located at the object that lost it: its interface, or the field of that type.
      push(ctx, { ...site, path, loc: n.loc.line ? n.loc : site.loc }, { change: 'removed', code: 'KG061', args: {}, summary: 'field removed' });
      continue;
    }
    const fieldSite: Site = { path, loc: now.loc, accept: now.schema.allowBreakingChange ?? effective(now.schema, ctx.newTypes).allowBreakingChange ?? site.accept };
    if (old.optional && !now.optional) push(ctx, fieldSite, { change: 'tightened', code: 'KG063', args: {}, summary: 'optional → required' });
    diffSchema(old.schema, now.schema, ctx, fieldSite, depth + 1);
  }
  for (const now of n.properties) {
    if (before.has(now.name)) continue;
    const fieldSite: Site = { path: `${site.path}.${now.name}`, loc: now.loc, accept: now.schema.allowBreakingChange ?? site.accept };
    const dflt = effective(now.schema, ctx.newTypes).default;
    if (now.optional) push(ctx, fieldSite, { change: 'added', args: {}, summary: 'optional field added' });
    else if (dflt === undefined) push(ctx, fieldSite, { change: 'added', code: 'KG071', args: {}, summary: 'required field added without a default' });
    else push(ctx, fieldSite, { change: 'added', code: 'KG073', args: { value: json(dflt) }, summary: `required field added with default ${json(dflt)}` });
  }
}

function push(
  ctx: SchemaDiffContext,
  site: Site,
  change: Omit<ApiChange, 'loc' | 'accepted' | 'subject' | 'path'> & { path?: string; loc?: SourceLocation },
): void {
  const entry: ApiChange = {
    subject: ctx.subject,
    path: change.path ?? (site.path || '.'),
    change: change.change,
    summary: change.summary,
    args: change.args,
    loc: change.loc ?? site.loc,
  };
  if (change.code) entry.code = change.code;
  if (site.accept && change.code) entry.accepted = site.accept.reason;
  ctx.out.push(entry);
}
