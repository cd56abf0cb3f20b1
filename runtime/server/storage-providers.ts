/**
 * What a control plane adds to the generic store of one resource (kube's RESTStorageProvider, one
 * per API group, each building its resources' storage with their own strategies). The generic
 * installer knows no kinds: every resource gets the generic strategy, then the provider registered
 * for its group and resource (if any) decorates it. kgen's control plane builds its table in
 * runtime/controlplane/storage-providers.ts; an embedder may pass its own.
 */
import type { KubeObject } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import type { RESTStrategy, StatusResets } from '../registry/strategy.js';
import type { NameValidation } from '../validation/objectmeta.js';
import type { Storage } from '../storage/interface.js';

/** What a provider may use while building a resource's strategy. */
export interface StorageProviderContext {
  definition: ResourceDefinition;
  /** The server's storage itself (not the watch cache): for allocators that list what is stored. */
  storage: Storage;
  /** The storage key root (`/registry` by default). */
  keyRoot?: string;
}

export interface ResourceStorageProvider {
  /** How object names are validated (kube's per-kind ValidateName); default DNS-1123 subdomain. */
  nameValidation?: NameValidation;
  /**
   * false for a kind whose kube strategy leaves metadata.generation alone (see
   * StrategyConfig.tracksGeneration); the generic strategy's custom-resource rule otherwise.
   */
  tracksGeneration?: boolean;
  /** Wraps the generic strategy with the kind's own (defaulting, validation, allocation). */
  strategy?(base: RESTStrategy, context: StorageProviderContext): RESTStrategy;
  /** Wraps the `…/status` strategy (kube's statusStrategy: the kind's status validation). */
  statusStrategy?(base: RESTStrategy): RESTStrategy;
  /**
   * What a `…/status` write resets to the old object, when it is less than everything but status
   * (see StatusResets): both the status strategy and the field manager take it.
   */
  statusResets?: StatusResets;
  /**
   * The resource is another resource seen through another schema (events.k8s.io/v1 Events are
   * core/v1 Events): it shares that resource's storage prefix and watch cache, and `wrap`
   * converts between the two.
   */
  storedAs?: { group: string; plural: string; wrap(storage: Storage): Storage };
  /**
   * The `…/scale` Scale's status.selector, for a kind whose selector is a metav1.LabelSelector
   * rather than a string at labelSelectorPath (kube's Deployment REST formats spec.selector).
   */
  scaleSelector?(obj: KubeObject): string | undefined;
}

/** Providers by `group/resource` (core group ''). */
export type StorageProviders = ReadonlyMap<string, ResourceStorageProvider>;

export function storageProviderKey(group: string, plural: string): string {
  return `${group}/${plural}`;
}

export function storageProviderFor(providers: StorageProviders | undefined, definition: Pick<ResourceDefinition, 'group' | 'plural'>): ResourceStorageProvider | undefined {
  return providers?.get(storageProviderKey(definition.group, definition.plural));
}
