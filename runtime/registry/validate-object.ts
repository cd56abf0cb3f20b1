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
  copy.metadata ??= {} as KubeObject['metadata'];
  // kubectl sends namespaced objects to the current namespace, and the server names generateName objects.
  if (config.definition.scope === 'Namespaced' && !copy.metadata.namespace) copy.metadata.namespace = 'default';
  if (!copy.metadata.name && copy.metadata.generateName) copy.metadata.name = `${copy.metadata.generateName}abcde`;
  return copy;
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
  const stored = structuredClone(old);
  strategy.prepareForUpdate(copy, stored);
  return [...problems, ...problemsOf(strategy.validateUpdate(copy, stored))];
}
