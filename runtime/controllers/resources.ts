/**
 * The resources the controllers work on, as kube-controller-manager discovers them: one store per
 * group/resource (the storage version's; every version of a resource shares its storage), found
 * by group and kind for owner references. The compiled resources are fixed at start-up; the ones
 * defined at run time (custom resources of established CRDs) come and go, and refresh() reports
 * what changed, as kube's controllers resync with discovery.
 */
import type { RequestScope } from '../endpoints/handler.js';
import type { Store } from '../registry/store.js';
import { isNamespaceResource } from '../registry/namespaces.js';

/** What the controllers need from the installer (APIInstaller satisfies it). */
export interface InstalledAPIs {
  groupVersions(): readonly { group: string; version: string; resources: { plural: string; storageVersion: boolean }[] }[];
  lookup(group: string, version: string, resource: string): RequestScope | undefined;
}

/** Resources defined at run time (the extensions server satisfies it). */
export interface DynamicAPIs {
  /** The served resources now: one scope per group/resource. */
  resourceScopes(): readonly RequestScope[];
  /** Calls `listener` after the served resources changed; returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
}

/** What refresh() found: resources that appeared, went, or were rebuilt (a CRD's spec changed). */
export interface CatalogChange {
  added: RequestScope[];
  removed: RequestScope[];
  replaced: { old: RequestScope; scope: RequestScope }[];
}

export function groupResourceOf(scope: RequestScope): string {
  const { group, plural } = scope.definition;
  return group ? `${plural}.${group}` : plural;
}

export class ResourceCatalog {
  private readonly compiled: RequestScope[] = [];
  private dynamic = new Map<string, RequestScope>();
  private byGroupKind = new Map<string, RequestScope>();

  constructor(
    apis: InstalledAPIs,
    private readonly dynamicAPIs?: DynamicAPIs,
  ) {
    const chosen = new Map<string, RequestScope>();
    for (const gv of apis.groupVersions()) {
      for (const r of gv.resources) {
        // events.k8s.io/v1 Events are core/v1 Events' objects: watched once, as core events.
        if (gv.group === 'events.k8s.io' && r.plural === 'events') continue;
        const scope = apis.lookup(gv.group, gv.version, r.plural);
        if (!scope) continue;
        const key = `${gv.group}/${r.plural}`;
        if (!chosen.has(key) || r.storageVersion) chosen.set(key, scope);
      }
    }
    this.compiled = [...chosen.values()];
    this.refresh();
  }

  /** One scope per group/resource: compiled ones first, in installation order, then the dynamic ones. */
  get scopes(): RequestScope[] {
    return [...this.compiled, ...this.dynamic.values()];
  }

  get stores(): Store[] {
    return this.scopes.map((s) => s.store);
  }

  /** Stores of namespaced resources: what a namespace holds. */
  get namespacedScopes(): RequestScope[] {
    return this.scopes.filter((s) => s.definition.scope === 'Namespaced');
  }

  get namespaces(): RequestScope | undefined {
    return this.compiled.find((s) => isNamespaceResource(s.definition));
  }

  /** The store of an owner reference's kind (`apiVersion` `group/version` or `v1`), if served. */
  forReference(apiVersion: string, kind: string): Store | undefined {
    const slash = apiVersion.indexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    return this.byGroupKind.get(`${group}/${kind}`)?.store;
  }

  /** Re-reads the dynamic resources; a resource whose store changed is reported as replaced. */
  refresh(): CatalogChange {
    const change: CatalogChange = { added: [], removed: [], replaced: [] };
    const compiledKeys = new Set(this.compiled.map(groupResourceOf));
    const next = new Map<string, RequestScope>();
    for (const scope of this.dynamicAPIs?.resourceScopes() ?? []) {
      const key = groupResourceOf(scope);
      // A compiled resource of the same name wins (the naming controller keeps them apart anyway).
      if (compiledKeys.has(key) || next.has(key)) continue;
      next.set(key, scope);
      const old = this.dynamic.get(key);
      if (!old) change.added.push(scope);
      else if (old.store !== scope.store) change.replaced.push({ old, scope });
    }
    for (const [key, old] of this.dynamic) if (!next.has(key)) change.removed.push(old);
    this.dynamic = next;
    this.byGroupKind = new Map();
    for (const scope of this.scopes) {
      const gk = `${scope.definition.group}/${scope.definition.kind}`;
      if (!this.byGroupKind.has(gk)) this.byGroupKind.set(gk, scope);
    }
    return change;
  }
}
