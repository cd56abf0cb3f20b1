/**
 * Restart safety over SQLite: work left pending by a server that ran without its controllers (as
 * after a crash) is finished by the next server on the same data directory.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { WIDGETS, startTestServer, widget } from '../server/testserver.js';
import { eventually } from './helpers.js';

describe('controllers across a restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kgen-controllers-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('finish a terminating namespace and a foreground deletion left by the previous server', async () => {
    const first = await startTestServer({ storage: 'sqlite:', dataDir, controllers: false });
    const nsWidgets = '/apis/widgets.example.com/v1/namespaces/crash/widgets';
    try {
      await first.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'crash' } } });
      await first.request('POST', nsWidgets, { body: widget('inside') });
      assert.equal((await first.request('DELETE', '/api/v1/namespaces/crash')).body.status.phase, 'Terminating');
      const owner = (await first.request('POST', WIDGETS, { body: widget('owner') })).body;
      const ref = { apiVersion: 'widgets.example.com/v1', kind: 'Widget', name: 'owner', uid: owner.metadata.uid, blockOwnerDeletion: true };
      await first.request('POST', WIDGETS, { body: widget('dependent', { replicas: 1 }, { metadata: { ownerReferences: [ref] } }) });
      await first.request('DELETE', `${WIDGETS}/owner`, { body: { propagationPolicy: 'Foreground' } });
      assert.equal((await first.request('GET', `${WIDGETS}/dependent`)).status, 200);
    } finally {
      await first.close();
    }

    const second = await startTestServer({ storage: 'sqlite:', dataDir });
    try {
      const gone = (path: string) => eventually(async () => (await second.request('GET', path)).status === 404, `${path} to be gone`);
      await gone(`${nsWidgets}/inside`);
      await gone('/api/v1/namespaces/crash');
      await gone(`${WIDGETS}/dependent`);
      await gone(`${WIDGETS}/owner`);
    } finally {
      await second.close();
    }
  });
});
