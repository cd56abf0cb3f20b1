/**
 * APIInstaller (kube's endpoints.APIInstaller + the generic registry wiring): for each resource of
 * a group/version, compiles its validator from the group/version's OpenAPI v3 document, builds its
 * strategy and store (and the status store), and registers the RequestScope the dispatcher serves.
 * Generated `routes/<group>/<version>.ts` modules call installGroupVersion.
 */
import { readFileSync } from 'node:fs';
import type { AdmissionChain } from '../admission/chain.js';
import { join } from 'node:path';
import { apiVersionOf, type GroupVersionDefinition, type ResourceDefinition } from '../api/resource.js';
import type { RequestScope } from '../endpoints/handler.js';
import { newFieldManager } from '../endpoints/fieldmanager/index.js';
import type { ResourceRegistration } from '../registry/define.js';
import { isNamespaceResource, newNamespaceLifecycle, withNamespaceStrategy } from '../registry/namespaces.js';
import { rbacResourceOf, withRBACStrategy } from '../authorization/strategy.js';
import { Store } from '../registry/store.js';
import { newCustomResourceStrategy, newStatusStrategy, type RESTStrategy, type StrategyConfig } from '../registry/strategy.js';
import { Cachers, type SharedCacherOptions } from '../storage/cacher/index.js';
import type { Storage } from '../storage/interface.js';
import { resourcePrefix } from '../storage/keys.js';
import { compileSchemaValidator } from '../validation/index.js';

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
}

type Schemas = Parameters<typeof compileSchemaValidator>[0];

function gvKey(group: string, version: string): string {
  return `${group}/${version}`;
}

export class APIInstaller {
  private readonly scopes = new Map<string, Map<string, RequestScope>>();
  private readonly installed: GroupVersionDefinition[] = [];
  private readonly namespaceLifecycle;
  /** The watch caches the stores read through (kube's cacher per resource), unless disabled. */
  readonly cachers?: Cachers;

  constructor(private readonly options: APIInstallerOptions) {
    this.namespaceLifecycle = newNamespaceLifecycle(options.storage, options.keyRoot);
    if (options.watchCache !== false) this.cachers = new Cachers(options.storage, options.watchCache || {});
  }

  /** Stops the watch caches and their watches (the storage itself stays open). */
  async close(): Promise<void> {
    await this.cachers?.close();
  }

  installGroupVersion(gv: GroupVersionDefinition, resources: ResourceRegistration[]): void {
    const key = gvKey(gv.group, gv.version);
    if (this.scopes.has(key)) throw new Error(`group/version ${apiVersionOf(gv.group, gv.version)} is already installed`);
    const schemas = this.loadSchemas(gv);
    const byResource = new Map<string, RequestScope>();
    for (const registration of resources) {
      const { definition } = registration;
      if (definition.group !== gv.group || definition.version !== gv.version) {
        throw new Error(`resource ${definition.plural} (${apiVersionOf(definition.group, definition.version)}) installed into ${apiVersionOf(gv.group, gv.version)}`);
      }
      const scope = this.buildScope(definition, schemas);
      // Hooks are read per request: user code may attach them after installation.
      scope.admission = this.options.admission?.forResource(definition, () => registration.admissionHooks?.() ?? []);
      byResource.set(definition.plural, scope);
    }
    this.scopes.set(key, byResource);
    this.installed.push(gv);
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
    return new Store({ definition: scope.definition, storage: this.options.storage, strategy: scope.store.strategy, keyRoot: this.options.keyRoot });
  }

  /** The store of core/v1 namespaces, when installed. */
  namespaceStore(): Store | undefined {
    return this.lookup('', 'v1', 'namespaces')?.store;
  }

  private loadSchemas(gv: GroupVersionDefinition): Schemas {
    const path = join(this.options.generatedDir, gv.openapiPath);
    let doc: { components?: { schemas?: Schemas } };
    try {
      doc = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new Error(`cannot read the OpenAPI document of ${apiVersionOf(gv.group, gv.version)} at ${path}: ${(err as Error).message}`);
    }
    return doc.components?.schemas ?? {};
  }

  private buildScope(definition: ResourceDefinition, schemas: Schemas): RequestScope {
    const validator = compileSchemaValidator(schemas, definition.schemaName);
    const namespaces = isNamespaceResource(definition);
    const rbac = rbacResourceOf(definition);
    // RBAC names are path segments (`system:discovery`), as kube's ValidateRBACName.
    const config: StrategyConfig = { definition, validator, nameValidation: namespaces ? 'DNS1123Label' : rbac ? 'PathSegmentName' : undefined };
    let strategy: RESTStrategy = newCustomResourceStrategy(config);
    if (namespaces) strategy = withNamespaceStrategy(strategy);
    if (rbac) strategy = withRBACStrategy(strategy, rbac);
    const store = new Store({
      definition,
      storage: this.cachers?.for(resourcePrefix(definition.group, definition.plural, this.options.keyRoot)) ?? this.options.storage,
      strategy,
      namespaceLifecycle: this.namespaceLifecycle,
      keyRoot: this.options.keyRoot,
    });
    const scope: RequestScope = { definition, apiVersion: apiVersionOf(definition.group, definition.version), store, validator };
    scope.fieldManager = newFieldManager(definition, schemas as Record<string, unknown>);
    if (definition.subresources.status) scope.statusStore = store.withUpdateStrategy(newStatusStrategy(strategy, config));
    return scope;
  }
}
