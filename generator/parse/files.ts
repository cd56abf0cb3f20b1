/**
 * Finds the API source files under one or more apis folders, parses each (syntax only: no
 * program, no type checker, no lib files; see parseSource), and indexes each file's declarations
 * and imports. Nodes are TypeScript's (ts.Node).
 */
import { readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type ts from 'typescript';
import { typescript } from './typescript.js';
import { isEnumDeclaration, isImportDeclaration, isInterfaceDeclaration, isNamedImports, isStringLiteral, isTypeAliasDeclaration } from './nodes.js';
import type { DiagnosticBag } from '../diagnostics.js';
import { groupNameProblem, isKubeVersion } from '../names.js';
import { locationOf } from './jsdoc.js';

/** The declarations a type name can refer to. */
export type Declaration = ts.InterfaceDeclaration | ts.TypeAliasDeclaration | ts.EnumDeclaration;

export interface IndexedFile {
  path: string;
  sourceFile: ts.SourceFile;
  /** "" for the core group (and for a shared file). */
  group: string;
  /** "" for a shared file. */
  version: string;
  /** Set for a file of a shared folder (outside every <group>/<version>/): the folder, e.g. `common`. */
  shared?: string;
  /** Top-level interfaces and type aliases by name (the last one of a name wins). */
  decls: Map<string, Declaration>;
  /** Local name → module specifier and exported name. */
  imports: Map<string, { module: string; name: string }>;
}

export class FileIndex {
  private readonly byPath = new Map<string, IndexedFile>();
  /** inVersion's answers, built on first use (every type reference not declared in its own file asks). */
  private byVersion: Map<string, IndexedFile[]> | undefined;

  add(file: IndexedFile): void {
    this.byPath.set(file.path, file);
    this.byVersion = undefined;
  }

  get(path: string): IndexedFile | undefined {
    return this.byPath.get(path);
  }

  all(): IndexedFile[] {
    return [...this.byPath.values()];
  }

  inVersion(group: string, version: string): IndexedFile[] {
    if (!this.byVersion) {
      this.byVersion = new Map();
      for (const f of this.byPath.values()) {
        if (f.shared !== undefined) continue;
        const key = `${f.group}\0${f.version}`;
        const list = this.byVersion.get(key);
        if (list) list.push(f);
        else this.byVersion.set(key, [f]);
      }
    }
    return this.byVersion.get(`${group}\0${version}`) ?? [];
  }

  /** Resolves a relative import (`./types`, `./types.js`, `../v1/types.ts`) to an indexed file. */
  resolveImport(fromPath: string, module: string): IndexedFile | undefined {
    if (!module.startsWith('.')) return undefined;
    const base = resolve(dirname(fromPath), module).replace(/\.(js|ts|mjs|mts)$/, '');
    return this.byPath.get(`${base}.ts`) ?? this.byPath.get(`${base}.mts`) ?? this.byPath.get(join(base, 'index.ts'));
  }
}

/** Why an apis root cannot be listed (a mistyped path is the usual cause), or undefined. */
function rootProblem(root: string): string | undefined {
  let st;
  try {
    st = statSync(root);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? ': no such folder' : code === 'ENOTDIR' ? ': a part of the path is not a folder' : `: ${(err as Error).message}`;
  }
  return st.isDirectory() ? undefined : ': it is a file, not a folder';
}

/**
 * The source files under `dir`, in name order. An entry's type comes from the listing (no stat
 * per entry, ~120 for the 100-kind set with kgen's built-ins); a symbolic link, or an entry whose
 * type the file system does not give, is statted, so a link is what it points to.
 */
function listSources(dir: string): string[] {
  const out: string[] = [];
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const name = entry.name;
    if (name.startsWith('.') || name === 'node_modules') continue;
    const path = join(dir, name);
    const known = entry.isDirectory() || entry.isFile();
    if (known ? entry.isDirectory() : statSync(path).isDirectory()) out.push(...listSources(path));
    else if ((name.endsWith('.ts') || name.endsWith('.mts')) && !name.endsWith('.d.ts') && !name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

export interface FileSource {
  /** The apis folder: group folders are its children. */
  root: string;
  /** Read text from here instead of disk (tests, --watch caches). */
  read?: (path: string) => string;
}

/**
 * What a long-lived caller (`kgen generate --watch`) keeps between loads: each file's text and
 * parsed syntax tree, so a file whose text is unchanged is not parsed again. After each load,
 * `changed` holds the paths whose text differs from the previous load and `layoutChanged` is true
 * when a file was added or removed (or on the first load).
 */
export interface FileCache {
  sources?: Map<string, ts.SourceFile>;
  texts: Map<string, string>;
  /** The identity of each file whose text in `texts` is known to be current while its identity is unchanged (see Stamp). */
  stamps?: Map<string, Stamp>;
  changed: Set<string>;
  layoutChanged: boolean;
}

export function newFileCache(): FileCache {
  return { texts: new Map(), changed: new Set(), layoutChanged: true };
}

/**
 * A file's identity as stat reports it. A cached file whose identity is the recorded one is not
 * read again. The identity is recorded only when the file's last change (ctime) is older than
 * STAMP_MARGIN_MS before the stat: a file system stamps times from a clock that lags the real one
 * by up to a tick (a few ms), so a change made after the stat gets a ctime newer than the recorded
 * one, while a file changed within the margin could be changed again with the same ctime and size
 * (it is read every time until it is older). A ctime cannot be set by hand; only the clock stepping
 * back past the recorded ctime could repeat one.
 */
export interface Stamp {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

const STAMP_MARGIN_MS = 1000;

function sameStamp(a: Stamp, b: Stats): boolean {
  return a.ino === b.ino && a.ctimeMs === b.ctimeMs && a.mtimeMs === b.mtimeMs && a.size === b.size && a.dev === b.dev;
}

/**
 * Parses one file with TypeScript's parser, run as it would be inside a program targeting ES2022
 * (as the ts-morph project this replaced did). JSDoc is not parsed into nodes (./jsdoc.ts reads doc comments from the text), and parent pointers are not
 * set: every reader passes the source file along.
 */
export function parseSource(path: string, text: string): ts.SourceFile {
  const compiler = typescript();
  return compiler.createSourceFile(path, text, { languageVersion: compiler.ScriptTarget.ES2022, jsDocParsingMode: compiler.JSDocParsingMode.ParseNone }, false);
}

/** The parsed file at `path`, re-parsed only when its text differs from the cached one. */
function sourceFileAt(path: string, cache: FileCache | undefined, seen: Set<string>): ts.SourceFile {
  seen.add(path);
  if (!cache) return parseSource(path, readFileSync(path, 'utf8'));
  const sources = (cache.sources ??= new Map());
  const existing = sources.get(path);
  const stamps = (cache.stamps ??= new Map());
  const began = Date.now();
  const st = statSync(path);
  const known = stamps.get(path);
  if (existing && known && sameStamp(known, st)) return existing;
  const text = readFileSync(path, 'utf8');
  // Stat before the read: a change between the two leaves a stamp that no longer matches.
  if (st.ctimeMs < began - STAMP_MARGIN_MS) stamps.set(path, { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs });
  else stamps.delete(path);
  if (existing && cache.texts.get(path) === text) return existing;
  if (cache.texts.has(path)) cache.changed.add(path);
  else cache.layoutChanged = true;
  cache.texts.set(path, text);
  const sourceFile = parseSource(path, text);
  sources.set(path, sourceFile);
  return sourceFile;
}

/** Loads every source under the given apis roots into one index, reporting layout problems. */
export function loadFiles(roots: string[], diags: DiagnosticBag, cache?: FileCache, kubeRoots: ReadonlySet<string> = new Set()): FileIndex {
  if (cache) {
    cache.changed = new Set();
    cache.layoutChanged = !cache.sources;
  }
  const seen = new Set<string>();
  const index = new FileIndex();
  for (const root of roots.map((r) => resolve(r))) {
    const missing = rootProblem(root);
    const sources = missing === undefined ? listSources(root) : [];
    if (sources.length === 0 && roots.length > 0) diags.add('KG029', { file: root, line: 1, col: 1 }, { dir: root, why: missing ?? '' });
    const badFolders = new Set<string>();
    for (const path of sources) {
      const sourceFile = sourceFileAt(path, cache, seen);
      reportSyntaxErrors(sourceFile, diags);
      const parts = relative(root, path).split(sep);
      const start = { file: path, line: 1, col: 1 };
      const [groupFolder, version] = parts as [string, string];
      const groupProblem = groupNameProblem(groupFolder, kubeRoots.has(root));
      if (parts.length >= 3 && (groupProblem === undefined || isKubeVersion(version))) {
        // Shaped as <group>/<version>/…: a misspelled group or version is reported, not shared.
        if (groupProblem) {
          if (!badFolders.has(groupFolder)) diags.add('KG020', start, { group: groupFolder, problem: groupProblem });
          badFolders.add(groupFolder);
          continue;
        }
        if (!isKubeVersion(version)) {
          if (!badFolders.has(`${groupFolder}/${version}`)) diags.add('KG021', start, { version });
          badFolders.add(`${groupFolder}/${version}`);
          continue;
        }
        index.add(indexFile(sourceFile, groupFolder === 'core' ? '' : groupFolder, version));
      } else if (parts.length >= 2 && groupProblem !== undefined) {
        // A shared folder (apis/common/…): types any version may import, named after the folder.
        index.add(indexFile(sourceFile, '', '', parts.slice(0, -1).join('/')));
      } else {
        diags.add('KG027', start);
      }
    }
  }
  if (cache) {
    for (const path of [...cache.texts.keys()].filter((p) => !seen.has(p))) {
      cache.texts.delete(path);
      cache.stamps?.delete(path);
      cache.layoutChanged = true;
      cache.sources?.delete(path);
    }
  }
  return index;
}

function reportSyntaxErrors(sourceFile: ts.SourceFile, diags: DiagnosticBag): void {
  const parseDiagnostics = (sourceFile as unknown as { parseDiagnostics?: ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
  for (const d of parseDiagnostics) {
    diags.add('KG028', locationOf(sourceFile, d.start), { message: typescript().flattenDiagnosticMessageText(d.messageText, ' ') });
  }
}

function indexFile(sourceFile: ts.SourceFile, group: string, version: string, shared?: string): IndexedFile {
  const decls = new Map<string, Declaration>();
  const imports = new Map<string, { module: string; name: string }>();
  for (const stmt of sourceFile.statements) {
    if (isInterfaceDeclaration(stmt) || isTypeAliasDeclaration(stmt) || isEnumDeclaration(stmt)) {
      decls.set(stmt.name.getText(sourceFile), stmt);
    } else if (isImportDeclaration(stmt) && isStringLiteral(stmt.moduleSpecifier)) {
      const bindings = stmt.importClause?.namedBindings;
      if (!bindings || !isNamedImports(bindings)) continue;
      const module = stmt.moduleSpecifier.text;
      for (const spec of bindings.elements) {
        const name = (spec.propertyName ?? spec.name).getText(sourceFile);
        imports.set(spec.name.getText(sourceFile), { module, name });
      }
    }
  }
  const file: IndexedFile = { path: sourceFile.fileName, sourceFile, group, version, decls, imports };
  if (shared !== undefined) file.shared = shared;
  return file;
}
