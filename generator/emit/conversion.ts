/**
 * Emits `conversion/<group>/<plural>.ts` for every kind declared in several versions: typed
 * `autoConvert_*` functions between each version and the storage version (fields that correspond
 * are copied, recursively; then the user's `Convert_*` of the same pair, if exported, converts the
 * rest), and the kind's KindConversion, which the kind's storage modules hand to the runtime.
 */
import { dirname, relative, resolve } from 'node:path';
import { autoName, planConversions, type Conv, type ConversionUnit, type KindConversionPlan } from '../check/conversion.js';
import type { ApiModel } from '../model.js';
import { apiVersionOf, groupFolder } from '../names.js';
import type { EmitOptions, EmittedFile } from './emitted.js';
import { render } from './templates.js';

export interface ConversionEmitOptions extends EmitOptions {
  /** Where the output is written: imports of the users' conversion files are relative to it. */
  outDir: string;
}

/** The module path of a kind's conversion, relative to the output directory. */
export function conversionModulePath(group: string, plural: string): string {
  return `conversion/${groupFolder(group)}/${plural}.ts`;
}

/** The exported name of a kind's KindConversion. */
export function conversionExportName(plural: string): string {
  return `${plural}Conversion`;
}

const IDENT = /^[A-Za-z_$][\w$]*$/;
const access = (obj: string, name: string) => (IDENT.test(name) ? `${obj}.${name}` : `${obj}['${name}']`);

/** An expression converting the value `v`; `d` numbers the nested parameters. */
function valueExpr(conv: Conv, v: string, d: number): string {
  const orNull = (nullable: boolean, inner: string) => (nullable ? `(${v} === null ? null : ${inner})` : inner);
  switch (conv.kind) {
    case 'copy':
      return v;
    case 'clone':
      return `structuredClone(${v})`;
    case 'array':
      return orNull(conv.nullable, conv.items.kind === 'copy' ? `[...${v}]` : `${v}.map((e${d}) => ${valueExpr(conv.items, `e${d}`, d + 1)})`);
    case 'map':
      return orNull(
        conv.nullable,
        conv.values.kind === 'copy'
          ? `{ ...${v} }`
          : `Object.fromEntries(Object.entries(${v}).map(([k${d}, e${d}]) => [k${d}, ${valueExpr(conv.values, `e${d}`, d + 1)}]))`,
      );
    case 'unit':
      return orNull(conv.nullable, `${autoName(conv.unit)}(${v})`);
    case 'inline': {
      // An anonymous object type has no name to write its target type with: built untyped.
      const s = `s${d}`;
      const o = `o${d}`;
      const body = conv.fields.map((f) => `if (${access(s, f.name)} !== undefined) ${access(o, f.name)} = ${valueExpr(f.conv, access(s, f.name), d + 1)};`);
      return orNull(conv.nullable, `((${s}) => { const ${o}: Record<string, unknown> = {}; ${body.join(' ')} return ${o} as never; })(${v})`);
    }
  }
}

function unitFunction(plan: KindConversionPlan, unit: ConversionUnit): string {
  const fromType = `${unit.fromVersion}.${unit.fromType}`;
  const toType = `${unit.toVersion}.${unit.toType}`;
  const lines: string[] = [];
  const doc = unit.manual
    ? `${unit.fromType} ${unit.fromVersion} → ${unit.toVersion}: the corresponding fields, then ${unit.manualName}.`
    : `${unit.fromType} ${unit.fromVersion} → ${unit.toVersion}: every field corresponds.`;
  lines.push(`/** ${doc} */`);
  lines.push(`function ${autoName(unit)}(src: ${fromType}): ${toType} {`);
  if (unit.isKind) {
    lines.push(`  const out = { apiVersion: '${apiVersionOf(plan.group, unit.toVersion)}', kind: '${plan.kind}', metadata: structuredClone(src.metadata) } as ${toType};`);
  } else {
    lines.push(`  const out = {} as ${toType};`);
  }
  for (const f of unit.fields) {
    lines.push(`  if (${access('src', f.name)} !== undefined) ${access('out', f.name)} = ${valueExpr(f.conv, access('src', f.name), 0)};`);
  }
  if (unit.manual) lines.push(`  ${unit.manualName}(src, out);`);
  lines.push('  return out;', '}');
  return lines.join('\n');
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

export function emitConversions(model: ApiModel, options: ConversionEmitOptions): EmittedFile[] {
  return planConversions(model).map((plan) => conversionFile(plan, options.outDir));
}
