/**
 * The storage interface, shaped like k8s.io/apiserver/pkg/storage.Interface.
 *
 * Contracts every backend (memory, SQLite, etcd) honours, checked by one conformance suite:
 * - Keys are strings such as `/registry/<group>/<resource>/<namespace>/<name>`; a list or watch
 *   covers every key under a prefix that ends in `/`.
 * - Every successful write advances one global, strictly increasing revision. The object a write
 *   returns, and every object read back, carries that revision as `metadata.resourceVersion`
 *   (a decimal string). Objects are stored as JSON; callers never share mutable references with
 *   storage: backends hand out copies, a watch cache (./cacher) its deep-frozen shared objects,
 *   which callers copy before modifying.
 * - Watch delivers every change after the requested revision exactly once, in revision order.
 * - Errors are StorageError with a code from StorageErrorCode; the registry maps them to Status.
 */
import type { KubeObject } from '../api/meta.js';

export type StorageErrorCode =
  | 'KeyNotFound'
  | 'KeyExists'
  /** A precondition (uid or resourceVersion) did not hold. */
  | 'ResourceVersionConflicts'
  /** The requested revision is older than the compacted revision: maps to 410 Gone. */
  | 'Expired'
  /** The requested revision is newer than the current one. */
  | 'TooLargeResourceVersion'
  | 'InvalidObject'
  /**
   * The write is larger than the backend takes (etcd's `etcdserver: request is too large`; memory
   * and SQLite keep etcd's default limit, MAX_STORED_REQUEST_BYTES): maps to 413.
   */
  | 'RequestTooLarge'
  /** The backend cannot be reached: maps to 503. */
  | 'Unavailable';

export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    readonly key: string,
    message: string,
    /** Expired for a compacted continue token only: the token that lists on at the latest revision. */
    readonly continueToken?: string,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

export interface GetOptions {
  /** Return undefined instead of throwing KeyNotFound. */
  ignoreNotFound?: boolean;
  /**
   * '' or undefined: most recent (a backend read). Otherwise the object at a revision not older
   * than this one ('0': any); a watch cache may serve it. Backends may treat it as most recent.
   */
  resourceVersion?: string;
}

export interface ListOptions {
  /** '' or undefined: most recent. Otherwise a revision, interpreted with resourceVersionMatch. */
  resourceVersion?: string;
  /** 'NotOlderThan' (the default when resourceVersion is set) or 'Exact' (served at that revision). */
  resourceVersionMatch?: 'NotOlderThan' | 'Exact';
  /** At most this many items; 0 or undefined means no limit. */
  limit?: number;
  /**
   * An opaque token returned by a previous getList; the list continues at the same revision.
   * Malformed: InvalidObject. Its revision compacted: Expired, carrying a token at rv -1 (see
   * continueExpired). A token with rv -1 continues at the latest revision.
   */
  continue?: string;
  /** Only objects for which this returns true are returned (and count towards limit). */
  predicate?: (obj: KubeObject) => boolean;
}

export interface ListResult {
  items: KubeObject[];
  /** The revision the list was served at. */
  resourceVersion: string;
  /** Set when more items remain. */
  continue?: string;
  remainingItemCount?: number;
}

/**
 * Called with the current object (undefined when absent and ignoreNotFound) and returns the new
 * one. It may be called more than once when a concurrent write wins; it must not have side effects
 * beyond computing the result. Throwing aborts the update with that error.
 */
export type UpdateFunc = (current: KubeObject | undefined) => KubeObject | Promise<KubeObject>;

export interface UpdateOptions {
  /** Create the object when absent (tryUpdate then receives undefined). */
  ignoreNotFound?: boolean;
  preconditions?: Preconditions;
  /**
   * A guess of the key's current object, e.g. the watch cache's (kube's cachedExistingObject):
   * a backend may run tryUpdate on (a copy of) it instead of reading the key first, and reads
   * the key only when the guess proves stale: its compare-and-swap fails, or the preconditions,
   * tryUpdate or the no-op check reject it. Never mutated; backends may ignore it.
   */
  cachedExistingObject?: KubeObject;
}

export interface DeleteOptions {
  preconditions?: Preconditions;
  /** Runs against the current object before deleting; throwing aborts the delete. */
  validateDeletion?: (current: KubeObject) => void | Promise<void>;
}

export type StorageEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StorageEvent {
  type: StorageEventType;
  key: string;
  /** For DELETED, the last state of the object with resourceVersion set to the deletion revision. */
  object: KubeObject;
  prevObject?: KubeObject;
  /** The revision of this change. */
  resourceVersion: string;
}

export interface WatchOptions {
  /**
   * '' / undefined / '0': from the current revision (only changes after now).
   * Otherwise every change with a revision greater than this one. Older than the compacted
   * revision: the watch throws StorageError('Expired') from its iterator.
   */
  resourceVersion?: string;
  predicate?: (obj: KubeObject) => boolean;
}

export interface Watcher extends AsyncIterable<StorageEvent> {
  /** Ends the iteration; safe to call more than once. */
  stop(): void;
}

export interface Storage {
  /** Stores obj under key; KeyExists if present. Returns the stored object with its resourceVersion. */
  create(key: string, obj: KubeObject): Promise<KubeObject>;
  /** KeyNotFound unless ignoreNotFound, then undefined. */
  get(key: string, opts?: GetOptions): Promise<KubeObject | undefined>;
  /** Objects under keyPrefix (ending in `/`), in key order. */
  getList(keyPrefix: string, opts?: ListOptions): Promise<ListResult>;
  /** Read-modify-write with compare-and-swap, retrying tryUpdate until it wins. */
  guaranteedUpdate(key: string, opts: UpdateOptions, tryUpdate: UpdateFunc): Promise<KubeObject>;
  /** Deletes and returns the last state, with resourceVersion set to the deletion revision. */
  delete(key: string, opts?: DeleteOptions): Promise<KubeObject>;
  /** Changes to keys under keyPrefix (or to exactly keyPrefix when it does not end in `/`). */
  watch(keyPrefix: string, opts?: WatchOptions): Watcher;
  /** The latest revision, as a decimal string. */
  currentRevision(): Promise<string>;
  /**
   * Forgets history at or below revision; later watches and continues from there get Expired.
   * As in etcd, the state at `revision` itself stays readable (Exact list, watch from it); only
   * older revisions are Expired. Compacting past the current revision: TooLargeResourceVersion.
   */
  compact(revision: string): Promise<void>;
  /**
   * The newest revision this process knows history was compacted to (0: none), without a round
   * trip. Watch caches read it so that their window follows compaction (kube's rule: a revision
   * older than the cache's window is 410 Expired). Memory and SQLite know it exactly; etcd knows
   * its own compactions, those its compactor turns learn of, and what isCompacted found.
   */
  compactedRevision?(): number;
  /**
   * Whether history at `revision` is compacted, asked of the backend itself (one round trip), for
   * a backend where another server may compact (etcd): a watch cache calls it before serving
   * history from its ring, so its window is exact on every replica. Raises compactedRevision().
   */
  isCompacted?(revision: number): Promise<boolean>;
  /** Throws when the backend is not usable; used by /readyz. */
  healthCheck(): Promise<void>;
  close(): Promise<void>;
}
