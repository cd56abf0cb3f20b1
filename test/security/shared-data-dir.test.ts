/**
 * Replicas sharing one --data-dir, started at the same moment: the credentials are made once and
 * never overwritten; every replica serves with them and kubectl reaches each through the one
 * kubeconfig.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse } from 'yaml';
import { kubectlOk, removeDir, REPO, startKgen, tempDir, type KgenServer } from '../e2e/harness.js';

describe('replicas sharing a data dir', () => {
  const dataDir = tempDir('shared');
  const servers: KgenServer[] = [];
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    removeDir(dataDir);
  });

  it('make the credentials once, and each serves HTTPS with them', async () => {
    const args = ['serve', join(REPO, 'generated'), '--port', '0', '--data-dir', dataDir, '--storage', 'memory:'];
    servers.push(...(await Promise.all([1, 2, 3].map(() => startKgen({ dataDir, args })))));
    const pki = readdirSync(join(dataDir, 'pki')).sort();
    assert.equal(pki.length, 6, `one CA, one admin, one front-proxy CA and client, one service account key, one serving credential: ${pki.join(', ')}`);
    assert.deepEqual(pki.slice(0, 5), ['admin', 'ca', 'front-proxy-ca', 'front-proxy-client', 'service-account']);
    assert.deepEqual(readdirSync(join(dataDir, 'pki', 'service-account')).sort(), ['sa.key', 'sa.pub']);
    const ca = readFileSync(join(dataDir, 'pki', 'ca', 'tls.crt'), 'utf8');
    const kubeconfig = parse(readFileSync(join(dataDir, 'kubeconfig'), 'utf8'));
    assert.equal(Buffer.from(kubeconfig.clusters[0].cluster['certificate-authority-data'], 'base64').toString('utf8'), ca);
    for (const s of servers) {
      assert.match(kubectlOk(s.kubeconfig, ['--server', s.url, 'get', '--raw', '/readyz']), /ok/);
      assert.equal(s.credentials().ca, ca);
    }
    // A restart reads the same credentials back.
    const again = await startKgen({ dataDir, args });
    servers.push(again);
    assert.equal(readFileSync(join(dataDir, 'pki', 'ca', 'tls.crt'), 'utf8'), ca);
    assert.match(kubectlOk(again.kubeconfig, ['get', 'namespaces', '-o', 'name']), /namespace\/default/);
  });
});
