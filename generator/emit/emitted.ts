import { entryKey, type DerivedCache } from '../cache.js';
import type { ApiVersion } from '../model.js';

/** What every emitter returns: files, by path relative to the output directory. */
export interface EmittedFile {
  path: string;
  content: string;
  /**
   * The document a JSON or YAML file was printed from, when a later check reads it (the CRD
   * manifests: generator/check/limits.ts), so it is not parsed back. Never written.
   */
  value?: unknown;
  /**
   * The content as the texts it is the concatenation of, when the emitter keeps them
   * (swagger.json: each version's printed paths and definitions). The writer compares them with
   * what it wrote last and writes them without joining them (write/file.ts); `content` is joined
   * when something first reads it (partsFile).
   */
  parts?: readonly string[];
}

/**
 * A file whose content is `parts` joined, joined only when `content` is first read. `content` is an
 * own enumerable property (a getter), so a structured clone (postMessage to or from a worker)
 * carries it, joined, beside the parts.
 */
export function partsFile(path: string, parts: readonly string[]): EmittedFile {
  let joined: string | undefined;
  return {
    path,
    parts,
    get content() {
      return (joined ??= parts.join(''));
    },
  };
}

export interface EmitOptions {
  /** Truncate descriptions longer than this (0: no limit). */
  maxDescriptionLength?: number;
  /**
   * Bound on descriptions in CRD manifests (controller-gen's crd:maxDescLen), so a CRD stays under
   * the 256 KiB last-applied-configuration annotation of `kubectl apply`: longer ones are cut at a
   * word and end in "..."; 0 drops every description. Unset: kept whole.
   */
  crdMaxDescriptionLength?: number;
}

/**
 * What an emitter may keep across runs in kgen's cache (../cache.ts): the output of kgen's
 * built-in versions, the same in every project.
 */
export interface KeptOutput {
  cache?: DerivedCache;
  /** Whether a version is one of kgen's built-in versions (the same in every project). */
  builtin: (v: ApiVersion) => boolean;
}

const digests = new WeakMap<ApiVersion, string>();

/**
 * A hash of the version object's JSON text (plain data: everything an emitter reads of it), for
 * the keys of outputs kept across runs. Kept per object, so the emitters that key on the same
 * built-in versions print and hash each once; like those outputs, it relies on the model not
 * being changed once checked.
 */
export function versionDigest(version: ApiVersion): string {
  let digest = digests.get(version);
  if (digest === undefined) digests.set(version, (digest = entryKey(JSON.stringify(version))));
  return digest;
}

/** Stable, readable JSON: two-space indent, trailing newline. Key order is the builder's. */
export function jsonFile(path: string, value: unknown): EmittedFile {
  return { path, content: JSON.stringify(value, null, 2) + '\n' };
}
