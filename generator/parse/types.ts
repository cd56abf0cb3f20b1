/**
 * Turns TypeScript type syntax into schema nodes, without the type checker: references are
 * resolved through each file's declarations and imports. Named types become `ref` nodes and are
 * collected per version; types imported from 'kgen' are recognised by name.
 */
import type ts from 'typescript';
import { SyntaxKind } from './typescript.js';
import { isIndexSignatureDeclaration, isInterfaceDeclaration, isLiteralTypeNode, isPropertySignature, isStringLiteral } from './nodes.js';
import type { DiagnosticBag } from '../diagnostics.js';
import type { NamedType, ObjectSchema, Property, Schema, SourceLocation, WellKnownName } from '../model.js';
import { applyValueTags } from './annotations.js';
import { memberName } from './declarations.js';
import { nodeLocation, readDoc, type DocTag } from './jsdoc.js';
import { checkTag } from './markers.js';
import type { Declaration, FileIndex } from './files.js';
import { applyRuleTags } from './validations.js';

const WELL_KNOWN: readonly WellKnownName[] = ['ObjectMeta', 'Condition', 'LabelSelector', 'ObjectReference'];
const SCALARS = ['int32', 'int64', 'Time', 'Duration', 'Quantity', 'IntOrString'] as const;
export const KGEN_TYPES = [...WELL_KNOWN, ...SCALARS].join(', ');

/** What a type name refers to. */
type Resolved = { kind: 'decl'; decl: Declaration; sourceFile: ts.SourceFile } | { kind: 'kgen'; name: string } | { kind: 'missing' };

/** Converts types for one group/version, collecting the named types its kinds reach. */
export class VersionTypes {
  readonly named = new Map<string, NamedType>();
  private readonly declOf = new Map<string, Declaration>();

  constructor(
    private readonly files: FileIndex,
    private readonly diags: DiagnosticBag,
  ) {}

  /** Converts an interface's members (and the interfaces it extends) into an object schema. */
  interfaceObject(decl: ts.InterfaceDeclaration, sf: ts.SourceFile, skip: ReadonlySet<string> = new Set()): ObjectSchema {
    const loc = nodeLocation(decl, sf);
    if (decl.typeParameters && decl.typeParameters.length > 0) {
      // Its members mention the type parameters, which would only add "cannot resolve T" noise.
      this.diags.add('KG012', loc, { type: decl.name.getText(sf) });
      return { type: 'object', properties: [], loc };
    }
    const properties: Property[] = [];
    for (const clause of decl.heritageClauses ?? []) {
      if (clause.token !== SyntaxKind.ExtendsKeyword) continue;
      for (const base of clause.types) {
        const baseSchema = this.objectOf(base.expression.getText(sf), base, sf);
        if (baseSchema) properties.push(...baseSchema.properties);
      }
    }
    for (const member of decl.members) {
      if (isPropertySignature(member)) {
        const name = memberName(member, sf).replace(/^['"]|['"]$/g, '');
        if (skip.has(name)) continue;
        const prop = this.property(member, sf, name);
        if (prop) properties.push(prop);
      } else if (isIndexSignatureDeclaration(member)) {
        this.diags.add('KG010', nodeLocation(member, sf), {
          type: member.getText(sf),
          hint: 'Write the map as a field of type Record<string, T>, or make the whole type an alias of Record<string, T>.',
        });
      } else {
        this.diags.add('KG010', nodeLocation(member, sf), { type: member.getText(sf), hint: 'API types hold data only; remove methods and call signatures.' });
      }
    }
    return { type: 'object', properties: dedupe(properties), loc };
  }

  private property(member: ts.PropertySignature, sf: ts.SourceFile, name: string): Property | undefined {
    const typeNode = member.type;
    const loc = nodeLocation(member, sf);
    if (!typeNode) {
      this.diags.add('KG010', loc, { type: name, hint: 'Give the field a type.' });
      return undefined;
    }
    const doc = readDoc(member, sf);
    const tags = doc.tags.filter((t) => checkTag(t, 'field', this.diags));
    const schema = this.convert(typeNode, sf, tags);
    if (!schema) return undefined;
    if (doc.description) schema.description = doc.description;
    return { name, optional: member.questionToken !== undefined, schema, loc };
  }

  /** Converts a type node of `sf`; `tags` are the value tags written on the field or alias that holds it. */
  convert(node: ts.TypeNode, sf: ts.SourceFile, tags: DocTag[] = []): Schema | undefined {
    const preserve = tags.some((t) => t.name === 'kgen:preserveUnknownFields');
    const schema = this.convertBare(node, sf, preserve);
    if (!schema) return undefined;
    applyValueTags(schema, this.baseType(schema), tags, this.diags);
    return schema;
  }

  private convertBare(node: ts.TypeNode, sf: ts.SourceFile, preserve: boolean): Schema | undefined {
    const loc = nodeLocation(node, sf);
    switch (node.kind) {
      case SyntaxKind.StringKeyword:
        return { type: 'string', loc };
      case SyntaxKind.NumberKeyword:
        return { type: 'number', loc };
      case SyntaxKind.BooleanKeyword:
        return { type: 'boolean', loc };
      case SyntaxKind.ParenthesizedType:
        return this.convertBare((node as ts.ParenthesizedTypeNode).type, sf, preserve);
      case SyntaxKind.LiteralType: {
        const lit = (node as ts.LiteralTypeNode).literal;
        if (isStringLiteral(lit)) return { type: 'string', enum: [lit.text], loc };
        return this.unsupported(node, sf, 'Only string literal types are supported (as enums).');
      }
      case SyntaxKind.UnionType:
        return this.union(node as ts.UnionTypeNode, sf, preserve);
      case SyntaxKind.ArrayType: {
        const items = this.convert((node as ts.ArrayTypeNode).elementType, sf);
        return items && { type: 'array', items, loc };
      }
      case SyntaxKind.TypeLiteral:
        return this.typeLiteral(node as ts.TypeLiteralNode, sf);
      case SyntaxKind.IntersectionType:
        return this.intersection(node as ts.IntersectionTypeNode, sf);
      case SyntaxKind.TypeReference:
        return this.reference(node as ts.TypeReferenceNode, sf, preserve);
      case SyntaxKind.UnknownKeyword:
      case SyntaxKind.ObjectKeyword:
        if (preserve) return { type: 'unknown', preserveUnknownFields: true, loc };
        return this.unsupported(node, sf, 'Declare the shape as an interface, or mark the field @kgen:preserveUnknownFields to keep arbitrary JSON.');
      case SyntaxKind.AnyKeyword:
        return this.unsupported(node, sf, 'Declare the shape as an interface; for arbitrary JSON use "unknown" with @kgen:preserveUnknownFields.');
      case SyntaxKind.BigIntKeyword:
        return this.unsupported(node, sf, "Use int64 from 'kgen'.");
      case SyntaxKind.TupleType:
        return this.unsupported(node, sf, 'Use an array (T[]) or an interface with named fields.');
      case SyntaxKind.FunctionType:
      case SyntaxKind.ConstructorType:
        return this.unsupported(node, sf, 'API types hold data only; functions cannot be sent over the wire.');
      default:
        return this.unsupported(node, sf, 'Use string, number, boolean, int32/int64, arrays, Record<string, T>, string-literal unions, interfaces or type aliases.');
    }
  }

  private unsupported(node: ts.Node, sf: ts.SourceFile, hint: string): undefined {
    this.diags.add('KG010', nodeLocation(node, sf), { type: node.getText(sf), hint });
    return undefined;
  }

  private union(node: ts.UnionTypeNode, sf: ts.SourceFile, preserve: boolean): Schema | undefined {
    const loc = nodeLocation(node, sf);
    const members = node.types;
    const isNull = (t: ts.TypeNode) => t.kind === SyntaxKind.LiteralType && t.getText(sf) === 'null';
    const isUndefined = (t: ts.TypeNode) => t.kind === SyntaxKind.UndefinedKeyword;
    const rest = members.filter((t) => !isNull(t) && !isUndefined(t));
    const nullable = members.some(isNull);
    let schema: Schema | undefined;
    if (rest.length > 1 && rest.every((t) => isLiteralTypeNode(t) && isStringLiteral(t.literal))) {
      const values = rest.map((t) => ((t as ts.LiteralTypeNode).literal as ts.StringLiteral).text);
      schema = { type: 'string', enum: [...new Set(values)], loc };
    } else if (rest.length === 1) {
      schema = this.convertBare(rest[0]!, sf, preserve);
    } else {
      this.diags.add('KG013', loc, { type: node.getText(sf) });
      return undefined;
    }
    if (schema && nullable) schema.nullable = true;
    return schema;
  }

  private typeLiteral(node: ts.TypeLiteralNode, sf: ts.SourceFile): ObjectSchema {
    const properties: Property[] = [];
    for (const member of node.members) {
      if (isPropertySignature(member)) {
        const prop = this.property(member, sf, memberName(member, sf).replace(/^['"]|['"]$/g, ''));
        if (prop) properties.push(prop);
      } else {
        this.diags.add('KG010', nodeLocation(member, sf), { type: member.getText(sf), hint: 'Object types hold named fields only; use Record<string, T> for maps.' });
      }
    }
    return { type: 'object', properties, loc: nodeLocation(node, sf) };
  }

  private intersection(node: ts.IntersectionTypeNode, sf: ts.SourceFile): Schema | undefined {
    const properties: Property[] = [];
    for (const part of node.types) {
      const schema = this.convertBare(part, sf, false);
      if (!schema) return undefined;
      const obj = this.asObject(schema);
      if (!obj) {
        this.diags.add('KG010', nodeLocation(part, sf), { type: part.getText(sf), hint: 'Intersections (A & B) may only combine object types.' });
        return undefined;
      }
      properties.push(...obj.properties);
    }
    return { type: 'object', properties: dedupe(properties), loc: nodeLocation(node, sf) };
  }

  private reference(node: ts.TypeReferenceNode, sf: ts.SourceFile, preserve: boolean): Schema | undefined {
    const loc = nodeLocation(node, sf);
    const name = node.typeName.getText(sf);
    const args = node.typeArguments ?? [];
    if (name === 'Array' || name === 'ReadonlyArray') {
      if (args.length !== 1) return this.unsupported(node, sf, 'Write Array<T> with one type argument.');
      const items = this.convert(args[0]!, sf);
      return items && { type: 'array', items, loc };
    }
    if (name === 'Record') {
      if (args.length !== 2) return this.unsupported(node, sf, 'Write Record<string, T>.');
      if (args[0]!.kind !== SyntaxKind.StringKeyword) {
        this.diags.add('KG017', nodeLocation(args[0]!, sf), { problem: `map key type "${args[0]!.getText(sf)}" is not string` });
        return undefined;
      }
      const valueNode = args[1]!;
      if (preserve && (valueNode.kind === SyntaxKind.UnknownKeyword || valueNode.kind === SyntaxKind.AnyKeyword)) {
        return { type: 'unknown', preserveUnknownFields: true, loc };
      }
      const values = this.convert(valueNode, sf);
      return values && { type: 'map', values, loc };
    }
    const resolved = this.resolve(name, sf);
    if (resolved.kind === 'kgen') {
      if (args.length > 0) this.diags.add('KG012', loc, { type: node.getText(sf) });
      return kgenType(resolved.name, loc);
    }
    if (resolved.kind === 'missing') {
      const detail = name === 'Date' ? `; use Time from 'kgen'` : '';
      this.diags.add('KG011', loc, { type: name, detail, wellKnown: KGEN_TYPES });
      return undefined;
    }
    if (args.length > 0 || (resolved.decl.typeParameters?.length ?? 0) > 0) {
      this.diags.add('KG012', loc, { type: node.getText(sf) });
      return undefined;
    }
    this.define(resolved.decl, resolved.sourceFile);
    return { type: 'ref', name: resolved.decl.name.getText(resolved.sourceFile), loc };
  }

  /** Resolves a name as seen from file `sf`: local declarations, imports, then the version folder. */
  resolve(name: string, sf: ts.SourceFile): Resolved {
    const file = this.files.get(sf.fileName);
    if (file) {
      const local = file.decls.get(name);
      if (local) return { kind: 'decl', decl: local, sourceFile: file.sourceFile };
      const imp = file.imports.get(name);
      if (imp) {
        if (imp.module === 'kgen' || imp.module.startsWith('kgen/')) {
          return (WELL_KNOWN as readonly string[]).includes(imp.name) || (SCALARS as readonly string[]).includes(imp.name)
            ? { kind: 'kgen', name: imp.name }
            : { kind: 'missing' };
        }
        const target = this.files.resolveImport(file.path, imp.module);
        const decl = target?.decls.get(imp.name);
        if (decl) return { kind: 'decl', decl, sourceFile: target!.sourceFile };
      }
      for (const sibling of this.files.inVersion(file.group, file.version)) {
        const decl = sibling.decls.get(name);
        if (decl) return { kind: 'decl', decl, sourceFile: sibling.sourceFile };
      }
    }
    if ((WELL_KNOWN as readonly string[]).includes(name) || (SCALARS as readonly string[]).includes(name)) return { kind: 'kgen', name };
    return { kind: 'missing' };
  }

  /** Converts a named declaration of `sf` once and records it; recursion sees the placeholder. */
  define(decl: Declaration, sf: ts.SourceFile): void {
    const name = decl.name.getText(sf);
    if (this.named.has(name) || this.declOf.has(name)) return;
    this.declOf.set(name, decl);
    const loc = nodeLocation(decl, sf);
    const doc = readDoc(decl, sf);
    let schema: Schema | undefined;
    if (isInterfaceDeclaration(decl)) {
      const tags = doc.tags.filter((t) => checkTag(t, t.name === 'kgen:resource' ? 'resource' : 'interface', this.diags));
      schema = this.interfaceObject(decl, sf);
      applyRuleTags(schema, tags, this.diags);
    } else {
      if (decl.typeParameters && decl.typeParameters.length > 0) {
        this.diags.add('KG012', loc, { type: name });
        return;
      }
      const tags = doc.tags.filter((t) => checkTag(t, 'alias', this.diags));
      schema = this.convert(decl.type, sf, tags);
    }
    if (!schema) return;
    const named: NamedType = { name, schema, loc };
    if (doc.description) named.description = doc.description;
    this.named.set(name, named);
  }

  /** The type of a schema after following named references (for tag applicability). */
  baseType(schema: Schema): Schema['type'] {
    let current: Schema = schema;
    for (let depth = 0; current.type === 'ref' && depth < 32; depth++) {
      const next = this.named.get(current.name);
      if (!next) {
        const decl = this.declOf.get(current.name);
        return decl && isInterfaceDeclaration(decl) ? 'object' : 'ref';
      }
      current = next.schema;
    }
    return current.type;
  }

  private asObject(schema: Schema): ObjectSchema | undefined {
    let current: Schema | undefined = schema;
    for (let depth = 0; current?.type === 'ref' && depth < 32; depth++) current = this.named.get(current.name)?.schema;
    return current?.type === 'object' ? current : undefined;
  }

  private objectOf(name: string, node: ts.Node, sf: ts.SourceFile): ObjectSchema | undefined {
    const resolved = this.resolve(name, sf);
    if (resolved.kind !== 'decl') {
      this.diags.add('KG011', nodeLocation(node, sf), { type: name, wellKnown: KGEN_TYPES });
      return undefined;
    }
    this.define(resolved.decl, resolved.sourceFile);
    const named = this.named.get(resolved.decl.name.getText(resolved.sourceFile));
    const obj = named && this.asObject(named.schema);
    if (!obj) this.diags.add('KG010', nodeLocation(node, sf), { type: name, hint: 'An interface may only extend interfaces.' });
    return obj;
  }
}

function kgenType(name: string, loc: SourceLocation): Schema {
  switch (name) {
    case 'int32':
    case 'int64':
      return { type: 'integer', format: name, loc };
    case 'Time':
      return { type: 'time', loc };
    case 'Duration':
      return { type: 'duration', loc };
    case 'Quantity':
      return { type: 'quantity', loc };
    case 'IntOrString':
      return { type: 'intOrString', loc };
    default:
      return { type: 'wellKnown', name: name as WellKnownName, loc };
  }
}

/** Later declarations of a field replace earlier ones (an interface overriding its base). */
function dedupe(properties: Property[]): Property[] {
  const byName = new Map<string, Property>();
  for (const p of properties) {
    byName.delete(p.name);
    byName.set(p.name, p);
  }
  return [...byName.values()];
}
