/**
 * Whether a webhook is called for a request (k8s.io/apiserver/pkg/admission/plugin/webhook/
 * {rules,namespace,object} and generic.Webhook.ShouldCallHook): its rules, then its
 * namespaceSelector (labels of the request's namespace, or of the namespace object itself), then
 * its objectSelector (labels of the object or the old object). Webhook configurations themselves
 * are never sent to webhooks, as kube exempts them.
 */
import type { AdmissionAttributes } from '../../api/auth.js';
import { LabelSelectorError, labelSelectorAsSelector, type LabelSelector } from '../../api/labels.js';
import type { KubeObject } from '../../api/meta.js';
import { newInternalError, type StatusError } from '../../api/status.js';
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

/** A webhook's selector as kube's accessor caches it: parsed once per configuration object. */
const parsedSelectors = new WeakMap<MetaLabelSelector, LabelSelector | LabelSelectorError>();
const EVERYTHING = labelSelectorAsSelector({});

/**
 * A namespace or object selector (runtime/api/labels.ts). Absent is `{}`, the API's default,
 * which selects everything. One that cannot be a selector throws LabelSelectorError, which
 * shouldCallHook turns into kube's internal error.
 */
function parsedSelector(selector: MetaLabelSelector | undefined): LabelSelector {
  if (!selector) return EVERYTHING;
  let parsed = parsedSelectors.get(selector);
  if (!parsed) {
    try {
      parsed = labelSelectorAsSelector(selector);
    } catch (err) {
      if (!(err instanceof LabelSelectorError)) throw err;
      parsed = err;
    }
    parsedSelectors.set(selector, parsed);
  }
  if (parsed instanceof LabelSelectorError) throw parsed;
  return parsed;
}

/** metav1.LabelSelectorAsSelector over a label set; an absent or empty selector matches everything. */
export function selectorMatches(selector: MetaLabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  return parsedSelector(selector).matches(labels);
}

export function isEmptySelector(selector: MetaLabelSelector | undefined): boolean {
  return parsedSelector(selector).empty();
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

/** A selector that is not one: kube's matchers answer apierrors.NewInternalError(err). */
function selectorError(err: unknown): StatusError {
  if (err instanceof LabelSelectorError) return newInternalError(err.message);
  throw err;
}

/**
 * generic.Webhook.ShouldCallHook (matchPolicy Exact: kgen serves each resource in one version).
 * As kube's, a selector that cannot be parsed fails the request only when the other selector
 * does not rule the webhook out.
 */
export async function shouldCallHook(webhook: Webhook, attrs: AdmissionAttributes, namespaceLabels: NamespaceLabels): Promise<boolean> {
  if (isExemptResource(attrs)) return false;
  if (!(webhook.rules ?? []).some((rule) => ruleMatches(rule, attrs))) return false;
  let namespaceError: StatusError | undefined;
  let objectError: StatusError | undefined;
  let matches = false;
  try {
    matches = await namespaceSelectorMatches(webhook, attrs, namespaceLabels);
  } catch (err) {
    namespaceError = selectorError(err);
  }
  if (!matches && !namespaceError) return false;
  matches = false;
  try {
    matches = objectSelectorMatches(webhook, attrs);
  } catch (err) {
    objectError = selectorError(err);
  }
  if (!matches && !objectError) return false;
  if (namespaceError ?? objectError) throw namespaceError ?? objectError;
  return true;
}
