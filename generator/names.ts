/**
 * Kubernetes naming rules the generator applies: plurals, group and version names, version
 * priority. The names the server publishes too (API versions, OpenAPI prefixes, operation-id
 * group names) are the runtime's, re-exported here.
 */
import { groupToPascal, schemaPrefix } from '../runtime/endpoints/openapi/names.js';

export { apiVersionOf } from '../runtime/api/resource.js';
export { groupToPascal, schemaPrefix };

/** Lower-case plural as Kubernetes derives it from a kind: policy→policies, class→classes. */
export function pluralize(kind: string): string {
  const s = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(s)) return s + 'es';
  if (/[^aeiou]y$/.test(s)) return s.slice(0, -1) + 'ies';
  return s + 's';
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Why a group folder name is invalid, or undefined. The folder `core` is the legacy group "".
 * `kubeGroups` (set for kgen's built-in root only) also admits kube's historical unsuffixed
 * groups (`apps`, `batch`, …), which a user's API may not claim.
 */
export function groupNameProblem(folder: string, kubeGroups = false): string | undefined {
  if (folder === 'core') return undefined;
  if (kubeGroups && isUnsuffixedKubeGroup(folder)) return undefined;
  if (folder.length > 253) return 'longer than 253 characters';
  if (!DNS1123_SUBDOMAIN.test(folder)) return 'not a lower-case DNS subdomain';
  if (!folder.includes('.')) return 'must contain a dot, like "widgets.example.com"';
  return undefined;
}

export function isDNS1123Label(value: string): boolean {
  return value.length <= 63 && DNS1123_LABEL.test(value);
}

const KUBE_VERSION = /^v([1-9][0-9]*)(?:(alpha|beta)([1-9][0-9]*))?$/;

export function isKubeVersion(version: string): boolean {
  return KUBE_VERSION.test(version);
}

/**
 * Orders versions as Kubernetes does (k8s.io/apimachinery/pkg/version.CompareKubeAwareVersionStrings):
 * GA before beta before alpha, higher major first, then higher minor. Negative: a sorts first.
 */
export function compareVersionPriority(a: string, b: string): number {
  const ma = KUBE_VERSION.exec(a);
  const mb = KUBE_VERSION.exec(b);
  if (!ma || !mb) return ma ? -1 : mb ? 1 : a.localeCompare(b);
  const rank = (m: RegExpExecArray) => (m[2] === undefined ? 0 : m[2] === 'beta' ? 1 : 2);
  return (
    rank(ma) - rank(mb) || Number(mb[1]) - Number(ma[1]) || Number(mb[3] ?? 0) - Number(ma[3] ?? 0)
  );
}

/** `widgets.example.com` → `widgetsExampleCom`; "" → `core`. */
export function groupToCamel(group: string): string {
  const p = groupToPascal(group);
  return p[0]!.toLowerCase() + p.slice(1);
}

/**
 * The OpenAPI name prefix of a type's home: its group/version's (schemaPrefix), or for a shared
 * folder under apis/ its path with dots: `apis/common/net/*.ts` → `common.net`.
 */
export function homePrefix(home: { group: string; version: string } | { shared: string }): string {
  return 'shared' in home ? home.shared.split('/').join('.') : schemaPrefix(home.group, home.version);
}

/** The folder that holds a group in apis/ and generated/. */
export function groupFolder(group: string): string {
  return group === '' ? 'core' : group;
}

/**
 * Groups a real cluster serves itself (or reserves for Kubernetes): neither CRDs nor an aggregated
 * server's own. The one list is the runtime's (an aggregated kgen serves only the other groups).
 */
export { isKubeGroup as isProtectedGroup } from '../runtime/api/kube-groups.js';
import { isUnsuffixedKubeGroup } from '../runtime/api/kube-groups.js';
