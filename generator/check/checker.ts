/**
 * Check stage: rules that need the whole model — names unique per group, marker paths that name
 * real fields, subresource requirements, list-type rules, recursion, storage versions.
 * Pure: reads the model, reports into the bag, changes nothing but `storageVersion` defaults, and
 * returns the checked model the emitters consume (./checked.ts).
 */
import { checkProtobuf } from './protobuf.js';
import { DiagnosticBag, type Diagnostic } from '../diagnostics.js';
import type { ApiGroup, ApiModel, ApiVersion, Kind, NamedType, Schema } from '../model.js';
import { servedModel } from '../versions.js';
import type { CheckedModel } from './checked.js';
import { deref, resolvePath } from './jsonpath.js';
import { checkVersions } from './versions.js';
import { checkRules } from './cel.js';

/**
 * What `kgen generate --watch` keeps between checks: each version's own findings, by version
 * object. The parse cache hands back the same object only while none of the files it was built
 * from (its group's, and those its group imports) changed, and the rules kept here read nothing but
 * that object (its kinds, its named types and their schemas); the rules that look across versions
 * or groups (names and storage versions per group, checkVersions) run every time. A kept version's
 * findings are reported again at the place in the run they were found, so the bag holds the same
 * diagnostics in the same order as a cold check.
 */
export type CheckCache = WeakMap<ApiVersion, readonly Diagnostic[]>;

export function newCheckCache(): CheckCache {
  return new WeakMap();
}

export function checkModel(model: ApiModel, diags: DiagnosticBag, cache?: CheckCache): CheckedModel {
  for (const group of model.groups) {
    checkGroupNames(group, diags);
    checkStorageVersions(group, diags);
    for (const version of group.versions) {
      const kept = cache?.get(version);
      if (kept) {
        diags.items.push(...kept);
        continue;
      }
      if (!cache) {
        checkVersionOnly(version, diags);
        continue;
      }
      const own = new DiagnosticBag();
      checkVersionOnly(version, own);
      cache.set(version, own.items);
      diags.items.push(...own.items);
    }
  }
  const conversions = checkVersions(model, diags);
  // After checkStorageVersions: the served model and the plans see the storage version defaults.
  return { model, served: servedModel(model), conversions };
}

/** The rules that read one version object and nothing else (see CheckCache). */
function checkVersionOnly(version: ApiVersion, diags: DiagnosticBag): void {
  checkDuplicateKinds(version, diags);
  checkListNames(version, diags);
  checkRecursion(version, diags);
  for (const kind of version.kinds) checkKind(kind, version.types, diags);
  for (const type of version.types) checkLists(type.schema, version.types, diags);
  for (const kind of version.kinds) checkLists(kind.schema, version.types, diags);
  checkRules(version, diags);
  checkProtobuf(version, diags);
}

function checkGroupNames(group: ApiGroup, diags: DiagnosticBag): void {
  // One owner per name across kinds; the same kind in several versions shares its names.
  const owners = new Map<string, { kind: string; what: string }>();
  const claim = (what: string, name: string, kind: Kind) => {
    const prev = owners.get(name);
    if (prev && prev.kind !== kind.name) {
      diags.add('KG023', kind.loc, { what, name, kind: kind.name, other: prev.kind, group: group.name || 'core' });
    } else {
      owners.set(name, { kind: kind.name, what });
    }
  };
  for (const version of group.versions) {
    for (const kind of version.kinds) {
      claim('plural', kind.plural, kind);
      if (kind.singular !== kind.plural) claim('singular', kind.singular, kind);
      for (const s of kind.shortNames) claim('short name', s, kind);
    }
  }
}

function checkStorageVersions(group: ApiGroup, diags: DiagnosticBag): void {
  const byKind = new Map<string, Kind[]>();
  for (const version of group.versions) {
    for (const kind of version.kinds) {
      const seen = byKind.get(kind.name) ?? [];
      // A kind declared twice in one version is KG022's to report; count each version once.
      if (!seen.some((k) => k.version === kind.version)) byKind.set(kind.name, [...seen, kind]);
    }
  }
  for (const [name, kinds] of byKind) {
    if (kinds.length === 1) {
      kinds[0]!.storageVersion = true;
      continue;
    }
    const marked = kinds.filter((k) => k.storageVersion);
    if (marked.length !== 1) {
      diags.add('KG026', (marked[1] ?? kinds[0]!).loc, {
        kind: name,
        group: group.name || 'core',
        versions: kinds.map((k) => k.version).join(', '),
        problem: marked.length === 0 ? 'none is marked @kgen:storageversion' : 'more than one is marked @kgen:storageversion',
      });
    }
  }
}

function checkDuplicateKinds(version: ApiVersion, diags: DiagnosticBag): void {
  const seen = new Map<string, Kind>();
  for (const kind of version.kinds) {
    const prev = seen.get(kind.name);
    if (prev) {
      diags.add('KG022', kind.loc, {
        kind: kind.name,
        groupVersion: `${version.group || 'core'}/${version.name}`,
        other: `${prev.loc.file}:${prev.loc.line}`,
      });
    } else {
      seen.set(kind.name, kind);
    }
  }
}

/** `<Kind>List` names the list schema and model of each kind; a user type or kind of that name would merge with it. */
function checkListNames(version: ApiVersion, diags: DiagnosticBag): void {
  for (const kind of version.kinds) {
    const listName = `${kind.name}List`;
    const clash = version.types.find((t) => t.name === listName) ?? version.kinds.find((k) => k.name === listName);
    if (clash) diags.add('KG018', clash.loc, { type: clash.name, other: `the list type kgen generates for kind "${kind.name}"` });
  }
}

function checkKind(kind: Kind, types: NamedType[], diags: DiagnosticBag): void {
  const path = (what: string, p: string, loc: Kind['loc'], want?: Schema['type'][]) => {
    const r = resolvePath(kind, types, p);
    if (!r.ok) {
      diags.add('KG024', loc, { what, path: p, kind: kind.name, detail: r.detail });
    } else if (want && !want.includes(r.type)) {
      diags.add('KG025', loc, {
        problem: `${what} path "${p}" of "${kind.name}" is a ${r.type}, but must be ${want.join(' or ')}`,
        hint: `Point ${what} at a field of type ${want.join(' or ')}.`,
      });
    }
  };
  if (kind.virtual) checkVirtual(kind, kind.virtual, diags);
  for (const column of kind.printColumns) path('printcolumn', column.jsonPath, column.loc);
  for (const field of kind.selectableFields) path('selectableField', field.jsonPath, field.loc, ['string', 'integer', 'boolean']);
  const scale = kind.subresources.scale;
  if (scale) {
    path('specReplicasPath', scale.specReplicasPath, scale.loc, ['integer']);
    path('statusReplicasPath', scale.statusReplicasPath, scale.loc, ['integer']);
    if (scale.labelSelectorPath) path('labelSelectorPath', scale.labelSelectorPath, scale.loc, ['string']);
    if (!scale.statusReplicasPath.startsWith('.status.') || !scale.specReplicasPath.startsWith('.spec.')) {
      diags.add('KG025', scale.loc, {
        problem: 'the scale subresource needs specReplicasPath under .spec and statusReplicasPath under .status',
        hint: 'Use e.g. specReplicasPath=.spec.replicas statusReplicasPath=.status.replicas, as CRDs require.',
      });
    }
  }
  if (kind.subresources.status && !kind.schema.properties.some((p) => p.name === 'status')) {
    diags.add('KG025', kind.subresources.status, {
      problem: `"${kind.name}" has the status subresource but no "status" field`,
      hint: 'Add "status?: <Kind>Status" to the interface, or remove @kgen:subresource status.',
    });
  }
}

/** A virtual kind is only ever POSTed: nothing to list, select, print or reach through a subresource. */
function checkVirtual(kind: Kind, loc: NonNullable<Kind['virtual']>, diags: DiagnosticBag): void {
  const unusable = [
    kind.subresources.status || kind.subresources.scale ? '@kgen:subresource' : '',
    kind.printColumns.length ? '@kgen:printcolumn' : '',
    kind.selectableFields.length ? '@kgen:selectableField' : '',
    kind.shortNames.length || kind.categories.length ? 'shortNames= or categories=' : '',
  ].filter(Boolean);
  if (unusable.length === 0) return;
  diags.add('KG025', loc, {
    problem: `"${kind.name}" is @kgen:virtual (create-only, not stored) and cannot also have ${unusable.join(', ')}`,
    hint: 'A virtual resource is only created, never stored, read or listed; remove those markers, or remove @kgen:virtual.',
  });
}

function checkLists(schema: Schema, types: NamedType[], diags: DiagnosticBag): void {
  const byName = new Map(types.map((t) => [t.name, t.schema]));
  const visit = (s: Schema): void => {
    if (s.listType || s.listMapKeys) checkListType(s, byName, diags);
    if (s.type === 'array') visit(s.items);
    else if (s.type === 'map') visit(s.values);
    else if (s.type === 'object') s.properties.forEach((p) => visit(p.schema));
  };
  visit(schema);
}

function checkListType(s: Schema, byName: Map<string, Schema>, diags: DiagnosticBag): void {
  const bad = (problem: string, hint: string) => diags.add('KG025', s.loc, { problem, hint });
  if (s.listMapKeys && s.listType !== 'map') {
    bad('@kgen:listMapKey needs @kgen:listType map', 'Add @kgen:listType map to the same field.');
    return;
  }
  const array = deref(s, byName);
  if (array.type !== 'array') return;
  const items = deref(array.items, byName);
  if (s.listType === 'map') {
    if (!s.listMapKeys?.length) {
      bad('@kgen:listType map needs at least one @kgen:listMapKey', 'Add e.g. @kgen:listMapKey name.');
      return;
    }
    if (items.type === 'wellKnown' && items.name === 'Condition') return;
    if (items.type !== 'object') {
      bad('@kgen:listType map needs a list of objects', 'Use @kgen:listType set for lists of scalars.');
      return;
    }
    for (const key of s.listMapKeys) {
      const prop = items.properties.find((p) => p.name === key);
      if (!prop) bad(`list map key "${key}" is not a field of the list's items`, `Name a field of the item type, which must be required.`);
      else if (prop.optional && prop.schema.default === undefined) {
        bad(`list map key "${key}" must be a required field (or have a @default)`, `Remove the "?" from "${key}".`);
      }
    }
  } else if (s.listType === 'set' && !['string', 'integer', 'number', 'boolean'].includes(items.type)) {
    bad('@kgen:listType set needs a list of scalars', 'Use @kgen:listType map with a key for lists of objects.');
  }
}

/** Structural schemas cannot recurse; report the first cycle through each named type. */
function checkRecursion(version: ApiVersion, diags: DiagnosticBag): void {
  const byName = new Map(version.types.map((t) => [t.name, t]));
  const reported = new Set<string>();
  for (const start of version.types) {
    const stack: string[] = [];
    const visit = (s: Schema, path: string): boolean => {
      switch (s.type) {
        case 'ref': {
          if (s.preserveUnknownFields) return false;
          if (s.name === start.name) {
            if (!reported.has(start.name)) diags.add('KG016', start.loc, { type: start.name, path: path || s.name });
            reported.add(start.name);
            return true;
          }
          if (stack.includes(s.name)) return false;
          const next = byName.get(s.name);
          if (!next) return false;
          stack.push(s.name);
          const found = visit(next.schema, path);
          stack.pop();
          return found;
        }
        case 'array':
          return visit(s.items, `${path}[]`);
        case 'map':
          return visit(s.values, `${path}{}`);
        case 'object':
          return s.properties.some((p) => visit(p.schema, `${path}.${p.name}`));
        default:
          return false;
      }
    };
    visit(start.schema, start.name);
  }
}
