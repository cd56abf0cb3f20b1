/**
 * PolicyIndex: the RBAC objects in memory, by namespace and name (kube's RBAC listers over the
 * shared informer caches). Fed by watch events (./informers.ts) or directly in tests; the
 * authorizer reads only this, never storage. Aggregated ClusterRoles (aggregationRule) resolve
 * here to the rules of the ClusterRoles their selectors match (./aggregation.ts), as kube's
 * aggregation controller writes them, and not to their stored rules: a change of a selected role
 * takes effect at once, and rules written into an aggregating role by hand grant nothing (kube's
 * controller overwrites them). The controller writes the same rules back for readers.
 */
import type { KubeObject } from '../api/meta.js';
import { LabelSelectorError } from '../api/labels.js';
import { aggregateClusterRoleRules } from './aggregation.js';
import type { RBACResource } from './strategy.js';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding } from './types.js';

const byName = (a: KubeObject, b: KubeObject) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');

export class PolicyIndex {
  private readonly roles = new Map<string, Role>();
  private readonly clusterRoles = new Map<string, ClusterRole>();
  private readonly roleBindings = new Map<string, Map<string, RoleBinding>>();
  private readonly clusterRoleBindings = new Map<string, ClusterRoleBinding>();
  /** Sorted snapshots and aggregated rules, dropped on every change. */
  private sortedClusterBindings: ClusterRoleBinding[] | undefined;
  private readonly sortedBindings = new Map<string, RoleBinding[]>();
  private readonly aggregated = new Map<string, PolicyRule[]>();
  /** Bumped on every change (tests and callers may wait for it). */
  generation = 0;

  upsert(resource: RBACResource, obj: KubeObject): void {
    const { namespace = '', name = '' } = obj.metadata;
    switch (resource) {
      case 'roles':
        this.roles.set(`${namespace}/${name}`, obj as Role);
        break;
      case 'clusterroles':
        this.clusterRoles.set(name, obj as ClusterRole);
        break;
      case 'rolebindings': {
        let inNamespace = this.roleBindings.get(namespace);
        if (!inNamespace) this.roleBindings.set(namespace, (inNamespace = new Map()));
        inNamespace.set(name, obj as RoleBinding);
        break;
      }
      case 'clusterrolebindings':
        this.clusterRoleBindings.set(name, obj as ClusterRoleBinding);
        break;
    }
    this.changed(resource, namespace);
  }

  remove(resource: RBACResource, obj: KubeObject): void {
    const { namespace = '', name = '' } = obj.metadata;
    if (resource === 'roles') this.roles.delete(`${namespace}/${name}`);
    else if (resource === 'clusterroles') this.clusterRoles.delete(name);
    else if (resource === 'rolebindings') this.roleBindings.get(namespace)?.delete(name);
    else this.clusterRoleBindings.delete(name);
    this.changed(resource, namespace);
  }

  getRole(namespace: string, name: string): Role | undefined {
    return this.roles.get(`${namespace}/${name}`);
  }

  getClusterRole(name: string): ClusterRole | undefined {
    return this.clusterRoles.get(name);
  }

  /** Every ClusterRole (in no particular order). */
  listClusterRoles(): readonly ClusterRole[] {
    return [...this.clusterRoles.values()];
  }

  /** Cluster role bindings, by name. */
  listClusterRoleBindings(): readonly ClusterRoleBinding[] {
    return (this.sortedClusterBindings ??= [...this.clusterRoleBindings.values()].sort(byName));
  }

  /** Role bindings of one namespace, by name. */
  listRoleBindings(namespace: string): readonly RoleBinding[] {
    let sorted = this.sortedBindings.get(namespace);
    if (!sorted) {
      sorted = [...(this.roleBindings.get(namespace)?.values() ?? [])].sort(byName);
      this.sortedBindings.set(namespace, sorted);
    }
    return sorted;
  }

  /** A ClusterRole's rules: its own, or, when it aggregates, those of every ClusterRole it selects. */
  clusterRoleRules(role: ClusterRole): readonly PolicyRule[] {
    if (!role.aggregationRule) return role.rules ?? [];
    const name = role.metadata.name ?? '';
    let rules = this.aggregated.get(name);
    if (!rules) {
      rules = this.aggregate(role, new Set([name]));
      this.aggregated.set(name, rules);
    }
    return rules;
  }

  /**
   * Selected roles that aggregate count with their aggregated rules; a cycle is cut where it
   * closes. A role whose selectors cannot be selectors keeps its own rules, as kube's authorizer
   * reads them when the aggregation controller fails on that role.
   */
  private aggregate(role: ClusterRole, visiting: Set<string>): PolicyRule[] {
    try {
      return this.aggregateSelected(role, visiting);
    } catch (err) {
      if (err instanceof LabelSelectorError) return [...(role.rules ?? [])];
      throw err;
    }
  }

  private aggregateSelected(role: ClusterRole, visiting: Set<string>): PolicyRule[] {
    return aggregateClusterRoleRules(role, this.clusterRoles.values(), (other) => {
      const otherName = other.metadata.name ?? '';
      if (!other.aggregationRule) return other.rules ?? [];
      if (visiting.has(otherName)) return [];
      visiting.add(otherName);
      try {
        return this.aggregate(other, visiting);
      } finally {
        visiting.delete(otherName);
      }
    });
  }

  private changed(resource: RBACResource, namespace: string): void {
    this.generation++;
    if (resource === 'clusterrolebindings') this.sortedClusterBindings = undefined;
    if (resource === 'rolebindings') this.sortedBindings.delete(namespace);
    if (resource === 'clusterroles') this.aggregated.clear();
  }
}
