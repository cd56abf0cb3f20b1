/**
 * `kgen generate --watch` and a save whose truncation is read on its own: an editor (or
 * writeFileSync) empties the file, then writes it. When the write comes later than the 15 ms
 * settle (a loaded machine, a slow writer), the watch read an empty source that parses fine (no
 * kinds) and wrote that generation: every kind of the file removed from the output until the next
 * one converged. A source read empty now waits a longer settle first, so the write's event drops
 * that compile and only the saved text is written.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO, cleanedTempDirs, copyTree, fixtureApis } from './helpers.js';

const BIN = join(REPO, 'bin/kgen.js');
const tmp = cleanedTempDirs();

test('a truncation read 60 ms before its write is never written: one regeneration, from the saved text', async () => {
  const dir = tmp('cli-watch-truncated');
  const apis = copyTree(fixtureApis('names'), join(dir, 'apis'));
  const out = join(dir, 'generated');
  const child = spawn(process.execPath, [BIN, 'generate', apis, '--out', out, '--watch'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.resume();
  const until = async (done: () => boolean, what: string) => {
    const deadline = Date.now() + 20_000;
    while (!done()) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${what}; output so far:\n${stdout}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  try {
    await until(() => /^watching .*apis\/ for changes/m.test(stdout), 'the watch never started');
    const source = join(apis, 'names.example.com/v1/kinds.ts');
    const model = join(out, 'models/names.example.com/v1.ts');
    const original = readFileSync(source, 'utf8');
    const from = stdout.length;
    writeFileSync(source, '');
    await new Promise((r) => setTimeout(r, 60));
    writeFileSync(source, original.replace('  size?: number;', '  size?: number;\n  label?: string;'));
    await until(() => existsSync(model) && readFileSync(model, 'utf8').includes('label?: string;'), 'the saved text never reached the output');
    await new Promise((r) => setTimeout(r, 400));
    const lines = stdout.slice(from).match(/^regenerated in .*$/gm) ?? [];
    assert.equal(lines.length, 1, stdout.slice(from));
    assert.match(lines[0]!, /\(14 written, 0 removed\)$/);
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
  }
});
