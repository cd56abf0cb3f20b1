/**
 * Objects read with an integer a JavaScript number cannot hold, so that one is not written back
 * changed. kube keeps int64 values exactly (custom resources too); JSON.parse reads
 * `9007199254740993` as 9007199254740992, and an update of the object as read (get, change,
 * update: what controllers do) would store that other number on the cluster, silently. client-go
 * keeps such values exactly; @kubernetes/client-node rounds and writes them back.
 *
 * Reads note each such integer by the uid of the object holding it (a GET's object, a list's
 * item, a watch event's object), with where it stands and what it was read as. A write (create,
 * update, apply) of an object with that uid whose value there is still the rounded number is
 * refused with an error naming both numbers; a copy of the object is caught too (it keeps the
 * uid), and a value the caller changed is written as given. Reads without a 16-digit run cost one
 * regular expression; writes cost a Map lookup while nothing is noted.
 */
import { inexactIntegersOf, pathOf } from '../../../runtime/api/json-integers.js';

interface Rounded {
  /** Places below the object (`spec.count`). */
  places: readonly (string | number)[];
  literal: string;
  /** What JSON.parse made of it. */
  read: number;
}

/** At most this many objects are remembered (the oldest noted goes first). */
const MAX_OBJECTS = 4096;
const byUid = new Map<string, Rounded[]>();

const isObject = (v: unknown): v is Record<string | number, unknown> => typeof v === 'object' && v !== null;

/** The object a place list starts in (a list's item, a watch event's object, or the value) and the places below it. */
function holder(value: unknown, places: readonly (string | number)[]): [unknown, readonly (string | number)[]] {
  if (isObject(value) && places[0] === 'items' && typeof places[1] === 'number' && Array.isArray(value.items)) return [value.items[places[1]], places.slice(2)];
  if (isObject(value) && places[0] === 'object' && typeof value.type === 'string') return [value.object, places.slice(1)];
  return [value, places];
}

function uidOf(obj: unknown): string | undefined {
  const metadata = isObject(obj) ? obj.metadata : undefined;
  const uid = isObject(metadata) ? metadata.uid : undefined;
  return typeof uid === 'string' && uid !== '' ? uid : undefined;
}

/** Notes the objects of `value` (parsed from `text`) that hold an integer JSON.parse rounded. */
export function noteRoundedReads(text: string, value: unknown): void {
  const found = inexactIntegersOf(text);
  if (found.length === 0) return;
  const noted = new Map<string, Rounded[]>();
  for (const f of found) {
    const [obj, places] = holder(value, f.places ?? []);
    const uid = uidOf(obj);
    if (uid === undefined) continue;
    let list = noted.get(uid);
    if (!list) noted.set(uid, (list = []));
    list.push({ places, literal: f.literal, read: Number(f.literal) });
  }
  for (const [uid, list] of noted) {
    byUid.delete(uid);
    byUid.set(uid, list);
    if (byUid.size > MAX_OBJECTS) byUid.delete(byUid.keys().next().value!);
  }
}

function valueAt(obj: unknown, places: readonly (string | number)[]): unknown {
  let v = obj;
  for (const p of places) {
    if (!isObject(v)) return undefined;
    v = v[p];
  }
  return v;
}

/** Throws when `body` is an object noted above that still holds a rounded integer where it was read. */
export function refuseRoundedWrite(body: unknown): void {
  if (byUid.size === 0) return;
  const uid = uidOf(body);
  const noted = uid === undefined ? undefined : byUid.get(uid);
  if (!noted) return;
  for (const r of noted) {
    if (valueAt(body, r.places) !== r.read) continue;
    const meta = (body as { metadata: { name?: unknown; namespace?: unknown } }).metadata;
    const name = typeof meta.namespace === 'string' && meta.namespace !== '' ? `${meta.namespace}/${String(meta.name)}` : String(meta.name);
    throw new Error(
      `${name} was read with ${r.literal} at ${pathOf(r.places)}, which a JavaScript number cannot hold (it reads ${r.read}); writing it back would store ${r.read}. Set that field (or remove it) before writing the object.`,
    );
  }
}
