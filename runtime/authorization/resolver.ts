/**
 * kube's DefaultRuleResolver (pkg/registry/rbac/validation/rule.go): which rules apply to a user in
 * a namespace — every ClusterRoleBinding's, then the namespace's RoleBindings' — read from the
 * in-memory PolicyIndex. A binding whose role is missing is an error the caller reports, not a
 * failure: the other bindings still count.
 */
import type { UserInfo } from '../api/auth.js';
import { appliesTo, describeSubject } from './rules.js';
import type { Binding, ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, RoleRef, Subject } from './types.js';

/** Where a rule came from, for the authorizer's reason (kube's clusterRoleBindingDescriber/roleBindingDescriber). */
export interface RuleSource {
  binding: Binding;
  subject: Subject;
  clusterScoped: boolean;
}

export function describeSource(source: RuleSource): string {
  const { binding, subject } = source;
  const ref = `${binding.roleRef.kind} ${JSON.stringify(binding.roleRef.name)}`;
  if (source.clusterScoped) {
    return `ClusterRoleBinding ${JSON.stringify(binding.metadata.name ?? '')} of ${ref} to ${describeSubject(subject, '')}`;
  }
  const namespace = binding.metadata.namespace ?? '';
  return `RoleBinding ${JSON.stringify(`${binding.metadata.name ?? ''}/${namespace}`)} of ${ref} to ${describeSubject(subject, namespace)}`;
}

/** Returns false to stop visiting. Exactly one of rule and error is set. */
export type RuleVisitor = (source: RuleSource | undefined, rule: PolicyRule | undefined, error: Error | undefined) => boolean;

/**
 * What the resolver reads of the policy; policyindex.ts' PolicyIndex is one. An interface, so that
 * the resolver does not import the index (which imports aggregation, which checks escalation
 * through a resolver).
 */
export interface PolicySource {
  getRole(namespace: string, name: string): Role | undefined;
  getClusterRole(name: string): ClusterRole | undefined;
  clusterRoleRules(role: ClusterRole): readonly PolicyRule[];
  listClusterRoleBindings(): readonly ClusterRoleBinding[];
  listRoleBindings(namespace: string): readonly RoleBinding[];
}

export class RuleResolver {
  constructor(readonly index: PolicySource) {}

  /** The rules a RoleRef names, seen from a binding in bindingNamespace ("" for cluster bindings). */
  getRoleReferenceRules(roleRef: RoleRef, bindingNamespace: string): readonly PolicyRule[] {
    switch (roleRef.kind) {
      case 'Role': {
        const role = this.index.getRole(bindingNamespace, roleRef.name);
        if (!role) throw new Error(`role.rbac.authorization.k8s.io ${JSON.stringify(roleRef.name)} not found`);
        return role.rules ?? [];
      }
      case 'ClusterRole': {
        const role = this.index.getClusterRole(roleRef.name);
        if (!role) throw new Error(`clusterrole.rbac.authorization.k8s.io ${JSON.stringify(roleRef.name)} not found`);
        return this.index.clusterRoleRules(role);
      }
      default:
        throw new Error(`unsupported role reference kind: ${JSON.stringify(roleRef.kind)}`);
    }
  }

  visitRulesFor(user: UserInfo, namespace: string, visitor: RuleVisitor): void {
    if (!this.visitBindings(user, this.index.listClusterRoleBindings(), '', true, visitor)) return;
    if (namespace) this.visitBindings(user, this.index.listRoleBindings(namespace), namespace, false, visitor);
  }

  /** Every rule that applies to the user in the namespace, and the errors met on the way. */
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: Error[] } {
    const rules: PolicyRule[] = [];
    const errors: Error[] = [];
    this.visitRulesFor(user, namespace, (_source, rule, err) => {
      if (rule) rules.push(rule);
      if (err) errors.push(err);
      return true;
    });
    return { rules, errors };
  }

  private visitBindings(user: UserInfo, bindings: readonly Binding[], namespace: string, clusterScoped: boolean, visitor: RuleVisitor): boolean {
    for (const binding of bindings) {
      const index = appliesTo(user, binding.subjects, namespace);
      if (index < 0) continue;
      let rules: readonly PolicyRule[];
      try {
        rules = this.getRoleReferenceRules(binding.roleRef, namespace);
      } catch (err) {
        if (!visitor(undefined, undefined, err as Error)) return false;
        continue;
      }
      const source: RuleSource = { binding, subject: binding.subjects![index]!, clusterScoped };
      for (const rule of rules) if (!visitor(source, rule, undefined)) return false;
    }
    return true;
  }
}
