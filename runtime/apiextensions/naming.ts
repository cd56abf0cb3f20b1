/**
 * The naming controller's decision (apiextensions-apiserver pkg/controller/status
 * naming_controller.go): which of a CRD's requested names it may serve, given the names already
 * accepted by the CRDs of its group (and, in kgen, the compiled resources of that group), and
 * the NamesAccepted and Established conditions that follow. Pure functions; the controller
 * writes the result to status.
 */
import type { CRDCondition, CRDNames, CustomResourceDefinition } from './types.js';
import { findCondition } from './conditions.js';

/** Resource names (plural, singular, short names) and kinds (kind, list kind) taken in a group. */
export interface NamesInUse {
  resources: Set<string>;
  kinds: Set<string>;
}

export interface NamingResult {
  acceptedNames: CRDNames;
  namesAccepted: CRDCondition;
  established: CRDCondition;
}

export function emptyNamesInUse(): NamesInUse {
  return { resources: new Set(), kinds: new Set() };
}

/** Adds names to the set (empty names are not names). */
export function addNames(into: NamesInUse, names: Partial<CRDNames> | undefined): void {
  if (!names) return;
  for (const n of [names.plural, names.singular, ...(names.shortNames ?? [])]) if (n) into.resources.add(n);
  for (const n of [names.kind, names.listKind]) if (n) into.kinds.add(n);
}

/**
 * getAcceptedNamesForGroup: the accepted names of every CRD of `group` (the CRD being decided
 * included: its own accepted names never conflict with themselves).
 */
export function acceptedNamesForGroup(crds: Iterable<CustomResourceDefinition>, group: string): NamesInUse {
  const used = emptyNamesInUse();
  for (const crd of crds) if (crd.spec?.group === group) addNames(used, crd.status?.acceptedNames);
  return used;
}

/** equalToAcceptedOrFresh: a name is fine if it is already ours or nobody uses it. */
function equalToAcceptedOrFresh(requested: string | undefined, accepted: string | undefined, used: Set<string>): string | undefined {
  if (requested === accepted) return undefined;
  if (requested === undefined || !used.has(requested)) return undefined;
  return `${JSON.stringify(requested)} is already in use`;
}

function sameList(a: string[] | undefined, b: string[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** calculateNamesAndConditions. */
export function calculateNamesAndConditions(crd: CustomResourceDefinition, used: NamesInUse): NamingResult {
  const requested = crd.spec.names;
  const accepted: Partial<CRDNames> = crd.status?.acceptedNames ?? {};
  const next: CRDNames = { ...(crd.status?.acceptedNames ?? { plural: '', kind: '' }) };
  const namesAccepted: CRDCondition = { type: 'NamesAccepted', status: 'Unknown' };
  const conflict = (reason: string, message: string) => {
    namesAccepted.status = 'False';
    namesAccepted.reason = reason;
    namesAccepted.message = message;
  };

  let err = equalToAcceptedOrFresh(requested.plural, accepted.plural, used.resources);
  if (err) conflict('PluralConflict', err);
  else next.plural = requested.plural;

  err = equalToAcceptedOrFresh(requested.singular, accepted.singular, used.resources);
  if (err) conflict('SingularConflict', err);
  else next.singular = requested.singular;

  if (!sameList(requested.shortNames, accepted.shortNames)) {
    const mine = new Set(accepted.shortNames ?? []);
    const errs: string[] = [];
    for (const shortName of requested.shortNames ?? []) {
      if (mine.has(shortName)) continue;
      const e = equalToAcceptedOrFresh(shortName, '', used.resources);
      if (e) errs.push(e);
    }
    // utilerrors.NewAggregate: one error as is, several as "[a, b]".
    if (errs.length) conflict('ShortNamesConflict', errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`);
    else next.shortNames = requested.shortNames;
  }

  err = equalToAcceptedOrFresh(requested.kind, accepted.kind, used.kinds);
  if (err) conflict('KindConflict', err);
  else next.kind = requested.kind;

  err = equalToAcceptedOrFresh(requested.listKind, accepted.listKind, used.kinds);
  if (err) conflict('ListKindConflict', err);
  else next.listKind = requested.listKind;

  next.categories = requested.categories;

  if (namesAccepted.status === 'Unknown') {
    namesAccepted.status = 'True';
    namesAccepted.reason = 'NoConflicts';
    namesAccepted.message = 'no conflicts found';
  }

  // Established starts False; the establishing controller sets it True once the names are accepted.
  let established: CRDCondition = { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
  const old = findCondition(crd, 'Established');
  if (old) established = { ...old };
  if (established.status !== 'True' && namesAccepted.status === 'True') {
    established = { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' };
  }
  return { acceptedNames: dropEmpty(next), namesAccepted, established };
}

/** The Established condition the establishing controller sets. */
export function establishedCondition(): CRDCondition {
  return { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };
}

/** Go's JSON of the names: plural and kind always (even empty), the rest omitempty. */
function dropEmpty(names: CRDNames): CRDNames {
  const out: Record<string, unknown> = { plural: names.plural ?? '', kind: names.kind ?? '' };
  for (const [k, v] of Object.entries(names)) {
    if (k === 'plural' || k === 'kind') continue;
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out as unknown as CRDNames;
}
