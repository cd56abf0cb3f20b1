/** bin/loader/fingerprint.js: what the loaders' manifests record of a source, and the two races it guards. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

// A non-literal specifier: bin/loader/fingerprint.js is plain JavaScript without declarations.
const FINGERPRINT_JS = new URL('../../../bin/loader/fingerprint.js', import.meta.url).href;
type Verdict = boolean | string;
const { RACY_MS, changedSince, contentFingerprint, matchesContent, verifyContent, verifyInputs } = (await import(FINGERPRINT_JS)) as {
  RACY_MS: number;
  changedSince(paths: string[], sinceMs: number): boolean;
  contentFingerprint(path: string, now?: number): string;
  matchesContent(path: string, recorded: string): boolean;
  verifyContent(path: string, recorded: string, now?: number): Verdict;
  verifyInputs(inputs: unknown[], verify?: (path: string, recorded: string) => Verdict): { inputs: [string, string][]; settled: boolean } | undefined;
};

describe('loader fingerprints', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kgen-fingerprint-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('records a file changed moments ago by content only, so a same-size rewrite that keeps its times is still seen', () => {
    const file = join(dir, 'racy.ts');
    writeFileSync(file, 'export const a = 1;\n');
    const recorded = contentFingerprint(file);
    assert.doesNotMatch(recorded, / /, 'no identity for a file changed within RACY_MS');
    const { atime, mtime } = statSync(file);
    // What a coarse-timestamp filesystem shows after a rewrite in the same tick: same size, same times.
    writeFileSync(file, 'export const a = 2;\n');
    utimesSync(file, atime, mtime);
    assert.equal(matchesContent(file, recorded), false);
  });

  it('records an older file with its identity: unchanged it matches, rewritten it does not', () => {
    const file = join(dir, 'settled.ts');
    writeFileSync(file, 'export const b = 1;\n');
    const recorded = contentFingerprint(file, Date.now() + RACY_MS + 1000);
    assert.match(recorded, /^[0-9a-f]{40} \d+:\d+:\d+:\d+$/);
    assert.equal(matchesContent(file, recorded), true);
    writeFileSync(file, 'export const b = 2;\n');
    assert.equal(matchesContent(file, recorded), false);
    // Written back as it was: another identity, the same content, so it matches by content.
    writeFileSync(file, 'export const b = 1;\n');
    assert.equal(matchesContent(file, recorded), true);
    rmSync(file);
    assert.equal(matchesContent(file, recorded), false);
  });

  it('gives a file recorded by content only its identity once it has settled, and only then', () => {
    const file = join(dir, 'settling.ts');
    writeFileSync(file, 'export const d = 1;\n');
    const recorded = contentFingerprint(file);
    assert.equal(verifyContent(file, recorded), true, 'still recent: kept as it is');
    const later = Date.now() + RACY_MS + 1000;
    const settled = verifyContent(file, recorded, later);
    assert.equal(typeof settled, 'string');
    assert.match(settled as string, new RegExp(`^${recorded} \\d+:\\d+:\\d+:\\d+$`));
    assert.equal(matchesContent(file, settled as string), true);
    const checked = verifyInputs([[file, recorded]], (p, r) => verifyContent(p, r, later));
    assert.deepEqual(checked, { inputs: [[file, settled]], settled: true });
    assert.deepEqual(verifyInputs([[file, settled]]), { inputs: [[file, settled]], settled: false });
    // Changed content is no match, whatever the time; a malformed manifest entry is none either.
    writeFileSync(file, 'export const d = 2;\n');
    assert.equal(verifyContent(file, recorded, later), false);
    assert.equal(verifyInputs([[file, recorded]]), undefined);
    assert.equal(verifyInputs([[file, 42]]), undefined);
    assert.equal(verifyInputs(['nope']), undefined);
  });

  it('tells a builder when a source changed while it was bundled', () => {
    const file = join(dir, 'during.ts');
    writeFileSync(file, 'export const c = 1;\n');
    const before = Date.now() - 10_000;
    assert.equal(changedSince([file], before), true);
    assert.equal(changedSince([file], Date.now() + 10_000), false);
    assert.equal(changedSince([join(dir, 'missing.ts')], before), false);
  });
});
