/** The Warning a deprecated CRD version sends with every response (kube's crdHandler). */
import { compareKubeAwareVersions } from '../server/priority.js';
import type { CustomResourceDefinition } from './types.js';

/** The version's deprecationWarning, or kube's default one; undefined when not deprecated. */
export function deprecationWarning(crd: CustomResourceDefinition, version: string): string | undefined {
  const v = (crd.spec.versions ?? []).find((x) => x.name === version);
  if (!v?.deprecated) return undefined;
  if (v.deprecationWarning !== undefined) return v.deprecationWarning;
  const kind = crd.spec.names.kind;
  const message = `${crd.spec.group}/${version} ${kind} is deprecated`;
  // The newest served, non-deprecated version of greater priority, if any.
  const better = (crd.spec.versions ?? [])
    .filter((x) => x.served && !x.deprecated && compareKubeAwareVersions(version, x.name) < 0)
    .map((x) => x.name)
    .sort((a, b) => compareKubeAwareVersions(b, a));
  return better.length ? `${message}; use ${crd.spec.group}/${better[0]} ${kind}` : message;
}
