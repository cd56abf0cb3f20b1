/**
 * The generated directory's layout where emitted files meet: the paths and export names one
 * emitter's module uses to import or name another's (a storage module imports its kind's
 * conversion; a routes module names its OpenAPI document). Kept here, outside every emitter, so
 * that no emitter imports another. Not an emitter: it emits nothing.
 */
import { groupFolder } from '../names.js';

/** The OpenAPI v3 document of a group/version, relative to the output directory (also served at run time). */
export function openapiPath(group: string, version: string): string {
  return group ? `openapi/v3/apis/${group}/${version}.json` : `openapi/v3/api/${version}.json`;
}

/**
 * The component schemas of a group/version's OpenAPI v3 document alone, as compact JSON of the same
 * shape (`{"components":{"schemas":…}}`), relative to the output directory: what the server reads
 * to build a kind's validator, defaulter and field manager (a sixth of the document's bytes).
 */
export function schemasPath(group: string, version: string): string {
  return group ? `openapi/schemas/apis/${group}/${version}.json` : `openapi/schemas/api/${version}.json`;
}

/** The module path of a kind's conversion, relative to the output directory. */
export function conversionModulePath(group: string, plural: string): string {
  return `conversion/${groupFolder(group)}/${plural}.ts`;
}

/** The exported name of a kind's KindConversion. */
export function conversionExportName(plural: string): string {
  return `${plural}Conversion`;
}
