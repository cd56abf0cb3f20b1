/**
 * What the etcd backend shares between its parts: how storage keys become etcd keys (the
 * `--storage-prefix`), how etcd key-values become objects, and how client errors become
 * StorageErrors.
 *
 * Keys: the registry always builds keys under the default root `/registry` (keys.ts). The etcd
 * backend replaces that root with its configured prefix, as kube-apiserver's `--storage-prefix`
 * roots every key: with prefix `/kgen-a`, `/registry/core/pods/ns/p` is stored at
 * `/kgen-a/core/pods/ns/p`. With the default prefix keys are stored unchanged. A key outside
 * `/registry/` is InvalidObject: it could not be mapped back.
 */
import { GRPCInvalidArgumentError, GRPCOutOfRangeError, GRPCUnavailableError, isRecoverableError } from 'etcd3';
import type { KubeObject } from '../api/meta.js';
import { StorageError } from './interface.js';
import { DEFAULT_STORAGE_PREFIX } from './keys.js';
import { decodeObject } from './objects.js';

/** Maps storage keys to etcd keys under one prefix and back. */
export class EtcdKeys {
  /** The prefix without a trailing slash ('' for '/'). */
  readonly root: string;

  constructor(prefix: string = DEFAULT_STORAGE_PREFIX) {
    const trimmed = prefix.replace(/\/+$/, '');
    this.root = trimmed === '' ? '' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
  }

  /** The etcd key (as a string) of a storage key, a prefix ending in '/' maps to one too. */
  toEtcd(key: string): string {
    if (key !== DEFAULT_STORAGE_PREFIX && !key.startsWith(`${DEFAULT_STORAGE_PREFIX}/`)) {
      throw new StorageError('InvalidObject', key, `storage key ${JSON.stringify(key)} does not lie under ${DEFAULT_STORAGE_PREFIX}/`);
    }
    return this.root + key.slice(DEFAULT_STORAGE_PREFIX.length);
  }

  /** The storage key of an etcd key read under this prefix. */
  fromEtcd(etcdKey: string): string {
    return DEFAULT_STORAGE_PREFIX + etcdKey.slice(this.root.length);
  }

  /** The etcd key kube's health check reads (`<prefix>/health`); it never holds data. */
  get healthKey(): string {
    return `${this.root}/health`;
  }
}

/** The exclusive end of the etcd key range of every key starting with `prefix`. */
export function prefixRangeEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] < 0xff) {
      end[i]++;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}

/** A key-value as etcd/proto.ts (numbers) or the etcd3 client's watch events (strings) hold it. */
export interface StoredKv {
  value: Buffer;
  mod_revision: number | string;
}

/** An object read from etcd, with resourceVersion set to `revision` (the mod revision by default). */
export function decodeKv(kv: StoredKv, revision: number = Number(kv.mod_revision)): KubeObject {
  return decodeObject(kv.value.toString('utf8'), revision);
}

/**
 * Thrown by the client's host breaker instead of calling a host that recently refused
 * connections; nothing was sent, so a retry is always safe.
 */
export class EtcdHostDownError extends Error {
  constructor(host: string) {
    super(`etcd member ${host} is marked down after repeated connection failures`);
    this.name = 'EtcdHostDownError';
  }
}

/** The client's own refusal of a request over its send limit (etcd/grpc.ts): resending never helps. */
const TOO_LARGE_TO_SEND = /trying to send message larger than max/;

const UNSENT = /No connection established|ECONNREFUSED|Failed to connect|connection refused|Stream refused by server|etcdserver: too many requests|raft proposal dropped|etcdserver: no leader/i;
const SERVER_TRANSIENT = /etcdserver: (no leader|leader changed|request timed out|too many requests|server stopped|not capable)|raft proposal dropped/i;

/** A failure that may go away by itself (connection, leader election, overload). */
export function isTransient(err: unknown): boolean {
  if (err instanceof EtcdHostDownError) return true;
  if (!(err instanceof Error) || TOO_LARGE_TO_SEND.test(err.message)) return false;
  return isRecoverableError(err) || SERVER_TRANSIENT.test(err.message);
}

/** A transient failure that certainly happened before etcd applied anything: safe to resend. */
export function isUnsent(err: unknown): boolean {
  if (err instanceof EtcdHostDownError) return true;
  return err instanceof Error && UNSENT.test(err.message);
}

/**
 * A connection-level failure of one host (what the host breaker counts). Deadlines do not count:
 * during a leader election live members time out too, and must not be skipped for it.
 */
export function isConnectionFailure(err: unknown): boolean {
  return err instanceof GRPCUnavailableError && !/etcdserver:/.test(err.message);
}

/**
 * The StorageError for a failed etcd call. Compaction is Expired (410), a future revision
 * TooLargeResourceVersion, a write over etcd's or the client's size limit RequestTooLarge (413), a
 * rejected request InvalidObject; every other failure means etcd could not serve the request:
 * Unavailable (503).
 */
export function toStorageError(err: unknown, key: string, maybeApplied = false): StorageError {
  if (err instanceof StorageError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof GRPCOutOfRangeError && /compacted/.test(message)) {
    return new StorageError('Expired', key, `The resourceVersion for the provided request is too old: ${etcdMessage(message)}`);
  }
  if (err instanceof GRPCOutOfRangeError && /future revision/.test(message)) {
    return new StorageError('TooLargeResourceVersion', key, `Too large resource version: ${etcdMessage(message)}`);
  }
  // kube's isTooLargeError: etcd's refusal, or the client's own send limit (etcd/grpc.ts).
  if ((err instanceof GRPCInvalidArgumentError && /request is too large/.test(message)) || TOO_LARGE_TO_SEND.test(message)) {
    return new StorageError('RequestTooLarge', key, etcdMessage(message));
  }
  if (err instanceof GRPCInvalidArgumentError) return new StorageError('InvalidObject', key, etcdMessage(message));
  const prefix = maybeApplied
    ? 'etcd request failed and may or may not have been applied'
    : 'etcd is unavailable';
  return new StorageError('Unavailable', key, `${prefix}: ${etcdMessage(message)}`);
}

/** The readable part of a grpc error message ("14 UNAVAILABLE: x" → "x"). */
function etcdMessage(message: string): string {
  return message.replace(/^\d+ [A-Z_]+: /, '').replace(/\. Resolution note: ?$/, '').trim();
}
