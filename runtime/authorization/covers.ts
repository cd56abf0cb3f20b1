/**
 * Whether one set of rules covers another (pkg/registry/rbac/validation/policy_compact.go and
 * policy_comparator.go): the requested rules are broken down into single-verb, single-resource
 * rules, each of which some owner rule must cover. What is not covered is compacted and printed
 * as kube prints it.
 */
import { goQuote } from '../validation/gofmt.js';
import { API_GROUP_ALL, RESOURCE_ALL, VERB_ALL, type PolicyRule } from './types.js';

const has = (set: readonly string[] | undefined, value: string) => (set ?? []).includes(value);
const hasAll = (set: readonly string[] | undefined, values: readonly string[] | undefined) => (values ?? []).every((v) => has(set, v));

/** BreakdownRule: one rule per (group, resource, verb[, name]) and per (url, verb). */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if (rule.resourceNames?.length) {
          for (const name of rule.resourceNames) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

function resourceCoversAll(set: readonly string[] | undefined, covers: readonly string[] | undefined): boolean {
  if (has(set, RESOURCE_ALL) || hasAll(set, covers)) return true;
  for (const path of covers ?? []) {
    if (has(set, path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!has(set, `*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(owner: string, sub: string): boolean {
  if (owner === sub) return true;
  return owner.endsWith('*') && sub.startsWith(owner.replace(/\*+$/, ''));
}

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, VERB_ALL) || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, API_GROUP_ALL) || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources, sub.resources);
  const urls = (sub.nonResourceURLs ?? []).every((path) => (owner.nonResourceURLs ?? []).some((o) => nonResourceURLCovers(o, path)));
  const names = !sub.resourceNames?.length ? !owner.resourceNames?.length : !owner.resourceNames?.length || hasAll(owner.resourceNames, sub.resourceNames);
  return verbs && groups && resources && names && urls;
}

/** Covers: whether ownerRules cover every servant rule, and the broken-down rules they miss. */
export function covers(ownerRules: readonly PolicyRule[], servantRules: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing = servantRules.flatMap(breakdownRule).filter((sub) => !ownerRules.some((owner) => ruleCovers(owner, sub)));
  return { covered: missing.length === 0, missing };
}

/** CompactRules: simple rules (one group, one resource, at most one name, no URLs) merge their verbs. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const isSimple = rule.verbs.length > 0 && rule.apiGroups?.length === 1 && rule.resources?.length === 1 && (rule.resourceNames?.length ?? 0) <= 1 && !rule.nonResourceURLs?.length;
    if (!isSimple) {
      compacted.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups![0], rule.resources![0], rule.resourceNames?.[0] ?? '']);
    const existing = simple.get(key);
    if (existing) existing.verbs.push(...rule.verbs);
    else simple.set(key, structuredClone(rule));
  }
  return [...compacted, ...simple.values()];
}

const goList = (values: readonly string[]) => `[${values.map(goQuote).join(' ')}]`;

/** PolicyRule.CompactString: `{APIGroups:["g"], Resources:["r"], Verbs:["get" "list"]}`. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${goList(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${goList(rule.resources)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goList(rule.nonResourceURLs)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${goList(rule.resourceNames)}`);
  if (rule.verbs?.length) parts.push(`Verbs:${goList(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}

export { goList };
