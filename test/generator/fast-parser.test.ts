/**
 * generator/parse/fast-parser.ts reads the plain subset of TypeScript API files are written in and
 * must build exactly the nodes TypeScript's parser builds (kinds, positions, fields), and give up
 * on anything else, so TypeScript parses it. Checked against TypeScript itself on every API file
 * of the repository, on snippets at the edges of the subset, and on seeded random mutations of
 * those files (a mutation the fast parser accepts must be one TypeScript parses without error, to
 * the same tree). Also: the text utilities of generator/parse/syntax.ts against TypeScript's.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type ts from 'typescript';
import { parseFast } from '../../generator/parse/fast-parser.js';
import { leadingCommentRanges, lineAndCharacter } from '../../generator/parse/syntax.js';
import { REPO } from './helpers.js';

const typescript = createRequire(import.meta.url)('typescript') as typeof ts;

function tsParse(text: string): ts.SourceFile {
  return typescript.createSourceFile('/x.ts', text, { languageVersion: typescript.ScriptTarget.ES2022, jsDocParsingMode: typescript.JSDocParsingMode.ParseNone }, false);
}

function listTs(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) listTs(path, out);
    else if (path.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** The first difference between a fast node and TypeScript's, over the fast node's fields. */
function difference(fast: Record<string, unknown>, real: Record<string, unknown> | undefined, sf: ts.SourceFile, path: string): string | undefined {
  if (!real) return `${path}: missing in TypeScript's tree`;
  const kind = (k: unknown) => typescript.SyntaxKind[k as number];
  if (fast.kind !== real.kind) return `${path}: ${kind(fast.kind)} vs ${kind(real.kind)}`;
  if (fast.pos !== real.pos || fast.end !== real.end) return `${path} ${kind(fast.kind)}: ${fast.pos}-${fast.end} vs ${real.pos}-${real.end}`;
  const start = (fast as unknown as ts.Node).getStart(sf);
  if (start !== (real as unknown as ts.Node).getStart(sf)) return `${path}: starts at ${start}`;
  for (const key of Object.keys(fast)) {
    if (key === 'kind' || key === 'pos' || key === 'end' || key === 'start') continue;
    const a = fast[key];
    const b = real[key];
    if (Array.isArray(a)) {
      if (!Array.isArray(b) || a.length !== b.length) return `${path}.${key}: ${a.length} nodes vs ${Array.isArray(b) ? b.length : b}`;
      for (let i = 0; i < a.length; i++) {
        const d = difference(a[i] as Record<string, unknown>, b[i] as Record<string, unknown>, sf, `${path}.${key}[${i}]`);
        if (d) return d;
      }
    } else if (a && typeof a === 'object') {
      const d = difference(a as Record<string, unknown>, b as Record<string, unknown>, sf, `${path}.${key}`);
      if (d) return d;
    } else if (a !== b) {
      return `${path}.${key}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
    }
  }
  return undefined;
}

/** undefined when the fast parser gave up; else the first difference from TypeScript ('' when none). */
function compare(text: string): string | undefined {
  const fast = parseFast('/x.ts', text);
  if (!fast) return undefined;
  const real = tsParse(text);
  const errors = (real as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  if (errors.length > 0) return `accepted, but TypeScript reports: ${typescript.flattenDiagnosticMessageText(errors[0]!.messageText, ' ')}`;
  if (fast.statements.length !== real.statements.length) return `${fast.statements.length} statements vs ${real.statements.length}`;
  for (let i = 0; i < fast.statements.length; i++) {
    const d = difference(fast.statements[i] as unknown as Record<string, unknown>, real.statements[i] as unknown as Record<string, unknown>, real, `statements[${i}]`);
    if (d) return d;
  }
  return '';
}

const sources = [join(REPO, 'apis'), join(REPO, 'generator/builtin'), join(REPO, 'test/fixtures')].flatMap((d) => listTs(d));

describe('fast parser', () => {
  test('reads the repository API files as TypeScript does (and most of them at all)', () => {
    let fast = 0;
    for (const path of sources) {
      const d = compare(readFileSync(path, 'utf8'));
      if (d === undefined) continue;
      fast++;
      assert.equal(d, '', path);
    }
    assert.ok(fast >= sources.length * 0.8, `only ${fast} of ${sources.length} files read without TypeScript`);
  });

  const accepted: Record<string, string> = {
    'imports, aliases and ASI': "import type { int32, Time as T } from 'kgen'\nimport { A, } from './a.js';\nexport type Mode =\n  | 'Fast'\n  | 'Safe'\ntype N = T | null\n",
    'interfaces': "/** Doc. */\nexport interface W extends A, B {\n  /** f */ a?: string; 'b-c': number,\n  d: Record<string, Array<boolean>>[]\n  e: { x: undefined & object }\n}\ninterface E {}",
    'keywords as field names': 'interface K { type: string; default?: any; new: unknown; get: never; readonly: bigint; class: symbol }',
    'comments everywhere': '// a\n/* b */ export /* c */ interface /* d */ X /* e */ { // f\n a /* g */ ?: /* h */ string /* i */ [ /* j */ ] }',
  };
  for (const [name, text] of Object.entries(accepted)) {
    test(`reads ${name}`, () => assert.equal(compare(text), '', JSON.stringify(text)));
  }

  const refused: Record<string, string> = {
    'a syntax error': 'interface A { a: string b: number }',
    'a missing type': 'interface A { a }',
    'a method': 'interface A { a(): void }',
    'an index signature': 'interface A { [k: string]: string }',
    'a readonly field': 'interface A { readonly a: string }',
    'a generic': 'interface A<T> { a: T }',
    'a function type': 'type F = (a: string) => void',
    'a tuple': 'type T = [string]',
    'an indexed access': "type T = A['b']",
    'a numeric literal': 'type T = 1',
    'a conditional type': 'type T = A extends B ? C : D',
    'a qualified name': 'type T = A.B',
    'an escape in a string': "type T = 'a\\'b'",
    'an enum': 'enum E { A }',
    'a class': 'class C {}',
    'a function': 'export function f() {}',
    'an export list': 'export { A }',
    'a default import': "import A from './a.js'",
    'a reserved word as a type': 'type T = class',
    'a name on the next line': 'interface\nA {}',
    'type arguments on the next line': 'type T = Array\n<string>',
    'non-ASCII outside comments': 'interface Ä { a: string }',
    'a byte order mark': '\ufeffinterface A {}',
    'an unterminated comment': 'interface A {} /*',
  };
  for (const [name, text] of Object.entries(refused)) {
    test(`leaves ${name} to TypeScript`, () => assert.equal(parseFast('/x.ts', text), undefined));
  }

  test('accepts only what TypeScript parses the same way (seeded mutations)', () => {
    const atoms = [' ', '\n', ';', ',', '|', '&', '[]', '[', ']', '{', '}', '<', '>', '?', ':', '=', "'", '/*', '*/', '//', 'export ', 'type ', 'interface ', 'x', 'null', 'extends ', '\r\n', 'import ', 'from ', 'as ', '.', '(', '\u2028', 'readonly ', 'class', 'new ', '1', '@', '\\'];
    let seed = 20261122;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const texts = sources.map((p) => readFileSync(p, 'utf8'));
    let fast = 0;
    for (let i = 0; i < 3000; i++) {
      let text = texts[rnd(texts.length)]!;
      for (let j = 1 + rnd(3); j > 0; j--) {
        const at = rnd(text.length + 1);
        text = rnd(2) === 0 ? text.slice(0, at) + text.slice(at + 1 + rnd(3)) : text.slice(0, at) + atoms[rnd(atoms.length)] + text.slice(at);
      }
      const d = compare(text);
      if (d === undefined) continue;
      fast++;
      assert.equal(d, '', `mutant ${i}: ${JSON.stringify(text.slice(0, 200))}`);
    }
    assert.ok(fast > 300, `only ${fast} mutants read by the fast parser`);
  });
});

describe('syntax utilities', () => {
  test('line and column, and leading comments, as TypeScript computes them', () => {
    const texts = [...sources.slice(0, 40).map((p) => readFileSync(p, 'utf8')), 'a\r\nb\rc\u2028d\u2029e\n', '#!/x\n// a\n/** b */ /* c */\r\n x'];
    for (const text of texts) {
      const real = tsParse(text);
      for (let pos = 0; pos <= text.length; pos += 3) {
        assert.deepEqual(lineAndCharacter(real, pos), typescript.getLineAndCharacterOfPosition(real, pos));
        const norm = (r: readonly ts.CommentRange[] | undefined) => r?.map((c) => [c.pos, c.end, c.kind, c.hasTrailingNewLine]);
        assert.deepEqual(norm(leadingCommentRanges(text, pos)), norm(typescript.getLeadingCommentRanges(text, pos)), `comments at ${pos}`);
      }
    }
  });
});
