/**
 * Parse stage: apis folders → API model. Every declaration under apis/ is read, so a misspelled
 * marker on a type nothing uses still fails; only types reachable from a kind reach the model.
 */
import { basename, dirname, resolve, sep } from 'node:path';
import type ts from 'typescript';
import { isClassDeclaration, isEnumDeclaration, isInterfaceDeclaration, isTypeAliasDeclaration } from './nodes.js';
import { DiagnosticBag, type Diagnostic } from '../diagnostics.js';
import type { ApiGroup, ApiModel, ApiVersion, ConversionFile, Kind, NamedType, Schema } from '../model.js';
import { assertNever } from '../model.js';
import { compareVersionPriority } from '../names.js';
import { loadFiles, newFileCache, type Declaration, type FileCache, type FileIndex, type IndexedFile } from './files.js';
import { isConversionFile, readConversionFile } from './conversion.js';
import { nodeLocation } from './jsdoc.js';
import { isResource, readKind } from './kinds.js';
import { VersionTypes } from './types.js';

export interface ParseResult {
  model: ApiModel;
  diagnostics: DiagnosticBag;
  /** Every file read, for --watch and for reporting. */
  files: string[];
}

/**
 * What `kgen generate --watch` keeps between parses. Files whose text is unchanged are not parsed
 * again (FileCache); a group's versions are converted again only when a file of the group, or of
 * a group it imports from (transitively), changed, and everything is converted again when a file
 * was added or removed. A reused group's diagnostics are reported again, in the same order, so a
 * cached parse reports exactly what a cold one does.
 */
export interface ParseCache {
  files: FileCache;
  /** Group → version name → the parsed version and the diagnostics its parse reported. */
  groups: Map<string, { versions: Map<string, { version: ApiVersion; diagnostics: Diagnostic[] }> }>;
}

export function newParseCache(): ParseCache {
  return { files: newFileCache(), groups: new Map() };
}

/**
 * One apis root parsed on its own (kgen's built-in APIs, kept in kgen's cache between runs:
 * ./builtin-cache.ts): its groups, the diagnostics its parse reported and the files it read.
 * Plain data (JSON-serialisable).
 */
export interface ParsedRoot {
  root: string;
  groups: ApiGroup[];
  diagnostics: Diagnostic[];
  files: string[];
  conversionFiles?: ConversionFile[];
}

/** Parses one root on its own, as parseApis([root], undefined, kubeRoots) would, as plain data. */
export function parseRoot(root: string, kubeRoots?: ReadonlySet<string>): ParsedRoot {
  const { model, diagnostics, files } = parseApis([root], undefined, kubeRoots);
  const parsed: ParsedRoot = { root, groups: model.groups, diagnostics: diagnostics.items, files };
  if (model.conversionFiles) parsed.conversionFiles = model.conversionFiles;
  return parsed;
}

/**
 * Parses the apis roots into one model. `kubeRoots`: the roots holding kube's own groups (kgen's
 * built-ins), where `apps` is a group. `parsed` is one of the roots already parsed (parseRoot):
 * when no file of the other roots shares a group with it or imports from it (then each version's
 * parse reads only its own root's files), the other roots are parsed and `parsed` is merged in,
 * which gives what parsing every root together gives; otherwise every root is parsed together.
 * Not used with a --watch cache.
 */
export function parseApis(roots: string[], cache?: ParseCache, kubeRoots?: ReadonlySet<string>, parsed?: ParsedRoot): ParseResult {
  const diags = new DiagnosticBag();
  if (parsed && !cache && roots.some((r) => resolve(r) === resolve(parsed.root))) {
    const others = roots.filter((r) => resolve(r) !== resolve(parsed.root));
    const index = loadFiles(others, diags, undefined, kubeRoots);
    if (independent(index, parsed)) return merge(parseIndex(index, diags), parsed, resolve(roots[0]!) === resolve(parsed.root));
    return parseApis(roots, undefined, kubeRoots);
  }
  return parseIndex(loadFiles(roots, diags, cache?.files, kubeRoots), diags, cache);
}

/** The parse of the loaded files of `index` (their load's diagnostics already in `diags`). */
function parseIndex(index: FileIndex, diags: DiagnosticBag, cache?: ParseCache): ParseResult {
  const byVersion = new Map<string, IndexedFile[]>();
  const conversionFiles: ConversionFile[] = [];
  for (const file of index.all()) {
    // A shared folder's types reach the model only through the versions that import them.
    if (file.shared !== undefined) {
      refuseResources(file, diags);
      continue;
    }
    if (isConversionFile(file.path)) {
      conversionFiles.push(readConversionFile(file));
      continue;
    }
    const key = `${file.group}\0${file.version}`;
    byVersion.set(key, [...(byVersion.get(key) ?? []), file]);
  }
  const groups = new Map<string, ApiVersion[]>();
  if (cache) {
    parseGroupsCached(byVersion, index, diags, cache, groups);
  } else {
    for (const files of byVersion.values()) {
      const version = parseVersion(files, index, diags);
      groups.set(version.group, [...(groups.get(version.group) ?? []), version]);
    }
  }
  const model: ApiModel = {
    groups: [...groups.entries()]
      .map(([name, versions]): ApiGroup => ({ name, versions: versions.sort((a, b) => compareVersionPriority(a.name, b.name)) }))
      .sort((a, b) => (a.name === '' ? -1 : b.name === '' ? 1 : a.name.localeCompare(b.name))),
  };
  if (conversionFiles.length > 0) model.conversionFiles = conversionFiles.sort((a, b) => a.path.localeCompare(b.path));
  return { model, diagnostics: diags, files: index.all().map((f) => f.path).sort() };
}

/** No file of `index` is in a group of `parsed`, or imports a file under its root. */
function independent(index: FileIndex, parsed: ParsedRoot): boolean {
  const groups = new Set(parsed.groups.map((g) => g.name));
  const root = resolve(parsed.root) + sep;
  for (const file of index.all()) {
    if (file.shared === undefined && groups.has(file.group)) return false;
    for (const imp of file.imports.values()) {
      if (imp.module.startsWith('.') && resolve(dirname(file.path), imp.module).startsWith(root)) return false;
    }
  }
  return true;
}

/** `own` (the other roots' parse) with `parsed` merged in, as one parse of every root gives it. */
function merge(own: ParseResult, parsed: ParsedRoot, parsedFirst: boolean): ParseResult {
  const diags = new DiagnosticBag();
  if (parsedFirst) diags.items.push(...parsed.diagnostics, ...own.diagnostics.items);
  else diags.items.push(...own.diagnostics.items, ...parsed.diagnostics);
  const model: ApiModel = {
    groups: [...parsed.groups, ...own.model.groups].sort((a, b) => (a.name === '' ? -1 : b.name === '' ? 1 : a.name.localeCompare(b.name))),
  };
  const conversionFiles = [...(parsed.conversionFiles ?? []), ...(own.model.conversionFiles ?? [])];
  if (conversionFiles.length > 0) model.conversionFiles = conversionFiles.sort((a, b) => a.path.localeCompare(b.path));
  return { model, diagnostics: diags, files: [...parsed.files, ...own.files].sort() };
}

/** A resource belongs to a group/version: in a shared folder it would silently serve nothing. */
function refuseResources(file: IndexedFile, diags: DiagnosticBag): void {
  for (const stmt of file.sourceFile.statements) {
    if (isInterfaceDeclaration(stmt) && isResource(stmt, file.sourceFile)) {
      diags.add('KG036', nodeLocation(stmt, file.sourceFile), { kind: stmt.name.getText(file.sourceFile), folder: file.shared! });
    }
  }
}

/** parseApis' version loop with a cache: same versions, same diagnostics in the same order. */
function parseGroupsCached(
  byVersion: Map<string, IndexedFile[]>,
  index: FileIndex,
  diags: DiagnosticBag,
  cache: ParseCache,
  groups: Map<string, ApiVersion[]>,
): void {
  const byGroup = new Map<string, IndexedFile[][]>();
  for (const files of byVersion.values()) byGroup.set(files[0]!.group, [...(byGroup.get(files[0]!.group) ?? []), files]);
  const stale = staleGroups(byGroup, index, cache.files);
  for (const [group, versionFiles] of byGroup) {
    if (!stale.has(group) && cache.groups.has(group)) continue;
    const versions = new Map<string, { version: ApiVersion; diagnostics: Diagnostic[] }>();
    for (const files of versionFiles) {
      const bag = new DiagnosticBag();
      versions.set(files[0]!.version, { version: parseVersion(files, index, bag), diagnostics: bag.items });
    }
    cache.groups.set(group, { versions });
  }
  for (const group of [...cache.groups.keys()]) if (!byGroup.has(group)) cache.groups.delete(group);
  // In parseApis' order, so that diagnostics at the same place come out in the same order.
  for (const files of byVersion.values()) {
    const { version, diagnostics } = cache.groups.get(files[0]!.group)!.versions.get(files[0]!.version)!;
    diags.items.push(...diagnostics);
    groups.set(version.group, [...(groups.get(version.group) ?? []), version]);
  }
}

/** Groups to convert again: every one after a layout change, else those reaching a changed file. */
function staleGroups(byGroup: Map<string, IndexedFile[][]>, index: FileIndex, files: FileCache): Set<string> {
  if (files.layoutChanged) return new Set(byGroup.keys());
  // A shared folder counts as a group of its own here, keyed `/<folder>` (no group name starts with /).
  const keyOf = (file: IndexedFile) => (file.shared !== undefined ? `/${file.shared}` : file.group);
  const changed = new Set<string>();
  for (const path of files.changed) {
    const file = index.get(path);
    if (file) changed.add(keyOf(file));
  }
  // Group → groups (and shared folders) it imports from; stale when a changed one is reachable.
  const deps = new Map<string, Set<string>>();
  for (const file of index.all()) {
    const from = keyOf(file);
    const to = deps.get(from) ?? new Set<string>();
    for (const imp of file.imports.values()) {
      const target = index.resolveImport(file.path, imp.module);
      if (target && keyOf(target) !== from) to.add(keyOf(target));
    }
    deps.set(from, to);
  }
  const stale = new Set<string>();
  const reaches = (group: string, seen: Set<string>): boolean => {
    if (changed.has(group)) return true;
    seen.add(group);
    for (const dep of deps.get(group) ?? []) if (!seen.has(dep) && reaches(dep, seen)) return true;
    return false;
  };
  for (const group of byGroup.keys()) if (reaches(group, new Set())) stale.add(group);
  return stale;
}

function parseVersion(files: IndexedFile[], index: FileIndex, diags: DiagnosticBag): ApiVersion {
  const { group, version } = files[0]!;
  const types = new VersionTypes(index, diags, group, version);
  const kinds: Kind[] = [];
  /** Name → the declaration that defines it in this version, its file, and whether it is a kind. */
  const declared = new Map<string, { decl: Declaration; sourceFile: ts.SourceFile; kind: boolean }>();
  for (const file of files) {
    const sf = file.sourceFile;
    for (const stmt of sf.statements) {
      const isInterface = isInterfaceDeclaration(stmt);
      if (isInterface || isTypeAliasDeclaration(stmt) || isEnumDeclaration(stmt)) {
        const name = stmt.name.getText(sf);
        const kind = isInterface && isResource(stmt, sf);
        // One schema per name and version: a second declaration would be silently dropped (two kinds are KG022's).
        const prev = declared.get(name);
        if (prev && !(prev.kind && kind)) {
          const at = nodeLocation(prev.decl, prev.sourceFile);
          diags.add('KG018', nodeLocation(stmt, sf), { type: name, other: `the declaration at ${basename(at.file)}:${at.line}` });
          continue;
        }
        declared.set(name, { decl: stmt, sourceFile: sf, kind });
        if (kind) kinds.push(readKind(stmt, sf, group, version, types, diags));
        else types.define(stmt, sf);
      } else if (isClassDeclaration(stmt)) {
        diags.add('KG010', nodeLocation(stmt, sf), { type: `class ${stmt.name?.getText(sf) ?? ''}`.trim(), hint: 'Declare API types as interfaces.' });
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
        // A union's members are named types of their own: the model keeps them (TypeScript narrows on them).
        schema.union?.members.forEach((m) => visit(m.schema));
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
