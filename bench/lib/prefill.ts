/**
 * Fills a SQLite database with N objects of the fixture's kind, fast, for the benchmarks that
 * need many objects in the watch cache (memory, informer): one object is created through a real
 * `kgen serve` once per run (so it has the server's metadata, defaults and managedFields), then N
 * copies with their own name and uid go straight into kgen's SqliteStorage. The database is on
 * tmpfs when there is one: what it costs to write them is not what these benchmarks measure.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject } from '../../runtime/api/meta.js';
import { SqliteStorage } from '../../runtime/storage/sqlite.js';
import { serveKgen, type ServerFixture } from './fixture.js';
import { shared, type BenchContext } from './harness.js';
import { mustSend } from './kube.js';
import { collectionPath, NAMESPACE, sampleObject } from './objects.js';
import { SHM, workDir } from './paths.js';

export interface Prefilled {
  /** A `sqlite:<path>` storage URL. */
  storage: string;
  count: number;
  /** Sum of the objects' JSON sizes, as stored. */
  jsonBytes: number;
}

/**
 * The stored form of one object of the fixture's kind, as `kgen serve` writes it (metadata,
 * defaults, managedFields), made once per run by a real server; its name is `tmpl-0`.
 */
export function storedTemplate(ctx: BenchContext, fx: ServerFixture): Promise<KubeObject> {
  return shared(ctx, 'stored-template', async () => {
    const seed = await serveKgen(fx, 'memory:');
    try {
      const url = seed.url + collectionPath(fx.kind);
      await mustSend(url, 'POST', sampleObject(fx.kind, 'tmpl-0', 0));
      return JSON.parse(await mustSend(`${url}/tmpl-0`, 'GET')) as KubeObject;
    } finally {
      await seed.stop();
    }
  });
}

/** A database of `count` copies of the stored template named `<prefix>-<i>`, each with its own uid. */
export async function prefillSqlite(ctx: BenchContext, fx: ServerFixture, count: number, prefix = 'pre'): Promise<Prefilled> {
  const template = await storedTemplate(ctx, fx);
  const dir = workDir('prefill', existsSync(SHM) ? SHM : undefined);
  const db = join(dir, 'kgen.db');
  const store = new SqliteStorage(db);
  let jsonBytes = 0;
  try {
    const keyPrefix = `/registry/${fx.kind.group}/${fx.kind.plural}/${fx.kind.namespaced ? `${NAMESPACE}/` : ''}`;
    const uid = template.metadata.uid!;
    const json = JSON.stringify({ ...template, metadata: { ...template.metadata, resourceVersion: undefined } });
    for (let i = 0; i < count; i++) {
      const name = `${prefix}-${i}`;
      const obj = JSON.parse(json.replace('"tmpl-0"', `"${name}"`).replace(uid, `${uid.slice(0, 24)}${String(i).padStart(12, '0')}`)) as KubeObject;
      const stored = await store.create(keyPrefix + name, obj);
      jsonBytes += JSON.stringify(stored).length;
    }
  } finally {
    await store.close();
  }
  return { storage: `sqlite:${db}`, count, jsonBytes };
}

/** VmRSS of a process in bytes, from /proc. */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  if (!m) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]) * 1024;
}

