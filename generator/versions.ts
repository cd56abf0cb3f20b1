/**
 * Multi-version kinds: a kind declared in several versions of a group is one resource, stored in
 * its storage version and served in every version not marked @kgen:unservedversion. Helpers the
 * checker and the emitters share.
 */
import type { ApiGroup, ApiModel, ApiVersion, Kind, NamedType, Schema } from './model.js';
import { apiVersionOf, compareVersionPriority } from './names.js';

/** Every version of a kind in a group, in kube's version priority order (highest first). */
export function kindVersions(group: ApiGroup, kindName: string): Kind[] {
  const out: Kind[] = [];
  for (const version of group.versions) {
    const kind = version.kinds.find((k) => k.name === kindName);
    if (kind) out.push(kind);
  }
  return out.sort((a, b) => compareVersionPriority(a.version, b.version));
}

/** The kinds of a group by name, each with its versions (priority order); only kinds in 2+ versions. */
export function multiVersionKinds(group: ApiGroup): Map<string, Kind[]> {
  const out = new Map<string, Kind[]>();
  const names = new Set(group.versions.flatMap((v) => v.kinds.map((k) => k.name)));
  for (const name of [...names].sort()) {
    const versions = kindVersions(group, name);
    // A kind declared twice in one version is KG022's; count each version once.
    const distinct = versions.filter((k, i) => versions.findIndex((o) => o.version === k.version) === i);
    if (distinct.length > 1) out.set(name, distinct);
  }
  return out;
}

/** The version a kind is stored in (after the checker: exactly one is marked). */
export function storageVersionOf(group: ApiGroup, kind: Kind): Kind {
  return kindVersions(group, kind.name).find((k) => k.storageVersion) ?? kind;
}

/**
 * The `Warning` text of a deprecated version: its own warning=, else kube's default for CRDs
 * (apiextensions-apiserver's defaultDeprecationWarning): "<group>/<version> <Kind> is deprecated",
 * then "; use <group>/<version> <Kind>" naming the highest-priority served, non-deprecated
 * version that has a higher priority than this one.
 */
export function deprecationWarning(group: ApiGroup, kind: Kind): string | undefined {
  if (!kind.deprecated) return undefined;
  if (kind.deprecated.warning !== undefined) return kind.deprecated.warning;
  const message = `${apiVersionOf(kind.group, kind.version)} ${kind.name} is deprecated`;
  const newer = kindVersions(group, kind.name).filter(
    (k) => !k.unserved && !k.deprecated && compareVersionPriority(k.version, kind.version) < 0,
  );
  return newer[0] ? `${message}; use ${apiVersionOf(newer[0].group, newer[0].version)} ${kind.name}` : message;
}

/**
 * The model as served: without @kgen:unservedversion kinds, and without versions (and groups)
 * left with no kind. Discovery, OpenAPI, routes and clients are emitted from it; models and
 * conversions from the whole model.
 */
export function servedModel(model: ApiModel): ApiModel {
  if (!model.groups.some((g) => g.versions.some((v) => v.kinds.some((k) => k.unserved)))) return model;
  const groups = model.groups
    .map((g) => ({ ...g, versions: g.versions.map(servedVersion).filter((v) => v.kinds.length > 0) }))
    .filter((g) => g.versions.length > 0);
  return { ...model, groups };
}

function servedVersion(version: ApiVersion): ApiVersion {
  if (!version.kinds.some((k) => k.unserved)) return version;
  const kinds = version.kinds.filter((k) => !k.unserved);
  return { ...version, kinds, types: reachable(kinds, version.types) };
}

/** Named types reachable from kinds (sorted as given). */
function reachable(kinds: Kind[], types: NamedType[]): NamedType[] {
  const byName = new Map(types.map((t) => [t.name, t]));
  const seen = new Set<string>();
  const visit = (s: Schema): void => {
    if (s.type === 'ref') {
      if (seen.has(s.name)) return;
      seen.add(s.name);
      const t = byName.get(s.name);
      if (t) visit(t.schema);
    } else if (s.type === 'array') visit(s.items);
    else if (s.type === 'map') visit(s.values);
    else if (s.type === 'object') {
      s.union?.members.forEach((m) => visit(m.schema));
      s.properties.forEach((p) => visit(p.schema));
    }
  };
  kinds.forEach((k) => visit(k.schema));
  return types.filter((t) => seen.has(t.name));
}
