/**
 * A path the file system refuses, or a kubeconfig that is not there, is one line naming it and
 * exit 1 for every command, never a stack trace (cli/index.ts, cli/migrate-storage.ts;
 * `generate`'s own are in test/generator/cli.test.ts).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const KGEN = fileURLToPath(new URL('../../bin/kgen.js', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'kgen-fs-errors-'));
after(() => rmSync(work, { recursive: true, force: true }));
const aFile = join(work, 'a-file');
writeFileSync(aFile, '');

function kgen(...args: string[]) {
  const r = spawnSync(process.execPath, [KGEN, ...args], { cwd: REPO, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stderr: r.stderr };
}

const noTrace = (stderr: string) => assert.doesNotMatch(stderr, /\n\s+at |node:fs|\^\n/, stderr);

test('kgen docs and kgen init into a path through a file: one line, exit 1', () => {
  const docs = kgen('docs', 'apis', '--out', join(aFile, 'docs'));
  assert.equal(docs.status, 1);
  assert.match(docs.stderr, /^kgen docs: ENOTDIR: not a directory, mkdir '\S*a-file\/docs'\n$/);
  const init = kgen('init', join(aFile, 'project'));
  assert.equal(init.status, 1);
  assert.match(init.stderr, /^kgen init: ENOTDIR: not a directory, mkdir '\S*a-file\/project\S*'\n$/);
  noTrace(docs.stderr + init.stderr);
});

test('kgen migrate-storage with a kubeconfig that is not there: one line, exit 1', () => {
  const r = kgen('migrate-storage', '--kubeconfig', join(work, 'nope'));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^error: cannot read kubeconfig \S*nope: ENOENT: no such file or directory/);
  noTrace(r.stderr);
});

test('kgen docs refuses a folder whose pages it did not write, and deletes nothing', () => {
  const site = join(work, 'site');
  mkdirSync(site);
  writeFileSync(join(site, 'index.html'), '<h1>my site</h1>');
  writeFileSync(join(site, 'about.html'), '<h1>about</h1>');
  const r = kgen('docs', 'apis', '--out', site);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^kgen docs: refusing to write \S*site: it holds about\.html, index\.html, which kgen docs would replace, but no reference kgen wrote \(its index\.html\); choose a new or empty folder\n$/);
  assert.deepEqual(readdirSync(site).sort(), ['about.html', 'index.html']);
  assert.equal(readFileSync(join(site, 'about.html'), 'utf8'), '<h1>about</h1>');
  // A reference kgen wrote is rewritten as before, its stale pages removed.
  const ref = join(work, 'ref');
  assert.equal(kgen('docs', 'apis', '--out', ref).status, 0);
  writeFileSync(join(ref, 'gone.example.com_v1.html'), 'old');
  const again = kgen('docs', 'apis', '--out', ref);
  assert.equal(again.status, 0, again.stderr);
  assert.ok(!readdirSync(ref).includes('gone.example.com_v1.html'));
});
