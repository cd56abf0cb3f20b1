/**
 * Typed listers over an informer's Indexer, as lister-gen's: `list(selector)` across the cache,
 * `get(name)`, and `namespace(ns).list()/get()` for namespaced resources. Reads never touch the
 * server. A selector is a label selector in kube's syntax (or a parsed LabelSelector). Returned
 * objects are the cache's own: do not mutate them.
 */
import type { APIObject } from '../../../runtime/api/meta.js';
import { parseLabelSelector, type LabelSelector } from '../../../runtime/api/labels.js';
import { NAMESPACE_INDEX, type Indexer } from './indexer.js';
import type { ResourceInfo } from './types.js';

export type Selector = string | LabelSelector;

export class Lister<T extends APIObject> {
  /**
   * `namespace`: the one namespace the informer watches, if any; get(name) then looks there,
   * and list() covers only it (the cache holds nothing else).
   */
  constructor(
    private readonly indexer: Indexer<T>,
    readonly resource: ResourceInfo,
    private readonly scope?: string,
  ) {}

  /** Every cached object the label selector matches (all of them without one). */
  list(selector?: Selector): T[] {
    return filter(this.indexer.list(), selector);
  }

  /**
   * The cached object, or undefined. For a namespaced resource, name is `<namespace>/<name>`, or
   * a bare name when the informer watches one namespace.
   */
  get(name: string): T | undefined {
    if (!this.resource.namespaced || name.includes('/')) return this.indexer.getByKey(name);
    if (this.scope) return this.indexer.getByKey(`${this.scope}/${name}`);
    throw new Error(`${this.resource.plural} is namespaced: use namespace(ns).get(${JSON.stringify(name)}) or "<namespace>/<name>"`);
  }

  /** The objects of one namespace. */
  namespace(namespace: string): NamespaceLister<T> {
    if (!this.resource.namespaced) throw new Error(`${this.resource.plural} is cluster-scoped and has no namespaces`);
    return new NamespaceLister(this.indexer, namespace);
  }
}

export class NamespaceLister<T extends APIObject> {
  constructor(
    private readonly indexer: Indexer<T>,
    readonly namespace: string,
  ) {}

  list(selector?: Selector): T[] {
    return filter(this.indexer.byIndex(NAMESPACE_INDEX, this.namespace), selector);
  }

  get(name: string): T | undefined {
    return this.indexer.getByKey(`${this.namespace}/${name}`);
  }
}

function filter<T extends APIObject>(items: T[], selector: Selector | undefined): T[] {
  if (selector === undefined || selector === '') return items;
  const parsed = typeof selector === 'string' ? parseLabelSelector(selector) : selector;
  if (parsed.empty()) return items;
  return items.filter((obj) => parsed.matches(obj.metadata?.labels));
}
