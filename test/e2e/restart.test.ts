/**
 * The default storage (embedded SQLite in the data dir) keeps data across server restarts, after a
 * clean stop and after SIGKILL.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { join } from 'node:path';
import { REPO, kubectlOk, removeDir, startKgen, tempDir } from './harness.js';

const widget = (name: string) => `apiVersion: widgets.example.com/v1
kind: Widget
metadata: {name: ${name}}
spec: {replicas: 2}
`;

describe('restart on the SQLite default', () => {
  const dataDir = tempDir('restart');
  after(() => removeDir(dataDir));
  const generatedDir = join(REPO, 'generated');

  it('keeps objects, uids and resourceVersions across a clean restart and a SIGKILL', async () => {
    let server = await startKgen({ generatedDir, dataDir });
    kubectlOk(server.kubeconfig, ['create', '-f', '-'], widget('kept'));
    kubectlOk(server.kubeconfig, ['create', 'namespace', 'persisted']);
    const before = JSON.parse(kubectlOk(server.kubeconfig, ['get', 'widget', 'kept', '-o', 'json']));
    assert.equal(await server.stop('SIGTERM'), 0);

    server = await startKgen({ generatedDir, dataDir });
    const afterClean = JSON.parse(kubectlOk(server.kubeconfig, ['get', 'widget', 'kept', '-o', 'json']));
    assert.equal(afterClean.metadata.uid, before.metadata.uid);
    assert.equal(afterClean.metadata.resourceVersion, before.metadata.resourceVersion);
    assert.match(kubectlOk(server.kubeconfig, ['get', 'ns', 'persisted']), /persisted\s+Active/);
    kubectlOk(server.kubeconfig, ['create', '-f', '-'], widget('second'));
    const second = JSON.parse(kubectlOk(server.kubeconfig, ['get', 'widget', 'second', '-o', 'json']));
    assert.ok(Number(second.metadata.resourceVersion) > Number(before.metadata.resourceVersion), 'revisions keep increasing after restart');
    await server.stop('SIGKILL');

    server = await startKgen({ generatedDir, dataDir });
    const names = kubectlOk(server.kubeconfig, ['get', 'widgets', '-o', 'name']).trim().split('\n').sort();
    assert.deepEqual(names, ['widget.widgets.example.com/kept', 'widget.widgets.example.com/second']);
    await server.stop();
  });
});
