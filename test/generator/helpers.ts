/** Shared helpers for the generator tests: fixture paths, temp dirs inside the repo, file trees. */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
export const FIXTURES = join(REPO, 'test/fixtures/generator');
/** Temp outputs live under test/.tmp/ (gitignored) so generated code resolves `kgen/*` through the package's own exports. */
export const TMP_ROOT = join(REPO, 'test/.tmp');

/** The apis folder of a fixture: test/fixtures/generator/<name>/apis. */
export function fixtureApis(name: string): string {
  return join(FIXTURES, name, 'apis');
}

/** A fresh, empty directory under test/.tmp/. */
export function tempDir(prefix: string): string {
  mkdirSync(TMP_ROOT, { recursive: true });
  return mkdtempSync(join(TMP_ROOT, `${prefix}-`));
}

/** Writes `files` (path relative to dir → content) under dir/apis and returns that apis folder. */
export function writeApis(dir: string, files: Record<string, string>): string {
  const apis = join(dir, 'apis');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(apis, path)), { recursive: true });
    writeFileSync(join(apis, path), content);
  }
  return apis;
}

/** Copies a folder (e.g. a fixture's apis) into dir and returns the copy. */
export function copyTree(from: string, to: string): string {
  cpSync(from, to, { recursive: true });
  return to;
}

/** Every file under dir, relative and sorted. */
export function listTree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

/** path → content, mtime (ms) and inode, to prove a tree was left untouched. */
export function snapshotTree(dir: string): Record<string, { content: string; mtimeMs: number; ino: number }> {
  return Object.fromEntries(
    listTree(dir).map((f) => {
      const st = statSync(join(dir, f));
      return [f, { content: readFileSync(join(dir, f), 'utf8'), mtimeMs: st.mtimeMs, ino: st.ino }];
    }),
  );
}

export function readJson<T = any>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
