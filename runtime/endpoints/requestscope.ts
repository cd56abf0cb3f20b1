/** Request checks every write handler shares: namespace, name and kind agreement with the URL. */
import type { KubeObject } from '../api/meta.js';
import { newBadRequest } from '../api/status.js';
import { newNamespaceMismatch } from '../registry/errors.js';
import type { DecodeTarget } from './fieldvalidation.js';
import type { RequestInfo, RequestScope } from './handler.js';
import type { ExpectedKind } from './serializer.js';
import { encodableKind } from './protobuf-encode.js';

/**
 * Whether the request asks for protobuf and the scope's kind is answered in it (built-in kinds
 * with field numbers). The kind's tables are built only when a client asks.
 */
export function servesProtobuf(scope: RequestScope, accept: string | undefined): boolean {
  if (!accept?.includes('vnd.kubernetes.protobuf') || scope.definition.customResource) return false;
  return encodableKind(scope.apiVersion, scope.definition.kind);
}

export function expectedKind(scope: RequestScope): ExpectedKind {
  return { apiVersion: scope.apiVersion, kind: scope.definition.kind, customResource: scope.definition.customResource };
}

export function decodeTarget(scope: RequestScope): DecodeTarget {
  return { kind: scope.definition.kind, version: scope.definition.version, validator: scope.validator };
}

/** The namespace the store works in: the URL's for namespaced kinds, none for cluster-scoped ones. */
export function namespaceFor(scope: RequestScope, info: RequestInfo): string | undefined {
  return scope.definition.scope === 'Namespaced' && info.namespace ? info.namespace : undefined;
}

/** rest.ValidNamespace: an object's namespace, when set, must be the request's. */
export function checkObjectNamespace(scope: RequestScope, obj: KubeObject, namespace: string | undefined): void {
  if (scope.definition.scope !== 'Namespaced') return;
  const own = obj.metadata.namespace;
  if (own && own !== namespace) {
    throw newNamespaceMismatch();
  }
  if (namespace) obj.metadata.namespace = namespace;
}

/** The update and patch handlers' checkName. */
export function checkName(obj: KubeObject, name: string): void {
  const own = obj.metadata.name ?? '';
  if (own !== name) throw newBadRequest(`the name of the object (${own}) does not match the name on the URL (${name})`);
}
