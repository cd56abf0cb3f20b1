import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { openStorage, sqlitePath } from '../../runtime/storage/factory.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { SqliteStorage } from '../../runtime/storage/sqlite.js';

const root = mkdtempSync(join(tmpdir(), 'kgen-factory-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('openStorage', () => {
  it('memory: opens a MemoryStorage', async () => {
    const s = await openStorage('memory:', { dataDir: join(root, 'unused') });
    assert.ok(s instanceof MemoryStorage);
    await s.close();
  });

  for (const url of ['sqlite:', 'sqlite://']) {
    it(`${url} opens <dataDir>/kgen.db, creating the data dir`, async () => {
      const dataDir = join(root, String(url.length), 'nested', 'data');
      const s = await openStorage(url, { dataDir });
      assert.ok(s instanceof SqliteStorage);
      assert.equal(s.path, join(dataDir, 'kgen.db'));
      await s.create('/registry/core/things/a', { metadata: { name: 'a' } });
      await s.close();
      assert.ok(existsSync(join(dataDir, 'kgen.db')));
    });
  }

  it('sqlite:<path> opens that file, creating its directory', async () => {
    const file = join(root, 'explicit', 'store.db');
    const s = await openStorage(`sqlite:${file}`, { dataDir: join(root, 'unused') });
    assert.equal((s as SqliteStorage).path, file);
    await s.close();
    assert.ok(existsSync(file));
  });

  it('resolves relative sqlite paths against the working directory', () => {
    assert.equal(sqlitePath('sqlite:data/x.db', '/d'), resolve('data/x.db'));
    assert.equal(sqlitePath('sqlite:///abs/x.db', '/d'), '/abs/x.db');
    assert.equal(sqlitePath('sqlite:', '/d'), '/d/kgen.db');
    assert.equal(sqlitePath('memory:', '/d'), undefined);
  });

  for (const url of ['postgres://x', 'memory', '']) {
    it(`rejects ${JSON.stringify(url)} naming the accepted forms`, async () => {
      await assert.rejects(openStorage(url, { dataDir: root }), /memory:.*sqlite:/);
    });
  }
});
