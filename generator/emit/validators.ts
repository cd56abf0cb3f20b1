/**
 * Emits `validate/<group>/<version>.ts`: per kind of the user's groups, a validator with the
 * server's own checks (runtime/registry/validate-object.ts: kindValidator) and the kind's schemas
 * (its component schema and every schema it references, as in the group/version's OpenAPI
 * document), so a program can check an object before it sends it. They sit beside the clients,
 * not in them: the validators need kgen's validation engine, and a program that only uses the
 * clients depends on @kgen/client alone. A kind that numbers its fields (@kgen:protobuf) also
 * gets its Go facts, as the server has them. Which kinds: validators-view.ts.
 */
import type { OpenAPIV3 } from 'openapi-types';
import type { ApiModel, ApiVersion, Kind } from '../model.js';
import { groupFolder } from '../names.js';
import type { EmittedFile } from './emitted.js';
import { META_SCHEMAS } from '../../runtime/endpoints/openapi/meta-schemas.js';
import { contextFor, kindSchemaName, versionSchemas, type SchemaOrRef } from './openapi-schemas.js';
import { render } from './templates.js';
import { validatedKinds } from './validators-view.js';
import { protobufNumbers } from './protobuf-numbers.js';

const lowerFirst = (s: string) => s[0]!.toLowerCase() + s.slice(1);

/** The named schemas `root` reaches through `$ref`s, root first, then sorted by name. */
function closure(root: string, own: Record<string, SchemaOrRef>): Record<string, SchemaOrRef | OpenAPIV3.SchemaObject> {
  const found = new Map<string, SchemaOrRef | OpenAPIV3.SchemaObject>();
  const visit = (name: string) => {
    if (found.has(name)) return;
    const schema = own[name] ?? META_SCHEMAS[name];
    if (!schema) return;
    found.set(name, schema);
    refs(schema);
  };
  // Every `$ref` anywhere in a schema (walked directly, not through a JSON.stringify of it).
  const refs = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) refs(item);
    else if (value !== null && typeof value === 'object') {
      for (const [key, member] of Object.entries(value)) {
        if (key === '$ref' && typeof member === 'string') visit(member.replace('#/components/schemas/', ''));
        else refs(member);
      }
    }
  };
  visit(root);
  const [first, ...rest] = [...found.keys()];
  return Object.fromEntries([first!, ...rest.sort()].map((k) => [k, found.get(k)!]));
}

/**
 * The facts the server compiles the kind's validator with (ResourceDefinition.protobuf), so that a
 * Go zero value it defaults is accepted here too; undefined for a kind that numbers no field.
 */
function goFieldsOf(kind: Kind, version: ApiVersion): string | undefined {
  const numbers = protobufNumbers(kind, version);
  return numbers && JSON.stringify(numbers);
}

/** The view of one validator in templates/validators.ts.hbs; `schemas` is the JSON document of its schemas. */
interface ValidatorView {
  name: string;
  kind: string;
  schemaName: string;
  info: { group: string; version: string; kind: string; plural: string; namespaced: boolean; status: boolean };
  schemas: string;
  /** The kind's Go facts (its @kgen:protobuf entries, as its ResourceDefinition has them), when it has any. */
  goFields?: string;
}

function validatorView(version: ApiVersion, kind: Kind): ValidatorView {
  const ctx = contextFor(version, 0);
  const schemaName = kindSchemaName(ctx, kind.name);
  const schemas = closure(schemaName, versionSchemas(ctx, version));
  // Descriptions are documentation, not validation: leaving them out keeps the module small.
  const text = JSON.stringify(schemas, (key, value) => (key === 'description' && typeof value === 'string' ? undefined : value));
  return {
    name: `${lowerFirst(kind.name)}Validator`,
    kind: kind.name,
    schemaName,
    info: { group: kind.group, version: kind.version, kind: kind.name, plural: kind.plural, namespaced: kind.scope === 'Namespaced', status: kind.subresources.status !== undefined },
    schemas: text,
    goFields: goFieldsOf(kind, version),
  };
}

/**
 * A version's validator module, kept while the version object lives (keyed by its source line):
 * the model's objects are not changed after checking, and `kgen generate --watch` reuses the
 * version objects of the groups it did not parse again, so only the changed groups' are rendered.
 */
const rendered = new WeakMap<ApiVersion, { source: string; file: EmittedFile }>();

export function emitValidators(model: ApiModel, sourceOf: (v: ApiVersion) => string): EmittedFile[] {
  const files: EmittedFile[] = [];
  for (const group of model.groups) {
    for (const version of group.versions) {
      const kinds = validatedKinds(version);
      if (kinds.length === 0) continue;
      const source = sourceOf(version);
      const kept = rendered.get(version);
      if (kept?.source === source) {
        files.push(kept.file);
        continue;
      }
      const folder = groupFolder(version.group);
      const file = {
        path: `validate/${folder}/${version.name}.ts`,
        content: render('validators.ts.hbs', {
          source,
          groupVersion: `${version.group}/${version.name}`,
          modelImport: `../../models/${folder}/${version.name}.js`,
          kinds: kinds.map((k) => k.name),
          validators: kinds.map((k) => validatorView(version, k)),
        }),
      };
      rendered.set(version, { source, file });
      files.push(file);
    }
  }
  return files;
}
