/**
 * Two of TypeScript's text utilities, ported as they are (scanner.ts, TypeScript 5.9) so the parse
 * stage needs no TypeScript for files ./fast-parser.ts reads: a position's line and column
 * (ts.getLineAndCharacterOfPosition) and the comments before a position
 * (ts.getLeadingCommentRanges). Both work on any source file, whichever parser read it.
 */
import type ts from 'typescript';

const LF = 10;
const CR = 13;
const SLASH = 47;
const STAR = 42;

export function isLineBreak(ch: number): boolean {
  return ch === LF || ch === CR || ch === 0x2028 || ch === 0x2029;
}

function isWhiteSpaceSingleLine(ch: number): boolean {
  return (
    ch === 32 || ch === 9 || ch === 11 || ch === 12 || ch === 160 || ch === 133 || ch === 5760 ||
    (ch >= 8192 && ch <= 8203) || ch === 8239 || ch === 8287 || ch === 12288 || ch === 65279
  );
}

/** Line start offsets, as ts.computeLineStarts. */
function computeLineStarts(text: string): number[] {
  const result: number[] = [];
  let pos = 0;
  let lineStart = 0;
  while (pos < text.length) {
    const ch = text.charCodeAt(pos);
    pos++;
    if (ch === CR && text.charCodeAt(pos) === LF) pos++;
    if (ch === CR || ch === LF || (ch > 127 && isLineBreak(ch))) {
      result.push(lineStart);
      lineStart = pos;
    }
  }
  result.push(lineStart);
  return result;
}

const lineStarts = new WeakMap<ts.SourceFile, number[]>();

/** ts.getLineAndCharacterOfPosition: 0-based line and UTF-16 column. */
export function lineAndCharacter(sourceFile: ts.SourceFile, pos: number): { line: number; character: number } {
  let starts = lineStarts.get(sourceFile);
  if (!starts) lineStarts.set(sourceFile, (starts = computeLineStarts(sourceFile.text)));
  let lo = 0;
  let hi = starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! <= pos) lo = mid + 1;
    else hi = mid - 1;
  }
  const line = Math.max(0, lo - 1);
  return { line, character: pos - starts[line]! };
}

/** ts.getLeadingCommentRanges: the comments between `pos` and the next token (see iterateCommentRanges). */
export function leadingCommentRanges(text: string, pos: number): ts.CommentRange[] | undefined {
  let ranges: ts.CommentRange[] | undefined;
  let pending: ts.CommentRange | undefined;
  let collecting = false;
  if (pos === 0) {
    collecting = true;
    const shebang = /^#!.*/.exec(text);
    if (shebang) pos = shebang[0].length;
  }
  scan: while (pos >= 0 && pos < text.length) {
    const ch = text.charCodeAt(pos);
    switch (ch) {
      case CR:
      case LF:
        if (ch === CR && text.charCodeAt(pos + 1) === LF) pos++;
        pos++;
        collecting = true;
        if (pending) pending.hasTrailingNewLine = true;
        continue;
      case 9:
      case 11:
      case 12:
      case 32:
        pos++;
        continue;
      case SLASH: {
        const next = text.charCodeAt(pos + 1);
        let hasTrailingNewLine = false;
        if (next === SLASH || next === STAR) {
          const kind = (next === SLASH ? 2 : 3) as ts.CommentKind;
          const start = pos;
          pos += 2;
          if (next === SLASH) {
            while (pos < text.length) {
              if (isLineBreak(text.charCodeAt(pos))) {
                hasTrailingNewLine = true;
                break;
              }
              pos++;
            }
          } else {
            while (pos < text.length) {
              if (text.charCodeAt(pos) === STAR && text.charCodeAt(pos + 1) === SLASH) {
                pos += 2;
                break;
              }
              pos++;
            }
          }
          if (collecting) {
            if (pending) (ranges ??= []).push(pending);
            pending = { pos: start, end: pos, kind, hasTrailingNewLine };
          }
          continue;
        }
        break scan;
      }
      default:
        if (ch > 127 && (isWhiteSpaceSingleLine(ch) || isLineBreak(ch))) {
          if (pending && isLineBreak(ch)) pending.hasTrailingNewLine = true;
          pos++;
          continue;
        }
        break scan;
    }
  }
  if (pending) (ranges ??= []).push(pending);
  return ranges;
}
