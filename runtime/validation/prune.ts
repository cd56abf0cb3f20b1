/**
 * Structural pruning, as apiextensions-apiserver's pkg/apiserver/schema/pruning does it: object
 * fields the schema does not declare are dropped, except under x-kubernetes-preserve-unknown-fields
 * (where declared fields are still pruned by their schemas) and in maps (additionalProperties).
 * At the resource root and in embedded resources apiVersion and kind are kept and metadata is
 * pruned as ObjectMeta. One walk serves both prune() and unknownFields(): it records the path of
 * each unknown field ('spec.foo', 'spec.items[0].bar') and deletes it only when asked to.
 */
import { isPlainObject, type SchemaNode } from './node.js';

const TYPE_META = new Set(['apiVersion', 'kind']);

export class PruneWalk {
  /** Paths of unknown fields, when collecting. */
  readonly found: string[] = [];

  /**
   * `keepMetadata`: apiVersion, kind and metadata of the resource root and embedded resources are
   * kept whole, whatever their schema, as kube's pruning keeps them (ObjectMeta decoding drops
   * metadata's unknown fields elsewhere); default validation uses it.
   */
  constructor(
    private readonly remove: boolean,
    private readonly collect: boolean,
    private readonly keepMetadata = false,
  ) {}

  private keeps(s: SchemaNode, key: string): boolean {
    if (this.keepMetadata) return (s.keepsTypeMeta || s.embedded) && (TYPE_META.has(key) || key === 'metadata');
    return s.keepsTypeMeta && TYPE_META.has(key);
  }

  prune(x: unknown, s: SchemaNode | undefined, path: string): void {
    if (s !== undefined && s.preserveUnknown) {
      this.skipPrune(x, s, path);
      return;
    }
    if (Array.isArray(x)) {
      const items = s?.items;
      for (let i = 0; i < x.length; i++) this.prune(x[i], items, this.collect ? `${path}[${i}]` : path);
      return;
    }
    if (!isPlainObject(x)) return;
    for (const key of Object.keys(x)) {
      const keyPath = this.collect ? (path === '' ? key : `${path}.${key}`) : path;
      if (s === undefined) {
        this.unknown(x, key, keyPath);
        continue;
      }
      if (this.keeps(s, key)) continue;
      const child = s.properties?.get(key);
      if (child !== undefined) this.prune(x[key], child, keyPath);
      else if (s.additional === true) continue;
      else if (typeof s.additional === 'object') this.prune(x[key], s.additional, keyPath);
      else this.unknown(x, key, keyPath);
    }
  }

  /** Under preserve-unknown-fields: declared fields are pruned by their schemas, the rest kept. */
  private skipPrune(x: unknown, s: SchemaNode, path: string): void {
    if (Array.isArray(x)) {
      const items = s.items;
      if (items === undefined) return;
      for (let i = 0; i < x.length; i++) this.skipPrune(x[i], items, this.collect ? `${path}[${i}]` : path);
      return;
    }
    if (!isPlainObject(x)) return;
    for (const key of Object.keys(x)) {
      if (this.keeps(s, key)) continue;
      const keyPath = this.collect ? (path === '' ? key : `${path}.${key}`) : path;
      const child = s.properties?.get(key);
      if (child !== undefined) this.prune(x[key], child, keyPath);
      else if (typeof s.additional === 'object') this.prune(x[key], s.additional, keyPath);
    }
  }

  private unknown(x: Record<string, unknown>, key: string, path: string): void {
    if (this.collect) this.found.push(path);
    if (this.remove) delete x[key];
  }
}
