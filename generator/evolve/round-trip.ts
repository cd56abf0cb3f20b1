/**
 * Round-trip proof of a kind's conversions, as apimachinery's roundtrip fuzz tests do it, but
 * derived from the schemas: random valid objects of every version (generator/evolve/arbitrary.ts)
 * are converted to the storage version and back, and must come back equal; objects of the storage
 * version must survive the trip through every other version too. A counterexample is shrunk by
 * fast-check before it is reported.
 */
import type * as FastCheck from 'fast-check';
import type { KindConversion } from '../../runtime/conversion/index.js';
import { schemaArbitrary } from './arbitrary.js';

type Json = Record<string, unknown>;

export interface RoundTripCase {
  group: string;
  kind: string;
  scope: 'Namespaced' | 'Cluster';
  conversion: KindConversion;
  /** Version → its openAPIV3Schema (a CRD version's schema). */
  schemas: Map<string, Json>;
}

export interface RoundTripResult {
  group: string;
  kind: string;
  /** The version the random objects are written in. */
  from: string;
  /** The version they are converted to and back from. */
  via: string;
  runs: number;
  ok: boolean;
  /** The shrunk object that did not come back equal. */
  counterexample?: unknown;
  /** What came back instead. */
  returned?: unknown;
  /** JSON paths that differ. */
  differences?: string[];
  error?: string;
}

const META = new Set(['apiVersion', 'kind', 'metadata']);

function objectArbitrary(fc: typeof FastCheck, c: RoundTripCase, version: string, schema: Json): FastCheck.Arbitrary<Json> {
  const properties = Object.fromEntries(Object.entries((schema.properties as Json | undefined) ?? {}).filter(([k]) => !META.has(k)));
  const body = schemaArbitrary(fc, { ...schema, properties }) as FastCheck.Arbitrary<Json>;
  const metadata = c.scope === 'Namespaced' ? { name: 'roundtrip', namespace: 'default' } : { name: 'roundtrip' };
  const apiVersion = c.group ? `${c.group}/${version}` : version;
  return body.map((b) => ({ apiVersion, kind: c.kind, metadata: { ...metadata }, ...b }));
}

/** Every pair (version → storage → version) and (storage → version → storage) of the case. */
export function proveRoundTrips(fc: typeof FastCheck, c: RoundTripCase, options: { numRuns?: number; seed?: number } = {}): RoundTripResult[] {
  const storage = c.conversion.storageVersion;
  const results: RoundTripResult[] = [];
  for (const version of c.conversion.versions) {
    if (version === storage) continue;
    for (const [from, via] of [[version, storage], [storage, version]] as const) {
      const schema = c.schemas.get(from);
      if (!schema) continue;
      const arb = objectArbitrary(fc, c, from, schema);
      const trip = (obj: Json) => c.conversion.convert(c.conversion.convert(obj as never, from, via), via, from) as unknown as Json;
      const details = fc.check(
        fc.property(arb, (obj) => differences(normalise(obj), normalise(trip(structuredClone(obj)))).length === 0),
        { numRuns: options.numRuns ?? 200, seed: options.seed },
      );
      const result: RoundTripResult = { group: c.group, kind: c.kind, from, via, runs: details.numRuns, ok: !details.failed };
      if (details.failed && details.counterexample) {
        const obj = details.counterexample[0] as Json;
        result.counterexample = obj;
        try {
          const back = normalise(trip(structuredClone(obj)));
          result.returned = back;
          result.differences = differences(normalise(obj), back);
        } catch (err) {
          result.error = (err as Error).message;
        }
      } else if (details.failed) {
        result.error = String(details.errorInstance ?? 'failed');
      }
      results.push(result);
    }
  }
  return results;
}

/** As JSON sees it: undefined fields dropped. */
function normalise(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** JSON paths at which a and b differ (`.spec.size`, `.spec.parts[0].name`). */
export function differences(a: unknown, b: unknown, path = ''): string[] {
  if (Object.is(a, b)) return [];
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [path || '.'];
    return a.flatMap((x, i) => differences(x, b[i], `${path}[${i}]`));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => differences((a as Json)[k], (b as Json)[k], `${path}.${k}`));
  }
  return [path || '.'];
}
