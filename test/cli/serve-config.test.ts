/**
 * `kgen serve --config <file>` and `--print-config`: options from YAML keyed by flag name,
 * flags overriding the file, located errors for unknown keys and refused values, and a server
 * started from a file that kubectl then uses.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse } from 'yaml';
import { formatGoDuration } from '../../runtime/api/duration.js';
import { KGEN_BIN, REPO, kubectlOk, removeDir, startKgen, tempDir } from '../e2e/harness.js';

const GENERATED = join(REPO, 'generated');
const dir = tempDir('serve-config');
after(() => removeDir(dir));

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function serve(args: string[]) {
  const r = spawnSync(process.execPath, [KGEN_BIN, 'serve', GENERATED, ...args], { cwd: REPO, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('kgen serve --config', () => {
  it('reads options by flag name, lets flags override them, and prints the effective configuration', () => {
    const file = write('serve.yaml', [
      'storage: "memory:"',
      'max-requests-inflight: 7',
      'request-timeout: 30s',
      'cors-allowed-origins: [https://a\\.example, https://b\\.example]',
      'insecure-dev-mode: false',
      'authorization-mode: RBAC,AlwaysDeny',
      '',
    ].join('\n'));
    const r = serve(['--config', file, '--request-timeout', '45s', '--print-config']);
    assert.equal(r.status, 0, r.stderr);
    const printed = parse(r.stdout) as Record<string, unknown>;
    assert.equal(printed.storage, 'memory:');
    assert.equal(printed['max-requests-inflight'], 7);
    assert.equal(printed['request-timeout'], '45s', 'the flag overrides the file');
    assert.deepEqual(printed['cors-allowed-origins'], ['https://a\\.example', 'https://b\\.example']);
    assert.equal(printed['insecure-dev-mode'], false);
    assert.equal(printed['authorization-mode'], 'RBAC,AlwaysDeny');
    assert.equal(printed['max-mutating-requests-inflight'], 200, 'defaults are printed too');
    assert.equal(printed['shutdown-delay-duration'], '0s');
    // What it prints, it reads back.
    const again = serve(['--config', write('printed.yaml', r.stdout), '--print-config']);
    assert.equal(again.status, 0, again.stderr);
    assert.equal(again.stdout, r.stdout);
  });

  it('refuses unknown keys and bad values with the line and column', () => {
    const unknown = serve(['--config', write('unknown.yaml', 'port: 0\n\nstorag: "memory:"\n'), '--print-config']);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /kgen serve: .*unknown\.yaml:3:1: unknown option "storag" \(kgen serve has no --storag\)/);
    const bad = serve(['--config', write('bad.yaml', 'port: 0\nmax-requests-inflight: lots\n'), '--print-config']);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /kgen serve: .*bad\.yaml:2:24: max-requests-inflight: expected a non-negative integer/);
    const nested = serve(['--config', write('nested.yaml', 'config: other.yaml\n'), '--print-config']);
    assert.match(nested.stderr, /nested\.yaml:1:1: unknown option "config" \(not allowed in a config file\)/);
    const flag = serve(['--config', write('bool.yaml', 'insecure-dev-mode: yes please\n'), '--print-config']);
    assert.match(flag.stderr, /bool\.yaml:1:20: insecure-dev-mode: expected true or false/);
  });

  it('starts a server kubectl can use from a file', async () => {
    const data = join(dir, 'data');
    const file = write('run.yaml', `storage: "memory:"\nport: 0\ndata-dir: ${JSON.stringify(data)}\n`);
    const server = await startKgen({ dataDir: data, args: ['serve', GENERATED, '--config', file] });
    try {
      assert.match(kubectlOk(server.kubeconfig, ['get', '--raw', '/readyz']), /ok/);
    } finally {
      await server.stop('SIGKILL');
    }
  });

  it("formats durations as Go prints them", () => {
    assert.deepEqual([0, 500, 30_000, 60_000, 120_000, 5_400_000, 1500].map(formatGoDuration), ['0s', '500ms', '30s', '1m0s', '2m0s', '1h30m0s', '1.5s']);
  });
});
