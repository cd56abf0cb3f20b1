/**
 * Parse stage: apis folders → API model. Every declaration under apis/ is read, so a misspelled
 * marker on a type nothing uses still fails; only types reachable from a kind reach the model.
 */
import { basename } from 'node:path';
import { Node } from 'ts-morph';
import { DiagnosticBag } from '../diagnostics.js';
import type { ApiGroup, ApiModel, ApiVersion, Kind, NamedType, Schema } from '../model.js';
import { assertNever } from '../model.js';
import { compareVersionPriority } from '../names.js';
import { loadFiles, type IndexedFile } from './files.js';
import { nodeLocation } from './jsdoc.js';
import { isResource, readKind } from './kinds.js';
import { VersionTypes } from './types.js';

export interface ParseResult {
  model: ApiModel;
  diagnostics: DiagnosticBag;
  /** Every file read, for --watch and for reporting. */
  files: string[];
}

export function parseApis(roots: string[]): ParseResult {
  const diags = new DiagnosticBag();
  const index = loadFiles(roots, diags);
  const byVersion = new Map<string, IndexedFile[]>();
  for (const file of index.all()) {
    const key = `${file.group}\0${file.version}`;
    byVersion.set(key, [...(byVersion.get(key) ?? []), file]);
  }
  const groups = new Map<string, ApiVersion[]>();
  for (const files of byVersion.values()) {
    const version = parseVersion(files, index, diags);
    groups.set(version.group, [...(groups.get(version.group) ?? []), version]);
  }
  const model: ApiModel = {
    groups: [...groups.entries()]
      .map(([name, versions]): ApiGroup => ({ name, versions: versions.sort((a, b) => compareVersionPriority(a.name, b.name)) }))
      .sort((a, b) => (a.name === '' ? -1 : b.name === '' ? 1 : a.name.localeCompare(b.name))),
  };
  return { model, diagnostics: diags, files: index.all().map((f) => f.path).sort() };
}

function parseVersion(files: IndexedFile[], index: import('./files.js').FileIndex, diags: DiagnosticBag): ApiVersion {
  const { group, version } = files[0]!;
  const types = new VersionTypes(index, diags);
  const kinds: Kind[] = [];
  const declared = new Map<string, Node>();
  for (const file of files) {
    for (const stmt of file.sourceFile.getStatements()) {
      if (Node.isInterfaceDeclaration(stmt) || Node.isTypeAliasDeclaration(stmt)) {
        // One schema per name and version: a second declaration would be silently dropped (two kinds are KG022's).
        const prev = declared.get(stmt.getName());
        const bothKinds = prev && Node.isInterfaceDeclaration(prev) && isResource(prev) && Node.isInterfaceDeclaration(stmt) && isResource(stmt);
        if (prev && !bothKinds) {
          const at = nodeLocation(prev);
          diags.add('KG018', nodeLocation(stmt), { type: stmt.getName(), other: `the declaration at ${basename(at.file)}:${at.line}` });
          continue;
        }
        declared.set(stmt.getName(), stmt);
      }
      if (Node.isInterfaceDeclaration(stmt)) {
        if (isResource(stmt)) kinds.push(readKind(stmt, group, version, types, diags));
        else types.define(stmt);
      } else if (Node.isTypeAliasDeclaration(stmt)) {
        types.define(stmt);
      } else if (Node.isEnumDeclaration(stmt) || Node.isClassDeclaration(stmt)) {
        diags.add('KG010', nodeLocation(stmt), {
          type: `${Node.isEnumDeclaration(stmt) ? 'enum' : 'class'} ${stmt.getName() ?? ''}`.trim(),
          hint: Node.isEnumDeclaration(stmt)
            ? "Write enums as string-literal unions: type Color = 'red' | 'blue'."
            : 'Declare API types as interfaces.',
        });
      }
    }
  }
  kinds.sort((a, b) => a.name.localeCompare(b.name));
  return {
    group,
    name: version,
    kinds,
    types: reachableTypes(kinds, types.named),
    loc: { file: files[0]!.path, line: 1, col: 1 },
  };
}

/** Named types reachable from the kinds, sorted by name. */
function reachableTypes(kinds: Kind[], named: Map<string, NamedType>): NamedType[] {
  const seen = new Set<string>();
  const visit = (schema: Schema): void => {
    switch (schema.type) {
      case 'ref': {
        if (seen.has(schema.name)) return;
        seen.add(schema.name);
        const target = named.get(schema.name);
        if (target) visit(target.schema);
        return;
      }
      case 'array':
        return visit(schema.items);
      case 'map':
        return visit(schema.values);
      case 'object':
        return schema.properties.forEach((p) => visit(p.schema));
      case 'string':
      case 'integer':
      case 'number':
      case 'boolean':
      case 'wellKnown':
      case 'intOrString':
      case 'quantity':
      case 'time':
      case 'duration':
      case 'unknown':
        return;
      default:
        return assertNever(schema, 'schema');
    }
  };
  kinds.forEach((k) => visit(k.schema));
  return [...seen].filter((n) => named.has(n)).sort().map((n) => named.get(n)!);
}
