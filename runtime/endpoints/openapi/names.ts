/**
 * The names kube-apiserver gives a group/version's OpenAPI components and operations, shared by
 * the generator (compiled kinds) and apiextensions (CRDs) so both name a kind alike.
 */
import { isUnsuffixedKubeGroup } from '../../api/kube-groups.js';

/** `widgets.example.com` → `WidgetsExampleCom`; "" → `Core`. Used in operation ids and client names. */
export function groupToPascal(group: string): string {
  if (group === '') return 'Core';
  return group
    .split(/[.-]/)
    .filter(Boolean)
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join('');
}

/**
 * OpenAPI schema name prefix: `com.example.widgets.v1`; `io.k8s.api.core.v1` for core and, as
 * kube names its own groups, `io.k8s.api.rbac.v1` for `rbac.authorization.k8s.io` and
 * `io.k8s.api.apps.v1` for `apps`.
 */
export function schemaPrefix(group: string, version: string): string {
  if (group === '') return `io.k8s.api.core.${version}`;
  if (isUnsuffixedKubeGroup(group)) return `io.k8s.api.${group}.${version}`;
  if (group.endsWith('.k8s.io')) return `io.k8s.api.${group.split('.')[0]}.${version}`;
  return `${group.split('.').reverse().join('.')}.${version}`;
}

/** A kind's component name under components.schemas: `com.example.widgets.v1.Widget`. */
export function kindSchemaName(group: string, version: string, kind: string): string {
  return `${schemaPrefix(group, version)}.${kind}`;
}
