/**
 * The breaking-change corpus: test/fixtures/evolution/<case>/{before,after}/ hold one API change
 * each, and expect.txt lists the findings it must produce (`KG061 <file>:<line>`, one a line;
 * empty for a safe change). Every breaking change is reported at the line of its new definition
 * and every safe one is not reported at all.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { compile } from '../../../generator/index.js';
import { emitSnapshot } from '../../../generator/emit/snapshot.js';
import { changeDiagnostics, diffModels, type Baseline } from '../../../generator/evolve/index.js';
import { REPO } from '../helpers.js';

const CORPUS = join(REPO, 'test/fixtures/evolution');

function baselineOf(apisDir: string): Baseline {
  const before = compile({ apisDir, builtins: false });
  assert.ok(before.ok, before.diagnostics.map((d) => d.message).join('\n'));
  return JSON.parse(emitSnapshot(before.model)[0]!.content) as Baseline;
}

const cases = readdirSync(CORPUS).sort();

test('the corpus holds at least 30 breaking or warned changes and safe ones beside them', () => {
  const findings = cases.filter((c) => readFileSync(join(CORPUS, c, 'expect.txt'), 'utf8').trim() !== '');
  assert.ok(findings.length >= 30, `${findings.length} cases with findings`);
  assert.ok(cases.length - findings.length >= 10, 'safe cases');
});

for (const name of cases) {
  test(`evolution corpus: ${name}`, () => {
    const dir = join(CORPUS, name);
    const baseline = baselineOf(join(dir, 'before'));
    const after = compile({ apisDir: join(dir, 'after'), builtins: false });
    assert.ok(after.ok, after.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'));
    const changes = diffModels(baseline, after.model);
    const got = changeDiagnostics(changes).map((d) => `${d.code} ${relative(join(dir, 'after'), d.loc.file)}:${d.loc.line}`);
    const expected = readFileSync(join(dir, 'expect.txt'), 'utf8').split('\n').filter(Boolean);
    assert.deepEqual(got.sort(), expected.sort());
    if (name.startsWith('accepted-')) assert.ok(changes.some((c) => c.accepted !== undefined), 'the marker accepted a breaking change');
  });
}
