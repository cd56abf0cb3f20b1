/**
 * resource.Quantity in an OpenAPI schema. A compiled kind's Quantity field refers to
 * `io.k8s.apimachinery.pkg.api.resource.Quantity` (meta-schemas.ts); a CRD's is written inline
 * (int-or-string with kube's pattern, as controller-gen writes it), so there the pattern is what
 * tells a Quantity from an IntOrString where the wire differs: protobuf encodes a Quantity as
 * resource.Quantity {string 1}, an IntOrString as intstr.IntOrString {type 1, intVal 2, strVal 3}.
 */

/** resource.Quantity's pattern, as kube publishes it. */
export const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

/** The schema of a Quantity written inline (not a `$ref` to resource.Quantity). */
export function isInlineQuantity(schema: Record<string, unknown>): boolean {
  return schema['x-kubernetes-int-or-string'] === true && schema.pattern === QUANTITY_PATTERN;
}
