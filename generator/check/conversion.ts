/**
 * Conversion plans of multi-version kinds (what kube's conversion-gen works out): every version
 * converts to and from the storage version (the hub). Fields that correspond by name and type are
 * converted by generated code, recursively through named types. A field of an object type that the
 * other version's type does not have at all is kept (kube's conversion convention: in the
 * `<group>/conversion-data` annotation, runtime/conversion/conversion-data.ts) and restored when
 * the object converts back, unless the type pair has a user function (which then decides, and can
 * keep fields itself with the same scope) or the other type also has fields this one lacks (that
 * may be a rename, which kgen cannot tell from a removal plus an addition). Every other field is
 * "unmatched" and needs the user's `Convert_<from>_<Type>_To_<to>_<Type>(src, out, scope)` from the
 * non-storage version's conversion.ts, which runs after the generated copy. Pure: the checker
 * reports the plans' problems, the conversion emitter prints them.
 */
import { dirname, join } from 'node:path';
import type { ApiGroup, ApiModel, ApiVersion, ConversionFunction, Kind, ObjectSchema, Property, Schema } from '../model.js';
import { apiVersionOf } from '../names.js';
import { multiVersionKinds } from '../versions.js';

/** How one value converts. */
export type Conv =
  /** Immutable scalars: the value itself. */
  | { kind: 'copy' }
  /** Opaque or well-known values (unknown, ObjectMeta, Condition…): a deep copy. */
  | { kind: 'clone' }
  | { kind: 'array'; items: Conv; nullable: boolean }
  | { kind: 'map'; values: Conv; nullable: boolean }
  /** An object of a named type: the generated function of that type pair. */
  | { kind: 'unit'; unit: ConversionUnit; nullable: boolean }
  /** An anonymous object type: its fields, inline; kept and restored as a unit's are. */
  | { kind: 'inline'; fields: FieldConv[]; nullable: boolean; kept: string[]; restored: string[] };

export interface FieldConv {
  name: string;
  conv: Conv;
}

/** A field the generated code cannot convert. */
export interface UnmatchedField {
  /** `WidgetSpec.size`, `Widget.spec.parts[].name`. */
  path: string;
  property: Property;
  /** "has no field of that name in v1", "is a string in v1beta1 but an integer in v1". */
  problem: string;
  /** A field of the unit's own type that the target type does not have at all (it may be kept). */
  absent?: boolean;
}

/** Whether converting a value passes a scope on (to a unit that takes one). */
export function convNeedsScope(conv: Conv): boolean {
  switch (conv.kind) {
    case 'array':
      return convNeedsScope(conv.items);
    case 'map':
      return convNeedsScope(conv.values);
    case 'unit':
      return conv.unit.needsScope;
    case 'inline':
      return conv.kept.length > 0 || conv.restored.length > 0 || conv.fields.some((f) => convNeedsScope(f.conv));
    default:
      return false;
  }
}

/** One type pair: a generated `autoConvert_<from>_<Type>_To_<to>_<Type>` function. */
export interface ConversionUnit {
  fromVersion: string;
  fromType: string;
  toVersion: string;
  toType: string;
  /** The kind itself (apiVersion, kind and metadata are set and copied around the fields). */
  isKind: boolean;
  fields: FieldConv[];
  unmatched: UnmatchedField[];
  /** Source fields the target type has no field for, kept in the annotation by generated code. */
  kept: Property[];
  /** Target fields the source type has no field for, restored from the annotation (the reverse pair keeps them). */
  restored: string[];
  /** The generated function takes a ConversionScope: it keeps, restores, calls a user function, or passes one on. */
  needsScope: boolean;
  /** The user's function name for this pair. */
  manualName: string;
  /** Set when the user's conversion file exports manualName. */
  manual?: ConversionFunction;
}

export interface KindConversionPlan {
  group: string;
  kind: string;
  plural: string;
  hub: Kind;
  /** Every other version, priority order. */
  spokes: Kind[];
  /** spoke version → its conversion file's path (whether it exists or not). */
  conversionFile: Map<string, string>;
  /** spoke → hub and hub → spoke kind units, per spoke version. */
  roots: Map<string, { toHub: ConversionUnit; fromHub: ConversionUnit }>;
  /** Every unit, in a stable order (by name). */
  units: ConversionUnit[];
}

export const manualName = (fromVersion: string, fromType: string, toVersion: string, toType: string): string =>
  `Convert_${fromVersion}_${fromType}_To_${toVersion}_${toType}`;

export const autoName = (u: ConversionUnit): string => `auto${u.manualName}`;

interface Side {
  version: string;
  types: Map<string, Schema>;
}

class Planner {
  readonly units = new Map<string, ConversionUnit>();

  constructor(private readonly manualFunctions: (version: string) => Map<string, ConversionFunction>) {}

  unit(from: Side, fromType: string, fromSchema: ObjectSchema, to: Side, toType: string, toSchema: ObjectSchema, isKind: boolean): ConversionUnit {
    const key = `${from.version}/${fromType}>${to.version}/${toType}`;
    const existing = this.units.get(key);
    if (existing) return existing;
    const name = manualName(from.version, fromType, to.version, toType);
    const unit: ConversionUnit = { fromVersion: from.version, fromType, toVersion: to.version, toType, isKind, fields: [], unmatched: [], kept: [], restored: [], needsScope: false, manualName: name };
    this.units.set(key, unit);
    // Units always pair the storage version with another one; the user's function lives in the other one's folder.
    const spokeVersion = this.isHub(from.version) ? to.version : from.version;
    const manual = this.manualFunctions(spokeVersion).get(name);
    if (manual) unit.manual = manual;
    unit.fields = this.fields(from, fromSchema, to, toSchema, unit, fromType);
    // kube's convention: a field the target cannot hold at all survives in the annotation. Not
    // when the user converts this pair (their function decides), nor when the target also has
    // fields the source lacks (a rename would silently become two kept fields).
    const absent = unit.unmatched.filter((u) => u.absent);
    const incoming = toSchema.properties.some((p) => !fromSchema.properties.some((q) => q.name === p.name));
    if (!unit.manual && absent.length > 0 && !incoming) {
      unit.kept = absent.map((u) => u.property);
      unit.unmatched = unit.unmatched.filter((u) => !u.absent);
    }
    return unit;
  }

  /** After every unit exists: what each restores (its reverse pair keeps), and which take a scope. */
  finish(): void {
    for (const unit of this.units.values()) {
      const reverse = this.units.get(`${unit.toVersion}/${unit.toType}>${unit.fromVersion}/${unit.fromType}`);
      unit.restored = reverse ? reverse.kept.map((p) => p.name) : [];
      unit.needsScope = !!unit.manual?.takesScope || unit.kept.length > 0 || unit.restored.length > 0;
    }
    for (let changed = true; changed; ) {
      changed = false;
      for (const unit of this.units.values()) {
        if (unit.needsScope || !unit.fields.some((f) => convNeedsScope(f.conv))) continue;
        unit.needsScope = changed = true;
      }
    }
  }

  isHub: (version: string) => boolean = () => false;

  /** `top`: the fields of the unit's own type (an inline anonymous type's are kept by value()). */
  private fields(from: Side, a: ObjectSchema, to: Side, b: ObjectSchema, unit: ConversionUnit, path: string, top = true): FieldConv[] {
    const out: FieldConv[] = [];
    for (const prop of a.properties) {
      const target = b.properties.find((p) => p.name === prop.name);
      const fieldPath = `${path}.${prop.name}`;
      if (!target) {
        unit.unmatched.push({ path: fieldPath, property: prop, problem: `has no field of that name in ${to.version}`, absent: top });
        continue;
      }
      const conv = this.value(from, prop.schema, to, target.schema, unit, fieldPath);
      if (typeof conv === 'string') unit.unmatched.push({ path: fieldPath, property: prop, problem: conv });
      else out.push({ name: prop.name, conv });
    }
    return out;
  }

  /**
   * An anonymous object type, converted inline. Its fields the other type lacks are kept on the
   * same terms as a named type's: the unit converting it has no user function, and the other
   * type has no field this one lacks; restored when the reverse unit would keep them.
   */
  private inline(from: Side, a: ObjectSchema, to: Side, b: ObjectSchema, unit: ConversionUnit, path: string, nullable: boolean): Conv {
    const fields = this.fields(from, a, to, b, unit, path, false);
    const absent = a.properties.filter((p) => !b.properties.some((q) => q.name === p.name)).map((p) => p.name);
    const incoming = b.properties.filter((p) => !a.properties.some((q) => q.name === p.name)).map((p) => p.name);
    if (absent.length > 0 && incoming.length > 0) return { kind: 'inline', fields, nullable, kept: [], restored: [] };
    const spokeVersion = this.isHub(unit.fromVersion) ? unit.toVersion : unit.fromVersion;
    const reverseManual = this.manualFunctions(spokeVersion).has(manualName(unit.toVersion, unit.toType, unit.fromVersion, unit.fromType));
    const kept = unit.manual ? [] : absent;
    const paths = new Set(kept.map((name) => `${path}.${name}`));
    unit.unmatched = unit.unmatched.filter((u) => !paths.has(u.path));
    return { kind: 'inline', fields, nullable, kept, restored: reverseManual ? [] : incoming };
  }

  /** How a value of schema `a` (version from) converts to schema `b` (version to), or why it cannot. */
  private value(from: Side, a0: Schema, to: Side, b0: Schema, unit: ConversionUnit, path: string): Conv | string {
    const a = resolve(a0, from.types);
    const b = resolve(b0, to.types);
    const nullable = !!(a.schema.nullable || a0.nullable);
    if (nullable && !(b.schema.nullable || b0.nullable)) return `may be null in ${from.version} but not in ${to.version}`;
    const as = a.schema;
    const bs = b.schema;
    const differ = () => `is ${describe(as)} in ${from.version} but ${describe(bs)} in ${to.version}`;
    if (as.type !== bs.type) return differ();
    switch (as.type) {
      case 'string': {
        const be = (bs as typeof as).enum;
        if (be && (!as.enum || as.enum.some((v) => !be.includes(v)))) return `allows values in ${from.version} that ${to.version} does not (${describe(as)} → ${describe(bs)})`;
        return { kind: 'copy' };
      }
      case 'integer':
      case 'number':
      case 'boolean':
      case 'intOrString':
      case 'quantity':
      case 'time':
      case 'duration':
        return { kind: 'copy' };
      case 'unknown':
        return { kind: 'clone' };
      case 'wellKnown':
        return as.name === (bs as typeof as).name ? { kind: 'clone' } : differ();
      case 'array': {
        const items = this.value(from, as.items, to, (bs as typeof as).items, unit, `${path}[]`);
        return typeof items === 'string' ? items : { kind: 'array', items, nullable };
      }
      case 'map': {
        const values = this.value(from, as.values, to, (bs as typeof as).values, unit, `${path}{}`);
        return typeof values === 'string' ? values : { kind: 'map', values, nullable };
      }
      case 'object': {
        const bo = bs as ObjectSchema;
        if (as.preserveUnknownFields && bo.preserveUnknownFields) return { kind: 'clone' };
        if (a.name && b.name) return { kind: 'unit', unit: this.unit(from, a.name, as, to, b.name, bo, false), nullable };
        return this.inline(from, as, to, bo, unit, path, nullable);
      }
      case 'ref':
        return `refers to an unknown type "${as.name}"`;
      default:
        return differ();
    }
  }
}

/** Follows refs to named types; `name` is the last named object type passed through. */
function resolve(schema: Schema, types: Map<string, Schema>): { schema: Schema; name?: string } {
  let s = schema;
  let name: string | undefined;
  for (let depth = 0; s.type === 'ref' && depth < 32; depth++) {
    const target = types.get(s.name);
    if (!target) break;
    name = s.name;
    s = target.nullable || !s.nullable ? target : { ...target, nullable: true };
  }
  return { schema: s, name: s.type === 'object' ? name : undefined };
}

function describe(s: Schema): string {
  if (s.type === 'string' && s.enum) return `one of ${s.enum.map((e) => `"${e}"`).join(', ')}`;
  if (s.type === 'wellKnown') return s.name;
  const names: Partial<Record<Schema['type'], string>> = { intOrString: 'an int-or-string', unknown: 'free-form', map: 'a map', array: 'a list', object: 'an object', integer: 'an integer' };
  return names[s.type] ?? `a ${s.type}`;
}

function sideOf(version: ApiVersion): Side {
  return { version: version.name, types: new Map(version.types.map((t) => [t.name, t.schema])) };
}

/** The conversion file of a version folder: next to the kind's own file. */
export function conversionFilePath(kind: Kind): string {
  return join(dirname(kind.loc.file), 'conversion.ts');
}

/** Conversion plans of every kind declared in several versions of its group. */
export function planConversions(model: ApiModel): KindConversionPlan[] {
  const plans: KindConversionPlan[] = [];
  for (const group of model.groups) {
    for (const [name, kinds] of multiVersionKinds(group)) {
      const hub = kinds.find((k) => k.storageVersion);
      if (!hub || kinds.filter((k) => k.storageVersion).length !== 1) continue;
      plans.push(planKind(model, group, name, hub, kinds.filter((k) => k !== hub)));
    }
  }
  return plans;
}

function planKind(model: ApiModel, group: ApiGroup, name: string, hub: Kind, spokes: Kind[]): KindConversionPlan {
  const versionOf = (v: string) => group.versions.find((x) => x.name === v)!;
  const manual = (version: string) =>
    new Map((model.conversionFiles ?? []).filter((f) => f.group === group.name && f.version === version).flatMap((f) => f.functions.map((fn) => [fn.name, fn] as const)));
  const planner = new Planner(manual);
  planner.isHub = (v) => v === hub.version;
  const hubSide = sideOf(versionOf(hub.version));
  const roots = new Map<string, { toHub: ConversionUnit; fromHub: ConversionUnit }>();
  const conversionFile = new Map<string, string>();
  for (const spoke of spokes) {
    const side = sideOf(versionOf(spoke.version));
    conversionFile.set(spoke.version, conversionFilePath(spoke));
    roots.set(spoke.version, {
      toHub: planner.unit(side, name, spoke.schema, hubSide, name, hub.schema, true),
      fromHub: planner.unit(hubSide, name, hub.schema, side, name, spoke.schema, true),
    });
  }
  planner.finish();
  const units = [...planner.units.values()].sort((a, b) => a.manualName.localeCompare(b.manualName));
  return { group: group.name, kind: name, plural: hub.plural, hub, spokes, conversionFile, roots, units };
}

/** `widgets.example.com/v1beta1`, for messages. */
export function groupVersionText(group: string, version: string): string {
  return apiVersionOf(group, version);
}
