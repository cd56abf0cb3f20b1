/**
 * The built-in kinds' protobuf tables as a server installs them, without a server: each kind's
 * table derived from its ResourceDefinition's field numbers (@kgen:protobuf in generator/builtin/)
 * and its schema in the committed generated/ OpenAPI document, and registered, as the installer
 * does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isKubeGroup } from '../../runtime/api/kube-groups.js';
import type { ResourceDefinition } from '../../runtime/api/resource.js';
import { registerProtobufMessage } from '../../runtime/endpoints/protobuf-registry.js';
import { protobufMessageFor } from '../../runtime/endpoints/protobuf-schema.js';
import { groupVersions } from '../../generated/index.js';

const GENERATED = fileURLToPath(new URL('../../generated/', import.meta.url));

export interface BuiltinKind {
  apiVersion: string;
  kind: string;
  schemaName: string;
  schemas: Record<string, unknown>;
  numbers: ResourceDefinition['protobuf'];
}

/** Every kind of the built-in group/versions (core, *.k8s.io, apps), with its component schemas. */
export function builtinKinds(): BuiltinKind[] {
  const out: BuiltinKind[] = [];
  for (const gv of groupVersions) {
    if (!isKubeGroup(gv.group)) continue;
    const schemas = JSON.parse(readFileSync(join(GENERATED, gv.openapiPath), 'utf8')).components.schemas as Record<string, unknown>;
    for (const def of gv.resources) {
      out.push({ apiVersion: gv.group ? `${gv.group}/${gv.version}` : gv.version, kind: def.kind, schemaName: def.schemaName, schemas, numbers: def.protobuf });
    }
  }
  return out;
}

/** The kind's derived table (undefined: not encodable). */
export const tableOf = (k: BuiltinKind) => protobufMessageFor(k.schemas, k.schemaName, k.numbers);

/** Registers every built-in kind's derived table; returns the kinds. */
export function registerBuiltinProtobuf(): BuiltinKind[] {
  const kinds = builtinKinds();
  for (const k of kinds) registerProtobufMessage(k.apiVersion, k.kind, () => tableOf(k));
  return kinds;
}
