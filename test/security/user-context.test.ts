/**
 * The user authentication (and impersonation) resolved reaches the handlers and admission:
 * a client certificate, a token and an impersonated user, each seen by an admission plugin.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { UserInfo } from '../../runtime/api/auth.js';
import { startTestServer, widget, WIDGETS, type TestServer } from '../server/testserver.js';

describe('the authenticated user in handlers and admission', () => {
  let t: TestServer;
  let dir: string;
  const seen: UserInfo[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kgen-user-'));
    writeFileSync(join(dir, 'tokens.csv'), 'root-token,root,0,"system:masters,ops"\n');
    t = await startTestServer({
      tls: true,
      dataDir: dir,
      controllers: false,
      tokenAuthFile: join(dir, 'tokens.csv'),
      admissionPlugins: [{ name: 'record-user', validate: (attrs) => void seen.push(attrs.user) }],
    });
  });
  after(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const create = (fetcher: typeof t.fetch, name: string, headers: Record<string, string> = {}) =>
    fetcher(`${t.url}${WIDGETS}`, { method: 'POST', body: JSON.stringify(widget(name)), headers: { 'content-type': 'application/json', ...headers } });

  it('is the client certificate’s CN and O', async () => {
    assert.equal((await create(t.fetch, 'by-cert')).status, 201);
    assert.deepEqual(seen.pop(), { username: 'kgen-admin', groups: ['system:masters', 'system:authenticated'] });
  });

  it('is the token’s user, uid and groups', async () => {
    assert.equal((await create(t.fetchAs({ token: 'root-token' }), 'by-token')).status, 201);
    assert.deepEqual(seen.pop(), { username: 'root', uid: '0', groups: ['system:masters', 'ops', 'system:authenticated'] });
  });

  it('is the impersonated user when impersonation is allowed', async () => {
    const res = await create(t.fetch, 'by-impersonation', { 'Impersonate-User': 'jane', 'Impersonate-Group': 'system:masters' });
    assert.equal(res.status, 201, await res.text());
    assert.deepEqual(seen.pop(), { username: 'jane', groups: ['system:masters', 'system:authenticated'] });
  });
});
