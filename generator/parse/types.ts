/**
 * Turns TypeScript type syntax into schema nodes, without the type checker: references are
 * resolved through each file's declarations and imports. Named types become `ref` nodes and are
 * collected per version; types imported from 'kgen' are recognised by name.
 */
import type ts from 'typescript';
import { SyntaxKind } from './typescript.js';
import { isEnumDeclaration, isIndexSignatureDeclaration, isInterfaceDeclaration, isLiteralTypeNode, isPropertySignature, isStringLiteral } from './nodes.js';
import type { DiagnosticBag } from '../diagnostics.js';
import type { NamedType, ObjectSchema, Property, RefSchema, Schema, SourceLocation, TypeHome, WellKnownName } from '../model.js';
import { discriminatedUnion, type UnionMember } from './unions.js';
import { enumSchema, enumMemberSchema, literalSchema, mergeLiterals, reportInexactInteger } from './enums.js';
import { utilityType, UTILITY_TYPES } from './utility.js';
import { applyValueTags } from './annotations.js';
import { propertyName } from './declarations.js';
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

  /** Name → where the type is declared (undefined: this version), for the clash check. */
  private readonly homeOf = new Map<string, TypeHome | undefined>();

  constructor(
    private readonly files: FileIndex,
    private readonly diags: DiagnosticBag,
    /** The version being converted: types declared elsewhere keep their home (TypeHome). */
    private readonly group = '',
    private readonly version = '',
  ) {}

  /** `the shared folder common` or `billing.example.com/v1`, for diagnostics (undefined: this version). */
  private homeWords(home: TypeHome | undefined): string {
    if (home && 'shared' in home) return `the shared folder ${home.shared}`;
    const { group, version } = home ?? { group: this.group, version: this.version };
    return `${group || 'core'}/${version}`;
  }

  /** Where a file's declarations live, seen from this version: undefined when in this version. */
  private fileHome(sf: ts.SourceFile): TypeHome | undefined {
    const file = this.files.get(sf.fileName);
    if (!file) return undefined;
    if (file.shared !== undefined) return { shared: file.shared };
    if (file.group === this.group && file.version === this.version) return undefined;
    return { group: file.group, version: file.version };
  }

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
        const name = propertyName(member, sf);
        if (skip.has(name)) continue;
        const prop = this.property(member, sf, name);
        if (prop) properties.push(prop);
      } else if (isIndexSignatureDeclaration(member)) {
        this.diags.add('KG034', nodeLocation(member, sf), { type: decl.name.getText(sf) });
      } else {
        this.diags.add('KG010', nodeLocation(member, sf), { type: member.getText(sf), hint: 'API types hold data only; remove methods and call signatures.' });
      }
    }
    return { type: 'object', properties: dedupe(properties), loc };
  }

  private property(member: ts.PropertySignature, sf: ts.SourceFile, name: string): Property | undefined {
    const typeNode = member.type;
    const loc = nodeLocation(member, sf);
    if (name === '__proto__') {
      // `out.__proto__ = v` in a conversion, `{"__proto__": …}` in a validator's schema literal and
      // `obj.__proto__` in a client all reach the prototype, not the field.
      this.diags.add('KG037', loc, { name });
      return undefined;
    }
    if (!typeNode) {
      this.diags.add('KG010', loc, { type: name, hint: 'Give the field a type.' });
      return undefined;
    }
    const doc = readDoc(member, sf);
    const tags = doc.tags.filter((t) => checkTag(t, 'field', this.diags));
    const schema = this.convert(typeNode, sf, tags);
    if (!schema) return undefined;
    if (doc.description) schema.description = doc.description;
    // `x: T | undefined` cannot send undefined: on the wire it is the same as `x?: T`.
    const optional = member.questionToken !== undefined || (typeNode.kind === SyntaxKind.UnionType && (typeNode as ts.UnionTypeNode).types.some((t) => t.kind === SyntaxKind.UndefinedKeyword));
    return { name, optional, schema, loc };
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
        if (reportInexactInteger(lit, sf, this.diags)) return undefined;
        return literalSchema(lit, sf, loc) ?? this.unsupported(node, sf, 'Literal types are strings, numbers or booleans (an enum of those values).');
      }
      case SyntaxKind.TypeOperator: {
        // `readonly T[]` is a compile-time statement: the same schema as `T[]`.
        const op = node as ts.TypeOperatorNode;
        if (op.operator === SyntaxKind.ReadonlyKeyword) return this.convertBare(op.type, sf, preserve);
        return this.unsupported(node, sf, 'Type operators (keyof, unique) have no schema; write the type out.');
      }
      case SyntaxKind.UnionType:
        return this.union(node as ts.UnionTypeNode, sf, preserve);
      case SyntaxKind.ArrayType: {
        const items = this.convert((node as ts.ArrayTypeNode).elementType, sf);
        return items && { type: 'array', items, loc };
      }
      case SyntaxKind.TypeLiteral:
        return this.typeLiteral(node as ts.TypeLiteralNode, sf, preserve);
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
      schema = this.unionOfShapes(node, rest, sf, loc);
      if (!schema) return undefined;
    }
    if (schema && nullable) schema.nullable = true;
    return schema;
  }

  /**
   * A union that is not of string literals: of literals and enum members (`1 | 2`, `true`,
   * `Colour.Red | Colour.Blue`), an enum of their values; of object types, a discriminated union
   * (./unions.ts). Anything else is KG013.
   */
  private unionOfShapes(node: ts.UnionTypeNode, rest: ts.TypeNode[], sf: ts.SourceFile, loc: SourceLocation): Schema | undefined {
    const parts: Schema[] = [];
    for (const t of rest) {
      const part = this.convertBare(t, sf, false);
      if (!part) return undefined;
      parts.push(part);
    }
    const literals = mergeLiterals(parts, loc);
    if (literals) return literals;
    const objects: UnionMember[] = [];
    for (const [i, part] of parts.entries()) {
      const object = this.asObject(part);
      if (!object || (part.type !== 'ref' && part.type !== 'object')) {
        this.diags.add('KG013', loc, { type: node.getText(sf) });
        return undefined;
      }
      objects.push({ schema: part, object, text: rest[i]!.getText(sf) });
    }
    return discriminatedUnion(node.getText(sf), objects, loc, this.diags);
  }

  private typeLiteral(node: ts.TypeLiteralNode, sf: ts.SourceFile, preserve: boolean): Schema | undefined {
    const index = node.members.find(isIndexSignatureDeclaration);
    if (index) {
      // `{ [key: string]: T }` is Record<string, T>; a map cannot have named fields as well.
      if (node.members.length > 1) {
        this.diags.add('KG034', nodeLocation(index, sf), { type: node.getText(sf) });
        return undefined;
      }
      return this.indexSignature(index, sf, preserve);
    }
    const properties: Property[] = [];
    for (const member of node.members) {
      if (isPropertySignature(member)) {
        const prop = this.property(member, sf, propertyName(member, sf));
        if (prop) properties.push(prop);
      } else {
        this.diags.add('KG010', nodeLocation(member, sf), { type: member.getText(sf), hint: 'Object types hold named fields only; use Record<string, T> for maps.' });
      }
    }
    return { type: 'object', properties, loc: nodeLocation(node, sf) };
  }

  /** `[key: string]: T` → a map of T (as Record<string, T>); other key types are KG017. */
  private indexSignature(index: ts.IndexSignatureDeclaration, sf: ts.SourceFile, preserve: boolean): Schema | undefined {
    const key = index.parameters[0]?.type;
    if (!key || key.kind !== SyntaxKind.StringKeyword) {
      this.diags.add('KG017', nodeLocation(key ?? index, sf), { problem: `map key type "${key?.getText(sf) ?? ''}" is not string` });
      return undefined;
    }
    const loc = nodeLocation(index, sf);
    if (preserve && (index.type.kind === SyntaxKind.UnknownKeyword || index.type.kind === SyntaxKind.AnyKeyword)) {
      return { type: 'unknown', preserveUnknownFields: true, loc };
    }
    const values = this.convert(index.type, sf);
    return values && { type: 'map', values, loc };
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
        const keys = this.literalKeys(args[0]!, sf);
        if (keys) {
          // Record<'a' | 'b', T>: an object with exactly those fields, all required.
          const properties: Property[] = [];
          for (const key of keys) {
            const value = this.convert(args[1]!, sf);
            if (!value) return undefined;
            properties.push({ name: key, optional: false, schema: value, loc: nodeLocation(args[0]!, sf) });
          }
          return { type: 'object', properties, loc };
        }
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
    if ((UTILITY_TYPES as readonly string[]).includes(name) && this.resolve(name, sf).kind === 'missing') {
      return utilityType(name, node, sf, {
        convert: (n) => this.convertBare(n, sf, false),
        asObject: (schema) => this.asObject(schema),
        keys: (n) => this.literalKeys(n, sf),
        diags: this.diags,
      });
    }
    if (node.typeName.kind === SyntaxKind.QualifiedName) return this.enumMember(node, sf);
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
    if (args.length > 0 || (!isEnumDeclaration(resolved.decl) && (resolved.decl.typeParameters?.length ?? 0) > 0)) {
      this.diags.add('KG012', loc, { type: node.getText(sf) });
      return undefined;
    }
    this.define(resolved.decl, resolved.sourceFile);
    const ref: RefSchema = { type: 'ref', name: resolved.decl.name.getText(resolved.sourceFile), loc };
    const home = this.fileHome(resolved.sourceFile);
    if (home) ref.home = home;
    return ref;
  }

  /** `Colour.Red`: the enum member's value, as a one-value enum (a literal type). */
  private enumMember(node: ts.TypeReferenceNode, sf: ts.SourceFile): Schema | undefined {
    const qualified = node.typeName as ts.QualifiedName;
    const resolved = this.resolve(qualified.left.getText(sf), sf);
    if (resolved.kind !== 'decl' || !isEnumDeclaration(resolved.decl)) {
      this.diags.add('KG011', nodeLocation(node, sf), { type: node.typeName.getText(sf), wellKnown: KGEN_TYPES });
      return undefined;
    }
    return enumMemberSchema(resolved.decl, resolved.sourceFile, qualified.right.text, nodeLocation(node, sf), this.diags);
  }

  /**
   * The keys a key type names: a string literal, a union of them, an alias of such a union, a
   * string enum, or `keyof` an object type. Undefined when the node is none of these.
   */
  literalKeys(node: ts.TypeNode, sf: ts.SourceFile): string[] | undefined {
    if (node.kind === SyntaxKind.ParenthesizedType) return this.literalKeys((node as ts.ParenthesizedTypeNode).type, sf);
    if (isLiteralTypeNode(node) && isStringLiteral(node.literal)) return [node.literal.text];
    if (node.kind === SyntaxKind.TypeOperator && (node as ts.TypeOperatorNode).operator === SyntaxKind.KeyOfKeyword) {
      // `keyof T` of an object type: its field names (Record<keyof Limits, Quantity>, Omit<A, keyof B>).
      const target = this.convertBare((node as ts.TypeOperatorNode).type, sf, false);
      const object = target && this.asObject(target);
      return object?.properties.map((p) => p.name);
    }
    if (node.kind === SyntaxKind.UnionType) {
      const out: string[] = [];
      for (const t of (node as ts.UnionTypeNode).types) {
        const keys = this.literalKeys(t, sf);
        if (!keys) return undefined;
        out.push(...keys);
      }
      return [...new Set(out)];
    }
    if (node.kind === SyntaxKind.TypeReference) {
      const ref = node as ts.TypeReferenceNode;
      if (ref.typeName.kind !== SyntaxKind.Identifier || ref.typeArguments) return undefined;
      const resolved = this.resolve(ref.typeName.getText(sf), sf);
      if (resolved.kind !== 'decl') return undefined;
      if (isTypeAlias(resolved.decl)) return this.literalKeys(resolved.decl.type, resolved.sourceFile);
      if (isEnumDeclaration(resolved.decl)) {
        const schema = enumSchema(resolved.decl, resolved.sourceFile, this.diags);
        return schema?.type === 'string' ? schema.enum : undefined;
      }
    }
    return undefined;
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
    const loc = nodeLocation(decl, sf);
    const home = this.fileHome(sf);
    const prior = this.declOf.get(name);
    if (prior) {
      // One version's schemas and model file hold each name once: a type imported from elsewhere
      // cannot share its name with another (an import alias renames only the local binding).
      // (Two of this version's own are KG018, reported by the parser.)
      if (prior !== decl && (home || this.homeOf.get(name))) this.diags.add('KG031', loc, { type: name, home: this.homeWords(home), other: this.homeWords(this.homeOf.get(name)) });
      return;
    }
    this.declOf.set(name, decl);
    this.homeOf.set(name, home);
    const doc = readDoc(decl, sf);
    let schema: Schema | undefined;
    if (isEnumDeclaration(decl)) {
      const tags = doc.tags.filter((t) => checkTag(t, 'alias', this.diags));
      schema = enumSchema(decl, sf, this.diags);
      if (schema) applyValueTags(schema, schema.type, tags, this.diags);
    } else if (isInterfaceDeclaration(decl)) {
      const tags = doc.tags.filter((t) => checkTag(t, t.name === 'kgen:resource' ? 'resource' : 'interface', this.diags));
      const index = decl.members.length === 1 && !decl.heritageClauses && !decl.typeParameters && decl.members.find(isIndexSignatureDeclaration);
      // `interface Labels { [key: string]: string }` is a map, as `type Labels = Record<string, string>`.
      schema = index ? this.indexSignature(index, sf, false) : this.interfaceObject(decl, sf);
      if (schema) applyRuleTags(schema, tags, this.diags);
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
    if (home) named.home = home;
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

  asObject(schema: Schema): ObjectSchema | undefined {
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

function isTypeAlias(decl: Declaration): decl is ts.TypeAliasDeclaration {
  return decl.kind === SyntaxKind.TypeAliasDeclaration;
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
