/**
 * The Go type of a compiled schema node as Go prints it in the decoder's errors
 * (`[]v1.ServicePort`, `map[string]string`, `intstr.IntOrString`), and the struct part of it that
 * names a struct's fields (`DeploymentSpec.spec.replicas`).
 */
import type { SchemaNode } from './node.js';

const goTypeCache = new WeakMap<SchemaNode, string | null>();

/** The Go type of a node as Go prints it (`[]v1.ServicePort`, `map[string]string`), or undefined where unknown. */
export function goTypeOf(node: SchemaNode): string | undefined {
  const cached = goTypeCache.get(node);
  if (cached !== undefined) return cached ?? undefined;
  goTypeCache.set(node, null); // recursion guard
  let type = node.goType;
  if (node.intOrString) type = node.pattern !== undefined ? 'resource.Quantity' : 'intstr.IntOrString';
  else if (type === undefined && node.types?.length === 1) {
    if (node.types[0] === 'array' && node.items) {
      const elem = goTypeOf(node.items);
      type = elem === undefined ? undefined : `[]${elem}`;
    } else if (node.types[0] === 'object' && typeof node.additional === 'object') {
      const elem = goTypeOf(node.additional);
      type = elem === undefined ? undefined : `map[string]${elem}`;
    }
  }
  goTypeCache.set(node, type ?? null);
  return type;
}

/** The struct part of a Go type name (`v1.DeploymentSpec` → `DeploymentSpec`). */
export const structName = (goType: string | undefined) => (goType === undefined ? '' : goType.slice(goType.lastIndexOf('.') + 1));
