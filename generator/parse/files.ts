/**
 * Finds the API source files under one or more apis folders, loads them with ts-morph (syntax
 * only: no type checker, no lib files), and indexes each file's declarations and imports.
 */
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Node, Project, ts, type InterfaceDeclaration, type SourceFile, type TypeAliasDeclaration } from 'ts-morph';
import type { DiagnosticBag } from '../diagnostics.js';
import { groupNameProblem, isKubeVersion } from '../names.js';
import { locationOf } from './jsdoc.js';

export interface IndexedFile {
  path: string;
  sourceFile: SourceFile;
  /** "" for the core group. */
  group: string;
  version: string;
  decls: Map<string, InterfaceDeclaration | TypeAliasDeclaration>;
  /** Local name → module specifier and exported name. */
  imports: Map<string, { module: string; name: string }>;
}

export class FileIndex {
  private readonly byPath = new Map<string, IndexedFile>();

  add(file: IndexedFile): void {
    this.byPath.set(file.path, file);
  }

  get(path: string): IndexedFile | undefined {
    return this.byPath.get(path);
  }

  all(): IndexedFile[] {
    return [...this.byPath.values()];
  }

  inVersion(group: string, version: string): IndexedFile[] {
    return this.all().filter((f) => f.group === group && f.version === version);
  }

  /** Resolves a relative import (`./types`, `./types.js`, `../v1/types.ts`) to an indexed file. */
  resolveImport(fromPath: string, module: string): IndexedFile | undefined {
    if (!module.startsWith('.')) return undefined;
    const base = resolve(dirname(fromPath), module).replace(/\.(js|ts|mjs|mts)$/, '');
    return this.byPath.get(`${base}.ts`) ?? this.byPath.get(`${base}.mts`) ?? this.byPath.get(join(base, 'index.ts'));
  }
}

function listSources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.') || name === 'node_modules') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listSources(path));
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

/** Loads every source under the given apis roots into one index, reporting layout problems. */
export function loadFiles(roots: string[], diags: DiagnosticBag): FileIndex {
  const project = new Project({
    useInMemoryFileSystem: false,
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    skipLoadingLibFiles: true,
    compilerOptions: { target: ts.ScriptTarget.ES2022, noLib: true, allowJs: false },
  });
  const index = new FileIndex();
  for (const root of roots.map((r) => resolve(r))) {
    const sources = listSources(root);
    if (sources.length === 0 && roots.length > 0) diags.add('KG029', { file: root, line: 1, col: 1 }, { dir: root });
    const badFolders = new Set<string>();
    for (const path of sources) {
      const sourceFile = project.addSourceFileAtPath(path);
      reportSyntaxErrors(sourceFile, diags);
      const parts = relative(root, path).split(sep);
      const start = { file: path, line: 1, col: 1 };
      if (parts.length < 3) {
        diags.add('KG027', start);
        continue;
      }
      const [groupFolder, version] = parts as [string, string];
      const problem = groupNameProblem(groupFolder);
      if (problem) {
        if (!badFolders.has(groupFolder)) diags.add('KG020', start, { group: groupFolder, problem });
        badFolders.add(groupFolder);
        continue;
      }
      if (!isKubeVersion(version)) {
        if (!badFolders.has(`${groupFolder}/${version}`)) diags.add('KG021', start, { version });
        badFolders.add(`${groupFolder}/${version}`);
        continue;
      }
      index.add(indexFile(sourceFile, groupFolder === 'core' ? '' : groupFolder, version));
    }
  }
  return index;
}

function reportSyntaxErrors(sourceFile: SourceFile, diags: DiagnosticBag): void {
  const parseDiagnostics = (sourceFile.compilerNode as unknown as { parseDiagnostics?: ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
  for (const d of parseDiagnostics) {
    diags.add('KG028', locationOf(sourceFile, d.start), { message: ts.flattenDiagnosticMessageText(d.messageText, ' ') });
  }
}

function indexFile(sourceFile: SourceFile, group: string, version: string): IndexedFile {
  const decls = new Map<string, InterfaceDeclaration | TypeAliasDeclaration>();
  for (const stmt of sourceFile.getStatements()) {
    if (Node.isInterfaceDeclaration(stmt) || Node.isTypeAliasDeclaration(stmt)) decls.set(stmt.getName(), stmt);
  }
  const imports = new Map<string, { module: string; name: string }>();
  for (const imp of sourceFile.getImportDeclarations()) {
    const module = imp.getModuleSpecifierValue();
    for (const named of imp.getNamedImports()) {
      imports.set(named.getAliasNode()?.getText() ?? named.getName(), { module, name: named.getName() });
    }
  }
  return { path: sourceFile.getFilePath(), sourceFile, group, version, decls, imports };
}
