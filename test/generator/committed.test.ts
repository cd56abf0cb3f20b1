/**
 * The committed generated/ must be exactly what `kgen generate ./apis` produces: this test fails
 * whenever apis/, the built-ins, the templates or the generator change without regenerating.
 * Fix a failure with `npm run generate`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { REPO } from './helpers.js';

test('the committed generated/ is up to date (kgen generate ./apis --check exits 0)', () => {
  const r = spawnSync(process.execPath, ['bin/kgen.js', 'generate', './apis', '--check'], { cwd: REPO, encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, `generated/ is stale; run \`npm run generate\`:\n${r.stderr}`);
  assert.match(r.stdout, /^generated\/ is up to date \(\d+ files\)\n$/);
});
