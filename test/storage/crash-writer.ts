/**
 * Child process for the SQLite crash tests: creates keys and prints each key and its
 * resourceVersion on stdout only after create() resolved (the write was acknowledged). With a
 * concurrency above 1, that many writers run at once (so writes are group-committed). The parent
 * SIGKILLs it mid-stream.
 * Usage: node --import ./test/support/ts-loader.mjs test/storage/crash-writer.ts <db path> [concurrency]
 */
import { writeSync } from 'node:fs';
import { SqliteStorage } from '../../runtime/storage/sqlite.js';

const storage = new SqliteStorage(process.argv[2]);
const concurrency = Number(process.argv[3] ?? 1);

async function writer(w: number): Promise<never> {
  for (let i = 0; ; i++) {
    const key = `/registry/crash/things/w${w}-k${String(i).padStart(6, '0')}`;
    const obj = await storage.create(key, { apiVersion: 'v1', kind: 'Thing', metadata: { name: `w${w}-k${i}` }, spec: { i } });
    // Synchronous write: the line leaves the process before this writer's next write starts.
    writeSync(1, `${key} ${obj.metadata.resourceVersion}\n`);
  }
}

await Promise.all(Array.from({ length: concurrency }, (_, w) => writer(w)));
