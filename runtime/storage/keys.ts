/**
 * Storage keys as kube's generic registry builds them (NamespaceKeyRootFunc / NamespaceKeyFunc /
 * NoNamespaceKeyFunc in k8s.io/apiserver/pkg/registry/generic/registry):
 *
 *   /registry/<group or "core">/<resource>/<namespace>/<name>   namespaced
 *   /registry/<group or "core">/<resource>/<name>               cluster-scoped
 *
 * The root (`/registry`) is a parameter so a `--storage-prefix` can change it.
 */
import { StorageError } from './interface.js';

export const DEFAULT_STORAGE_PREFIX = '/registry';

/** `/registry/<group or "core">/<resource>/`: the prefix every key of one resource starts with. */
export function resourcePrefix(group: string, resource: string, root: string = DEFAULT_STORAGE_PREFIX): string {
  const base = root.endsWith('/') ? root.slice(0, -1) : root;
  return `${base}/${group || 'core'}/${resource}/`;
}

/** `<prefix><namespace>/`: the prefix of one namespace's objects of a namespaced resource. */
export function namespacePrefix(prefix: string, namespace: string): string {
  checkSegment('namespace', namespace, prefix);
  return `${withSlash(prefix)}${namespace}/`;
}

/**
 * The key of one object; `namespace` undefined means cluster-scoped. Name and namespace must be
 * valid path segments (not empty, `.`, `..`, and without `/` or `%`), as kube's
 * path.IsValidPathSegmentName requires; otherwise StorageError('InvalidObject').
 */
export function objectKey(prefix: string, namespace: string | undefined, name: string): string {
  checkSegment('name', name, prefix);
  if (namespace === undefined) return `${withSlash(prefix)}${name}`;
  return `${namespacePrefix(prefix, namespace)}${name}`;
}

function withSlash(prefix: string): string {
  return prefix.endsWith('/') ? prefix : `${prefix}/`;
}

function checkSegment(what: string, value: string, prefix: string): void {
  let problem: string | undefined;
  if (value === '') problem = 'may not be empty';
  else if (value === '.' || value === '..') problem = `may not be '${value}'`;
  else if (value.includes('/')) problem = "may not contain '/'";
  else if (value.includes('%')) problem = "may not contain '%'";
  if (problem) throw new StorageError('InvalidObject', prefix, `${what} parameter invalid: "${value}": ${problem}`);
}
