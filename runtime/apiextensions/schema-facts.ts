/**
 * What the passes of a CRD's validation ask of one version's openAPIV3Schema, found in one walk
 * instead of one walk per question (kube builds one Structural and checks it; validating a CRD here
 * used to walk each schema once per pass):
 *
 * - whether it has defaults (schemaHasDefaults), kube's extensions (schemaHasKubernetesExtensions)
 *   or x-kubernetes-validations rules: each is SchemaHas over the same nodes, so the answers are
 *   exactly kube's;
 * - which subtrees hold a default, so the defaults pass (default-rules.ts) visits only those;
 * - NewStructural's refusal (structuralConversionError), computed once: the walk notes whether any
 *   node could be refused, and only then runs the real search, in its own order;
 * - the static CEL cost estimate (cel-cost.ts), computed once and only when there are rules (with
 *   none it is empty), shared by the CRD's validation and the generator's limits check.
 *
 * Facts are read from the schema as it is when they are first asked for; a SchemaFactsCache must
 * not outlive a change to the schemas it was asked about (one validateCRD call, or one generation).
 */
import { estimateSchemaCost, type SchemaCost } from '../validation/cel-cost.js';
import { isObject, structuralConversionError } from './structural-rules.js';

type Props = Record<string, unknown>;

const NO_COST: SchemaCost = Object.freeze({ rules: [], messageExpressions: [], total: 0 }) as SchemaCost;

export class SchemaFacts {
  hasDefaults = false;
  hasKubernetesExtensions = false;
  hasRules = false;
  /** Nodes with a default at or below them (as SchemaHas walks). */
  readonly defaultsBelow = new WeakSet<Props>();
  /** Whether a node NewStructural refuses may exist (a superset of the nodes its search visits). */
  private mayBeNonStructural = false;
  private conversion?: { error: string | undefined };
  private estimate?: SchemaCost;

  constructor(private readonly schema: unknown) {
    this.visit(schema);
  }

  /** structuralConversionError(schema), once. */
  conversionError(): string | undefined {
    this.conversion ??= { error: this.mayBeNonStructural ? structuralConversionError(this.schema) : undefined };
    return this.conversion.error;
  }

  /** estimateSchemaCost(schema), once; empty without rules (the estimate only prices rules). */
  cost(): SchemaCost {
    this.estimate ??= this.hasRules && isObject(this.schema) ? estimateSchemaCost(this.schema) : NO_COST;
    return this.estimate;
  }

  /** One node, SchemaHas' children in SchemaHas' order; returns whether a default is at or below it. */
  private visit(s: unknown): boolean {
    if (!isObject(s)) return false;
    let defaults = s.default !== undefined && s.default !== null;
    if (defaults) this.hasDefaults = true;
    if (!this.hasKubernetesExtensions && hasKubernetesExtensions(s)) this.hasKubernetesExtensions = true;
    if (!this.hasRules && Array.isArray(s['x-kubernetes-validations']) && s['x-kubernetes-validations'].length > 0) this.hasRules = true;
    if (!this.mayBeNonStructural && mayBeRefused(s)) this.mayBeNonStructural = true;
    // SchemaHas recurses without a bound; so does this (JSON schemas are trees).
    const items = s.items;
    if (Array.isArray(items)) {
      for (const sub of items) if (this.visit(sub)) defaults = true;
    } else if (this.visit(items)) defaults = true;
    for (const key of JUNCTORS) {
      const list = s[key];
      if (Array.isArray(list)) for (const sub of list) if (this.visit(sub)) defaults = true;
    }
    if (this.visit(s.not)) defaults = true;
    if (this.visit(s.additionalProperties)) defaults = true;
    if (this.visit(s.additionalItems)) defaults = true;
    for (const key of MAPS) {
      const map = s[key];
      if (isObject(map)) for (const name in map) if (Object.hasOwn(map, name) && this.visit(map[name])) defaults = true;
    }
    if (defaults) this.defaultsBelow.add(s);
    return defaults;
  }
}

const JUNCTORS = ['allOf', 'anyOf', 'oneOf'] as const;
const MAPS = ['properties', 'patternProperties', 'definitions', 'dependencies'] as const;

/** schemaHasKubernetesExtensions' predicate. */
export function hasKubernetesExtensions(s: Props): boolean {
  return (
    s['x-kubernetes-embedded-resource'] === true ||
    (s['x-kubernetes-preserve-unknown-fields'] !== undefined && s['x-kubernetes-preserve-unknown-fields'] !== null) ||
    s['x-kubernetes-int-or-string'] === true ||
    (Array.isArray(s['x-kubernetes-list-map-keys']) && s['x-kubernetes-list-map-keys'].length > 0) ||
    (s['x-kubernetes-list-type'] !== undefined && s['x-kubernetes-list-type'] !== null) ||
    (Array.isArray(s['x-kubernetes-validations']) && s['x-kubernetes-validations'].length > 0)
  );
}

/**
 * Whether structuralConversionError could stop at this node: any field it refuses, whatever its
 * value (the real search decides). Its search visits a subset of SchemaHas' nodes, so when no node
 * here qualifies it finds nothing.
 */
function mayBeRefused(s: Props): boolean {
  return (
    s.id !== undefined ||
    s.$schema !== undefined ||
    s.$ref !== undefined ||
    s.patternProperties !== undefined ||
    s.dependencies !== undefined ||
    s.additionalItems !== undefined ||
    s.definitions !== undefined ||
    s['x-kubernetes-preserve-unknown-fields'] === false ||
    Array.isArray(s.items)
  );
}

/** The facts of each schema asked about, by the schema object (see the contract above). */
export class SchemaFactsCache {
  private readonly bySchema = new WeakMap<object, SchemaFacts>();

  of(schema: unknown): SchemaFacts {
    if (!isObject(schema)) return new SchemaFacts(schema);
    let facts = this.bySchema.get(schema);
    if (!facts) this.bySchema.set(schema, (facts = new SchemaFacts(schema)));
    return facts;
  }
}
