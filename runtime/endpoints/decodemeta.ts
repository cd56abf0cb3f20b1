/**
 * A create or update body whose metadata does not decode into a metav1.ObjectMeta (a field of the
 * wrong JSON type: `resourceVersion: 5`, `labels: "x"`, `generation: "1"`) is kube's 400 from
 * transformDecodeError, `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot
 * unmarshal number into Go struct field ObjectMeta.metadata.resourceVersion of type string`,
 * before any validation. Compiled kinds decode as typed objects; a runtime CRD's metadata is
 * decoded alone by apiextensions-apiserver's schema coercer (see objectMetaDecodeError).
 */
import { objectMetaDecodeError } from '../api/objectmeta-decode.js';
import type { KubeObject } from '../api/meta.js';
import { newBadRequest } from '../api/status.js';
import type { ExpectedKind } from './serializer.js';

export function checkObjectMetaDecodes(obj: KubeObject, expected: ExpectedKind): void {
  const custom = expected.customResource === true;
  const err = objectMetaDecodeError(obj.metadata, custom ? '' : 'metadata.', custom);
  if (err === undefined) return;
  const version = expected.apiVersion.slice(expected.apiVersion.indexOf('/') + 1);
  throw newBadRequest(`${expected.kind} in version ${JSON.stringify(version)} cannot be handled as a ${expected.kind}: ${err}`);
}
