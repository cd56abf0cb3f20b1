/**
 * Reads doc comments as kgen sees them: a description, then block tags (`@name text`) that start a
 * line. Inline `{@link}` is left in the text. Tags keep their exact source location.
 */
import type { JSDoc, Node, SourceFile } from 'ts-morph';
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

export function locationOf(sourceFile: SourceFile, pos: number): SourceLocation {
  const { line, column } = sourceFile.getLineAndColumnAtPos(pos);
  return { file: sourceFile.getFilePath(), line, col: column };
}

export function nodeLocation(node: Node): SourceLocation {
  return locationOf(node.getSourceFile(), node.getStart());
}

const TAG_START = /^@([A-Za-z][\w:.-]*)/;

/** The doc comment directly above a declaration (the last one, as TypeScript does). */
export function readDoc(node: Node & { getJsDocs(): JSDoc[] }): DocComment {
  const docs = node.getJsDocs();
  const doc = docs[docs.length - 1];
  if (!doc) return { tags: [] };
  return parseDocText(doc.getText(), doc.getStart(), node.getSourceFile());
}

export function parseDocText(text: string, start: number, sourceFile: SourceFile): DocComment {
  const description: string[] = [];
  const tags: DocTag[] = [];
  let offset = 0;
  for (const rawLine of text.split('\n')) {
    const lineStart = offset;
    offset += rawLine.length + 1;
    // Strip the comment frame: `/**`, leading `*`, trailing `*/`.
    const m = /^(\s*(?:\/\*\*|\*(?!\/))?\s?)(.*?)\s*(?:\*\/)?\s*$/.exec(rawLine)!;
    const body = m[2]!;
    const bodyOffset = lineStart + m[1]!.length;
    const tag = TAG_START.exec(body);
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
