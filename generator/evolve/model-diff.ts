/**
 * Compares the current checked model with a baseline snapshot (generator/emit/snapshot.ts), per
 * served version and kind: versions and kinds removed or no longer served, names and scope,
 * storage version, printer columns, then each kind's schema (schema-diff.ts).
 */
import type { ApiGroup, ApiModel, ApiVersion, Kind, NamedType, SourceLocation } from '../model.js';
import { groupFolder } from '../names.js';
import type { ApiChange } from './changes.js';
import { diffSchema } from './schema-diff.js';

/** The snapshot's model: the same shape, without locations (never read from the baseline). */
export interface Baseline {
  groups: ApiGroup[];
}

const gvOf = (group: string, version: string) => `${groupFolder(group)}/${version}`;

export function diffModels(baseline: Baseline, current: ApiModel): ApiChange[] {
  const out: ApiChange[] = [];
  const currentGroups = new Map(current.groups.map((g) => [g.name, g]));
  for (const oldGroup of baseline.groups) diffGroup(oldGroup, currentGroups.get(oldGroup.name), out);
  const oldGroups = new Map(baseline.groups.map((g) => [g.name, g]));
  for (const group of current.groups) {
    const old = oldGroups.get(group.name);
    for (const version of group.versions) {
      const oldVersion = old?.versions.find((v) => v.name === version.name);
      for (const kind of version.kinds) {
        if (kind.unserved) continue;
        const oldKind = oldVersion?.kinds.find((k) => k.name === kind.name);
        if (!oldKind || oldKind.unserved) {
          out.push({ change: 'added', subject: `${gvOf(group.name, version.name)} ${kind.name}`, path: '', summary: 'kind served', args: {}, loc: kind.loc });
        }
      }
    }
  }
  return out;
}

function diffGroup(oldGroup: ApiGroup, group: ApiGroup | undefined, out: ApiChange[]): void {
  for (const oldVersion of oldGroup.versions) {
    const version = group?.versions.find((v) => v.name === oldVersion.name);
    for (const oldKind of oldVersion.kinds) {
      if (oldKind.unserved) continue;
      const kind = version?.kinds.find((k) => k.name === oldKind.name);
      const subject = `${gvOf(oldGroup.name, oldVersion.name)} ${oldKind.name}`;
      if (!kind || kind.unserved) {
        const located = kind ?? otherVersionOf(group, oldKind.name);
        const loc = located?.loc ?? version?.loc ?? group?.versions[0]?.loc ?? { file: groupFolder(oldGroup.name), line: 0, col: 0 };
        const what = !version ? `version ${gvOf(oldGroup.name, oldVersion.name)} (kind ${oldKind.name})` : `kind ${subject}`;
        const entry: ApiChange = { change: 'removed', subject: what, path: '', summary: kind ? 'no longer served' : 'removed', code: 'KG060', args: {}, loc };
        if (located?.allowBreakingChange) entry.accepted = located.allowBreakingChange.reason;
        out.push(entry);
        continue;
      }
      diffKind(oldKind, kind, oldVersion, version!, subject, out);
    }
  }
  if (group) diffStorageVersions(oldGroup, group, out);
}

/** The kind in another version of the group, for locating a finding about a removed version. */
function otherVersionOf(group: ApiGroup | undefined, kind: string): Kind | undefined {
  for (const v of group?.versions ?? []) {
    const k = v.kinds.find((x) => x.name === kind);
    if (k) return k;
  }
  return undefined;
}

function typeMap(version: ApiVersion): Map<string, NamedType> {
  return new Map(version.types.map((t) => [t.name, t]));
}

function diffKind(oldKind: Kind, kind: Kind, oldVersion: ApiVersion, version: ApiVersion, subject: string, out: ApiChange[]): void {
  const accept = kind.allowBreakingChange;
  const kindChange = (summary: string, detail: string, loc: SourceLocation = kind.loc) => {
    const entry: ApiChange = { change: 'changed', subject, path: '', summary, code: 'KG068', args: { detail }, loc };
    if (accept) entry.accepted = accept.reason;
    out.push(entry);
  };
  if (oldKind.scope !== kind.scope) kindChange(`scope ${oldKind.scope} → ${kind.scope}`, `scope changed from ${oldKind.scope} to ${kind.scope}`);
  if (oldKind.plural !== kind.plural) kindChange(`plural ${oldKind.plural} → ${kind.plural}`, `plural changed from "${oldKind.plural}" to "${kind.plural}"`);
  const removedShortNames = oldKind.shortNames.filter((s) => !kind.shortNames.includes(s));
  if (removedShortNames.length) kindChange(`short names ${removedShortNames.join(', ')} removed`, `short names ${removedShortNames.map((s) => `"${s}"`).join(', ')} removed`);
  for (const oldColumn of oldKind.printColumns) {
    const column = kind.printColumns.find((c) => c.name === oldColumn.name);
    if (!column || column.jsonPath === oldColumn.jsonPath) continue;
    const entry: ApiChange = {
      change: 'changed',
      subject,
      path: '',
      summary: `printer column ${column.name}: ${oldColumn.jsonPath} → ${column.jsonPath}`,
      code: 'KG070',
      args: { column: column.name, old: oldColumn.jsonPath, new: column.jsonPath },
      loc: column.loc,
    };
    if (accept) entry.accepted = accept.reason;
    out.push(entry);
  }
  diffSchema(oldKind.schema, kind.schema, { subject, oldTypes: typeMap(oldVersion), newTypes: typeMap(version), out }, { path: '', loc: kind.loc, accept });
}

function diffStorageVersions(oldGroup: ApiGroup, group: ApiGroup, out: ApiChange[]): void {
  const storage = (g: ApiGroup) => {
    const byKind = new Map<string, { version: string; kind: Kind }>();
    const seen = new Map<string, { version: string; kind: Kind }[]>();
    for (const v of g.versions) for (const k of v.kinds) seen.set(k.name, [...(seen.get(k.name) ?? []), { version: v.name, kind: k }]);
    // A kind in one version is stored in it; otherwise in the version marked @kgen:storageversion.
    for (const [name, all] of seen) {
      const stored = all.length === 1 ? all[0] : all.find((e) => e.kind.storageVersion);
      if (stored) byKind.set(name, stored);
    }
    return byKind;
  };
  const before = storage(oldGroup);
  for (const [name, now] of storage(group)) {
    const old = before.get(name);
    if (!old || old.version === now.version) continue;
    const entry: ApiChange = {
      change: 'changed',
      subject: `${groupFolder(group.name)} ${name}`,
      path: '',
      summary: `storage version ${old.version} → ${now.version}`,
      code: 'KG069',
      args: { old: old.version, new: now.version },
      loc: now.kind.loc,
    };
    if (now.kind.allowBreakingChange) entry.accepted = now.kind.allowBreakingChange.reason;
    out.push(entry);
  }
}
