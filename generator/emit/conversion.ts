/**
 * Emits `conversion/<group>/<plural>.ts` for every kind declared in several versions: typed
 * `autoConvert_*` functions between each version and the storage version (fields that correspond
 * are copied, recursively; then the user's `Convert_*` of the same pair, if exported, converts the
 * rest; fields the target cannot hold are kept in, and restored from, the `<group>/conversion-data`
 * annotation through a ConversionScope), and the kind's KindConversion, which the kind's storage
 * modules hand to the runtime.
 */
import { dirname, relative, resolve } from 'node:path';
import type { CheckedModel } from '../check/checked.js';
import { autoName, convNeedsScope, type Conv, type ConversionUnit, type KindConversionPlan } from '../check/conversion.js';
import { apiVersionOf, groupFolder } from '../names.js';
import type { EmitOptions, EmittedFile } from './emitted.js';
import { conversionExportName, conversionModulePath } from './layout.js';
import { render, stringLiteral } from './templates.js';

export interface ConversionEmitOptions extends EmitOptions {
  /** Where the output is written: imports of the users' conversion files are relative to it. */
  outDir: string;
}

const IDENT = /^[A-Za-z_$][\w$]*$/;
/** `obj.name`, or `obj['name']` with the name as an escaped literal: a field name from apis/ is data, never code. */
const access = (obj: string, name: string) => (IDENT.test(name) ? `${obj}.${name}` : `${obj}[${stringLiteral(name)}]`);

/** `scope.field('spec')`: the scope of a field, for values that pass one on. */
const fieldScope = (scope: string, name: string) => `${scope}.field(${quote(name)})`;
const quote = stringLiteral;

/**
 * An expression converting the value `v`; `d` numbers the nested parameters; `scope` is the
 * expression of the value's ConversionScope, used only where a unit below takes one.
 */
function valueExpr(conv: Conv, v: string, d: number, scope: string): string {
  const orNull = (nullable: boolean, inner: string) => (nullable ? `(${v} === null ? null : ${inner})` : inner);
  switch (conv.kind) {
    case 'copy':
      return v;
    case 'clone':
      return `structuredClone(${v})`;
    case 'array':
      if (conv.items.kind === 'copy') return orNull(conv.nullable, `[...${v}]`);
      // Items of a list keep their data by position.
      if (convNeedsScope(conv.items)) return orNull(conv.nullable, `${v}.map((e${d}, i${d}) => ${valueExpr(conv.items, `e${d}`, d + 1, `${scope}.item(i${d})`)})`);
      return orNull(conv.nullable, `${v}.map((e${d}) => ${valueExpr(conv.items, `e${d}`, d + 1, scope)})`);
    case 'map':
      return orNull(
        conv.nullable,
        conv.values.kind === 'copy'
          ? `{ ...${v} }`
          : `Object.fromEntries(Object.entries(${v}).map(([k${d}, e${d}]) => [k${d}, ${valueExpr(conv.values, `e${d}`, d + 1, `${scope}.item(k${d})`)}]))`,
      );
    case 'unit':
      return orNull(conv.nullable, conv.unit.needsScope ? `${autoName(conv.unit)}(${v}, ${scope})` : `${autoName(conv.unit)}(${v})`);
    case 'inline': {
      // An anonymous object type has no name to write its target type with: built untyped.
      const s = `s${d}`;
      const o = `o${d}`;
      const c = `c${d}`;
      const body = conv.fields.map((f) => `if (${access(s, f.name)} !== undefined) ${access(o, f.name)} = ${valueExpr(f.conv, access(s, f.name), d + 1, fieldScope(c, f.name))};`);
      body.push(...conv.kept.map((name) => `${c}.keep(${quote(name)}, ${access(s, name)});`));
      body.push(...conv.restored.map((name) => `${c}.restore(${o}, ${quote(name)});`));
      if (!convNeedsScope(conv)) return orNull(conv.nullable, `((${s}) => { const ${o}: Record<string, unknown> = {}; ${body.join(' ')} return ${o} as never; })(${v})`);
      return orNull(conv.nullable, `((${s}, ${c}: ConversionScope) => { const ${o}: Record<string, unknown> = {}; ${body.join(' ')} return ${o} as never; })(${v}, ${scope})`);
    }
  }
}

/** The view of one `autoConvert_*` function in templates/conversion.ts.hbs. */
interface FunctionView {
  /** The first line of its doc comment, and the notes after it (a one-line comment when none). */
  doc: string;
  notes: string[];
  name: string;
  fromType: string;
  toType: string;
  needsScope: boolean;
  /** Set for the kind itself: the apiVersion and kind the output object starts with. */
  kindHeader: { apiVersion: string; kind: string } | null;
  /** `if (<source> !== undefined) <target> = <value>;` per field: `value` converts `source`. */
  fields: { source: string; target: string; value: string }[];
  /** The user's Convert_* of the pair, and whether it takes the scope (kube's conversion.Scope). */
  manual: { name: string; takesScope: boolean } | null;
  /** Fields the target cannot hold: kept in the conversion-data annotation. */
  kept: { name: string; source: string }[];
  /** Fields the source cannot hold: restored from that annotation. */
  restored: string[];
}

function unitFunction(plan: KindConversionPlan, unit: ConversionUnit): FunctionView {
  const doc = unit.manual
    ? `${unit.fromType} ${unit.fromVersion} → ${unit.toVersion}: the corresponding fields, then ${unit.manualName}.`
    : unit.kept.length > 0 || unit.restored.length > 0
      ? `${unit.fromType} ${unit.fromVersion} → ${unit.toVersion}: the corresponding fields.`
      : `${unit.fromType} ${unit.fromVersion} → ${unit.toVersion}: every field corresponds.`;
  const notes: string[] = [];
  if (unit.kept.length > 0) notes.push(`${unit.toVersion} has no ${list(unit.kept.map((p) => p.name))}: kept in the ${plan.group}/conversion-data annotation.`);
  if (unit.restored.length > 0) notes.push(`${list(unit.restored)}, which ${unit.fromVersion} cannot hold, restored from that annotation.`);
  return {
    doc,
    notes,
    name: autoName(unit),
    fromType: `${unit.fromVersion}.${unit.fromType}`,
    toType: `${unit.toVersion}.${unit.toType}`,
    needsScope: unit.needsScope,
    kindHeader: unit.isKind ? { apiVersion: apiVersionOf(plan.group, unit.toVersion), kind: plan.kind } : null,
    fields: unit.fields.map((f) => ({ source: access('src', f.name), target: access('out', f.name), value: valueExpr(f.conv, access('src', f.name), 0, fieldScope('scope', f.name)) })),
    manual: unit.manual ? { name: unit.manualName, takesScope: !!unit.manual.takesScope } : null,
    kept: unit.kept.map((p) => ({ name: p.name, source: access('src', p.name) })),
    restored: unit.restored,
  };
}

/** `a`, `a and b`, `a, b and c`, as code in a doc comment (a `*\/` in a name cannot end it). */
function list(names: string[]): string {
  const quoted = names.map((n) => `\`${n.replace(/\*\//g, '*\\/')}\``);
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

/** `../../../apis/widgets.example.com/v1beta1/conversion.js`, from the module's folder. */
function importPath(fromDir: string, file: string): string {
  const rel = relative(fromDir, file).split('\\').join('/').replace(/\.ts$/, '.js');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

function conversionFile(plan: KindConversionPlan, outDir: string): EmittedFile {
  const path = conversionModulePath(plan.group, plan.plural);
  const moduleDir = dirname(resolve(outDir, path));
  const folder = groupFolder(plan.group);
  const versions = [plan.hub.version, ...plan.spokes.map((s) => s.version)];
  const manualImports = plan.spokes
    .map((spoke) => {
      const names = plan.units.filter((u) => u.manual && (u.fromVersion === spoke.version || u.toVersion === spoke.version)).map((u) => u.manualName);
      return { names: names.join(', '), path: importPath(moduleDir, plan.conversionFile.get(spoke.version)!), used: names.length > 0 };
    })
    .filter((i) => i.used);
  return {
    path,
    content: render('conversion.ts.hbs', {
      source: 'the apis folder',
      kind: plan.kind,
      group: plan.group,
      storageVersion: plan.hub.version,
      usesScope: plan.units.some((u) => u.needsScope),
      exportName: conversionExportName(plan.plural),
      models: versions.map((v) => ({ alias: v, path: `../../models/${folder}/${v}.js` })),
      manualImports,
      functions: plan.units.map((u) => unitFunction(plan, u)),
      spokes: plan.spokes.map((s) => {
        const root = plan.roots.get(s.version)!;
        return { version: s.version, type: `${s.version}.${plan.kind}`, hubType: `${plan.hub.version}.${plan.kind}`, toHub: autoName(root.toHub), fromHub: autoName(root.fromHub) };
      }),
    }),
  };
}

/** One module per conversion plan the checker made (checked.conversions). */
export function emitConversions(checked: CheckedModel, options: ConversionEmitOptions): EmittedFile[] {
  return checked.conversions.map((plan) => conversionFile(plan, options.outDir));
}
