// Built-in: core/v1 Secret (k8s.io/api/core/v1 field names), written in the kgen input language.
// Its strategy (runtime/registry/core/secrets.ts) merges stringData into data, enforces
// `immutable`, the size limit and kube's per-type rules.
import type { Base64Bytes } from './configmap.js';

/**
 * Secret holds secret data of a certain type. The total bytes of the values in the Data field
 * must be less than MaxSecretSize bytes.
 * @kgen:resource scope=Namespaced
 */
export interface Secret {
  /**
   * Immutable, if set to true, ensures that data stored in the Secret cannot be updated (only
   * object metadata can be modified).
   * @kgen:protobuf 5 pointer
   */
  immutable?: boolean;
  /**
   * Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or
   * '.'. The serialized form of the secret data is a base64 encoded string.
   * @kgen:protobuf 2
   */
  data?: Record<string, Base64Bytes>;
  /**
   * stringData allows specifying non-binary secret data in string form. It is provided as a
   * write-only input field for convenience. All keys and values are merged into the data field on
   * write, overwriting any existing values. The stringData field is never output when reading
   * from the API.
   * @kgen:protobuf 4
   */
  stringData?: Record<string, string>;
  /**
   * Used to facilitate programmatic handling of secret data.
   * @kgen:protobuf 3
   */
  type?: string;
}
