/**
 * Where an informer finds the last known state of each object: its own cache of the objects
 * (the default), or an index its consumer keeps anyway (the GC graph), so that the informer holds
 * no second copy of every object.
 */
import type { KubeObject } from '../api/meta.js';
import type { Store } from '../registry/store.js';

/** Canonical decimals below 2^30 (V8 small integers) become numbers (no string kept); anything else stays as is. */
export function compactVersion(rv: string | undefined): number | string | undefined {
  return rv !== undefined && rv.length <= 9 && /^(0|[1-9][0-9]*)$/.test(rv) ? Number(rv) : rv;
}

export function expandVersion(version: number | string | undefined): string | undefined {
  return typeof version === 'number' ? String(version) : version;
}

/** One object as an external index holds it. */
export interface IndexedObject {
  readonly uid: string;
  /** Undefined for a cluster-scoped object. */
  readonly namespace: string | undefined;
  readonly name: string;
  /** The resourceVersion last delivered, as compactVersion gives it. */
  readonly version: number | string | undefined;
}

/**
 * Objects kept by an informer's consumer (the garbage collector's graph, as kube's GraphBuilder
 * keeps its uidToNode): an informer given one keeps no copy of its own and reads its last known
 * state there. Contract: the consumer's handlers, registered before the informer starts, record
 * synchronously every object added or updated (by uid) and forget every object deleted.
 */
export interface InformerIndex {
  /**
   * The consumer records only some of the objects delivered (the GC's graph keeps nodes only for
   * the objects it needs: see DependencyGraph). The informer then tells an add from an update by
   * the watch event's type (an in-process watch from a resourceVersion misses no event), hands
   * every watch deletion over, and, as a relist can report deleted only what the index held,
   * calls its handlers' onRelist after every relist that follows a broken watch.
   */
  readonly partial?: boolean;
  /** The object of this uid, when it was last delivered by `store`'s informer. */
  find(store: Store, uid: string): IndexedObject | undefined;
  /** Every object last delivered by `store`'s informer. */
  objectsOf(store: Store): IndexedObject[];
}

/** The last known state of one object, wherever the informer finds it. */
export interface Known {
  readonly key: string;
  readonly uid: string | undefined;
  readonly resourceVersion: string | undefined;
  /** The object held, or a stub (name, namespace, uid, resourceVersion) when only an index entry is. */
  object(): KubeObject;
}

/** `<namespace>/<name>` (client-go's key; '' for no namespace). */
export function keyOf(namespace: string | undefined, name: string | undefined): string {
  return namespace ? `${namespace}/${name ?? ''}` : (name ?? '');
}

/** Where an informer's last known states live: its own cache, or its consumer's index. */
export interface KnownStates {
  /** Holds only some of the objects delivered (see InformerIndex.partial). */
  readonly partial: boolean;
  /** The state of received's object (by key in a cache, by uid in an index). */
  find(received: KubeObject): Known | undefined;
  all(): Known[];
  /** Records a delivered object (a no-op over an index: its owner records it). */
  set(kept: KubeObject): void;
  delete(known: Known): void;
}

/**
 * The informer's own objects by namespace, then name (client-go's `<namespace>/<name>` keys,
 * without a key string per object: the names are the objects' own).
 */
export class ObjectCache implements KnownStates {
  readonly partial = false;
  private readonly byNamespace = new Map<string, Map<string, KubeObject>>();

  find(obj: KubeObject): Known | undefined {
    const held = this.byNamespace.get(obj.metadata.namespace ?? '')?.get(obj.metadata.name ?? '');
    return held && knownObject(held);
  }

  all(): Known[] {
    const out: Known[] = [];
    for (const names of this.byNamespace.values()) for (const obj of names.values()) out.push(knownObject(obj));
    return out;
  }

  set(obj: KubeObject): void {
    const namespace = obj.metadata.namespace ?? '';
    let names = this.byNamespace.get(namespace);
    if (!names) this.byNamespace.set(namespace, (names = new Map()));
    names.set(obj.metadata.name ?? '', obj);
  }

  delete(known: Known): void {
    const obj = known.object();
    const namespace = obj.metadata.namespace ?? '';
    const names = this.byNamespace.get(namespace);
    if (names?.delete(obj.metadata.name ?? '') && names.size === 0) this.byNamespace.delete(namespace);
  }
}

function knownObject(obj: KubeObject): Known {
  const { namespace, name, uid, resourceVersion } = obj.metadata;
  return { key: keyOf(namespace, name), uid, resourceVersion, object: () => obj };
}

/** The states an InformerIndex holds for one store. */
export class IndexedStates implements KnownStates {
  constructor(
    private readonly index: InformerIndex,
    private readonly store: Store,
  ) {
    this.partial = index.partial === true;
  }

  readonly partial: boolean;

  find(received: KubeObject): Known | undefined {
    const uid = received.metadata.uid;
    const entry = uid ? this.index.find(this.store, uid) : undefined;
    return entry && this.known(entry);
  }

  all(): Known[] {
    return this.index.objectsOf(this.store).map((entry) => this.known(entry));
  }

  set(): void {}

  delete(): void {}

  private known(entry: IndexedObject): Known {
    const resourceVersion = expandVersion(entry.version);
    const { group, version, kind } = this.store.definition;
    return {
      key: keyOf(entry.namespace, entry.name),
      uid: entry.uid,
      resourceVersion,
      object: () => {
        const metadata: KubeObject['metadata'] = { name: entry.name };
        if (entry.namespace !== undefined) metadata.namespace = entry.namespace;
        metadata.uid = entry.uid;
        if (resourceVersion !== undefined) metadata.resourceVersion = resourceVersion;
        return { apiVersion: group ? `${group}/${version}` : version, kind, metadata };
      },
    };
  }
}

