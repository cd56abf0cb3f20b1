/**
 * bin/loader/fingerprint.js's recordInputs: what a bundle's manifest records of its inputs. kgen's
 * own sources each by content; an installed package's files as one package (its package.json and
 * npm's hidden lockfile), so a start stats ~25 files for the ~150 the serve bundle inlines. Each
 * kind of change that alters a bundle's input must still make the next start rebuild; the one that
 * need not (a file of a package edited by hand) is documented as such.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

const FINGERPRINT_JS = new URL('../../../bin/loader/fingerprint.js', import.meta.url).href;
type Verdict = boolean | string;
const { recordInputs, verifyInput, verifyInputs } = (await import(FINGERPRINT_JS)) as {
  recordInputs(paths: string[]): [string, string][];
  verifyInput(path: string, recorded: string): Verdict;
  verifyInputs(inputs: unknown[], verify?: (path: string, recorded: string) => Verdict): { inputs: [string, string][]; settled: boolean } | undefined;
};

const stillMatches = (records: [string, string][]) => verifyInputs(records, verifyInput) !== undefined;

function npm(cwd: string, args: string[]): void {
  const r = spawnSync('npm', [...args, '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `npm ${args.join(' ')}: ${r.stdout}${r.stderr}`);
}

describe('loader inputs of installed packages', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kgen-package-inputs-'));
  const project = join(dir, 'project');
  const source = join(project, 'runtime.ts');
  const dep = join(project, 'node_modules', 'kgen-dep');
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** `kgen-dep@<version>` packed from a folder of its own: lib/a.js exports `value`. */
  function pack(version: string, value: number): string {
    const pkg = join(dir, `dep-${version}`);
    mkdirSync(join(pkg, 'lib'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'kgen-dep', version, main: 'lib/a.js' }));
    writeFileSync(join(pkg, 'lib', 'a.js'), `module.exports = ${value};\n`);
    writeFileSync(join(pkg, 'lib', 'b.js'), 'module.exports = 0;\n');
    npm(pkg, ['pack', '--pack-destination', dir]);
    return join(dir, `kgen-dep-${version}.tgz`);
  }

  let v1: string;
  let v2: string;
  before(() => {
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'project', version: '0.0.0', private: true }));
    v1 = pack('1.0.0', 1);
    v2 = pack('1.0.1', 2);
    npm(project, ['install', v1]);
  });

  /** The inputs as a bundle built now from runtime.ts and the package's two files records them. */
  function record(): [string, string][] {
    writeFileSync(source, 'export const a = 1;\n');
    return recordInputs([source, join(dep, 'lib', 'a.js'), join(dep, 'lib', 'b.js')]);
  }

  it('records a package once, by its package.json and the hidden lockfile; a kgen source by content', () => {
    const records = record();
    assert.deepEqual(
      records.map(([p]) => p),
      [join(project, 'node_modules', '.package-lock.json'), join(dep, 'package.json'), source],
    );
    assert.match(records[0]![1], /^stat:/);
    assert.match(records[1]![1], /^stat:/);
    // Just written: by content only, until it settles (fingerprint.js's RACY_MS).
    assert.match(records[2]![1], /^[0-9a-f]{40}$/, 'a kgen source: by content');
    assert.equal(stillMatches(records), true, 'nothing changed: the bundle is used');
  });

  it('rebuilds when a kgen source is edited', () => {
    const records = record();
    writeFileSync(source, 'export const a = 2;\n');
    assert.equal(stillMatches(records), false);
  });

  it('rebuilds when the dependency is upgraded with npm', () => {
    const records = record();
    npm(project, ['install', v2]);
    assert.match(readFileSync(join(dep, 'lib', 'a.js'), 'utf8'), /= 2;/);
    assert.equal(stillMatches(records), false);
  });

  it('rebuilds when npm changes node_modules in any other way (it rewrites the hidden lockfile)', () => {
    // Another package added or a nested one moved can change what a bundled import resolves to.
    const records = record();
    const lockfile = join(project, 'node_modules', '.package-lock.json');
    writeFileSync(lockfile, readFileSync(lockfile));
    assert.equal(stillMatches(records), false);
  });

  it('does not see a file of a package edited by hand, until its package.json is touched', () => {
    // The documented limit (bench/README, bin/loader/bundle.js): installs are seen, hand edits of
    // an inlined package's files are not.
    const records = record();
    writeFileSync(join(dep, 'lib', 'b.js'), 'module.exports = 42;\n');
    assert.equal(stillMatches(records), true);
    const now = new Date();
    utimesSync(join(dep, 'package.json'), now, now);
    assert.equal(stillMatches(records), false);
  });

  it('without a hidden lockfile (another package manager), records each package file and sees a hand edit', () => {
    const modules = join(dir, 'other', 'node_modules', 'kgen-dep');
    mkdirSync(join(modules, 'lib'), { recursive: true });
    writeFileSync(join(modules, 'package.json'), '{"name":"kgen-dep","version":"1.0.0"}');
    writeFileSync(join(modules, 'lib', 'a.js'), 'module.exports = 1;\n');
    const records = recordInputs([join(modules, 'lib', 'a.js')]);
    assert.deepEqual(records.map(([p]) => p), [join(modules, 'lib', 'a.js')]);
    assert.equal(stillMatches(records), true);
    writeFileSync(join(modules, 'lib', 'a.js'), 'module.exports = 3;\n');
    assert.equal(stillMatches(records), false);
  });
});
