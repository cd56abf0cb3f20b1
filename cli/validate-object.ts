/** One manifest object of `kgen validate` against its kind: the lines to print after `file:line: `. */
import type { KubeObject } from '../runtime/api/meta.js';
import { validateNewObject } from '../runtime/registry/validate-object.js';
import type { ManifestObject } from './manifests.js';
import { targetKey, type Targets } from './validate-targets.js';

export function validateManifestObject(entry: ManifestObject, targets: Targets): string[] {
  if (entry.error !== undefined) return [`cannot parse: ${entry.error}`];
  const obj = entry.value as Partial<KubeObject> | null;
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return ['not an object'];
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const name = `${kind || '<no kind>'}/${typeof obj.metadata?.name === 'string' ? obj.metadata.name : obj.metadata?.generateName ?? '<no name>'}`;
  if (typeof obj.apiVersion !== 'string' || !kind) return [`${name}: apiVersion and kind are required`];
  const target = targets.get(targetKey(obj.apiVersion, kind));
  if (!target) return [`${name}: no API for kind ${JSON.stringify(kind)} in version ${JSON.stringify(obj.apiVersion)}`];
  return validateNewObject(target(), obj as KubeObject).map((p) => `${name}: ${p.field}: ${p.message}`);
}
