/** The storage conformance suite against the watch cache over each backend. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { Cacher } from '../../runtime/storage/cacher/index.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { SqliteStorage } from '../../runtime/storage/sqlite.js';
import type { Storage } from '../../runtime/storage/interface.js';
import { PREFIX } from './conformance-fixtures.js';
import { describeStorageConformance } from './conformance.js';

const root = mkdtempSync(join(tmpdir(), 'kgen-cacher-'));
after(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

function cached(backend: Storage) {
  // A short wait keeps the "too large resource version" cases fast.
  const storage = new Cacher(backend, { prefix: PREFIX, waitTimeoutMs: 150 });
  return {
    storage,
    cleanup: async () => {
      await storage.close();
      await backend.close();
    },
  };
}

describeStorageConformance('cacher(memory)', async () => cached(new MemoryStorage()));
describeStorageConformance('cacher(sqlite)', async () => cached(new SqliteStorage(join(root, `db-${++counter}.db`))));
