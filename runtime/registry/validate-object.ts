/**
 * What the server would refuse an object for, computed without a server: the checks of a create
 * (or update) of a generated kind or custom resource, in the order the create handler and the
 * store run them. `kgen validate` (offline manifests) and the generated clients' validate() use
 * this, so all three agree with the server by construction.
 *
 * The order, as createResource and the generic store do it: strict field validation (unknown
 * fields, which the server refuses with fieldValidation=Strict, kubectl's default), pruning,
 * defaulting, the strategy's prepareForCreate, then the strategy's validate (ObjectMeta, then the
 * schema and its CEL rules). The object given is never changed.
 */
import type { KubeObject } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import { compileSchemaValidator, type GoFields } from '../validation/index.js';
import { newCustomResourceStrategy, type StrategyConfig } from './strategy.js';

/** One problem: kube's field path (`spec.replicas`) and message (`Invalid value: 200: …`). */
export interface ObjectProblem {
  field: string;
  message: string;
}

/** The object as the server would see it after decoding: defaulted, pruned, system fields filled. */
function decoded(config: StrategyConfig, obj: KubeObject, problems: ObjectProblem[]): KubeObject {
  const copy = structuredClone(obj);
  for (const f of config.validator.unknownFields(copy)) problems.push({ field: f, message: `unknown field ${JSON.stringify(f)}` });
  config.validator.prune(copy);
  config.validator.applyDefaults(copy);
  return withRequestMetadata(config, copy);
}

/** kubectl sends namespaced objects to the current namespace ("default"), and the server names generateName objects. */
function withRequestMetadata(config: StrategyConfig, obj: KubeObject): KubeObject {
  obj.metadata ??= {} as KubeObject['metadata'];
  if (config.definition.scope === 'Namespaced' && !obj.metadata.namespace) obj.metadata.namespace = 'default';
  if (!obj.metadata.name && obj.metadata.generateName) obj.metadata.name = `${obj.metadata.generateName}abcde`;
  return obj;
}

function problemsOf(causes: { field?: string; message?: string }[]): ObjectProblem[] {
  return causes.map((c) => ({ field: c.field ?? '', message: c.message ?? '' }));
}

/** Every reason a create of obj would be refused. */
export function validateNewObject(config: StrategyConfig, obj: KubeObject): ObjectProblem[] {
  const problems: ObjectProblem[] = [];
  const strategy = newCustomResourceStrategy(config);
  const copy = decoded(config, obj, problems);
  strategy.prepareForCreate(copy);
  return [...problems, ...problemsOf(strategy.validate(copy))];
}

/** Every reason an update of old to obj would be refused (CEL transition rules see old). */
export function validateObjectUpdate(config: StrategyConfig, obj: KubeObject, old: KubeObject): ObjectProblem[] {
  const problems: ObjectProblem[] = [];
  const strategy = newCustomResourceStrategy(config);
  const copy = decoded(config, obj, problems);
  const stored = withRequestMetadata(config, structuredClone(old));
  strategy.prepareForUpdate(copy, stored);
  return [...problems, ...problemsOf(strategy.validateUpdate(copy, stored))];
}

/** What an offline validator needs to know of a kind besides its schema. */
export interface KindInfo {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  /** Has a status subresource: a create or main-resource update does not set status. */
  status: boolean;
}

/** A ResourceDefinition carrying only what validation reads (scope, status subresource, names). */
export function offlineDefinition(info: KindInfo, schemaName: string): ResourceDefinition {
  return {
    group: info.group,
    version: info.version,
    kind: info.kind,
    listKind: `${info.kind}List`,
    plural: info.plural,
    singular: info.kind.toLowerCase(),
    scope: info.namespaced ? 'Namespaced' : 'Cluster',
    shortNames: [],
    categories: [],
    subresources: { status: info.status },
    printerColumns: [],
    selectableFields: [],
    schemaName,
    storageVersion: false,
    verbs: [],
  };
}

/**
 * Where a generated folder keeps the Go facts of its kinds (generator/emit/go-fields.ts): by
 * apiVersion, the ResourceDefinition.protobuf tables the server compiles its validators with.
 */
export const GO_FIELDS_FILE = 'validate/go-fields.json';

export interface KindValidator<T> {
  /** Every reason the server would refuse to create obj; empty when it would accept it. */
  validate(obj: T): ObjectProblem[];
  /** Every reason the server would refuse to update old to obj. */
  validateUpdate(obj: T, old: T): ObjectProblem[];
}

/**
 * The validator of generated clients (`client/<group>/<version>.validate.ts`): the kind's schemas
 * are produced and compiled on the first call, then kept. `goFields`: the kind's Go facts
 * (ResourceDefinition.protobuf), for a kind that numbers its fields, as the server compiles it.
 */
export function kindValidator<T>(info: KindInfo, schemaName: string, schemas: () => Record<string, unknown>, goFields?: () => GoFields): KindValidator<T> {
  let config: StrategyConfig | undefined;
  const get = () => (config ??= { definition: offlineDefinition(info, schemaName), validator: compileSchemaValidator(schemas() as never, schemaName, goFields?.()) });
  return {
    validate: (obj) => validateNewObject(get(), obj as KubeObject),
    validateUpdate: (obj, old) => validateObjectUpdate(get(), obj as KubeObject, old as KubeObject),
  };
}
