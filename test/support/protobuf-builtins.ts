/**
 * The built-in kinds' protobuf tables as a server installs them, without a server: each kind's
 * table derived from its schema in the committed generated/ OpenAPI documents (compiled from
 * generator/builtin/) and registered, as the installer does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerProtobufMessage } from '../../runtime/endpoints/protobuf-registry.js';
import { protobufMessageFor } from '../../runtime/endpoints/protobuf-schema.js';

const OPENAPI = fileURLToPath(new URL('../../generated/openapi/v3/', import.meta.url));

export interface BuiltinKind {
  apiVersion: string;
  kind: string;
  schemaName: string;
  schemas: Record<string, unknown>;
}

/** The OpenAPI v3 documents of the built-in group/versions (api/v1 and apis/<k8s.io group>/<version>). */
function builtinDocuments(): string[] {
  const docs = ['api/v1.json'];
  for (const group of readdirSync(join(OPENAPI, 'apis')).filter((g) => g.endsWith('k8s.io')).sort()) {
    for (const version of readdirSync(join(OPENAPI, 'apis', group)).sort()) docs.push(`apis/${group}/${version}`);
  }
  return docs;
}

/** Every built-in kind with its group/version's component schemas. */
export function builtinKinds(): BuiltinKind[] {
  const out: BuiltinKind[] = [];
  for (const doc of builtinDocuments()) {
    const schemas = JSON.parse(readFileSync(join(OPENAPI, doc), 'utf8')).components.schemas as Record<string, { 'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[] }>;
    for (const [schemaName, s] of Object.entries(schemas)) {
      const gvk = s['x-kubernetes-group-version-kind']?.[0];
      if (!gvk || gvk.kind.endsWith('List') || schemaName.startsWith('io.k8s.apimachinery')) continue;
      out.push({ apiVersion: gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version, kind: gvk.kind, schemaName, schemas });
    }
  }
  return out;
}

/** Registers every built-in kind's derived table; returns the kinds. */
export function registerBuiltinProtobuf(): BuiltinKind[] {
  const kinds = builtinKinds();
  for (const k of kinds) registerProtobufMessage(k.apiVersion, k.kind, () => protobufMessageFor(k.schemas, k.schemaName));
  return kinds;
}
