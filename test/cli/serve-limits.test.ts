/**
 * The limit and timeout flags of `kgen serve` added for issue 12: --read-header-timeout and
 * --max-request-body-memory reach the server options, with kube's defaults.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Command } from 'commander';
import { addSecurityFlags, byteSize, securityServerOptions, type SecurityFlags } from '../../cli/serve-security.js';

function parse(args: string[]): ReturnType<typeof securityServerOptions> {
  const command = addSecurityFlags(new Command('serve').exitOverride());
  command.parse(args, { from: 'user' });
  return securityServerOptions(command.opts<SecurityFlags>());
}

describe('kgen serve: body and header limits', () => {
  it('defaults to a 32 s read-header timeout and a 64 MiB body memory budget', () => {
    const opts = parse([]);
    assert.equal(opts.readHeaderTimeoutMs, 32_000);
    assert.equal(opts.maxRequestBodyMemoryBytes, 64 * 1024 * 1024);
    assert.equal(opts.requestTimeoutMs, 60_000);
  });

  it('reads Go durations and binary byte counts', () => {
    const opts = parse(['--read-header-timeout', '5s', '--max-request-body-memory', '16Mi']);
    assert.equal(opts.readHeaderTimeoutMs, 5_000);
    assert.equal(opts.maxRequestBodyMemoryBytes, 16 * 1024 * 1024);
    assert.equal(byteSize('0'), 0);
    assert.equal(byteSize('512Ki'), 512 * 1024);
    assert.equal(byteSize('1Gi'), 1024 ** 3);
    for (const bad of ['', '-1', '1.5Mi', '64MB', 'lots']) assert.throws(() => byteSize(bad), /byte count/, bad);
  });
});
