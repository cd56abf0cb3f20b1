/**
 * The resources the controllers work on, as kube-controller-manager discovers them: one store per
 * group/resource (the storage version's; every version of a resource shares its storage), found
 * by group and kind for owner references.
 */
import type { RequestScope } from '../endpoints/handler.js';
import type { Store } from '../registry/store.js';
import { isNamespaceResource } from '../registry/namespaces.js';

/** What the controllers need from the installer (APIInstaller satisfies it). */
export interface InstalledAPIs {
  groupVersions(): readonly { group: string; version: string; resources: { plural: string; storageVersion: boolean }[] }[];
  lookup(group: string, version: string, resource: string): RequestScope | undefined;
}

export class ResourceCatalog {
  /** One scope per group/resource, core first, in installation order. */
  readonly scopes: RequestScope[] = [];
  private readonly byGroupKind = new Map<string, RequestScope>();

  constructor(apis: InstalledAPIs) {
    const chosen = new Map<string, RequestScope>();
    for (const gv of apis.groupVersions()) {
      for (const r of gv.resources) {
        const scope = apis.lookup(gv.group, gv.version, r.plural);
        if (!scope) continue;
        const key = `${gv.group}/${r.plural}`;
        if (!chosen.has(key) || r.storageVersion) chosen.set(key, scope);
      }
    }
    for (const scope of chosen.values()) {
      this.scopes.push(scope);
      const gk = `${scope.definition.group}/${scope.definition.kind}`;
      if (!this.byGroupKind.has(gk)) this.byGroupKind.set(gk, scope);
    }
  }

  get stores(): Store[] {
    return this.scopes.map((s) => s.store);
  }

  /** Stores of namespaced resources: what a namespace holds. */
  get namespacedScopes(): RequestScope[] {
    return this.scopes.filter((s) => s.definition.scope === 'Namespaced');
  }

  get namespaces(): RequestScope | undefined {
    return this.scopes.find((s) => isNamespaceResource(s.definition));
  }

  /** The store of an owner reference's kind (`apiVersion` `group/version` or `v1`), if installed. */
  forReference(apiVersion: string, kind: string): Store | undefined {
    const slash = apiVersion.indexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    return this.byGroupKind.get(`${group}/${kind}`)?.store;
  }
}
