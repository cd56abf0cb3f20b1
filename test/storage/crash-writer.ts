/**
 * Child process for the SQLite crash test: creates keys one by one and prints each key on stdout
 * only after create() resolved (the write was acknowledged). The parent SIGKILLs it mid-stream.
 * Usage: node --import tsx test/storage/crash-writer.ts <db path>
 */
import { writeSync } from 'node:fs';
import { SqliteStorage } from '../../runtime/storage/sqlite.js';

const storage = new SqliteStorage(process.argv[2]);
for (let i = 0; ; i++) {
  const key = `/registry/crash/things/k${String(i).padStart(6, '0')}`;
  const obj = await storage.create(key, { apiVersion: 'v1', kind: 'Thing', metadata: { name: `k${i}` }, spec: { i } });
  // Synchronous write: the line leaves the process before the next write starts.
  writeSync(1, `${key} ${obj.metadata.resourceVersion}\n`);
}
