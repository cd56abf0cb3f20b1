/**
 * The field manager (k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager over
 * structured-merge-diff's merge.Updater): records in `metadata.managedFields` which manager set
 * which fields, on every write, and implements server-side apply.
 *
 * - update: the fields an Update operation added or changed become its manager's (merged into
 *   that manager's earlier Update entry); every other manager loses them, and fields the write
 *   removed are removed from every manager.
 * - apply: the applied configuration is merged into the live object by structure; fields the
 *   same applier applied before and now omits are removed unless another manager owns them;
 *   changing a field another manager owns is a conflict (409) unless forced, which takes it.
 *
 * Reset fields (status through the main endpoint; everything but status through /status; all but
 * the replicas path through /scale) are never recorded, as kube's strategies' ResetFieldsFor.
 */
import type { KubeObject, ManagedFieldsEntry } from '../../api/meta.js';
import { statusError, type StatusError } from '../../api/status.js';
import { jsonEqual } from '../../registry/equality.js';
import { nowRFC3339 } from '../../registry/objectmeta.js';
import { fieldElement, FieldSet, pathString, type Path } from './fieldset.js';
import { decodeManagedFields, describeManager, encodeManagedFields, identityOf, managerIdentity, type Managed, type ManagerEntry } from './managedfields.js';
import { allowedConflictsFromLastApplied, KUBECTL_MANAGER, withUpdatedLastApplied } from './lastapplied.js';
import { compare, createdFieldsV1, ensureNamedFieldsAreMembers, merge, removeItems, toFieldSet, type Comparison } from './typed.js';
import { withKeyDefaults } from './keydefaults.js';
import { capUpdateManagers } from './capmanagers.js';
import type { TypeNode } from './typeschema.js';

export type Subresource = '' | 'status' | 'scale';

export interface FieldManagerConfig {
  /** The kind's structure (buildTypeSchema). */
  structure: TypeNode;
  /** `widgets.example.com/v1`: recorded in entries. */
  apiVersion: string;
  /** True when the kind has a status subresource, so the main endpoint does not own status. */
  statusEnabled: boolean;
  /** The scale subresource's `.spec.replicas`-style path, when there is one. */
  specReplicasPath?: string;
  /**
   * What a `…/status` write may not own, when it is less than everything but status: the status
   * strategy's reset paths (kube's GetResetFields of a built-in status strategy, e.g. `spec` and
   * `metadata.labels` for a Deployment). Unset: a status write owns only status.
   */
  statusResets?: ReadonlyArray<readonly string[]>;
}

export interface ApplyOptions {
  force: boolean;
  subresource?: Subresource;
}

/** Fields no manager owns (kube's stripMetaManager). */
const STRIPPED = FieldSet.of(
  ['f:apiVersion'],
  ['f:kind'],
  ['f:metadata'],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((f) => [
    'f:metadata',
    fieldElement(f),
  ]),
);

const STATUS = FieldSet.of(['f:status']);

/**
 * Where a write through the scale subresource meets other managers: autoscaling/v1 Scale's
 * `.spec.replicas`, whatever the kind's specReplicasPath (kube's ScaleHandler hands the Scale
 * its managers' entries converted to that path, so conflicts name it).
 */
const SCALE_REPLICAS: Path = ['f:spec', 'f:replicas'];

export interface Conflict {
  manager: ManagerEntry;
  path: Path;
}

/** kube's apply conflict: 409 with one FieldManagerConflict cause per conflicting field. */
export function newApplyConflict(conflicts: Conflict[]): StatusError {
  const causes = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${describeManager(c.manager)}`, field: pathString(c.path) }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${describeManager(conflicts[0]!.manager)}: ${pathString(conflicts[0]!.path)}`;
  } else {
    const byManager = new Map<string, Conflict[]>();
    for (const c of conflicts) {
      const id = identityOf(c.manager);
      byManager.set(id, [...(byManager.get(id) ?? []), c]);
    }
    const lines: string[] = [];
    for (const id of [...byManager.keys()].sort()) {
      const group = byManager.get(id)!;
      lines.push(`conflicts with ${describeManager(group[0]!.manager)}:`);
      for (const c of group) lines.push(`- ${pathString(c.path)}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return statusError('Conflict', message, { causes });
}

function withoutManagedFields(obj: KubeObject | undefined): Record<string, unknown> {
  if (!obj) return {};
  const meta = obj.metadata;
  if (!meta || typeof meta !== 'object' || !('managedFields' in meta)) return obj;
  const { managedFields: _mf, ...rest } = meta;
  return { ...obj, metadata: rest };
}

/** obj with metadata.managedFields set to entries (last among metadata's keys), or absent when none. */
function withManagedFields(obj: Record<string, unknown>, entries: ManagedFieldsEntry[]): KubeObject {
  const out = { ...obj } as KubeObject;
  const { managedFields: _old, ...meta } = (out.metadata ?? {}) as KubeObject['metadata'];
  out.metadata = entries.length > 0 ? { ...meta, managedFields: entries } : meta;
  return out;
}

function liveManaged(live: KubeObject | undefined, t: TypeNode): Managed {
  try {
    return keyedWithDefaults(decodeManagedFields(live?.metadata?.managedFields), t);
  } catch {
    return new Map();
  }
}

/** managed with every set's old-form map-list keys read as today's (keydefaults.ts). */
function keyedWithDefaults(managed: Managed, t: TypeNode): Managed {
  for (const entry of managed.values()) entry.set = withKeyDefaults(entry.set, t);
  return managed;
}

/**
 * The managers an Update starts from: those the request itself sends (so clients can edit or
 * clear managedFields: `[{}]` clears them), else the live object's. Subresources always use the
 * live object's.
 */
function requestManaged(live: KubeObject | undefined, obj: KubeObject, subresource: Subresource, t: TypeNode): Managed {
  const provided = obj.metadata?.managedFields as unknown;
  if (subresource !== '' || !Array.isArray(provided) || provided.length === 0) return liveManaged(live, t);
  const entries = provided.filter((e) => !(typeof e === 'object' && e !== null && Object.keys(e).length === 0));
  try {
    return keyedWithDefaults(decodeManagedFields(entries), t);
  } catch {
    return liveManaged(live, t);
  }
}

export class FieldManager {
  /** config.statusResets as a set (see reset()). */
  private readonly statusResets: FieldSet | undefined;

  constructor(private readonly config: FieldManagerConfig) {
    this.statusResets = config.statusResets ? FieldSet.of(...config.statusResets.map((path) => path.map(fieldElement))) : undefined;
  }

  get structure(): TypeNode {
    return this.config.structure;
  }

  /** The fields a write through subresource may own. */
  private reset(set: FieldSet, subresource: Subresource): FieldSet {
    switch (subresource) {
      case 'status': {
        if (this.statusResets) return set.recursiveDifference(this.statusResets);
        const out = new FieldSet();
        const status = set.children.get('f:status');
        if (status) out.children.set('f:status', status.clone());
        return out;
      }
      case 'scale': {
        const path = (this.config.specReplicasPath ?? '.spec.replicas').split('.').filter((s) => s !== '').map(fieldElement);
        const out = new FieldSet();
        if (set.has(path)) out.insert(path);
        return out;
      }
      default:
        return this.config.statusEnabled ? set.recursiveDifference(STATUS) : set;
    }
  }

  private resetComparison(c: Comparison, subresource: Subresource): Comparison {
    return { added: this.reset(c.added, subresource), modified: this.reset(c.modified, subresource), removed: this.reset(c.removed, subresource) };
  }

  /**
   * obj with managedFields encoded from managed (stripped of system fields); after an Update, with
   * the update managers capped (kube's capManagersManager wraps the stripping one).
   */
  private encode(obj: Record<string, unknown>, managed: Managed, capUpdaters = false): KubeObject {
    for (const [id, entry] of managed) {
      entry.set = entry.set.difference(STRIPPED);
      if (entry.set.empty()) managed.delete(id);
    }
    if (capUpdaters) capUpdateManagers(managed);
    return withManagedFields(obj, encodeManagedFields(managed));
  }

  /**
   * Records an Update by manager of live (undefined on create) into obj: returns obj with its
   * managedFields set. Never throws: a broken managedFields on either side is ignored.
   */
  update(live: KubeObject | undefined, obj: KubeObject, manager: string, subresource: Subresource = ''): KubeObject {
    if (live === undefined && subresource === '') {
      const created = this.createUpdate(obj, manager);
      if (created) return created;
    }
    const managed = requestManaged(live, obj, subresource, this.structure);
    const before = withoutManagedFields(live);
    const after = withoutManagedFields(obj);
    const cmp = this.resetComparison(compare(before, after, this.structure), subresource);
    const changed = cmp.added.union(cmp.modified);
    for (const entry of managed.values()) entry.set = entry.set.difference(changed).difference(cmp.removed);
    const owned = changed.difference(STRIPPED);
    if (!owned.empty()) {
      const id = managerIdentity(manager, 'Update', this.config.apiVersion, subresource);
      const previous = managed.get(id);
      managed.set(id, {
        manager,
        operation: 'Update',
        apiVersion: this.config.apiVersion,
        subresource,
        time: nowRFC3339(),
        set: previous ? previous.set.union(owned) : owned,
      });
    }
    return this.encode(after, managed, true);
  }

  /**
   * update() of a create whose request brings no managedFields, computed from obj alone (the
   * same result): every field obj sets is added, so the creator owns all of them but the system
   * fields (and status when it is a subresource of its own). Undefined when update() must take
   * the general way.
   */
  private createUpdate(obj: KubeObject, manager: string): KubeObject | undefined {
    const provided = obj.metadata?.managedFields as unknown;
    if (Array.isArray(provided) && provided.length > 0) return undefined;
    const after = withoutManagedFields(obj);
    const fieldsV1 = createdFieldsV1(after, this.structure, STRIPPED, this.config.statusEnabled ? 'status' : undefined);
    if (!fieldsV1) return undefined;
    const entries: ManagedFieldsEntry[] = [];
    if (Object.keys(fieldsV1).length > 0) {
      entries.push({ manager, operation: 'Update', apiVersion: this.config.apiVersion, time: nowRFC3339(), fieldsType: 'FieldsV1', fieldsV1 });
    }
    return withManagedFields(after, entries);
  }

  /**
   * Server-side apply of config (already checked to be an object of this kind without
   * managedFields) onto live (undefined when creating). Throws a 409 on conflicts unless
   * force.
   */
  apply(live: KubeObject | undefined, config: KubeObject, manager: string, opts: ApplyOptions): KubeObject {
    const subresource = opts.subresource ?? '';
    const managed = liveManaged(live, this.structure);
    const before = withoutManagedFields(live);
    const id = managerIdentity(manager, 'Apply', this.config.apiVersion, subresource);
    const last = managed.get(id);
    const applied = this.reset(toFieldSet(config, this.structure), subresource);
    managed.set(id, { manager, operation: 'Apply', apiVersion: this.config.apiVersion, subresource, time: last?.time, set: applied });
    let merged = merge(before, config, this.structure) as Record<string, unknown>;
    // Nothing to prune when the applier still applies every path it applied before: each of them
    // (and each struct field on the way) is then owned, so SMD's prune removes nothing.
    if (last && !last.set.empty() && !last.set.difference(applied).empty()) merged = this.prune(merged, managed, last.set);
    const cmp = this.resetComparison(compare(before, merged, this.structure), subresource);
    const changed = cmp.added.union(cmp.modified);
    const conflicts: Conflict[] = [];
    for (const [otherId, entry] of managed) {
      if (otherId === id) continue;
      for (const path of entry.set.intersection(changed).paths()) conflicts.push({ manager: entry, path: subresource === 'scale' ? SCALE_REPLICAS : path });
    }
    if (conflicts.length > 0 && !opts.force) {
      const remaining = this.conflictsNotFromLastApplied(conflicts, live, manager);
      if (remaining.length > 0) throw newApplyConflict(sortConflicts(remaining));
    }
    for (const [otherId, entry] of managed) {
      if (otherId !== id) entry.set = entry.set.difference(changed).difference(cmp.removed);
    }
    const entry = managed.get(id)!;
    if (!last || !jsonEqual(before, merged)) entry.time = nowRFC3339();
    const result = this.encode(merged, managed);
    return manager === KUBECTL_MANAGER ? withUpdatedLastApplied(result, config) : result;
  }

  /**
   * The conflicts an apply by `kubectl` still has once those on fields matching the
   * last-applied-configuration annotation are taken over (kube's lastAppliedManager); all of
   * them for any other manager.
   */
  private conflictsNotFromLastApplied(conflicts: Conflict[], live: KubeObject | undefined, manager: string): Conflict[] {
    if (manager !== KUBECTL_MANAGER) return conflicts;
    const allowed = allowedConflictsFromLastApplied(withoutManagedFields(live), this.config.apiVersion, this.structure);
    return allowed ? conflicts.filter((c) => !allowed.has(c.path)) : conflicts;
  }

  /**
   * Removes what the applier applied last time and no longer applies, unless a manager (the
   * applier's new set included) still owns it: structured-merge-diff's Updater.prune, step by step
   * (merge/update.go):
   * 1. remove the last set, with the struct fields on the way made members
   *    (EnsureNamedFieldsAreMembers), from the merged object;
   * 2. addBackOwnedItems: of the merged object, remove only what step 1 removed and no manager owns;
   * 3. addBackDanglingItems: of the merged object, remove only what step 2 removed and the last
   *    set (with its struct fields) holds.
   * So only paths of the applier's last set go, and a struct field of it goes as a whole when no
   * manager owns anything under it (unowned siblings inside go with it, as in kube); a free-form
   * map such as metadata.annotations is a struct field of ObjectMeta, and the same rule applies.
   * Versions: kgen's managers' sets are all at the request's version (no per-version conversion).
   */
  private prune(merged: Record<string, unknown>, managed: Managed, last: FieldSet): Record<string, unknown> {
    const t = this.structure;
    const named = (set: FieldSet) => ensureNamedFieldsAreMembers(set, t);
    const lastSet = named(last);
    const firstPass = removeItems(merged, lastSet, t);
    let owned = new FieldSet();
    for (const entry of managed.values()) owned = owned.union(entry.set);
    const mergedSet = named(toFieldSet(merged, t));
    const ownedBack = removeItems(merged, mergedSet.difference(named(toFieldSet(firstPass, t)).union(named(owned))), t);
    const dangling = mergedSet.difference(named(toFieldSet(ownedBack, t))).intersection(lastSet);
    if (dangling.empty()) return merged;
    return removeItems(merged, dangling, t) as Record<string, unknown>;
  }
}

function sortConflicts(conflicts: Conflict[]): Conflict[] {
  return conflicts.sort((a, b) => {
    const ia = identityOf(a.manager);
    const ib = identityOf(b.manager);
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  });
}
