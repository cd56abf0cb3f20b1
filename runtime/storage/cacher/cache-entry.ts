/**
 * CacheEntry: what the watch cache keeps of one object (kube's storeElement{Key, Object, Labels,
 * Fields}, with the object held as its JSON encoding): the key, the exact JSON bytes, and the
 * attributes selectors read (name, namespace, labels). A decoded, frozen object costs V8 about
 * 2.5 times its JSON; the bytes cost about one time.
 *
 * Contracts:
 * - `encoded` is the object's UTF-8 JSON (exactly JSON.stringify of it, resourceVersion
 *   included), one latin1 char per byte (V8 keeps such strings at one byte a char).
 * - object() decodes on demand and returns an adopted object (./cached-object.ts: deep-frozen,
 *   shared, its encoding the stored bytes, so responses write them without stringifying).
 *   An object decoded a second time is remembered in a small process-wide set (CLOCK: an object
 *   read again since the hand last passed stays), so a hot object is decoded twice, not per
 *   read; the others are dropped and decoded again when next read (equal, not identical,
 *   objects). A single pass over many objects (an informer's relist) remembers none of them, so
 *   they die young instead of filling V8's old generation with garbage.
 * - An entry never changes: a new state of the key is a new entry.
 * - matches(entry, predicate) runs a selector on the stored attributes without decoding; a
 *   predicate that reads anything else (a selectable field of spec, say) gets the decoded object.
 */
import type { KubeObject } from '../../api/meta.js';
import { adoptEncoded, encodedLatin1, latin1OfUtf8 } from './cached-object.js';

const ASCII = 1;
/** Read since the CLOCK hand last passed it. */
const HOT = 2;
/** Decoded once before: the next decode is remembered. */
const SEEN = 4;
/** A state at or above this: the entry is in the decoded set, at slot state − IN_SET. */
const IN_SET = 8;

export class CacheEntry {
  /**
   * One small integer (a field less per entry than an object field beside the flags): the flags
   * (ASCII, HOT, SEEN) while the entry is not in the decoded set; IN_SET + its slot while it is,
   * its flags and decoded object then kept by the slot. Internal to this module.
   */
  state: number;

  constructor(
    /** UTF-8 JSON bytes, one latin1 char per byte. */
    readonly encoded: string,
    ascii: boolean,
    readonly name: string | undefined,
    readonly namespace: string | undefined,
    readonly labels: Readonly<Record<string, string>> | undefined,
  ) {
    this.state = ascii ? ASCII : 0;
  }

  /**
   * The key, when it is not `<namespace>/<name>` (or `<name>` without a namespace) of the
   * entry's own attributes (a KeyedCacheEntry); undefined (no string kept, and no field: 8 bytes
   * an entry) when it is, which is nearly always.
   */
  get ownKey(): string | undefined {
    return undefined;
  }

  /** The key the entry is kept under (a new string per read when it is derived). */
  get key(): string {
    return this.namespace ? `${this.namespace}/${this.name}` : this.name!;
  }

  /** The decoded object while the entry is in the decoded set. */
  get decoded(): KubeObject | undefined {
    const state = this.state;
    return state >= IN_SET ? slotObjects[state - IN_SET] : undefined;
  }

  /** The object (adopted: frozen, shared), decoded on demand. */
  object(): KubeObject {
    const state = this.state;
    if (state >= IN_SET) {
      slotFlags[state - IN_SET] |= HOT;
      return slotObjects[state - IN_SET]!;
    }
    const json = state & ASCII ? this.encoded : Buffer.from(this.encoded, 'latin1').toString('utf8');
    const parsed = JSON.parse(json) as KubeObject;
    shareAttributes(parsed, this);
    const obj = adoptEncoded(parsed, this.encoded);
    if (state & SEEN) remember(this, obj);
    else this.state = state | SEEN;
    return obj;
  }

  /** The JSON bytes (a new Buffer). */
  bytes(): Buffer {
    return Buffer.from(this.encoded, 'latin1');
  }
}

/** An entry whose key is not derived from its namespace and name: it keeps the key string. */
class KeyedCacheEntry extends CacheEntry {
  constructor(
    private readonly keyString: string,
    encoded: string,
    ascii: boolean,
    name: string | undefined,
    namespace: string | undefined,
    labels: Readonly<Record<string, string>> | undefined,
  ) {
    super(encoded, ascii, name, namespace, labels);
  }

  override get ownKey(): string {
    return this.keyString;
  }

  override get key(): string {
    return this.keyString;
  }
}

/**
 * Lets a decoded object share the entry's name, namespace and labels (equal: both come from the
 * same bytes; the labels map may be another entry's with an equal set, see shareLabels), so that
 * copies readers keep of them (the controllers' metadata informers) hold no strings of their own.
 */
function shareAttributes(obj: KubeObject, entry: CacheEntry): void {
  const meta = obj.metadata as KubeObject['metadata'] | undefined;
  if (typeof meta !== 'object' || meta === null) return;
  if (entry.name !== undefined && meta.name === entry.name) meta.name = entry.name;
  if (entry.namespace !== undefined && meta.namespace === entry.namespace) meta.namespace = entry.namespace;
  if (entry.labels !== undefined && meta.labels !== undefined) meta.labels = entry.labels;
}

/**
 * The entry of an adopted object under key. With `keep`, the object itself is remembered as the
 * entry's decoded object (a change just applied: watchers and readers share it). With `flatKey`,
 * key is already a flat string another entry holds (the key's previous entry), and is shared
 * when the entry must keep its key (see ownKey).
 */
export function entryOf(key: string, obj: KubeObject, keep: boolean, flatKey = false): CacheEntry {
  const { encoded, ascii } = encodedLatin1(obj);
  const meta = obj.metadata as KubeObject['metadata'] | undefined;
  const labels = shareLabels(meta?.labels);
  const name = meta?.name;
  const namespace = intern(meta?.namespace);
  const entry = isDerivedKey(key, namespace, name)
    ? new CacheEntry(encoded, ascii, name, namespace, labels)
    : new KeyedCacheEntry(flatKey ? key : flat(key), encoded, ascii, name, namespace, labels);
  if (keep) remember(entry, obj);
  return entry;
}

/**
 * Label sets recently seen → one frozen map each, shared by the entries with an equal set
 * (equal keys, values and key order). Objects of one workload carry the same labels (a
 * ReplicaSet's pods, a Deployment's ReplicaSets) and sit next to each other in key order, so
 * most entries share a map instead of holding one of 40+ bytes each. Bounded: when full it
 * starts afresh (a set seen again is shared from then on).
 */
const labelSets = new Map<string, Readonly<Record<string, string>>>();
export const MAX_LABEL_SETS = 1024;

function shareLabels(labels: Readonly<Record<string, string>> | undefined): Readonly<Record<string, string>> | undefined {
  if (!labels || typeof labels !== 'object') return labels;
  Object.freeze(labels);
  let id: string;
  try {
    id = JSON.stringify(labels);
  } catch {
    return labels;
  }
  const known = labelSets.get(id);
  if (known !== undefined) return known;
  if (labelSets.size >= MAX_LABEL_SETS) labelSets.clear();
  labelSets.set(id, labels);
  return labels;
}

// ---- the decoded set (process-wide, bounded) ----

/** How many decoded objects are kept across every cache (a LIST of 500 objects is served without decoding). */
export const DECODED_CAPACITY = 1024;
/** Per slot: the entry, its decoded object, and its flags while it is in the set. */
const slots: Array<CacheEntry | undefined> = new Array(DECODED_CAPACITY);
const slotObjects: Array<KubeObject | undefined> = new Array(DECODED_CAPACITY);
const slotFlags = new Uint8Array(DECODED_CAPACITY);
let hand = 0;

/** Puts an entry that is not in the set (state < IN_SET) into it, with its decoded object. */
function remember(entry: CacheEntry, obj: KubeObject): void {
  for (let passed = 0; ; passed++) {
    const victim = slots[hand];
    if (victim === undefined) break;
    if (slotFlags[hand]! & HOT && passed < DECODED_CAPACITY) {
      slotFlags[hand]! &= ~HOT;
      hand = (hand + 1) % DECODED_CAPACITY;
      continue;
    }
    // The victim leaves the set with its flags (HOT too, when the hand passed every slot).
    victim.state = slotFlags[hand]!;
    break;
  }
  slots[hand] = entry;
  slotObjects[hand] = obj;
  slotFlags[hand] = entry.state;
  entry.state = IN_SET + hand;
  hand = (hand + 1) % DECODED_CAPACITY;
}

/** Drops every remembered decoded object (tests; a server shutting its caches down). */
export function forgetDecoded(): void {
  for (let i = 0; i < DECODED_CAPACITY; i++) {
    const entry = slots[i];
    if (entry) entry.state = slotFlags[i]!;
    slots[i] = undefined;
    slotObjects[i] = undefined;
    slotFlags[i] = 0;
  }
  hand = 0;
}

/**
 * Whether key is `<namespace>/<name>` (`<name>` for no or an empty namespace), so that splitting
 * it at its first '/' gives them back: the namespace holds no '/', nor does a name without one.
 */
export function isDerivedKey(key: string, namespace: string | undefined, name: string | undefined): boolean {
  if (typeof name !== 'string') return false;
  if (typeof namespace === 'string' && namespace !== '') {
    const n = namespace.length;
    return key.length === n + 1 + name.length && key.charCodeAt(n) === 47 && key.startsWith(namespace) && key.endsWith(name) && !namespace.includes('/');
  }
  return (namespace === undefined || namespace === '') && key === name && !name.includes('/');
}

/**
 * key as a flat sequential string: a key built by concatenation is a tree of cons strings, and
 * flattening it in place (as comparisons do) leaves the cons cells alive next to the flat copy.
 */
function flat(key: string): string {
  if (key.length < 13) return key;
  const { encoded, ascii } = latin1OfUtf8(key);
  return ascii ? encoded : Buffer.from(key, 'utf8').toString('utf8');
}

/** Namespaces are few: entries share one string per namespace. */
const namespaces = new Map<string, string>();
const MAX_INTERNED = 10_000;

function intern(namespace: string | undefined): string | undefined {
  if (typeof namespace !== 'string') return namespace;
  const known = namespaces.get(namespace);
  if (known !== undefined) return known;
  if (namespaces.size < MAX_INTERNED) namespaces.set(namespace, namespace);
  return namespace;
}

// ---- selectors on stored attributes ----

/** Set when a predicate read something the attributes view does not hold. */
let missed = false;

function miss(): undefined {
  missed = true;
  return undefined;
}

const METADATA_FIELDS = new Set(['name', 'namespace', 'labels']);

/** Handlers of the attribute views: every read outside metadata.{name,namespace,labels} is a miss. */
const strictHandler = (read: (entry: CacheEntry, prop: string) => unknown, known: (prop: string | symbol) => boolean): ProxyHandler<CacheEntry> => ({
  get: (entry, prop) => (known(prop) ? read(entry, prop as string) : miss()),
  has: () => miss() ?? false,
  ownKeys: () => (miss(), []),
  getOwnPropertyDescriptor: () => miss(),
  getPrototypeOf: () => (miss(), Object.prototype),
  set: () => (miss(), false),
  defineProperty: () => (miss(), false),
  deleteProperty: () => (miss(), false),
});

const metadataHandler = strictHandler(
  (entry, prop) => (prop === 'name' ? entry.name : prop === 'namespace' ? entry.namespace : entry.labels),
  (prop) => typeof prop === 'string' && METADATA_FIELDS.has(prop),
);
const objectHandler = strictHandler(
  (entry) => new Proxy(entry, metadataHandler),
  (prop) => prop === 'metadata',
);

/**
 * Whether the entry's object passes predicate (kube's filter on GetAttrs): evaluated on a view
 * holding only metadata.name, metadata.namespace and metadata.labels when that is all the
 * predicate reads, else (or when it throws) on the decoded object.
 */
export function entryMatches(entry: CacheEntry, predicate: (obj: KubeObject) => boolean): boolean {
  const decoded = entry.decoded;
  if (decoded !== undefined) return predicate(decoded);
  missed = false;
  let result: boolean;
  try {
    result = predicate(new Proxy(entry, objectHandler) as unknown as KubeObject);
  } catch {
    missed = true;
    result = false;
  }
  if (!missed) return result;
  missed = false;
  return predicate(entry.object());
}
