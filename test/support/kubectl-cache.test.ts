/** test/support/kubectl-cache.ts forgets exactly one server's cached discovery, named as kubectl names it. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { forgetKubectlDiscovery } from './kubectl-cache.js';

describe("kubectl's discovery cache in tests", () => {
  const dir = mkdtempSync(join(tmpdir(), 'kgen-kubecache-'));
  const saved = process.env.KUBECACHEDIR;
  after(() => {
    if (saved === undefined) delete process.env.KUBECACHEDIR;
    else process.env.KUBECACHEDIR = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it('removes the host:port directory of that server only', () => {
    process.env.KUBECACHEDIR = dir;
    for (const name of ['127.0.0.1_40001', '127.0.0.1_40002']) {
      mkdirSync(join(dir, 'discovery', name, 'widgets.example.com', 'v1'), { recursive: true });
      writeFileSync(join(dir, 'discovery', name, 'servergroups.json'), '{}');
    }
    forgetKubectlDiscovery('https://127.0.0.1:40001');
    assert.equal(existsSync(join(dir, 'discovery', '127.0.0.1_40001')), false);
    assert.equal(existsSync(join(dir, 'discovery', '127.0.0.1_40002', 'servergroups.json')), true);
    // Nothing cached yet is fine.
    forgetKubectlDiscovery('http://127.0.0.1:40003');
  });
});
