// `npm run bench`'s arguments: a mistyped option or part is a usage error (exit 2), never a stack
// trace, and never a run that measures nothing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const runJs = fileURLToPath(new URL('../../bench/run.js', import.meta.url));
const bench = (...args: string[]) => spawnSync(process.execPath, [runJs, ...args], { encoding: 'utf8', timeout: 60_000 });

describe('bench/run.js arguments', () => {
  it('--help prints the usage with every part', () => {
    const r = bench('--help');
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^usage: npm run bench/);
    for (const part of ['codegen', 'http', 'sqlite', 'etcd', 'startup']) assert.match(r.stdout, new RegExp(`\\b${part}\\b`));
  });

  it('an unknown option or part is exit 2 with the usage, not a trace', () => {
    for (const [args, message] of [
      [['--bogus'], /^bench: Unknown option '--bogus'/],
      [['--only', 'http,writes'], /^bench: no benchmark part named "writes"/],
    ] as const) {
      const r = bench(...args);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /usage: npm run bench/);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
  });
});
