/**
 * openStorage: the one place a storage URL becomes a backend.
 *
 *   memory:            MemoryStorage (nothing persists; for tests)
 *   sqlite:<path>      SqliteStorage at <path>, relative to the working directory
 *   sqlite: | sqlite://  SqliteStorage at <dataDir>/kgen.db
 *   etcd://host:port[,host:port…]  EtcdStorage on those members, keys under `storagePrefix`;
 *                      a member may be written `https://host:port` (or `http://…`), and a bare
 *                      one is https when `etcdTLS` is given
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Storage } from './interface.js';
import type { EtcdTLS } from './etcd/tls.js';
import { MemoryStorage } from './memory.js';
import { SqliteStorage } from './sqlite.js';

export interface OpenStorageOptions {
  /** Where default-located data lives (created if missing). */
  dataDir: string;
  /** etcd only: the root of every key in etcd (kube's --storage-prefix); default `/registry`. */
  storagePrefix?: string;
  /** etcd only: CA and client certificate (kube's --etcd-cafile/--etcd-certfile/--etcd-keyfile). */
  etcdTLS?: EtcdTLS;
}

export const DEFAULT_SQLITE_FILE = 'kgen.db';

const ACCEPTED_FORMS =
  "'memory:', 'sqlite:' (or 'sqlite://') for <dataDir>/kgen.db, 'sqlite:<path>', or 'etcd://host:port[,host:port…]'";

export async function openStorage(url: string, opts: OpenStorageOptions): Promise<Storage> {
  if (url === 'memory:') return new MemoryStorage();
  const path = sqlitePath(url, opts.dataDir);
  if (path !== undefined) {
    mkdirSync(dirname(path), { recursive: true });
    return new SqliteStorage(path);
  }
  const endpoints = etcdEndpoints(url);
  if (endpoints !== undefined) {
    // Loaded only when asked for: the etcd client (gRPC, protobufjs) costs ~0.2 s of start-up.
    const { EtcdStorage } = await import('./etcd.js');
    return EtcdStorage.open({ endpoints, prefix: opts.storagePrefix, tls: opts.etcdTLS });
  }
  throw new Error(`unsupported storage URL ${JSON.stringify(url)}: expected ${ACCEPTED_FORMS}`);
}

/** The database file a sqlite: URL names (absolute), or undefined for any other URL. */
export function sqlitePath(url: string, dataDir: string): string | undefined {
  if (!url.startsWith('sqlite:')) return undefined;
  let rest = url.slice('sqlite:'.length);
  if (rest === '' || rest === '//') return resolve(join(dataDir, DEFAULT_SQLITE_FILE));
  // sqlite:///abs/path and sqlite://rel/path read as the path after the scheme's slashes.
  if (rest.startsWith('//')) rest = rest.slice(2);
  return resolve(rest);
}

/**
 * The endpoints an etcd:// URL names, each `host:port` or, when written with a scheme,
 * `http(s)://host:port` (port 2379 when omitted); undefined for any other URL. An etcd:// URL
 * without a valid endpoint list throws.
 */
export function etcdEndpoints(url: string): string[] | undefined {
  if (!url.startsWith('etcd://')) return undefined;
  const list = url.slice('etcd://'.length).replace(/\/+$/, '');
  return list.split(',').map((e) => etcdEndpoint(e.trim(), `storage URL ${JSON.stringify(url)}`));
}

/**
 * kube's --etcd-servers: a comma-separated list of `http(s)://host:port` URLs, as the etcd://
 * storage URL that names the same members.
 */
export function etcdServersStorageURL(servers: string): string {
  const endpoints = servers.split(',').map((e) => etcdEndpoint(e.trim(), `--etcd-servers ${JSON.stringify(servers)}`));
  return `etcd://${endpoints.join(',')}`;
}

function etcdEndpoint(e: string, where: string): string {
  const m = /^(https?:\/\/)?((?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?)\/?$/.exec(e);
  if (!m) throw new Error(`invalid etcd endpoint ${JSON.stringify(e)} in ${where}: expected host:port or https://host:port`);
  const hostPort = /:\d{1,5}$/.test(m[2]!) ? m[2]! : `${m[2]}:2379`;
  return `${m[1] ?? ''}${hostPort}`;
}
