/**
 * A kind's conversion between its versions, through its storage version as the hub (kube's
 * hub-and-spoke conversion of CRDs and of built-in types through the internal version). Generated
 * `conversion/<group>/<plural>.ts` modules build one with defineConversion from typed functions.
 *
 * Contract: converting returns a new object sharing nothing with its input (inputs may be frozen
 * watch-cache objects and must never be mutated), except when the versions are the same, where the
 * input itself is returned, as a read without conversion would. Fields the target version cannot
 * hold are kept in the `<group>/conversion-data` annotation and restored when the object comes
 * back (./conversion-data.ts): every conversion runs with a ConversionScope.
 */
import type { APIObject, KubeObject } from '../api/meta.js';
import { apiVersionOf } from '../api/resource.js';
import { newInternalError } from '../api/status.js';
import { ConversionScope } from './conversion-data.js';

/** The two conversions of one non-storage version, erased to plain objects. */
export interface SpokeConversion {
  toHub(obj: KubeObject, scope: ConversionScope): KubeObject;
  fromHub(obj: KubeObject, scope: ConversionScope): KubeObject;
}

export interface KindConversion {
  readonly group: string;
  readonly kind: string;
  /** The hub: the version objects are written in. */
  readonly storageVersion: string;
  /** Every version the kind converts between (served or not): the storage version first. */
  readonly versions: readonly string[];
  /** obj, in fromVersion, converted to toVersion. Throws an InternalError for an unknown version. */
  convert(obj: KubeObject, fromVersion: string, toVersion: string): KubeObject;
  /** The version of an object of this kind from its apiVersion, or undefined when it is not one of ours. */
  versionOf(obj: KubeObject): string | undefined;
}

/** Typed spoke conversions (generated code calls this with the generated models). */
export function spoke<Spoke extends APIObject, Hub extends APIObject>(
  toHub: (obj: Spoke, scope: ConversionScope) => Hub,
  fromHub: (obj: Hub, scope: ConversionScope) => Spoke,
): SpokeConversion {
  return { toHub: toHub as unknown as SpokeConversion['toHub'], fromHub: fromHub as unknown as SpokeConversion['fromHub'] };
}

export interface ConversionDefinition {
  group: string;
  kind: string;
  storageVersion: string;
  /** Non-storage version → its conversions to and from the storage version. */
  spokes: Record<string, SpokeConversion>;
}

export function defineConversion(def: ConversionDefinition): KindConversion {
  const spokes = new Map(Object.entries(def.spokes));
  const known = (version: string) => version === def.storageVersion || spokes.has(version);
  const unknown = (version: string) =>
    newInternalError(`no conversion of ${def.kind} for version "${apiVersionOf(def.group, version)}": known versions are ${[def.storageVersion, ...spokes.keys()].join(', ')}`);
  /** One step through a generated function, with the annotation read from obj and written on its output. */
  const step = (fn: SpokeConversion['toHub'], obj: KubeObject, from: string, to: string): KubeObject => {
    const root = ConversionScope.begin(obj, def.group, from, to);
    return root.finish(fn(obj, root.scope));
  };
  return Object.freeze({
    group: def.group,
    kind: def.kind,
    storageVersion: def.storageVersion,
    versions: Object.freeze([def.storageVersion, ...spokes.keys()]),
    convert(obj: KubeObject, fromVersion: string, toVersion: string): KubeObject {
      if (!known(fromVersion)) throw unknown(fromVersion);
      if (!known(toVersion)) throw unknown(toVersion);
      if (fromVersion === toVersion) return obj;
      const hub = fromVersion === def.storageVersion ? obj : step(spokes.get(fromVersion)!.toHub, obj, fromVersion, def.storageVersion);
      return toVersion === def.storageVersion ? hub : step(spokes.get(toVersion)!.fromHub, hub, def.storageVersion, toVersion);
    },
    versionOf(obj: KubeObject): string | undefined {
      const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
      const slash = apiVersion.lastIndexOf('/');
      const group = slash < 0 ? '' : apiVersion.slice(0, slash);
      const version = apiVersion.slice(slash + 1);
      return group === def.group && known(version) ? version : undefined;
    },
  });
}
