/**
 * The synthetic API set both emitters (kgen input language and the tsoa project) are written from:
 * `groups` API groups of `kindsPerGroup` kinds each, every kind with about 20 fields in a fixed,
 * realistic mix (scalars with bounds, enums, maps, arrays of objects, nested objects, a label
 * selector, conditions). Names are unique across the whole set, because tsoa names schemas by
 * interface name alone.
 */

export interface SynthOptions {
  groups: number;
  kindsPerGroup: number;
}

export interface KindSpec {
  group: string;
  version: string;
  /** PascalCase, unique in the whole set (e.g. `Gadget0301`). */
  kind: string;
  /** Lower-case plural, as kgen derives it (kind + `s`). */
  plural: string;
  namespaced: boolean;
  /** Serves the scale subresource (spec.replicas / status.replicas). */
  scale: boolean;
  /** Zero-based position in the whole set. */
  index: number;
}

const NOUNS = ['Gadget', 'Sprocket', 'Valve', 'Relay', 'Beacon', 'Turbine', 'Lever', 'Gasket'];

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

export function groupName(gi: number): string {
  return `g${pad(gi)}.bench.example.com`;
}

/** Every kind of the set, group by group. */
export function synthKinds(opts: SynthOptions): KindSpec[] {
  const kinds: KindSpec[] = [];
  for (let gi = 0; gi < opts.groups; gi++) {
    for (let ki = 0; ki < opts.kindsPerGroup; ki++) {
      const kind = `${NOUNS[ki % NOUNS.length]}${pad(gi)}${pad(ki)}`;
      const index = kinds.length;
      // One kind in four is cluster-scoped, one in three has no scale subresource.
      kinds.push({ group: groupName(gi), version: 'v1', kind, plural: `${kind.toLowerCase()}s`, namespaced: index % 4 !== 3, scale: index % 3 !== 2, index });
    }
  }
  return kinds;
}

/** The kind the server benchmarks use: the first one (namespaced, with scale). */
export function benchKind(kinds: KindSpec[]): KindSpec {
  const k = kinds.find((x) => x.namespaced && x.scale);
  if (!k) throw new Error('synthetic set has no namespaced kind with scale');
  return k;
}
