/**
 * Fields a version cannot hold survive in an annotation, as kube's conversion convention has it
 * (Cluster API's `cluster.x-k8s.io/conversion-data`, utilconversion.MarshalData/UnmarshalData):
 * converting an object to a version that has no place for some of its fields keeps them, as JSON,
 * in the annotation `<group>/conversion-data`; converting it back to the version they came from
 * puts them back and removes them from the annotation.
 *
 * The annotation's value is a JSON object keyed by the version the data came from:
 * `{"v1":{"spec":{"priority":5,"parts":{"0":{"weight":2}}}}}`. Under a version, the data mirrors
 * the object: fields by name, items of lists by position and values of maps by key (both as JSON
 * object keys). Only the data kept for the target version is consumed by a conversion; data kept
 * for other versions travels on untouched, so a kind with several spokes keeps each one's fields.
 *
 * A ConversionScope is handed to every generated conversion function that keeps or restores
 * something (and to every user `Convert_*` function declared with a third parameter): `keep` saves a source
 * field the target cannot hold, `restore` fills a target field from what was kept, but only when
 * the conversion left it unset, so a value converted from the source always wins over kept data.
 *
 * Contract: the input object is never mutated; the annotation is written on the output, whose
 * metadata the generated code has already copied (a user function must not put src's metadata
 * into out). Kept data counts toward kube's 256 KiB limit on annotations like any other. An annotation that is not kgen's JSON (or holds
 * an integer beyond 2^53, which kgen never writes and would restore rounded) is read as empty (and replaced); the annotation belongs to kgen, as Cluster API's does to it.
 */
import type { KubeObject } from '../api/meta.js';
import { inexactIntegerOf } from '../api/json-integers.js';

type Json = Record<string, unknown>;

/** `widgets.example.com/conversion-data`: the annotation holding what a version cannot. */
export function conversionDataAnnotation(group: string): string {
  return `${group || 'core'}/conversion-data`;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The annotation's data by version, or {} when absent or not kgen's. */
export function readConversionData(obj: KubeObject, group: string): Record<string, Json> {
  const raw = obj.metadata?.annotations?.[conversionDataAnnotation(group)];
  if (typeof raw !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    // An integer beyond 2^53 was not written by kgen (no body holds one) and would be restored rounded.
    if (!isObject(parsed) || inexactIntegerOf(raw) !== undefined) return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, Json] => isObject(e[1])));
  } catch {
    return {};
  }
}

/**
 * Writes data by version into obj's annotation (obj must be a fresh object: a conversion's
 * output). With no data left, the annotation is removed, and so is an annotations map it leaves
 * empty (kube's omitempty: an object that had no annotations comes back without any).
 */
export function writeConversionData(obj: KubeObject, group: string, data: Record<string, Json>): void {
  const name = conversionDataAnnotation(group);
  const versions = Object.keys(data).filter((v) => Object.keys(data[v]!).length > 0).sort();
  const metadata = (obj.metadata ??= {});
  if (versions.length === 0) {
    if (metadata.annotations && name in metadata.annotations) {
      delete metadata.annotations[name];
      if (Object.keys(metadata.annotations).length === 0) delete metadata.annotations;
    }
    return;
  }
  metadata.annotations = { ...metadata.annotations, [name]: JSON.stringify(Object.fromEntries(versions.map((v) => [v, data[v]]))) };
}

/**
 * A position in the object being converted (the root, `.spec`, `.spec.parts[2]`…) with the data
 * kept there. Child scopes are created on demand and cost nothing until something is kept.
 */
export class ConversionScope {
  private keptHere?: Json;

  private constructor(
    /** Data kept earlier for the target version, at this position (what restore reads). */
    private readonly saved: Json | undefined,
    /** Creates this position's node in the data being kept now (for the source version). */
    private readonly materialise: () => Json,
  ) {}

  /** The root scope of one conversion; `finish` writes the annotation on its output. */
  static begin(obj: KubeObject, group: string, fromVersion: string, toVersion: string): RootConversionScope {
    const data = readConversionData(obj, group);
    const saved = data[toVersion];
    delete data[toVersion];
    // What was kept for the source version before is superseded by what is kept now.
    delete data[fromVersion];
    const kept: Json = {};
    const scope = new ConversionScope(saved, () => kept);
    return {
      scope,
      finish(out: KubeObject): KubeObject {
        if (Object.keys(kept).length > 0) data[fromVersion] = kept;
        writeConversionData(out, group, data);
        return out;
      },
    };
  }

  /** The scope of field `name` of the value at this position. */
  field(name: string): ConversionScope {
    return this.child(name);
  }

  /** The scope of an item of a list (by position) or a value of a map (by key). */
  item(key: number | string): ConversionScope {
    return this.child(String(key));
  }

  /** Keeps `value` of field `name`, which the target version cannot hold. Undefined keeps nothing. */
  keep(name: string, value: unknown): void {
    if (value === undefined) return;
    (this.keptHere ??= this.materialise())[name] = structuredClone(value);
  }

  /** The value kept for field `name` at this position when the object was converted away, if any. */
  kept<T = unknown>(name: string): T | undefined {
    return this.saved?.[name] as T | undefined;
  }

  /** Sets out[name] to the kept value, unless the conversion already set it. */
  restore<T extends object>(out: T, name: keyof T & string): void {
    if ((out as Json)[name] !== undefined) return;
    const value = this.kept(name);
    if (value !== undefined) (out as Json)[name] = value;
  }

  private child(key: string): ConversionScope {
    const saved = this.saved?.[key];
    return new ConversionScope(isObject(saved) ? saved : undefined, () => {
      const parent = (this.keptHere ??= this.materialise());
      const node = parent[key];
      if (isObject(node)) return node;
      const fresh: Json = {};
      parent[key] = fresh;
      return fresh;
    });
  }
}

export interface RootConversionScope {
  scope: ConversionScope;
  /** Writes what was kept (and what travels on for other versions) into out's annotation. */
  finish(out: KubeObject): KubeObject;
}
