/**
 * Go duration flags (`--compaction-interval 5m`: Go's parser, see test/api/duration.test.ts, and
 * no negatives) and the storage flags of `kgen serve`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { durationOption } from '../../cli/duration.js';
import { KGEN_BIN, REPO } from '../e2e/harness.js';

describe('durationOption', () => {
  it('reads Go duration strings as milliseconds', () => {
    const cases: Array<[string, number]> = [
      ['0', 0],
      ['5m', 300_000],
      ['30s', 30_000],
      ['1h30m', 5_400_000],
      ['1.5s', 1500],
      ['300ms', 300],
      ['2h45m10.5s', 9_910_500],
      ['1500us', 1.5],
      ['0s', 0],
    ];
    for (const [text, ms] of cases) assert.equal(durationOption(text), ms, text);
  });

  it("rejects what Go rejects, with Go's message", () => {
    const cases: Array<[string, string]> = [
      ['', 'time: invalid duration ""'],
      ['5', 'time: missing unit in duration "5"'],
      ['5 m', 'time: unknown unit " m" in duration "5 m"'],
      ['m', 'time: invalid duration "m"'],
      ['5d', 'time: unknown unit "d" in duration "5d"'],
      ['1h-2m', 'time: unknown unit "h-" in duration "1h-2m"'],
      ['abc', 'time: invalid duration "abc"'],
      ['5mm', 'time: unknown unit "mm" in duration "5mm"'],
      [' 5m', 'time: invalid duration " 5m"'],
    ];
    for (const [bad, message] of cases) assert.throws(() => durationOption(bad), { message }, bad);
  });

  it('rejects a negative duration, which Go parses', () => {
    assert.throws(() => durationOption('-5m'), { message: 'invalid duration "-5m": must not be negative' });
    assert.equal(durationOption('-0'), 0);
  });
});

describe('kgen serve storage flags', () => {
  const kgen = (...args: string[]) => spawnSync(process.execPath, [KGEN_BIN, ...args], { cwd: REPO, encoding: 'utf8', timeout: 30_000 });

  it('documents --storage etcd://, --storage-prefix, --compaction-interval and --kubeconfig-server', () => {
    const help = kgen('serve', '--help');
    assert.equal(help.status, 0, help.stderr);
    for (const flag of ['etcd://host:port', '--storage-prefix', '--compaction-interval', '--kubeconfig-server']) {
      assert.ok(help.stdout.includes(flag), `${flag} in:\n${help.stdout}`);
    }
  });

  it('refuses a malformed --compaction-interval as a usage error', () => {
    const r = kgen('serve', '--compaction-interval', '5 minutes');
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /--compaction-interval.*is invalid\. time: unknown unit " minutes" in duration "5 minutes"/);
  });
});
