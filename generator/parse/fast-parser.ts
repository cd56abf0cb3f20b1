/**
 * A parser for the plain subset of TypeScript that API files are written in, building the nodes
 * TypeScript's own parser builds for it (same kinds, positions and fields; see the grammar below),
 * so that most files are read without loading TypeScript at all. Anything outside the subset, and
 * anything TypeScript would report an error on, makes it give up (undefined): the caller then
 * parses the file with TypeScript, which reads everything and reports syntax errors. So the
 * subset only has to be read exactly, never completely.
 *
 * The subset:
 *   file       := (import | ['export'] interface | ['export'] alias)*
 *   import     := 'import' ['type'] '{' [name ['as' name] (',' name ['as' name])* [',']] '}' 'from' string [';']
 *   interface  := 'interface' name ['extends' name (',' name)*] '{' member* '}'
 *   alias      := 'type' name '=' type [';']
 *   member     := (name | string) ['?'] ':' type [';' | ',']
 *   type       := ['|'] inter ('|' inter)*          inter := ['&'] postfix ('&' postfix)*
 *   postfix    := primary ('[' ']')*                (no line break before '[')
 *   primary    := keyword type | 'null' | string | '{' member* '}' | name ['<' type (',' type)* '>']
 * with comments anywhere, ASCII outside comments and strings, strings without escapes, and
 * semicolons as TypeScript's automatic insertion allows them.
 */
import type ts from 'typescript';
import { isLineBreak } from './syntax.js';
import { SyntaxKind } from './typescript.js';

/** A node as TypeScript's parser makes it: `pos` is where its leading trivia starts. */
class FastNode {
  constructor(
    readonly kind: ts.SyntaxKind,
    readonly pos: number,
    private readonly start: number,
    readonly end: number,
  ) {}

  getStart(): number {
    return this.start;
  }

  getText(sourceFile: ts.SourceFile): string {
    return sourceFile.text.slice(this.start, this.end);
  }
}

/** Gave up: the file is outside the subset (or has an error); TypeScript parses it. */
class Unsupported extends Error {}

const KEYWORD_TYPES: Record<string, keyof typeof SyntaxKind> = {
  any: 'AnyKeyword',
  unknown: 'UnknownKeyword',
  string: 'StringKeyword',
  number: 'NumberKeyword',
  bigint: 'BigIntKeyword',
  symbol: 'SymbolKeyword',
  boolean: 'BooleanKeyword',
  undefined: 'UndefinedKeyword',
  never: 'NeverKeyword',
  object: 'ObjectKeyword',
};

/** Words that are not plain names in a type or a declaration: reserved, strict-mode reserved, or type operators. */
const NOT_A_NAME = new Set([
  'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export',
  'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super',
  'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'implements', 'interface', 'let',
  'package', 'private', 'protected', 'public', 'static', 'yield', 'await', 'keyof', 'unique', 'readonly', 'infer',
  'asserts', 'is', 'abstract', 'declare', 'type', 'as', 'from', 'of', 'namespace', 'module', 'global', 'satisfies',
  'accessor', 'override', 'out', 'get', 'set', 'async', 'require', 'intrinsic', 'assert',
  ...Object.keys(KEYWORD_TYPES),
]);

const enum Tok {
  Name,
  String,
  Punct,
  End,
}

/** The file as TypeScript would parse it, or undefined when it is outside the subset. */
export function parseFast(fileName: string, text: string): ts.SourceFile | undefined {
  try {
    return new FastParser(text).file(fileName);
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
}

class FastParser {
  private pos = 0;
  /** The current token: kind, value (name, string value or punctuation), trivia start, start, end. */
  private tok = Tok.End;
  private value = '';
  private fullStart = 0;
  private start = 0;
  private end = 0;
  private lineBreakBefore = false;
  /** End of the last token consumed (what TypeScript's finishNode takes as a node's end). */
  private lastEnd = 0;

  constructor(private readonly text: string) {
    if (text.charCodeAt(0) === 0xfeff || text.startsWith('#!')) this.fail();
    this.scan();
  }

  private fail(): never {
    throw new Unsupported();
  }

  file(fileName: string): ts.SourceFile {
    const statements: FastNode[] = [];
    while (this.tok !== Tok.End) statements.push(this.statement());
    return { kind: SyntaxKind.SourceFile, pos: 0, end: this.text.length, fileName, text: this.text, statements, parseDiagnostics: [] } as unknown as ts.SourceFile;
  }

  // --- scanner ---

  private scan(): void {
    const text = this.text;
    let pos = this.pos;
    this.fullStart = pos;
    this.lineBreakBefore = false;
    for (;;) {
      const ch = text.charCodeAt(pos);
      if (ch === 32 || ch === 9 || ch === 11 || ch === 12) pos++;
      else if (ch === 10 || ch === 13) {
        this.lineBreakBefore = true;
        pos++;
      } else if (ch === 47 && text.charCodeAt(pos + 1) === 47) {
        pos += 2;
        while (pos < text.length && !isLineBreak(text.charCodeAt(pos))) pos++;
      } else if (ch === 47 && text.charCodeAt(pos + 1) === 42) {
        const close = text.indexOf('*/', pos + 2);
        if (close < 0) this.fail();
        for (let i = pos + 2; i < close; i++) {
          const c = text.charCodeAt(i);
          if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) {
            this.lineBreakBefore = true;
            break;
          }
        }
        pos = close + 2;
      } else break;
    }
    this.start = pos;
    if (pos >= text.length) {
      this.tok = Tok.End;
      this.end = this.pos = pos;
      return;
    }
    const ch = text.charCodeAt(pos);
    if (isNameStart(ch)) {
      let end = pos + 1;
      while (end < text.length && isNamePart(text.charCodeAt(end))) end++;
      if (end < text.length && text.charCodeAt(end) > 127) this.fail();
      this.tok = Tok.Name;
      this.value = text.slice(pos, end);
      this.end = this.pos = end;
    } else if (ch === 39 || ch === 34) {
      let end = pos + 1;
      for (;;) {
        if (end >= text.length) this.fail();
        const c = text.charCodeAt(end);
        if (c === ch) break;
        if (c === 92 || c === 10 || c === 13 || c === 0x2028 || c === 0x2029) this.fail();
        end++;
      }
      this.tok = Tok.String;
      this.value = text.slice(pos + 1, end);
      this.end = this.pos = end + 1;
    } else if ('{}<>[]();,:?|&='.includes(text[pos]!)) {
      // Punctuation is one character each: `?.`, `=>` and the like fail later, in the grammar
      // (`.` is no token at all), so they reach TypeScript.
      this.tok = Tok.Punct;
      this.value = text[pos]!;
      this.end = this.pos = pos + 1;
    } else {
      this.fail();
    }
  }

  private next(): void {
    this.lastEnd = this.end;
    this.scan();
  }

  private is(value: string): boolean {
    return this.tok === Tok.Punct && this.value === value;
  }

  private isWord(word: string): boolean {
    return this.tok === Tok.Name && this.value === word;
  }

  private expect(value: string): void {
    if (!this.is(value)) this.fail();
    this.next();
  }

  /** TypeScript's parseSemicolon: a `;`, or a place where one is inserted. */
  private semicolon(): void {
    if (this.is(';')) this.next();
    else if (!(this.tok === Tok.End || this.is('}') || this.lineBreakBefore)) this.fail();
  }

  private node(kind: ts.SyntaxKind, pos: number, start: number): FastNode {
    return new FastNode(kind, pos, start, this.lastEnd);
  }

  /** The current token as a node of `kind`, consumed. */
  private token(kind: ts.SyntaxKind): FastNode {
    const n = new FastNode(kind, this.fullStart, this.start, this.end);
    this.next();
    return n;
  }

  /** A declared or referenced name (an identifier that is not a reserved or special word). */
  private name(): FastNode {
    if (this.tok !== Tok.Name || NOT_A_NAME.has(this.value)) this.fail();
    const text = this.value;
    return Object.assign(this.token(SyntaxKind.Identifier), { text });
  }

  private string(): FastNode {
    if (this.tok !== Tok.String) this.fail();
    const text = this.value;
    return Object.assign(this.token(SyntaxKind.StringLiteral), { text });
  }

  // --- statements ---

  private statement(): FastNode {
    const pos = this.fullStart;
    const start = this.start;
    if (this.isWord('import')) return this.importDeclaration(pos, start);
    let modifiers: FastNode[] | undefined;
    if (this.isWord('export')) {
      modifiers = [this.token(SyntaxKind.ExportKeyword)];
      if (this.lineBreakBefore) this.fail();
    }
    if (this.isWord('interface')) return this.interfaceDeclaration(pos, start, modifiers);
    if (this.isWord('type')) return this.typeAlias(pos, start, modifiers);
    return this.fail();
  }

  private importDeclaration(pos: number, start: number): FastNode {
    this.next();
    if (this.lineBreakBefore) this.fail();
    const clauseStart = this.start;
    const clausePos = this.fullStart;
    let isTypeOnly = false;
    if (this.isWord('type')) {
      isTypeOnly = true;
      this.next();
    }
    const bindingsPos = this.fullStart;
    const bindingsStart = this.start;
    this.expect('{');
    const elements: FastNode[] = [];
    while (!this.is('}')) {
      const specPos = this.fullStart;
      const specStart = this.start;
      const first = this.name();
      let spec: Record<string, unknown> = { isTypeOnly: false, propertyName: undefined, name: first };
      if (this.isWord('as')) {
        this.next();
        spec = { isTypeOnly: false, propertyName: first, name: this.name() };
      }
      elements.push(Object.assign(this.node(SyntaxKind.ImportSpecifier, specPos, specStart), spec));
      if (!this.is(',')) break;
      this.next();
    }
    this.expect('}');
    const namedBindings = Object.assign(this.node(SyntaxKind.NamedImports, bindingsPos, bindingsStart), { elements });
    const importClause = Object.assign(this.node(SyntaxKind.ImportClause, clausePos, clauseStart), { isTypeOnly, name: undefined, namedBindings });
    if (!this.isWord('from')) this.fail();
    this.next();
    const moduleSpecifier = this.string();
    this.semicolon();
    return Object.assign(this.node(SyntaxKind.ImportDeclaration, pos, start), { modifiers: undefined, importClause, moduleSpecifier, attributes: undefined });
  }

  private interfaceDeclaration(pos: number, start: number, modifiers: FastNode[] | undefined): FastNode {
    this.next();
    if (this.lineBreakBefore) this.fail();
    const name = this.name();
    let heritageClauses: FastNode[] | undefined;
    if (this.isWord('extends')) {
      const clausePos = this.fullStart;
      const clauseStart = this.start;
      this.next();
      const types: FastNode[] = [];
      for (;;) {
        const expression = this.name();
        if (this.is('.') || this.is('<')) this.fail();
        types.push(Object.assign(new FastNode(SyntaxKind.ExpressionWithTypeArguments, expression.pos, expression.getStart(), expression.end), { expression, typeArguments: undefined }));
        if (!this.is(',')) break;
        this.next();
      }
      heritageClauses = [Object.assign(this.node(SyntaxKind.HeritageClause, clausePos, clauseStart), { token: SyntaxKind.ExtendsKeyword, types })];
    }
    const members = this.members();
    return Object.assign(this.node(SyntaxKind.InterfaceDeclaration, pos, start), { modifiers, name, typeParameters: undefined, heritageClauses, members });
  }

  private typeAlias(pos: number, start: number, modifiers: FastNode[] | undefined): FastNode {
    this.next();
    if (this.lineBreakBefore) this.fail();
    const name = this.name();
    this.expect('=');
    const type = this.type();
    this.semicolon();
    return Object.assign(this.node(SyntaxKind.TypeAliasDeclaration, pos, start), { modifiers, name, typeParameters: undefined, type });
  }

  /** `{ member* }` of an interface or a type literal. */
  private members(): FastNode[] {
    this.expect('{');
    const members: FastNode[] = [];
    while (!this.is('}')) members.push(this.member());
    this.next();
    return members;
  }

  private member(): FastNode {
    const pos = this.fullStart;
    const start = this.start;
    let name: FastNode;
    if (this.tok === Tok.String) name = this.string();
    else if (this.tok === Tok.Name) {
      const text = this.value;
      name = Object.assign(this.token(SyntaxKind.Identifier), { text });
    } else return this.fail();
    let questionToken: FastNode | undefined;
    if (this.is('?')) questionToken = this.token(SyntaxKind.QuestionToken);
    this.expect(':');
    const type = this.type();
    if (this.is(',') || this.is(';')) this.next();
    else if (!(this.is('}') || this.lineBreakBefore)) this.fail();
    return Object.assign(this.node(SyntaxKind.PropertySignature, pos, start), { modifiers: undefined, name, questionToken, type });
  }

  // --- types ---

  private type(): FastNode {
    const type = this.unionOrIntersection('|', SyntaxKind.UnionType, () => this.unionOrIntersection('&', SyntaxKind.IntersectionType, () => this.postfix()));
    if (this.isWord('extends') && !this.lineBreakBefore) this.fail();
    return type;
  }

  private unionOrIntersection(operator: string, kind: ts.SyntaxKind, part: () => FastNode): FastNode {
    const pos = this.fullStart;
    const start = this.start;
    const leading = this.is(operator);
    if (leading) this.next();
    const first = part();
    if (!leading && !this.is(operator)) return first;
    const types = [first];
    while (this.is(operator)) {
      this.next();
      types.push(part());
    }
    return Object.assign(this.node(kind, pos, start), { types });
  }

  private postfix(): FastNode {
    let type = this.primary();
    while (!this.lineBreakBefore && this.tok === Tok.Punct) {
      if (this.is('[')) {
        this.next();
        this.expect(']');
        type = Object.assign(new FastNode(SyntaxKind.ArrayType, type.pos, type.getStart(), this.lastEnd), { elementType: type });
      } else if (this.is('?') || this.is('!') || this.is('.')) {
        this.fail();
      } else break;
    }
    return type;
  }

  private primary(): FastNode {
    const pos = this.fullStart;
    const start = this.start;
    if (this.tok === Tok.String) {
      const literal = this.string();
      return Object.assign(this.node(SyntaxKind.LiteralType, pos, start), { literal });
    }
    if (this.is('{')) {
      const members = this.members();
      return Object.assign(this.node(SyntaxKind.TypeLiteral, pos, start), { members });
    }
    if (this.tok !== Tok.Name) return this.fail();
    const keyword = KEYWORD_TYPES[this.value];
    if (keyword) {
      const node = this.token(SyntaxKind[keyword] as ts.SyntaxKind);
      if (this.is('.')) this.fail();
      return node;
    }
    if (this.value === 'null') {
      const literal = this.token(SyntaxKind.NullKeyword);
      if (this.is('.')) this.fail();
      return Object.assign(this.node(SyntaxKind.LiteralType, pos, start), { literal });
    }
    const typeName = this.name();
    if (this.is('.')) this.fail();
    let typeArguments: FastNode[] | undefined;
    if (this.is('<') && !this.lineBreakBefore) {
      this.next();
      typeArguments = [this.type()];
      while (this.is(',')) {
        this.next();
        typeArguments.push(this.type());
      }
      this.expect('>');
    }
    return Object.assign(this.node(SyntaxKind.TypeReference, pos, start), { typeName, typeArguments });
  }
}

function isNameStart(ch: number): boolean {
  return (ch >= 97 && ch <= 122) || (ch >= 65 && ch <= 90) || ch === 95 || ch === 36;
}

function isNamePart(ch: number): boolean {
  return isNameStart(ch) || (ch >= 48 && ch <= 57);
}
