/**
 * TypeScript's utility types over object types, resolved from syntax: `Partial<T>`,
 * `Required<T>`, `Pick<T, K>` and `Omit<T, K>` with T an interface (or any object type kgen
 * reads) and K string literals (a union, an alias of one, or a string enum). The result is an
 * object of the fields they produce; each field keeps its declaration's location, so a diagnostic
 * about it points at the interface that declared it. This needs no type checker: the fields are
 * the ones kgen has already read for T. T's own CEL rules are kept by Required only (a rule may
 * name a field the other three drop or make optional).
 */
import type ts from 'typescript';
import type { DiagnosticBag } from '../diagnostics.js';
import type { ObjectSchema, Schema } from '../model.js';
import { nodeLocation } from './jsdoc.js';

export const UTILITY_TYPES = ['Partial', 'Required', 'Pick', 'Omit'] as const;

export interface UtilityContext {
  convert(node: ts.TypeNode): Schema | undefined;
  asObject(schema: Schema): ObjectSchema | undefined;
  keys(node: ts.TypeNode): string[] | undefined;
  diags: DiagnosticBag;
}

export function utilityType(name: string, node: ts.TypeReferenceNode, sf: ts.SourceFile, ctx: UtilityContext): Schema | undefined {
  const args = node.typeArguments ?? [];
  const arity = name === 'Pick' || name === 'Omit' ? 2 : 1;
  const loc = nodeLocation(node, sf);
  const bad = (problem: string, at = loc) => {
    ctx.diags.add('KG035', at, { type: node.getText(sf), problem, example: arity === 2 ? `${name}<WidgetSpec, 'size' | 'colour'>` : `${name}<WidgetSpec>` });
    return undefined;
  };
  if (args.length !== arity) return bad(`${name} takes ${arity} type argument${arity === 2 ? 's' : ''}`);
  const target = ctx.convert(args[0]!);
  if (!target) return undefined;
  const object = ctx.asObject(target);
  if (!object) return bad(`"${args[0]!.getText(sf)}" is not an object type`, nodeLocation(args[0]!, sf));
  let properties = object.properties;
  if (arity === 2) {
    const keys = ctx.keys(args[1]!);
    if (!keys) return bad(`the keys "${args[1]!.getText(sf)}" are not string literals`, nodeLocation(args[1]!, sf));
    if (name === 'Pick') {
      const missing = keys.find((k) => !properties.some((p) => p.name === k));
      if (missing !== undefined) return bad(`"${missing}" is not a field of ${args[0]!.getText(sf)}`, nodeLocation(args[1]!, sf));
      properties = properties.filter((p) => keys.includes(p.name));
    } else {
      properties = properties.filter((p) => !keys.includes(p.name));
    }
  } else {
    properties = properties.map((p) => ({ ...p, optional: name === 'Partial' }));
  }
  const out: ObjectSchema = { type: 'object', properties, loc };
  if (name === 'Required' && object.validations) out.validations = object.validations;
  return out;
}
