/**
 * kube-system/extension-apiserver-authentication, as kube-apiserver publishes it (its
 * clusterauthenticationtrust controller): the CAs and request-header settings an aggregated API
 * server reads at start (./delegated-auth.ts) to believe this server's front proxy and its client
 * certificates. The lists are JSON arrays of strings, as kube writes them.
 *
 * Written at every start, when the server serves core/v1 ConfigMap (not a built-in kind on every
 * branch: without it nothing is published, and aggregated servers take the same values from their
 * --client-ca-file and --requestheader-* flags). kube's controller also merges the CAs of other
 * servers of the same cluster into the bundles; kgen's servers of one storage share their CAs, so
 * the current values are written as they are.
 */
import type { KubeObject } from '../api/meta.js';
import { isAlreadyExists, isConflict, isNotFound } from '../api/status.js';
import { DEFAULT_EXTRA_HEADER_PREFIXES, DEFAULT_GROUP_HEADERS, DEFAULT_UID_HEADERS, DEFAULT_USERNAME_HEADERS, type RequestHeaderOptions } from '../authentication/requestheader.js';
import type { Store } from '../registry/store.js';

export const AUTHENTICATION_CONFIGMAP_NAMESPACE = 'kube-system';
export const AUTHENTICATION_CONFIGMAP_NAME = 'extension-apiserver-authentication';

const list = (values: readonly string[] | undefined, defaults: readonly string[]) => JSON.stringify(values?.length ? values : defaults);

/** The ConfigMap's data for a client CA bundle and the request-header options. */
export function authenticationConfigMapData(clientCA: string, requestHeader: RequestHeaderOptions): Record<string, string> {
  return {
    'client-ca-file': clientCA,
    'requestheader-allowed-names': JSON.stringify(requestHeader.allowedNames ?? []),
    'requestheader-client-ca-file': requestHeader.clientCA,
    'requestheader-extra-headers-prefix': list(requestHeader.extraHeaderPrefixes, DEFAULT_EXTRA_HEADER_PREFIXES),
    'requestheader-group-headers': list(requestHeader.groupHeaders, DEFAULT_GROUP_HEADERS),
    'requestheader-uid-headers': list(requestHeader.uidHeaders, DEFAULT_UID_HEADERS),
    'requestheader-username-headers': list(requestHeader.usernameHeaders, DEFAULT_USERNAME_HEADERS),
  };
}

function sameData(a: Record<string, unknown> | undefined, b: Record<string, string>): boolean {
  const keys = Object.keys(b);
  return !!a && Object.keys(a).length === keys.length && keys.every((k) => a[k] === b[k]);
}

/** Creates or updates the ConfigMap in the ConfigMap store; retries on a concurrent writer. */
export async function publishAuthenticationConfigMap(store: Store, data: Record<string, string>, log: (line: string) => void = () => undefined): Promise<void> {
  const ns = AUTHENTICATION_CONFIGMAP_NAMESPACE;
  const name = AUTHENTICATION_CONFIGMAP_NAME;
  for (let attempt = 0; attempt < 5; attempt++) {
    let existing: KubeObject | undefined;
    try {
      existing = await store.get(ns, name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    try {
      if (!existing) {
        await store.create(ns, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data });
        log(`created configmap ${ns}/${name}`);
        return;
      }
      if (sameData(existing.data as Record<string, unknown> | undefined, data)) return;
      await store.update(ns, name, { updatedObject: (current) => ({ ...structuredClone(current), data }) });
      log(`updated configmap ${ns}/${name}`);
      return;
    } catch (err) {
      if (!isAlreadyExists(err) && !isConflict(err)) throw err;
    }
  }
}
