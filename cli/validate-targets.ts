/**
 * The kinds `kgen validate` knows, each with what the server validates it with: from a generated
 * folder (its discovery documents and OpenAPI v3 documents, as `kgen serve` reads them) and from
 * CRD manifests (as the apiextensions server builds a served version). A generated folder's kinds
 * are compiled with their Go facts (GO_FIELDS_FILE), as the server compiles them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { servedVersions } from '../runtime/apiextensions/definition.js';
import type { CustomResourceDefinition } from '../runtime/apiextensions/types.js';
import type { StrategyConfig } from '../runtime/registry/strategy.js';
import { GO_FIELDS_FILE, offlineDefinition } from '../runtime/registry/validate-object.js';
import { compileSchemaValidator, type GoFields } from '../runtime/validation/index.js';

/** `apiVersion\0kind` → how the server validates it (compiled on first use). */
export type Targets = Map<string, () => StrategyConfig>;

export const targetKey = (apiVersion: string, kind: string) => `${apiVersion}\0${kind}`;

function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

interface DiscoveryResource {
  name: string;
  singularName?: string;
  namespaced: boolean;
  kind: string;
  verbs?: string[];
  shortNames?: string[];
  categories?: string[];
}

/** Every kind of a generated folder. */
export function generatedTargets(dir: string, targets: Targets): void {
  const docs: [string, string, string][] = [];
  if (existsSync(join(dir, 'discovery/api/v1.json'))) docs.push(['', 'v1', 'api/v1']);
  const apis = join(dir, 'discovery/apis');
  if (existsSync(apis)) {
    for (const group of readdirSync(apis).sort()) {
      for (const file of readdirSync(join(apis, group)).filter((f) => f.endsWith('.json')).sort()) docs.push([group, file.slice(0, -5), `apis/${group}/${file.slice(0, -5)}`]);
    }
  }
  // The Go facts of the folder's kinds (built-in kinds: which zero values are defaulted), as the server has them.
  const goFields = lazy(() => {
    const file = join(dir, GO_FIELDS_FILE);
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, GoFields>) : {};
  });
  for (const [group, version, path] of docs) {
    const discovery = JSON.parse(readFileSync(join(dir, 'discovery', `${path}.json`), 'utf8')) as { resources: DiscoveryResource[] };
    const openapiPath = join(dir, 'openapi/v3', `${path}.json`);
    if (!existsSync(openapiPath)) continue;
    const schemas = lazy(() => (JSON.parse(readFileSync(openapiPath, 'utf8')) as { components: { schemas: Record<string, Record<string, unknown>> } }).components.schemas);
    const names = new Set(discovery.resources.map((r) => r.name));
    const apiVersion = group ? `${group}/${version}` : version;
    for (const r of discovery.resources) {
      if (r.name.includes('/')) continue;
      const schemaName = () => {
        const found = Object.entries(schemas()).find(([, s]) => ((s['x-kubernetes-group-version-kind'] as { group: string; version: string; kind: string }[] | undefined) ?? []).some((g) => g.group === group && g.version === version && g.kind === r.kind));
        if (!found) throw new Error(`no schema for ${apiVersion} ${r.kind} in ${openapiPath}`);
        return found[0];
      };
      targets.set(
        targetKey(apiVersion, r.kind),
        lazy(() => {
          const name = schemaName();
          const def = offlineDefinition({ group, version, kind: r.kind, plural: r.name, namespaced: r.namespaced, status: names.has(`${r.name}/status`) }, name);
          return { definition: def, validator: compileSchemaValidator(schemas() as never, name, goFields()[apiVersion]) };
        }),
      );
    }
  }
}

/** Every served version of the CustomResourceDefinitions in a manifest file. */
export function crdTargets(file: string, targets: Targets): number {
  let count = 0;
  for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
    const crd = doc.toJS() as CustomResourceDefinition | null;
    if (!crd || crd.kind !== 'CustomResourceDefinition') continue;
    for (const served of servedVersions(crd)) {
      const def = served.definition;
      targets.set(
        targetKey(def.group ? `${def.group}/${def.version}` : def.version, def.kind),
        lazy(() => ({ definition: def, validator: compileSchemaValidator(served.schemas as never, def.schemaName) })),
      );
      count++;
    }
  }
  return count;
}
