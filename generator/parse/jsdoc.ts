/**
 * Reads doc comments as kgen sees them: a description, then block tags (`@name text`) that start a
 * line. Inline `{@link}` is left in the text. Tags keep their exact source location.
 */
import type ts from 'typescript';
import { typescript } from './typescript.js';
import type { SourceLocation } from '../model.js';

export interface DocTag {
  /** Without the `@`, e.g. `kgen:resource`, `minimum`. */
  name: string;
  /** The rest of the tag, continuation lines joined with a space, trimmed. */
  text: string;
  loc: SourceLocation;
}

export interface DocComment {
  description?: string;
  tags: DocTag[];
}

export function locationOf(sourceFile: ts.SourceFile, pos: number): SourceLocation {
  // The line map (computed once per file): a binary search per call.
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(pos);
  return { file: sourceFile.fileName, line: line + 1, col: character + 1 };
}

/** Where a node starts (its first token, after comments), as file:line:col. */
export function nodeLocation(node: ts.Node, sourceFile: ts.SourceFile): SourceLocation {
  return locationOf(sourceFile, node.getStart(sourceFile));
}

const TAG_START = /^@([A-Za-z][\w:.-]*)/;
const SLASH = 0x2f;
const STAR = 0x2a;

/**
 * The doc comment directly above a declaration: the last `/** … *\/` comment among its leading
 * comments, which is the JSDoc node TypeScript's parser would attach (ts.getJSDocCommentRanges:
 * leading comments of the node starting with `/**` but not `/**\/`, ending inside the node).
 * Sources are parsed without JSDoc nodes (see parseSource in ./files.ts), so it is read from the text.
 */
export function readDoc(node: ts.Node, sourceFile: ts.SourceFile): DocComment {
  const text = sourceFile.text;
  const ranges = typescript().getLeadingCommentRanges(text, node.pos);
  if (!ranges) return { tags: [] };
  let doc: ts.CommentRange | undefined;
  for (const r of ranges) {
    if (r.end <= node.end && text.charCodeAt(r.pos + 1) === STAR && text.charCodeAt(r.pos + 2) === STAR && text.charCodeAt(r.pos + 3) !== SLASH) doc = r;
  }
  if (!doc) return { tags: [] };
  return parseDocText(text.slice(doc.pos, doc.end), doc.pos, sourceFile);
}

export function parseDocText(text: string, start: number, sourceFile: ts.SourceFile): DocComment {
  const description: string[] = [];
  const tags: DocTag[] = [];
  // Checked once per comment rather than once per line (unframe's first step).
  const odd = ODD_TEXT.test(text);
  let offset = 0;
  for (const rawLine of text.split('\n')) {
    const lineStart = offset;
    offset += rawLine.length + 1;
    const [frame, body] = unframe(rawLine, odd);
    const bodyOffset = lineStart + frame;
    const tag = body.charCodeAt(0) === AT ? TAG_START.exec(body) : null;
    if (tag) {
      tags.push({ name: tag[1]!, text: body.slice(tag[0].length).trim(), loc: locationOf(sourceFile, start + bodyOffset) });
    } else if (tags.length > 0) {
      const last = tags[tags.length - 1]!;
      if (body.trim()) last.text = last.text ? `${last.text} ${body.trim()}` : body.trim();
    } else {
      description.push(body.trimEnd());
    }
  }
  const desc = description.join('\n').trim();
  return desc ? { description: desc, tags } : { tags };
}

/** A doc comment line's frame (`/**`, a leading `*`, a trailing `*\/`, the spaces around them) and text. */
// `s`: a line holding a line terminator other than \n (U+2028, U+2029, a lone \r) is one line here,
// as split('\n') made it; without the flag `.` stops at the terminator and the pattern fails.
const FRAME = /^(\s*(?:\/\*\*|\*(?!\/))?\s?)(.*?)\s*(?:\*\/)?\s*$/s;
/** Characters `.` does not match: a line holding one (other than a final \r) takes the regular expression. */
const ODD_LINE = /[\u2028\u2029]|\r(?!$)/;
/** A text holding a line that ODD_LINE matches (a \r not ending a line: before \n or at the end). */
const ODD_TEXT = /[\u2028\u2029]|\r(?!\n|$)/;
const AT = 0x40;
/** JavaScript's \s. */
const SPACE = /\s/;

/**
 * Splits a line of a doc comment into the length of its frame and its text: what FRAME's two
 * groups hold, computed by hand (FRAME's lazy middle group backtracks on every character, and
 * runs on every line of every doc comment). `odd: false` says the caller knows ODD_LINE does
 * not match the line.
 */
export function unframe(line: string, odd = true): [frame: number, body: string] {
  if (odd && ODD_LINE.test(line)) {
    const m = FRAME.exec(line)!;
    return [m[1]!.length, m[2]!];
  }
  // Group 1: spaces, then `/**` or a `*` not starting `*\/`, then at most one space.
  let i = 0;
  while (i < line.length && isSpace(line, i)) i++;
  if (line.startsWith('/**', i)) i += 3;
  else if (line[i] === '*' && line[i + 1] !== '/') i += 1;
  if (i < line.length && isSpace(line, i)) i++;
  // Group 2: the rest, less a trailing run of spaces, `*\/` and spaces.
  let end = line.length;
  while (end > i && isSpace(line, end - 1)) end--;
  if (end - 2 >= i && line[end - 2] === '*' && line[end - 1] === '/') {
    end -= 2;
    while (end > i && isSpace(line, end - 1)) end--;
  }
  return [i, line.slice(i, end)];
}

function isSpace(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) return true;
  return c > 0x7f && SPACE.test(text[i]!);
}
