/**
 * kube's RBAC registry strategies (pkg/registry/rbac/*, pkg/apis/rbac/validation, rbac/v1
 * defaults) layered over the generic strategy of the generated kinds: the Subject and RoleRef
 * defaults, rule/subject/roleRef validation, and the immutable roleRef.
 */
import type { KubeObject } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import type { RESTStrategy } from '../registry/strategy.js';
import { goQuote } from '../validation/gofmt.js';
import { field, isValidPathSegmentName, toStatusCauses, type FieldError } from '../validation/index.js';
import { GROUP_KIND, RBAC_GROUP, SERVICE_ACCOUNT_KIND, USER_KIND, type PolicyRule, type RoleBinding, type Subject } from './types.js';

export type RBACResource = 'roles' | 'clusterroles' | 'rolebindings' | 'clusterrolebindings';

export const RBAC_RESOURCES: readonly RBACResource[] = ['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings'];

/** The RBAC resource a definition serves, if it is one of the four. */
export function rbacResourceOf(def: Pick<ResourceDefinition, 'group' | 'plural'>): RBACResource | undefined {
  return def.group === RBAC_GROUP && (RBAC_RESOURCES as readonly string[]).includes(def.plural) ? (def.plural as RBACResource) : undefined;
}

const isBinding = (r: RBACResource) => r === 'rolebindings' || r === 'clusterrolebindings';

/** SetDefaults_Subject, SetDefaults_RoleBinding, SetDefaults_ClusterRoleBinding. */
export function defaultBinding(obj: KubeObject): void {
  const binding = obj as Partial<RoleBinding>;
  for (const subject of Array.isArray(binding.subjects) ? binding.subjects : []) {
    if (!subject || typeof subject !== 'object' || subject.apiGroup) continue;
    if (subject.kind === USER_KIND || subject.kind === GROUP_KIND) subject.apiGroup = RBAC_GROUP;
  }
  if (binding.roleRef && typeof binding.roleRef === 'object' && !binding.roleRef.apiGroup) binding.roleRef.apiGroup = RBAC_GROUP;
}

/** field.Invalid with a Go-typed bad value already printed as %#v (`[]string{"a"}`, `rbac.RoleRef{…}`). */
export function invalidGo(path: string, goValue: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: path, message: `Invalid value: ${goValue}: ${detail}` };
}

const goStrings = (values: readonly string[]) => `[]string{${values.map(goQuote).join(', ')}}`;

/** ValidatePolicyRule. */
export function validatePolicyRule(rule: PolicyRule, isNamespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!rule.verbs?.length) errs.push(field.required(`${path}.verbs`, 'verbs must contain at least one value'));
  if (rule.nonResourceURLs?.length) {
    if (isNamespaced) errs.push(invalidGo(`${path}.nonResourceURLs`, goStrings(rule.nonResourceURLs), 'namespaced rules cannot apply to non-resource URLs'));
    if (rule.apiGroups?.length || rule.resources?.length || rule.resourceNames?.length) {
      errs.push(invalidGo(`${path}.nonResourceURLs`, goStrings(rule.nonResourceURLs), 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (!rule.apiGroups?.length) errs.push(field.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (!rule.resources?.length) errs.push(field.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return errs;
}

/** ValidateRoleBindingSubject. */
function validateSubject(subject: Subject, isNamespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!subject.name) errs.push(field.required(`${path}.name`));
  switch (subject.kind) {
    case SERVICE_ACCOUNT_KIND:
      if (subject.apiGroup) errs.push(field.notSupported(`${path}.apiGroup`, subject.apiGroup, ['']));
      if (!isNamespaced && !subject.namespace) errs.push(field.required(`${path}.namespace`));
      break;
    case USER_KIND:
    case GROUP_KIND:
      if (subject.apiGroup !== RBAC_GROUP) errs.push(field.notSupported(`${path}.apiGroup`, subject.apiGroup ?? '', [RBAC_GROUP]));
      break;
    default:
      errs.push(field.notSupported(`${path}.kind`, subject.kind, [SERVICE_ACCOUNT_KIND, USER_KIND, GROUP_KIND]));
  }
  return errs;
}

function validateRoleRef(binding: RoleBinding, isNamespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = binding.roleRef ?? { apiGroup: '', kind: '', name: '' };
  if (ref.apiGroup !== RBAC_GROUP) errs.push(field.notSupported('roleRef.apiGroup', ref.apiGroup, [RBAC_GROUP]));
  const kinds = isNamespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind)) errs.push(field.notSupported('roleRef.kind', ref.kind, kinds));
  if (!ref.name) errs.push(field.required('roleRef.name'));
  else for (const msg of isValidPathSegmentName(ref.name)) errs.push(field.invalid('roleRef.name', ref.name, msg));
  return errs;
}

/** ValidateRole / ValidateClusterRole / ValidateRoleBinding / ValidateClusterRoleBinding, past the schema. */
export function validateRBACObject(resource: RBACResource, obj: KubeObject): FieldError[] {
  const isNamespaced = resource === 'roles' || resource === 'rolebindings';
  if (isBinding(resource)) {
    const binding = obj as RoleBinding;
    const errs = validateRoleRef(binding, isNamespaced);
    (binding.subjects ?? []).forEach((s, i) => errs.push(...validateSubject(s, isNamespaced, `subjects[${i}]`)));
    return errs;
  }
  const errs: FieldError[] = [];
  ((obj.rules as PolicyRule[] | undefined) ?? []).forEach((rule, i) => errs.push(...validatePolicyRule(rule, isNamespaced, `rules[${i}]`)));
  const aggregation = obj.aggregationRule as { clusterRoleSelectors?: unknown[] } | undefined;
  if (resource === 'clusterroles' && aggregation && !aggregation.clusterRoleSelectors?.length) {
    errs.push(field.required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  }
  return errs;
}

function roleRefChanged(obj: KubeObject, old: KubeObject): boolean {
  const a = (obj as RoleBinding).roleRef ?? {};
  const b = (old as RoleBinding).roleRef ?? {};
  return a.apiGroup !== b.apiGroup || a.kind !== b.kind || a.name !== b.name;
}

/**
 * The generic strategy plus kube's RBAC rules. Only schema-valid objects reach the RBAC checks,
 * so their shapes can be trusted there.
 */
export function withRBACStrategy(base: RESTStrategy, resource: RBACResource): RESTStrategy {
  return {
    ...base,
    prepareForCreate(obj) {
      base.prepareForCreate(obj);
      if (isBinding(resource)) defaultBinding(obj);
    },
    prepareForUpdate(obj, old) {
      base.prepareForUpdate(obj, old);
      if (isBinding(resource)) defaultBinding(obj);
    },
    validate(obj) {
      const causes = base.validate(obj);
      return causes.length ? causes : toStatusCauses(validateRBACObject(resource, obj));
    },
    validateUpdate(obj, old) {
      const causes = base.validateUpdate(obj, old);
      if (causes.length) return causes;
      const errs = validateRBACObject(resource, obj);
      if (isBinding(resource) && roleRefChanged(obj, old)) {
        const ref = (obj as RoleBinding).roleRef;
        const goRef = `rbac.RoleRef{APIGroup:${goQuote(ref.apiGroup ?? '')}, Kind:${goQuote(ref.kind ?? '')}, Name:${goQuote(ref.name ?? '')}}`;
        errs.push(invalidGo('roleRef', goRef, 'cannot change roleRef'));
      }
      return toStatusCauses(errs);
    },
  };
}
