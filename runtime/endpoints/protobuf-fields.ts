/**
 * Protobuf field numbers of the apimachinery meta/v1 types built-in kinds refer to
 * (k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto), by OpenAPI schema name and JSON field
 * name. They are kgen's well-known types (`import type { LabelSelector } from 'kgen'`), not
 * written in the input language, so their numbers live here; every built-in kind's own numbers
 * are written once, on its fields, as @kgen:protobuf in generator/builtin/ and reach the server
 * in the kind's ResourceDefinition (`protobuf`), with the Go facts the wire cannot tell (`pointer`:
 * a Go pointer scalar, whose decoded zero was set; `microtime`: a metav1.MicroTime) as words of
 * the same tag. ObjectMeta, ListMeta and Status have fixed tables of their own (OBJECT_META in
 * protobuf.ts, LIST_META and STATUS in protobuf-encode.ts).
 */
export const META_FIELD_NUMBERS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector': { matchLabels: 1, matchExpressions: 2 },
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement': { key: 1, operator: 2, values: 3 },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition': { type: 1, status: 2, observedGeneration: 3, lastTransitionTime: 4, reason: 5, message: 6 },
};
