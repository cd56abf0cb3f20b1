/**
 * Encryption at rest over any backend (kube's storage value transformers): objects of the
 * resources the EncryptionConfiguration names are stored sealed, everything else as before.
 *
 * A sealed object is stored as an envelope that keeps only what the backend itself reads in the
 * clear (apiVersion, kind, metadata name, namespace and uid: the key holds the first two anyway):
 *
 *   {"apiVersion":"v1","kind":"Secret","metadata":{"name":"s","namespace":"ns","uid":"…"},
 *    "k8s:enc":"<base64 of k8s:enc:aescbc:v1:key1:<iv><ciphertext>>"}
 *
 * The ciphertext is the whole object's JSON (data, annotations such as kubectl's
 * last-applied-configuration, managedFields). Reads open envelopes with whichever configured
 * provider's prefix they carry, and take plain objects only when identity is configured (kube
 * refuses to read a value no provider matches). The watch cache above holds opened objects, as
 * kube's does. An update that changes nothing is not written (the comparison is made before
 * sealing, as kube's GuaranteedUpdate compares untransformed bytes).
 */
import type { KubeObject } from '../../api/meta.js';
import { isDeepStrictEqual } from 'node:util';
import { StorageError, type DeleteOptions, type ListOptions, type Storage, type StorageEvent, type UpdateFunc, type UpdateOptions, type Watcher, type WatchOptions } from '../interface.js';
import { DEFAULT_STORAGE_PREFIX, resourcePrefix } from '../keys.js';
import type { EncryptionConfig, ResourceEncryption } from './config.js';
import { IDENTITY } from './transformers.js';

export const ENVELOPE_FIELD = 'k8s:enc';

interface Resource {
  root: string;
  encryption: ResourceEncryption;
}

function withoutResourceVersion(obj: KubeObject): KubeObject {
  const { resourceVersion: _rv, ...metadata } = obj.metadata ?? {};
  return { ...obj, metadata };
}

const ENVELOPE_KEYS = new Set(['apiVersion', 'kind', 'metadata', ENVELOPE_FIELD]);
const ENVELOPE_METADATA_KEYS = new Set(['name', 'namespace', 'uid', 'resourceVersion']);

/**
 * Whether a stored object is an envelope seal() made: nothing but apiVersion, kind, the envelope
 * field and metadata of name, namespace, uid and resourceVersion. An object a client wrote may
 * carry the envelope field too (a custom resource that keeps unknown fields), but never has that
 * shape: the registry gives every object a creationTimestamp. kube tells sealed values by their
 * bytes' prefix, which no JSON object has; this is the same guarantee, so identity stores and
 * reads such an object as written.
 */
function isEnvelope(stored: KubeObject): boolean {
  if (typeof stored[ENVELOPE_FIELD] !== 'string') return false;
  for (const key in stored) if (!ENVELOPE_KEYS.has(key)) return false;
  const metadata = stored.metadata;
  if (typeof metadata !== 'object' || metadata === null) return false;
  for (const key in metadata) if (!ENVELOPE_METADATA_KEYS.has(key)) return false;
  return true;
}

class Sealer {
  constructor(private readonly resource: Resource) {}

  /** The key an object of this resource is stored under (the authenticated data of aesgcm). */
  private keyOf(obj: KubeObject): string {
    const { namespace, name } = obj.metadata ?? {};
    return `${this.resource.root}${namespace ? `${namespace}/` : ''}${name ?? ''}`;
  }

  seal(obj: KubeObject): KubeObject {
    const writer = this.resource.encryption.providers[0]!;
    if (writer === IDENTITY) return obj;
    const plain = Buffer.from(JSON.stringify(withoutResourceVersion(obj)));
    const { name, namespace, uid, resourceVersion } = obj.metadata ?? {};
    const metadata: KubeObject['metadata'] = { name };
    if (namespace !== undefined) metadata.namespace = namespace;
    if (uid !== undefined) metadata.uid = uid;
    if (resourceVersion !== undefined) metadata.resourceVersion = resourceVersion;
    return { apiVersion: obj.apiVersion, kind: obj.kind, metadata, [ENVELOPE_FIELD]: writer.toStorage(plain, this.keyOf(obj)).toString('base64') };
  }

  open(stored: KubeObject): KubeObject {
    const key = this.keyOf(stored);
    if (!isEnvelope(stored)) {
      if (this.resource.encryption.providers.includes(IDENTITY)) return stored;
      throw new StorageError('InvalidObject', key, `no matching prefix found: ${key} is stored unencrypted and the identity provider is not configured`);
    }
    const bytes = Buffer.from(stored[ENVELOPE_FIELD] as string, 'base64');
    for (const provider of this.resource.encryption.providers) {
      if (provider === IDENTITY || !bytes.subarray(0, provider.prefix.length).equals(Buffer.from(provider.prefix))) continue;
      let obj: KubeObject;
      try {
        obj = JSON.parse(provider.fromStorage(bytes, key).toString('utf8')) as KubeObject;
      } catch (err) {
        throw new StorageError('InvalidObject', key, `${key} does not decrypt with ${provider.prefix.slice(0, -1)}: ${(err as Error).message}`);
      }
      obj.metadata = { ...obj.metadata, resourceVersion: stored.metadata?.resourceVersion };
      return obj;
    }
    throw new StorageError('InvalidObject', key, `no matching prefix found for ${key}: none of the configured providers encrypted it`);
  }
}

/** The resource (group, plural) a storage key or key prefix names: `/registry/<group|core>/<plural>/…`. */
function resourceOfKey(key: string): { group: string; resource: string } | undefined {
  if (!key.startsWith(`${DEFAULT_STORAGE_PREFIX}/`)) return undefined;
  const [group, resource] = key.slice(DEFAULT_STORAGE_PREFIX.length + 1).split('/');
  if (!group || !resource) return undefined;
  return { group: group === 'core' ? '' : group, resource };
}

/**
 * `backend` with the configured resources sealed. Everything else (revisions, compaction, health,
 * backend-specific capabilities) is the backend's own, so the wrapper is a Proxy of it.
 */
export function encryptingStorage(backend: Storage, config: EncryptionConfig): Storage {
  const sealers = new Map<string, Sealer | undefined>();
  const sealerFor = (key: string): Sealer | undefined => {
    const r = resourceOfKey(key);
    if (!r) return undefined;
    const id = `${r.group}/${r.resource}`;
    if (!sealers.has(id)) {
      const encryption = config.forResource(r.group, r.resource);
      sealers.set(id, encryption && new Sealer({ root: resourcePrefix(r.group, r.resource), encryption }));
    }
    return sealers.get(id);
  };
  const openPredicate = (s: Sealer, predicate?: (obj: KubeObject) => boolean) => predicate && ((obj: KubeObject) => predicate(s.open(obj)));

  const wrapped: Pick<Storage, 'create' | 'get' | 'getList' | 'guaranteedUpdate' | 'delete' | 'watch'> = {
    async create(key, obj) {
      const s = sealerFor(key);
      return s ? s.open(await backend.create(key, s.seal(obj))) : backend.create(key, obj);
    },
    async get(key, opts) {
      const s = sealerFor(key);
      const obj = await backend.get(key, opts);
      return s && obj ? s.open(obj) : obj;
    },
    async getList(keyPrefix, opts: ListOptions = {}) {
      const s = sealerFor(keyPrefix);
      if (!s) return backend.getList(keyPrefix, opts);
      const result = await backend.getList(keyPrefix, { ...opts, predicate: openPredicate(s, opts.predicate) });
      return { ...result, items: result.items.map((o) => s.open(o)) };
    },
    async guaranteedUpdate(key, opts: UpdateOptions, tryUpdate: UpdateFunc) {
      const s = sealerFor(key);
      if (!s) return backend.guaranteedUpdate(key, opts, tryUpdate);
      // The cache's guess is an opened object, not what the backend stored: let the backend read.
      const { cachedExistingObject: _guess, ...rest } = opts;
      const updated = await backend.guaranteedUpdate(key, rest, async (current) => {
        const opened = current && s.open(current);
        const next = await tryUpdate(opened);
        // Unchanged: hand back the stored value itself, so the backend sees a no-op.
        if (current && opened && isDeepStrictEqual(withoutResourceVersion(next), withoutResourceVersion(opened))) return current;
        return s.seal(next);
      });
      return s.open(updated);
    },
    async delete(key, opts: DeleteOptions = {}) {
      const s = sealerFor(key);
      if (!s) return backend.delete(key, opts);
      const validate = opts.validateDeletion;
      return s.open(await backend.delete(key, validate ? { ...opts, validateDeletion: (current) => validate(s.open(current)) } : opts));
    },
    watch(keyPrefix, opts: WatchOptions = {}): Watcher {
      const s = sealerFor(keyPrefix);
      if (!s) return backend.watch(keyPrefix, opts);
      const inner = backend.watch(keyPrefix, { ...opts, predicate: openPredicate(s, opts.predicate) });
      const open = (e: StorageEvent): StorageEvent => ({ ...e, object: s.open(e.object), ...(e.prevObject ? { prevObject: s.open(e.prevObject) } : {}) });
      return {
        stop: () => inner.stop(),
        async *[Symbol.asyncIterator]() {
          for await (const event of inner) yield open(event);
        },
      };
    },
  };
  return new Proxy(backend, {
    get(target, prop, receiver) {
      if (Object.prototype.hasOwnProperty.call(wrapped, prop)) return wrapped[prop as keyof typeof wrapped];
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
