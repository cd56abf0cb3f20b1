/**
 * Lazily built schema machinery of installed resources. Start-up must not pay for parsing every
 * group/version's OpenAPI document and compiling every kind's validator and field-manager type
 * schema (about 1.5 ms per kind); as kube's crdHandler builds a CRD's serving info on its first
 * request (getOrCreateServingInfoFor), each is built on its first use and kept.
 *
 * A document or schema that cannot be built is a server-side fault, not bad input: every use of
 * the resource then answers a 500 InternalError Status naming the document and the cause (the
 * error is kept, so it is not recomputed per request). `verify()` builds everything eagerly, for
 * callers that want such faults at start-up.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { apiVersionOf, type GroupVersionDefinition, type ResourceDefinition } from '../api/resource.js';
import { newInternalError, StatusError } from '../api/status.js';
import { isKubeGroup } from '../api/kube-groups.js';
import { newFieldManager } from '../endpoints/fieldmanager/index.js';
import type { FieldManager } from '../endpoints/fieldmanager/fieldmanager.js';
import type { StatusResets } from '../registry/strategy.js';
import { compileSchemaValidator, type SchemaValidator } from '../validation/index.js';

export type Schemas = Parameters<typeof compileSchemaValidator>[0];

/** A value computed on first get(); a failure is kept and rethrown as a 500 StatusError. */
export class Lazy<T> {
  private value?: T;
  private failure?: StatusError;

  constructor(
    private readonly build: () => T,
    private readonly describe: () => string,
  ) {}

  get(): T {
    if (this.value !== undefined) return this.value;
    if (this.failure) throw this.failure;
    try {
      this.value = this.build();
      return this.value;
    } catch (err) {
      // A failure of a Lazy this one builds on is already described.
      this.failure = err instanceof StatusError ? err : newInternalError(`${this.describe()}: ${(err as Error).message}`);
      throw this.failure;
    }
  }
}

/**
 * The component schemas of one group/version's OpenAPI v3 document (`gv.openapiPath` under
 * `generatedDir`), read from the generator's compact file of them alone (`gv.schemasPath`, the same
 * shape) where the generated code names one, else from the document. The files must exist when the
 * group/version is installed (checked then, cheaply); the schemas are read and parsed on first use.
 */
export function groupVersionSchemas(generatedDir: string, gv: GroupVersionDefinition): Lazy<Schemas> {
  const files = gv.schemasPath === undefined ? [gv.openapiPath] : [gv.openapiPath, gv.schemasPath];
  const describe = (file: string) => `cannot read the OpenAPI document of ${apiVersionOf(gv.group, gv.version)} at ${join(generatedDir, file)}`;
  for (const file of files) {
    try {
      if (!statSync(join(generatedDir, file)).isFile()) throw new Error('not a file');
    } catch (err) {
      throw new Error(`${describe(file)}: ${(err as Error).message}`);
    }
  }
  const path = join(generatedDir, files[files.length - 1]!);
  return new Lazy(
    () => {
      const doc = JSON.parse(readFileSync(path, 'utf8')) as { components?: { schemas?: Schemas } } | null;
      return doc?.components?.schemas ?? {};
    },
    () => describe(files[files.length - 1]!),
  );
}

function resourceName(definition: ResourceDefinition): string {
  return definition.group ? `${definition.plural}.${definition.group}` : definition.plural;
}

/**
 * Kubernetes' own kinds decode into their Go types (a wrongly typed field is the decoder's 400, a
 * Quantity is written back canonically); kgen's other compiled kinds are served as kube serves
 * custom resources, unstructured.
 */
function decodesTyped(definition: ResourceDefinition): boolean {
  return definition.protobuf !== undefined && definition.customResource !== true && isKubeGroup(definition.group);
}

/** A SchemaValidator compiled from the kind's schema on its first call. */
export function lazyValidator(definition: ResourceDefinition, schemas: Lazy<Schemas>): { validator: SchemaValidator; compiled: Lazy<SchemaValidator> } {
  const compiled = new Lazy(
    // A built-in kind's protobuf table names its Go types' plain fields, whose zero a default replaces.
    () => compileSchemaValidator(schemas.get(), definition.schemaName, definition.protobuf, decodesTyped(definition)),
    () => `cannot compile the schema ${definition.schemaName} of ${resourceName(definition)}`,
  );
  const validator: SchemaValidator = {
    validate: (obj, old) => compiled.get().validate(obj, old),
    unknownFields: (obj) => compiled.get().unknownFields(obj),
    prune: (obj) => compiled.get().prune(obj),
    applyDefaults: (obj) => compiled.get().applyDefaults(obj),
  };
  if (decodesTyped(definition)) {
    validator.decodeError = (obj, literals, repeatedKeys) => compiled.get().decodeError?.(obj, literals, repeatedKeys);
    validator.convertError = (obj) => compiled.get().convertError?.(obj);
    validator.repeatedKeysValue = (text) => compiled.get().repeatedKeysValue?.(text);
    validator.keepQuantityLiterals = (obj, literals) => compiled.get().keepQuantityLiterals?.(obj, literals);
  }
  return { validator, compiled };
}

/** The kind's typed FieldManager, its type schema built on first use. */
export function lazyFieldManager(definition: ResourceDefinition, schemas: Lazy<Schemas>, statusResets?: StatusResets): Lazy<FieldManager> {
  return new Lazy(
    () => newFieldManager(definition, schemas.get() as Record<string, unknown>, statusResets),
    () => `cannot build the field structure of ${definition.schemaName} for ${resourceName(definition)}`,
  );
}
