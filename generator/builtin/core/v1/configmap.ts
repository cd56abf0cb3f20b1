// Built-in: core/v1 ConfigMap (k8s.io/api/core/v1 field names), written in the kgen input
// language. Its strategy (runtime/registry/core/configmaps.ts) enforces `immutable` and kube's
// 1 MiB size limit.

/**
 * ConfigMap holds configuration data for pods to consume.
 * @kgen:resource scope=Namespaced shortNames=cm
 */
export interface ConfigMap {
  /**
   * Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated (only
   * object metadata can be modified). If not set to true, the field can be modified at any time.
   * @kgen:protobuf 4 pointer
   */
  immutable?: boolean;
  /**
   * Data contains the configuration data. Each key must consist of alphanumeric characters, '-',
   * '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys
   * stored in Data must not overlap with the keys in the BinaryData field.
   * @kgen:protobuf 2
   */
  data?: Record<string, string>;
  /**
   * BinaryData contains the binary data. Each key must consist of alphanumeric characters, '-',
   * '_' or '.'. BinaryData can contain byte sequences that are not in the UTF-8 range.
   * @kgen:protobuf 3
   */
  binaryData?: Record<string, Base64Bytes>;
}

/**
 * Bytes, base64-encoded in JSON.
 * @format byte
 */
export type Base64Bytes = string;
