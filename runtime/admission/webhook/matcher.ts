/**
 * Whether a webhook is called for a request (k8s.io/apiserver/pkg/admission/plugin/webhook/
 * {rules,namespace,object} and generic.Webhook.ShouldCallHook): its rules, then its
 * namespaceSelector (labels of the request's namespace, or of the namespace object itself), then
 * its objectSelector (labels of the object or the old object). Webhook configurations themselves
 * are never sent to webhooks, as kube exempts them.
 */
import type { AdmissionAttributes } from '../../api/auth.js';
import type { KubeObject } from '../../api/meta.js';
import { ADMISSIONREGISTRATION_GROUP, MUTATING_RESOURCE, VALIDATING_RESOURCE, type MetaLabelSelector, type RuleWithOperations, type Webhook } from './types.js';

/** Reads a namespace's labels; throws the Status (404) when it does not exist. */
export type NamespaceLabels = (namespace: string) => Promise<Record<string, string> | undefined>;

const isNamespacesResource = (attrs: AdmissionAttributes) => attrs.resource.group === '' && attrs.resource.resource === 'namespaces';

/** admission/plugin/webhook/predicates/rules: one rule against the request. */
export function ruleMatches(rule: RuleWithOperations, attrs: AdmissionAttributes): boolean {
  return (
    scopeMatches(rule, attrs) &&
    anyOf(rule.operations, attrs.operation) &&
    anyOf(rule.apiGroups, attrs.resource.group) &&
    anyOf(rule.apiVersions, attrs.resource.version) &&
    resourceMatches(rule.resources ?? [], attrs.resource.resource, attrs.subresource)
  );
}

function anyOf(values: readonly string[] | undefined, value: string): boolean {
  return (values ?? []).some((v) => v === '*' || v === value);
}

/** `widgets` matches no subresource; `widgets/status`, `*`, `*\/scale`, `widgets/*`, `*\/*`. */
function resourceMatches(resources: readonly string[], resource: string, subresource: string): boolean {
  return resources.some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === resource) && (sub === '*' || sub === subresource);
  });
}

function scopeMatches(rule: RuleWithOperations, attrs: AdmissionAttributes): boolean {
  const scope = rule.scope ?? '*';
  if (scope === '*') return true;
  // Namespace objects are cluster-scoped although the request carries their name as namespace.
  if (scope === 'Namespaced') return !isNamespacesResource(attrs) && attrs.namespace !== '';
  return isNamespacesResource(attrs) || attrs.namespace === '';
}

/** kube's IsExemptAdmissionConfigurationResource. */
export function isExemptResource(attrs: AdmissionAttributes): boolean {
  const { group, resource } = attrs.resource;
  return group === ADMISSIONREGISTRATION_GROUP && (resource === MUTATING_RESOURCE || resource === VALIDATING_RESOURCE);
}

/** metav1.LabelSelectorAsSelector over a label set; an absent or empty selector matches everything. */
export function selectorMatches(selector: MetaLabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  const set = labels ?? {};
  for (const [key, value] of Object.entries(selector?.matchLabels ?? {})) {
    if (set[key] !== value) return false;
  }
  for (const expr of selector?.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(set, expr.key);
    const values = expr.values ?? [];
    switch (expr.operator) {
      case 'In':
        if (!has || !values.includes(set[expr.key]!)) return false;
        break;
      case 'NotIn':
        if (has && values.includes(set[expr.key]!)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

export function isEmptySelector(selector: MetaLabelSelector | undefined): boolean {
  return !selector || (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0);
}

/** namespace.Matcher.MatchNamespaceSelector. */
async function namespaceSelectorMatches(webhook: Webhook, attrs: AdmissionAttributes, namespaceLabels: NamespaceLabels): Promise<boolean> {
  if (isEmptySelector(webhook.namespaceSelector)) return true;
  // Cluster-scoped resources other than namespaces are never exempted by a namespace selector.
  if (attrs.namespace === '' && !isNamespacesResource(attrs)) return true;
  let labels: Record<string, string> | undefined;
  if (isNamespacesResource(attrs) && attrs.subresource === '' && (attrs.object ?? attrs.oldObject)) {
    labels = (attrs.object ?? attrs.oldObject)!.metadata?.labels;
  } else {
    labels = await namespaceLabels(attrs.namespace);
  }
  return selectorMatches(webhook.namespaceSelector, labels);
}

/** object.Matcher.MatchObjectSelector: the new or the old object's labels. */
function objectSelectorMatches(webhook: Webhook, attrs: AdmissionAttributes): boolean {
  if (isEmptySelector(webhook.objectSelector)) return true;
  const matches = (obj: KubeObject | undefined) => obj !== undefined && selectorMatches(webhook.objectSelector, obj.metadata?.labels);
  return matches(attrs.object) || matches(attrs.oldObject);
}

/** generic.Webhook.ShouldCallHook (matchPolicy Exact: kgen serves each resource in one version). */
export async function shouldCallHook(webhook: Webhook, attrs: AdmissionAttributes, namespaceLabels: NamespaceLabels): Promise<boolean> {
  if (isExemptResource(attrs)) return false;
  if (!(webhook.rules ?? []).some((rule) => ruleMatches(rule, attrs))) return false;
  if (!(await namespaceSelectorMatches(webhook, attrs, namespaceLabels))) return false;
  return objectSelectorMatches(webhook, attrs);
}
