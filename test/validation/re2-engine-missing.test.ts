/**
 * Without re2js (a broken install), a pattern V8 could match in super-linear time must not be
 * matched by V8 after all: it is refused, with a clear message, and the missing engine is logged
 * once. Patterns V8 matches safely keep working. Run in a child process whose `require('re2js')`
 * fails, so the real loading path is what is tested.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
// test/run.js's TypeScript loader for the child, not tsx's costlier hooks (~1 s of CPU less per process).
const TS_LOADER = fileURLToPath(new URL('../support/ts-loader.mjs', import.meta.url));

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('re2 without re2js', () => {
  it('refuses super-linear patterns (fail closed), logs once, and keeps V8 for the others', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kgen-re2js-missing-'));
    try {
      const block = join(dir, 'block-re2js.cjs');
      writeFileSync(
        block,
        `const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 're2js') { const e = new Error("Cannot find module 're2js'"); e.code = 'MODULE_NOT_FOUND'; throw e; }
  return load.call(this, request, ...rest);
};
`,
      );
      const script = `
        const { compileRE2 } = await import(${JSON.stringify(join(root, 'runtime/validation/re2.ts'))});
        const out = {};
        for (const p of ['^(a+)+$', '^([a-z0-9]+-?)*$', '^(a+)+$']) {
          try { compileRE2(p); out[p] = 'compiled'; } catch (e) { out[p] = e.constructor.name + ': ' + e.message; }
        }
        out.safe = compileRE2('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$').test('my-name');
        console.log(JSON.stringify(out));
      `;
      const child = spawnSync(process.execPath, ['--require', block, '--import', TS_LOADER, '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 120_000 });
      assert.equal(child.status, 0, child.stderr);
      const out = JSON.parse(child.stdout.trim().split('\n').pop()!);
      assert.equal(out.safe, true);
      for (const p of ['^(a+)+$', '^([a-z0-9]+-?)*$']) {
        assert.match(out[p], /^RE2SyntaxError: error parsing regexp: the linear-time regular expression engine re2js cannot be loaded: Cannot find module 're2js'; this pattern needs it/, p);
        assert.ok(out[p].endsWith(`: \`${p}\``), out[p]);
      }
      const warnings = child.stderr.split('\n').filter((l) => l.includes('KGEN_RE2JS_UNAVAILABLE'));
      assert.equal(warnings.length, 1, child.stderr);
      assert.match(warnings[0]!, /re2js cannot be loaded/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
