/**
 * `validate/go-fields.json`: the Go facts of every kind that has them (kgen's built-in kinds, and
 * kinds of yours that number their fields with @kgen:protobuf), by apiVersion, then OpenAPI schema
 * name, then JSON field name: the entries of the kind's ResourceDefinition.protobuf
 * (protobuf-numbers.ts), which the server compiles its validator with. They say which fields are
 * plain Go fields (their zero value, `protocol: ""`, is defaulted as absent) and which date-time
 * strings are a MicroTime. `kgen validate` reads them (cli/validate-targets.ts), so an offline check
 * of a built-in kind agrees with the server; it has no other way to know them, since it compiles
 * from the OpenAPI documents, which carry no Go facts (kube's do not either).
 */
import type { ApiModel, ApiVersion } from '../model.js';
import type { EmittedFile } from './emitted.js';
import { protobufNumbers, type ProtobufNumbers } from './protobuf-numbers.js';
import { GO_FIELDS_FILE } from '../../runtime/registry/validate-object.js';

export { GO_FIELDS_FILE };

/** A version's facts, kept while the version object lives (`--watch` reuses unchanged versions). */
const byVersion = new WeakMap<ApiVersion, ProtobufNumbers | undefined>();

function versionFacts(version: ApiVersion): ProtobufNumbers | undefined {
  if (byVersion.has(version)) return byVersion.get(version);
  let facts: ProtobufNumbers | undefined;
  for (const kind of version.kinds) {
    const numbers = protobufNumbers(kind, version);
    if (numbers) facts = { ...facts, ...numbers };
  }
  byVersion.set(version, facts);
  return facts;
}

export function emitGoFields(model: ApiModel): EmittedFile[] {
  const out: Record<string, ProtobufNumbers> = {};
  for (const group of model.groups) {
    for (const version of group.versions) {
      const facts = versionFacts(version);
      if (facts) out[version.group ? `${version.group}/${version.name}` : version.name] = facts;
    }
  }
  const sorted = Object.fromEntries(Object.keys(out).sort().map((k) => [k, out[k]!]));
  if (Object.keys(sorted).length === 0) return [];
  return [{ path: GO_FIELDS_FILE, content: `${JSON.stringify(sorted, null, 2)}\n` }];
}
