/**
 * APIInstaller (kube's endpoints.APIInstaller + the generic registry wiring): for each resource of
 * a group/version, builds its strategy and store (and the status store) and registers the
 * RequestScope the dispatcher serves. The validator and field manager come from the group/version's
 * OpenAPI v3 document and are compiled on the resource's first use (see schemas.ts), so start-up
 * does not grow with the schemas. Generated `routes/<group>/<version>.ts` modules call
 * installGroupVersion.
 */
import type { KubeObject } from '../api/meta.js';
import type { SubresourceHandler } from '../api/subresources.js';
import { registerCustomSubresource } from './filters/context.js';
import type { AdmissionChain } from '../admission/chain.js';
import { apiVersionOf, type GroupVersionDefinition, type ResourceDefinition } from '../api/resource.js';
import type { RequestScope } from '../endpoints/handler.js';
import type { ResourceRegistration } from '../registry/define.js';
import { newNamespaceLifecycle } from '../registry/namespaces.js';
import { Store } from '../registry/store.js';
import { newCustomResourceStrategy, newStatusStrategy, type RESTStrategy, type StrategyConfig } from '../registry/strategy.js';
import { Cachers, type SharedCacherOptions } from '../storage/cacher/index.js';
import type { Storage } from '../storage/interface.js';
import { objectKey, resourcePrefix } from '../storage/keys.js';
import { storageForVersion } from '../conversion/storage.js';
import type { KindConversion } from '../conversion/conversion.js';
import type { VersionConverter, VersionDefaulter } from '../api/auth.js';
import type { SchemaValidator } from '../validation/index.js';
import { groupVersionSchemas, Lazy, lazyFieldManager, lazyValidator, type Schemas } from './schemas.js';
import type { APIEnablement } from './api-enablement.js';
import { registerProtobufMessage } from '../endpoints/protobuf-registry.js';
import { protobufMessageFor } from '../endpoints/protobuf-schema.js';
import { storageProviderFor, type StorageProviders } from './storage-providers.js';

export interface APIInstallerOptions {
  /** The generated directory; openapiPath of each group/version is relative to it. */
  generatedDir: string;
  storage: Storage;
  /** Storage key root, `/registry` by default. */
  keyRoot?: string;
  /** Options of the per-resource watch caches; false serves every read from storage. */
  watchCache?: SharedCacherOptions | false;
  /** Admission of every write; each resource's typed hooks (from its registration) join it. */
  admission?: AdmissionChain;
  /** Which groups to install (an aggregated server installs only its own); default all. */
  serveGroup?: (group: string) => boolean;
  /** NamespaceLifecycle admission (default true; --disable-admission-plugins, and off where Namespace is not served). */
  namespaceLifecycle?: boolean;
  /** --runtime-config: group/versions it disables are not installed (see checkEnablement). */
  enablement?: APIEnablement;
  /**
   * What the control plane adds to each resource's generic store (kube's RESTStorageProviders):
   * per-kind strategies, name rules, shared storage. Absent: every resource is served with the
   * generic strategy, as a custom resource is.
   */
  storageProviders?: StorageProviders;
}

function gvKey(group: string, version: string): string {
  return `${group}/${version}`;
}

export class APIInstaller {
  private readonly scopes = new Map<string, Map<string, RequestScope>>();
  private readonly installed: GroupVersionDefinition[] = [];
  private readonly namespaceLifecycle;
  /** Every scope's lazily compiled validator and field manager, for verifySchemas(). */
  private readonly compiledSchemas: Lazy<unknown>[] = [];
  /** The watch caches the stores read through (kube's cacher per resource), unless disabled. */
  readonly cachers?: Cachers;
  /** The conversion of each scope of a multi-version kind. */
  private readonly conversions = new WeakMap<RequestScope, KindConversion>();
  /** Group/versions --runtime-config turned off, with what they would have installed. */
  private readonly disabled: { gv: GroupVersionDefinition; resources: ResourceRegistration[] }[] = [];

  constructor(private readonly options: APIInstallerOptions) {
    this.namespaceLifecycle = options.namespaceLifecycle === false ? undefined : newNamespaceLifecycle(options.storage, options.keyRoot, () => this.cachers);
    if (options.watchCache !== false) this.cachers = new Cachers(options.storage, options.watchCache || {});
  }

  /** Stops the watch caches and their watches (the storage itself stays open). */
  async close(): Promise<void> {
    await this.cachers?.close();
  }

  installGroupVersion(gv: GroupVersionDefinition, resources: ResourceRegistration[]): void {
    if (this.options.serveGroup && !this.options.serveGroup(gv.group)) return;
    const key = gvKey(gv.group, gv.version);
    if (this.scopes.has(key)) throw new Error(`group/version ${apiVersionOf(gv.group, gv.version)} is already installed`);
    if (this.options.enablement && !this.options.enablement.enabled(gv.group, gv.version)) {
      this.disabled.push({ gv, resources });
      return;
    }
    const schemas = this.loadSchemas(gv);
    const byResource = new Map<string, RequestScope>();
    for (const registration of resources) {
      const { definition } = registration;
      if (definition.group !== gv.group || definition.version !== gv.version) {
        throw new Error(`resource ${definition.plural} (${apiVersionOf(definition.group, definition.version)}) installed into ${apiVersionOf(gv.group, gv.version)}`);
      }
      // A kind declared in several versions: each version's store converts to and from the shared storage.
      const { conversion } = registration;
      const scope = this.buildScope(definition, schemas, conversion && ((storage) => storageForVersion(storage, conversion, definition.version)));
      if (conversion) {
        this.conversions.set(scope, conversion);
        scope.versionConverter = compiledVersionConverter(conversion, definition.version);
      }
      scope.versionDefaulter = this.compiledVersionDefaulter(definition, conversion);
      // Hooks are read per request: user code may attach them after installation.
      scope.admission = this.options.admission?.forResource(definition, () => registration.admissionHooks?.() ?? []);
      // Custom subresources: the user's handlers are read per request (--handlers modules attach them).
      for (const custom of definition.subresources.custom ?? []) {
        registerCustomSubresource(definition.group, definition.plural, custom.name, custom.verbs.includes('connect'));
        scope.subresourceHandler = (name) => registration.subresourceHandler?.(name) as SubresourceHandler<unknown, unknown> | undefined;
      }
      byResource.set(definition.plural, scope);
    }
    this.scopes.set(key, byResource);
    this.installed.push(gv);
  }

  /**
   * Checks --runtime-config against what was compiled, as kube does once the registry is known:
   * a version named for a compiled group must exist, and a kind's storage version may not be
   * disabled while another of its versions is served (objects are written in it). Objects stored
   * in a disabled version stay readable through the served ones (their conversion knows it).
   */
  checkEnablement(): void {
    const enablement = this.options.enablement;
    if (!enablement) return;
    const all = [...this.installed, ...this.disabled.map((d) => d.gv)];
    for (const { group, version } of enablement.named()) {
      const groupKnown = all.some((gv) => gv.group === group);
      if (groupKnown && !all.some((gv) => gv.group === group && gv.version === version)) {
        throw new Error(`runtime-config: group version ${apiVersionOf(group, version)} that has not been registered`);
      }
    }
    for (const { gv, resources } of this.disabled) {
      for (const { conversion, definition } of resources) {
        if (!conversion || conversion.storageVersion !== gv.version) continue;
        const served = conversion.versions.filter((v) => v !== gv.version && this.lookup(gv.group, v, definition.plural));
        if (served.length > 0) {
          throw new Error(
            `runtime-config: ${apiVersionOf(gv.group, gv.version)} cannot be disabled: it is the storage version of ${definition.plural}.${gv.group}, which ${apiVersionOf(gv.group, served[0]!)} still serves; move @kgen:storageversion (and run kgen migrate-storage) first`,
          );
        }
      }
    }
  }

  /** The prefixes of the paths of the group/versions --runtime-config turned off. */
  disabledPathPrefixes(): string[] {
    return this.disabled.map(({ gv }) => (gv.group === '' ? `/api/${gv.version}/` : `/apis/${gv.group}/${gv.version}/`));
  }

  /**
   * Compiles every installed resource's validator and field manager now instead of on first use;
   * throws the first failure (a 500 StatusError naming the document or schema).
   */
  verifySchemas(): void {
    for (const lazy of this.compiledSchemas) lazy.get();
  }

  /** The scope serving group/version/resource, if installed. */
  lookup(group: string, version: string, resource: string): RequestScope | undefined {
    return this.scopes.get(gvKey(group, version))?.get(resource);
  }

  /** Every installed group/version, in installation order (core first in generated code). */
  groupVersions(): readonly GroupVersionDefinition[] {
    return this.installed;
  }

  /**
   * A store of an installed resource over storage itself, bypassing the watch cache: for the
   * server's own long-lived list-and-watch (admission webhook configurations), which must not
   * count as a client's watcher.
   */
  uncachedStore(group: string, version: string, resource: string): Store | undefined {
    const scope = this.lookup(group, version, resource);
    if (!scope) return undefined;
    const storage = storageForVersion(this.options.storage, this.conversions.get(scope), scope.definition.version);
    return new Store({ definition: scope.definition, storage, strategy: scope.store.strategy, keyRoot: this.options.keyRoot });
  }

  /**
   * A resource defined at run time (a CustomResourceDefinition's served version, built by the
   * extensions server): the same strategy, store, validator, field manager and admission as a
   * compiled kind, from in-memory component schemas. It is not added to lookup(): the caller
   * serves it, and calls releaseDynamicResource when the resource goes. `wrapStorage` sits
   * between the store and its storage (version conversion).
   */
  buildDynamicScope(definition: ResourceDefinition, schemas: Schemas, wrapStorage?: (storage: Storage) => Storage): RequestScope {
    const before = this.compiledSchemas.length;
    const describe = () => `the schema of ${definition.plural}.${definition.group}/${definition.version}`;
    const scope = this.buildScope(definition, new Lazy(() => schemas, describe), wrapStorage);
    // Built and dropped at run time: not part of verifySchemas().
    this.compiledSchemas.length = before;
    scope.admission = this.options.admission?.forResource(definition);
    return scope;
  }

  /** Stops the watch cache of a resource built by buildDynamicScope (its versions share it). */
  async releaseDynamicResource(group: string, plural: string): Promise<void> {
    await this.cachers?.remove(resourcePrefix(group, plural, this.options.keyRoot));
  }

  /** The store of core/v1 namespaces, when installed. */
  namespaceStore(): Store | undefined {
    return this.lookup('', 'v1', 'namespaces')?.store;
  }

  /**
   * A compiled kind's VersionDefaulter (kube's scheme defaulter): an object in any version that
   * registers the kind gets that version's defaults, from the served version's validator or, for a
   * version --runtime-config disabled (kube's scheme still defaults it), one compiled on first use.
   */
  private compiledVersionDefaulter(definition: ResourceDefinition, conversion: KindConversion | undefined): VersionDefaulter {
    const { group, kind, plural } = definition;
    const versions = new Set(conversion?.versions ?? [definition.version]);
    const disabledValidators = new Map<string, SchemaValidator | undefined>();
    const validatorOf = (version: string): SchemaValidator | undefined => {
      const served = this.lookup(group, version, plural)?.validator;
      if (served) return served;
      if (!disabledValidators.has(version)) {
        const off = this.disabled.find(({ gv }) => gv.group === group && gv.version === version);
        const registration = off?.resources.find((r) => r.definition.plural === plural);
        disabledValidators.set(version, off && registration ? lazyValidator(registration.definition, this.loadSchemas(off.gv)).validator : undefined);
      }
      return disabledValidators.get(version);
    };
    return (obj) => {
      const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
      const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
      if (obj.kind !== kind || apiVersion !== apiVersionOf(group, version) || !versions.has(version)) return;
      validatorOf(version)?.applyDefaults(obj);
    };
  }

  /** The group/version's component schemas: its files must exist now; they are parsed on first use. */
  private loadSchemas(gv: GroupVersionDefinition): Lazy<Schemas> {
    return groupVersionSchemas(this.options.generatedDir, gv);
  }

  private buildScope(definition: ResourceDefinition, schemas: Lazy<Schemas>, wrapStorage?: (storage: Storage) => Storage): RequestScope {
    const { validator, compiled } = lazyValidator(definition, schemas);
    this.compiledSchemas.push(compiled);
    const provider = storageProviderFor(this.options.storageProviders, definition);
    const config: StrategyConfig = { definition, validator, nameValidation: provider?.nameValidation, tracksGeneration: provider?.tracksGeneration };
    let strategy: RESTStrategy = newCustomResourceStrategy(config);
    if (provider?.strategy) strategy = provider.strategy(strategy, { definition, storage: this.options.storage, keyRoot: this.options.keyRoot });
    const storedAs = provider?.storedAs;
    const prefix = resourcePrefix(storedAs?.group ?? definition.group, storedAs?.plural ?? definition.plural, this.options.keyRoot);
    const storage = this.cachers?.for(prefix) ?? this.options.storage;
    if (storedAs) wrapStorage = storedAs.wrap;
    const store = new Store({
      definition,
      resourcePrefix: storedAs ? prefix : undefined,
      storage: wrapStorage ? wrapStorage(storage) : storage,
      strategy,
      namespaceLifecycle: this.options.namespaceLifecycle === false ? undefined : this.namespaceLifecycle,
      keyRoot: this.options.keyRoot,
    });
    const scope: RequestScope = { definition, apiVersion: apiVersionOf(definition.group, definition.version), store, validator };
    if (provider?.scaleSelector) scope.scaleSelector = provider.scaleSelector;
    if (!definition.customResource) {
      // A document that cannot be read leaves the kind JSON-only; its writes report the error.
      const tables = () => {
        try {
          return protobufMessageFor(schemas.get() as Record<string, unknown>, definition.schemaName, definition.protobuf);
        } catch {
          return undefined;
        }
      };
      registerProtobufMessage(scope.apiVersion, definition.kind, tables);
    }
    const fieldManager = lazyFieldManager(definition, schemas, provider?.statusResets);
    this.compiledSchemas.push(fieldManager);
    Object.defineProperty(scope, 'fieldManager', { get: () => fieldManager.get(), enumerable: true, configurable: true });
    if (definition.subresources.status) {
      const statusStrategy = newStatusStrategy(strategy, config, provider?.statusResets);
      scope.statusStore = store.withUpdateStrategy(provider?.statusStrategy ? provider.statusStrategy(statusStrategy) : statusStrategy);
    }
    return scope;
  }
}

/**
 * A compiled kind's VersionConverter: a version that registers the kind (kube's scheme knows every
 * version of a built-in type, served or not) converts through the hub to `version`.
 */
function compiledVersionConverter(conversion: KindConversion, version: string): VersionConverter {
  return async (obj) => {
    const from = obj.kind === conversion.kind ? conversion.versionOf(obj) : undefined;
    return from === undefined ? undefined : conversion.convert(obj, from, version);
  };
}
