/**
 * EtcdStorage: the Storage contract on etcd v3, as k8s.io/apiserver/pkg/storage/etcd3/store.go
 * implements it, over etcd's gRPC API (see etcd-client.ts for the transport, deadlines and retries).
 *
 * - resourceVersion is the key's mod revision; the stored value is the object's JSON without it.
 * - create: txn "mod revision == 0 → put", else KeyExists.
 * - guaranteedUpdate / delete: read, decide, then txn "mod revision == seen → put/delete", else
 *   the txn returns the key's current state and the loop runs again. An unchanged object is not
 *   written (kube's no-op rule, as in the other backends).
 * - getList: etcd-list.ts. watch: etcd-watch.ts.
 * - Keys live under a prefix (`--storage-prefix`, default `/registry`): etcd-codec.ts.
 * - Failures: etcd unreachable → Unavailable within the request deadline; compacted → Expired.
 */
import type { KubeObject } from '../api/meta.js';
import { EtcdClient, type EtcdClientOptions } from './etcd-client.js';
import { describeTLSError } from './etcd/tls.js';
import type { KeyValue, RequestOp, TxnResponse } from './etcd/proto.js';
import { EtcdKeys, decodeKv, prefixRangeEnd } from './etcd-codec.js';
import { etcdGetList } from './etcd-list.js';
import { EtcdWatch } from './etcd-watch.js';
import {
  StorageError,
  type DeleteOptions,
  type GetOptions,
  type ListOptions,
  type ListResult,
  type Storage,
  type UpdateFunc,
  type UpdateOptions,
  type Watcher,
  type WatchOptions,
} from './interface.js';
import { checkPreconditions, decodeObject, encodeObject, encodeStored, parseResourceVersion, sameStoredValue } from './objects.js';
import { noteCreatedAnswer, WrittenValues } from './stored-json.js';
import { WatchBroadcaster } from './watch-broadcaster.js';
import { encodedLatin1 } from './cacher/cached-object.js';

export interface EtcdStorageOptions extends EtcdClientOptions {
  /** Root of every key in etcd, replacing `/registry` (kube's --storage-prefix); default `/registry`. */
  prefix?: string;
  /** Deadline of healthCheck(); default 2000 ms (kube's etcd health check timeout). */
  healthTimeoutMs?: number;
}

/** kube's key for coordinating compaction between API servers (compact.go); not under the prefix. */
export const COMPACT_REV_KEY = 'compact_rev_key';

/** The state kube's compactor carries from one interval to the next. */
export interface CompactTurn {
  /** The version of COMPACT_REV_KEY this server last saw. */
  version: number;
  /** The revision to compact to on the next turn (observed one interval ago). */
  revision: number;
  /** True when this call won the turn and compacted (to the revision passed in, if non-zero). */
  compacted: boolean;
}

export class EtcdStorage implements Storage {
  readonly keys: EtcdKeys;
  private readonly client: EtcdClient;
  private readonly healthTimeoutMs: number;
  private readonly watches = new Set<EtcdWatch>();
  /** The tail of the queue of guaranteedUpdate calls per key (see guaranteedUpdate). */
  private readonly updating = new Map<string, Promise<void>>();
  /**
   * Values this process put, until their watch events take them (stored-json.ts): the watch
   * cache then derives the object's JSON from the value instead of stringifying it again.
   */
  private readonly written = new WrittenValues(WRITTEN_VALUES_MAX_CHARS);
  private closed = false;
  /** The newest revision known to be compacted (see compactedRevision). */
  private knownCompacted = 0;

  constructor(opts: EtcdStorageOptions) {
    this.keys = new EtcdKeys(opts.prefix);
    this.client = new EtcdClient(opts);
    this.healthTimeoutMs = opts.healthTimeoutMs ?? 2000;
  }

  /**
   * Opens the storage and reads the current revision once. etcd being down is not fatal (the
   * server starts and /readyz says so), but a TLS handshake failure is a configuration error:
   * it throws, naming the member and the cause, instead of retrying forever.
   */
  static async open(opts: EtcdStorageOptions): Promise<EtcdStorage> {
    const storage = new EtcdStorage(opts);
    const failed = await storage.currentRevision().then(
      () => false,
      () => true,
    );
    const tlsErrors = failed ? storage.client.kv.tlsErrors() : [];
    if (tlsErrors.length > 0) {
      await storage.close();
      const causes = tlsErrors.map(({ url, error }) => `${url}: ${describeTLSError(error)}`).join('; ');
      throw new Error(`etcd TLS handshake failed (${causes}); check --etcd-cafile, --etcd-certfile and --etcd-keyfile`);
    }
    return storage;
  }

  async create(key: string, obj: KubeObject): Promise<KubeObject> {
    const k = this.etcdKey(key);
    const { value, metadataEnd } = encodeStored(key, obj);
    if (metadataEnd >= 0) this.written.note(key, value, metadataEnd);
    return this.client.call(key, 'write', async ({ options, maybeApplied }) => {
      const res = await this.client.kv.txn(
        {
          compare: [{ key: k, target: 'Mod', result: 'Equal', mod_revision: 0 }],
          success: [{ request_put: { key: k, value: Buffer.from(value) } }],
          failure: [{ request_range: { key: k } }],
        },
        options,
      );
      const revision = this.client.observe(res.header);
      if (res.succeeded) {
        const answer = Object.isFrozen(obj.metadata) ? decodeObject(value, revision) : withResourceVersion(obj, revision);
        noteCreatedAnswer(answer, value, metadataEnd, revision);
        return answer;
      }
      const existing = rangedKv(res);
      // An earlier attempt whose answer was lost may have created exactly this value.
      if (maybeApplied && existing && existing.create_revision === existing.mod_revision && existing.value.toString('utf8') === value) {
        return decodeKv(existing);
      }
      throw new StorageError('KeyExists', key, `key ${key} already exists`);
    });
  }

  async get(key: string, opts: GetOptions = {}): Promise<KubeObject | undefined> {
    const kv = await this.readKey(key);
    if (kv) return decodeKv(kv);
    if (opts.ignoreNotFound) return undefined;
    throw notFound(key);
  }

  getList(keyPrefix: string, opts: ListOptions = {}): Promise<ListResult> {
    return etcdGetList(this.client, this.keys, keyPrefix, opts);
  }

  /**
   * Updates of one key from this process run one at a time: they would only defeat each other's
   * compare-and-swap (every losing txn still costs a raft round), turning n concurrent updates into
   * n²/2 txns. Across processes the compare-and-swap alone keeps updates correct.
   */
  guaranteedUpdate(key: string, opts: UpdateOptions, tryUpdate: UpdateFunc): Promise<KubeObject> {
    const previous = this.updating.get(key) ?? Promise.resolve();
    const result = previous.then(() => this.updateOnce(key, opts, tryUpdate));
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.updating.set(key, settled);
    void settled.then(() => {
      if (this.updating.get(key) === settled) this.updating.delete(key);
    });
    return result;
  }

  /**
   * kube's etcd3 GuaranteedUpdate: start from the caller's cached object when given (no read),
   * else from a read; a state that may be stale is refreshed by a read before an error or a no-op
   * is answered from it. A lost compare-and-swap continues from the state the txn read back.
   */
  private async updateOnce(key: string, opts: UpdateOptions, tryUpdate: UpdateFunc): Promise<KubeObject> {
    const k = this.etcdKey(key);
    let state = opts.cachedExistingObject ? cachedState(key, opts.cachedExistingObject) : kvState(await this.readKey(key));
    for (;;) {
      const { current } = state;
      let next: KubeObject;
      try {
        if (!current && !opts.ignoreNotFound) throw notFound(key);
        checkPreconditions(key, opts.preconditions, current);
        next = await tryUpdate(current);
      } catch (err) {
        if (state.isCurrent) throw err;
        state = kvState(await this.readKey(key));
        continue;
      }
      this.client.ensureOpen(key);
      const { value, metadataEnd } = encodeStored(key, next);
      if (storesSameValue(key, state, value)) {
        if (state.isCurrent) return decodeObject(state.value!, state.modRevision);
        state = kvState(await this.readKey(key));
        continue;
      }
      if (metadataEnd >= 0) this.written.note(key, value, metadataEnd);
      const res = await this.casTxn(key, k, state.modRevision, { request_put: { key: k, value: Buffer.from(value) } });
      const revision = this.client.observe(res.header);
      if (res.succeeded) return decodeObject(value, revision);
      state = kvState(rangedKv(res));
    }
  }

  async delete(key: string, opts: DeleteOptions = {}): Promise<KubeObject> {
    const k = this.etcdKey(key);
    let kv = await this.readKey(key);
    for (;;) {
      if (!kv) throw notFound(key);
      checkPreconditions(key, opts.preconditions, decodeKv(kv));
      if (opts.validateDeletion) await opts.validateDeletion(decodeKv(kv));
      const expected = kv.mod_revision;
      const res = await this.casTxn(key, k, expected, { request_delete_range: { key: k } });
      const revision = this.client.observe(res.header);
      if (res.succeeded) return decodeKv(kv, revision);
      kv = rangedKv(res);
    }
  }

  watch(keyPrefix: string, opts: WatchOptions = {}): Watcher {
    try {
      this.client.ensureOpen(keyPrefix);
      const from = parseResourceVersion(keyPrefix, opts.resourceVersion, true);
      const start = this.etcdKey(keyPrefix);
      const range = { key: keyPrefix, start, end: keyPrefix.endsWith('/') ? prefixRangeEnd(start) : undefined };
      const watch = new EtcdWatch(this.client, this.keys, range, from, opts.predicate, (w) => this.watches.delete(w), this.written);
      this.watches.add(watch);
      return watch.watcher;
    } catch (err) {
      return new WatchBroadcaster<never>().failed(err);
    }
  }

  /** A linearizable read's header revision (of kube's `<prefix>/health` key, which holds nothing). */
  async currentRevision(): Promise<string> {
    const res = await this.client.call('', 'read', ({ options }) =>
      this.client.kv.range({ key: Buffer.from(this.keys.healthKey), count_only: true }, options),
    );
    return String(this.client.observe(res.header));
  }

  async compact(revision: string): Promise<void> {
    const target = parseResourceVersion('', revision, false);
    if (target === undefined) throw new StorageError('InvalidObject', '', 'compact requires a revision');
    if (target <= 0) return;
    try {
      await this.client.call('', 'read', ({ options }) => this.client.kv.compact({ revision: target }, options));
    } catch (err) {
      // Compacting at or below the compacted revision is harmless, as in the other backends.
      if (!(err instanceof StorageError && err.code === 'Expired')) throw err;
    }
    this.knownCompacted = Math.max(this.knownCompacted, target);
  }

  /** See Storage.compactedRevision: this server's compactions and those compactTurn learned of. */
  compactedRevision(): number {
    return this.knownCompacted;
  }

  /**
   * See Storage.isCompacted: a count-only range at `revision`, which etcd refuses once that
   * revision is compacted (by any server). Compacted means the compacted revision is at least
   * revision + 1, which becomes the known lower bound.
   */
  async isCompacted(revision: number): Promise<boolean> {
    if (revision < this.knownCompacted) return true;
    try {
      await this.client.call('', 'read', ({ options }) => this.client.kv.range({ key: Buffer.from(this.keys.healthKey), revision, count_only: true }, options));
      return false;
    } catch (err) {
      if (!(err instanceof StorageError && err.code === 'Expired')) throw err;
      this.knownCompacted = Math.max(this.knownCompacted, revision + 1);
      return true;
    }
  }

  /**
   * One turn of kube's compactor (k8s.io/apiserver/pkg/storage/etcd3/compact.go): a txn bumps the
   * version of COMPACT_REV_KEY if it still equals `version`, so among several API servers only one
   * compacts per interval. The winner compacts to `revision` (the revision it observed one interval
   * ago; 0 skips). Returns the state for the next turn: the key's version and the current revision.
   */
  async compactTurn(version: number, revision: number): Promise<CompactTurn> {
    const key = Buffer.from(COMPACT_REV_KEY);
    const res = await this.client.call(COMPACT_REV_KEY, 'write', ({ options }) =>
      this.client.kv.txn(
        {
          compare: [{ key, target: 'Version', result: 'Equal', version }],
          success: [{ request_put: { key, value: Buffer.from(String(revision)) } }],
          failure: [{ request_range: { key } }],
        },
        options,
      ),
    );
    const current = this.client.observe(res.header);
    if (!res.succeeded) {
      // Another server won a turn: the key's value is the revision it compacted to (kube's compact.go).
      const kv = rangedKv(res);
      const theirs = Number(kv?.value?.toString() ?? 0);
      if (theirs > 0) this.knownCompacted = Math.max(this.knownCompacted, theirs);
      return { version: Number(kv?.version ?? 0), revision: current, compacted: false };
    }
    if (revision > 0) await this.compact(String(revision));
    return { version: version + 1, revision: current, compacted: revision > 0 };
  }

  /** Fails fast (healthTimeoutMs) with Unavailable when etcd cannot serve a linearizable read. */
  async healthCheck(): Promise<void> {
    await this.client.call(
      '',
      'read',
      ({ options }) => this.client.kv.range({ key: Buffer.from(this.keys.healthKey), count_only: true }, options),
      this.healthTimeoutMs,
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const watch of [...this.watches]) watch.stop();
    this.client.close();
  }

  /** The number of running watches (for tests and metrics). */
  get watcherCount(): number {
    return this.watches.size;
  }

  /**
   * txn "mod revision of k == expected → op, else read k". A resent txn that loses its compare
   * after an attempt whose answer was lost may have lost to that attempt: that outcome is unknown,
   * so it is Unavailable rather than a conflict to retry (which could apply the change twice).
   */
  private casTxn(key: string, k: Buffer, expected: number, op: RequestOp): Promise<TxnResponse> {
    return this.client.call(key, 'write', async ({ options, maybeApplied }) => {
      const res = await this.client.kv.txn(
        {
          compare: [{ key: k, target: 'Mod', result: 'Equal', mod_revision: expected }],
          success: [op],
          failure: [{ request_range: { key: k } }],
        },
        options,
      );
      if (!res.succeeded && maybeApplied) {
        throw new StorageError('Unavailable', key, `etcd request failed and may or may not have been applied to ${key}; read it again`);
      }
      return res;
    });
  }

  private etcdKey(key: string): Buffer {
    return Buffer.from(this.keys.toEtcd(key));
  }

  private async readKey(key: string): Promise<KeyValue | undefined> {
    const k = this.etcdKey(key);
    const res = await this.client.call(key, 'read', ({ options }) => this.client.kv.range({ key: k }, options));
    this.client.observe(res.header);
    return res.kvs[0];
  }
}

/** What an update starts from: the current object, its stored value and mod revision (0: absent). */
interface UpdateState {
  current: KubeObject | undefined;
  /** The stored value; for a cached state computed only when the no-op check needs it. */
  value: string | undefined;
  modRevision: number;
  /** Read from etcd just now, rather than guessed from a cache. */
  isCurrent: boolean;
  /** A cached state's object (frozen, never handed out) and its JSON text (resourceVersion included). */
  cached?: { obj: KubeObject; json: string };
}

function kvState(kv: KeyValue | undefined): UpdateState {
  if (!kv) return { current: undefined, value: undefined, modRevision: 0, isCurrent: true };
  const value = kv.value.toString('utf8');
  const modRevision = Number(kv.mod_revision);
  return { current: decodeObject(value, modRevision), value, modRevision, isCurrent: true };
}

/**
 * The state a cached object stands for; its own copy, so the cache's object is never handed out.
 * The copy is one parse of the JSON the watch cache keeps for the object (exactly
 * JSON.stringify of it), with resourceVersion set last as decodeObject sets it; the stored value
 * (that JSON without resourceVersion) is derived only when a no-op is possible (storesSameValue).
 */
function cachedState(key: string, cached: KubeObject): UpdateState {
  const modRevision = parseResourceVersion(key, cached.metadata?.resourceVersion, false) ?? 0;
  const { encoded, ascii } = encodedLatin1(cached);
  const json = ascii ? encoded : Buffer.from(encoded, 'latin1').toString('utf8');
  const current = JSON.parse(json) as KubeObject;
  const meta = current.metadata as Record<string, unknown> | undefined;
  if (typeof meta === 'object' && meta !== null && !Array.isArray(meta)) {
    delete meta.resourceVersion;
    meta.resourceVersion = String(modRevision);
  } else {
    // Not an object the cache could hold (encodeObject would reject it): decode as before.
    return { current: decodeObject(encodeObject(key, cached), modRevision), value: undefined, modRevision, isCurrent: false, cached: { obj: cached, json } };
  }
  return { current, value: undefined, modRevision, isCurrent: false, cached: { obj: cached, json } };
}

/**
 * Whether `next` (an encoded value) stores what the state holds (sameStoredValue). A cached
 * state's stored value is its JSON without the pair `"resourceVersion":"<rv>"` and one comma:
 * cut out where that pair occurs exactly once (a quote in JSON text outside a string always
 * delimits one, so the one occurrence is metadata's), else encoded again.
 */
function storesSameValue(key: string, state: UpdateState, next: string): boolean {
  if (state.value === undefined) {
    const cached = state.cached;
    if (!cached) return false;
    state.value = storedValueOf(cached.json, cached.obj.metadata?.resourceVersion) ?? encodeObject(key, cached.obj);
  }
  return sameStoredValue(state.value, next);
}

/** json (JSON.stringify of an object whose metadata.resourceVersion is rv) without that pair. */
function storedValueOf(json: string, rv: unknown): string | undefined {
  if (typeof rv !== 'string') return undefined;
  const pair = `"resourceVersion":${JSON.stringify(rv)}`;
  const at = json.indexOf(pair);
  if (at <= 0 || json.lastIndexOf(pair) !== at) return undefined;
  const end = at + pair.length;
  if (json[at - 1] === ',') return json.slice(0, at - 1) + json.slice(end);
  if (json[at - 1] === '{' && json[end] === ',') return json.slice(0, at) + json.slice(end + 1);
  return undefined;
}

/** The key-value a txn's failure branch read (undefined when the key is absent). */
function rangedKv(res: TxnResponse): KeyValue | undefined {
  return res.responses[0]?.response_range?.kvs[0];
}

/**
 * obj as decodeObject(encodeObject(obj), revision) would give it (the same rule as the log
 * storage's create): metadata.resourceVersion set last among metadata's keys. obj holds JSON
 * values only and is the caller's to hand over, so the parse would change nothing else.
 */
function withResourceVersion(obj: KubeObject, revision: number): KubeObject {
  const meta = obj.metadata as Record<string, unknown>;
  if ('resourceVersion' in meta) delete meta.resourceVersion;
  meta.resourceVersion = String(revision);
  return obj;
}

/** At most this many characters of put values wait for their watch events (~4 MB). */
const WRITTEN_VALUES_MAX_CHARS = 4 * 1024 * 1024;

function notFound(key: string): StorageError {
  return new StorageError('KeyNotFound', key, `key ${key} not found`);
}
