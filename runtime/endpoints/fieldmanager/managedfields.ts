/**
 * `metadata.managedFields` as the field manager keeps it (kube's fieldmanager/internal
 * managedfields.go): entries decoded into field sets keyed by manager identity, and encoded
 * back sorted as kube sorts them (Apply before Update, then by time, manager, apiVersion,
 * subresource).
 */
import type { ManagedFieldsEntry } from '../../api/meta.js';
import { FieldSet } from './fieldset.js';

export type Operation = 'Apply' | 'Update';

export interface ManagerEntry {
  manager: string;
  operation: Operation;
  apiVersion: string;
  subresource: string;
  time?: string;
  set: FieldSet;
}

/** Managers by identity (BuildManagerIdentifier). */
export type Managed = Map<string, ManagerEntry>;

/**
 * kube's manager identifier: the entry without fields, time and type, and for appliers without
 * apiVersion, so one applier is one entry whatever version it applies through.
 */
export function managerIdentity(manager: string, operation: Operation, apiVersion: string, subresource: string): string {
  const id: Record<string, string> = { manager, operation };
  if (operation === 'Update') id.apiVersion = apiVersion;
  if (subresource) id.subresource = subresource;
  return JSON.stringify(id);
}

export function identityOf(e: ManagerEntry): string {
  return managerIdentity(e.manager, e.operation, e.apiVersion, e.subresource);
}

/** printManager: `"x"`, `"x" with subresource "status"`, `"x" using widgets.example.com/v1`. */
export function describeManager(e: ManagerEntry): string {
  let text = JSON.stringify(e.manager);
  if (e.subresource) text += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update') text += ` using ${e.apiVersion}`;
  return text;
}

/**
 * Decodes managedFields; throws an Error when an entry is malformed (the caller then falls back
 * to the live object's, as kube does). Entries with an empty field set are dropped.
 */
export function decodeManagedFields(entries: unknown): Managed {
  const managed: Managed = new Map();
  if (entries === undefined || entries === null) return managed;
  if (!Array.isArray(entries)) throw new Error('managedFields must be a list');
  for (const raw of entries) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('managedFields entries must be objects');
    const e = raw as ManagedFieldsEntry;
    if (e.fieldsType !== undefined && e.fieldsType !== 'FieldsV1') throw new Error(`invalid fieldsType ${JSON.stringify(e.fieldsType)}`);
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new Error(`invalid operation ${JSON.stringify(e.operation)}`);
    const entry: ManagerEntry = {
      manager: typeof e.manager === 'string' ? e.manager : '',
      operation: e.operation,
      apiVersion: typeof e.apiVersion === 'string' ? e.apiVersion : '',
      subresource: typeof e.subresource === 'string' ? e.subresource : '',
      set: FieldSet.fromFieldsV1(e.fieldsV1),
    };
    if (typeof e.time === 'string') entry.time = e.time;
    if (entry.set.empty()) continue;
    const id = identityOf(entry);
    const previous = managed.get(id);
    if (previous) previous.set = previous.set.union(entry.set);
    else managed.set(id, entry);
  }
  return managed;
}

function timeSeconds(t: string | undefined): number {
  if (!t) return 0;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

function sortKey(a: ManagerEntry, b: ManagerEntry): number {
  if (a.operation !== b.operation) return a.operation < b.operation ? -1 : 1;
  const ta = timeSeconds(a.time);
  const tb = timeSeconds(b.time);
  if (ta !== tb) return ta - tb;
  if (a.manager !== b.manager) return a.manager < b.manager ? -1 : 1;
  if (a.apiVersion !== b.apiVersion) return a.apiVersion < b.apiVersion ? -1 : 1;
  return a.subresource < b.subresource ? -1 : a.subresource > b.subresource ? 1 : 0;
}

/** The managedFields list, in kube's order and field order; empty sets are left out. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] {
  return [...managed.values()]
    .filter((e) => !e.set.empty())
    .sort(sortKey)
    .map((e) => {
      const out: ManagedFieldsEntry = { manager: e.manager, operation: e.operation, apiVersion: e.apiVersion };
      if (e.time) out.time = e.time;
      out.fieldsType = 'FieldsV1';
      out.fieldsV1 = e.set.toFieldsV1();
      if (e.subresource) out.subresource = e.subresource;
      return out;
    });
}
