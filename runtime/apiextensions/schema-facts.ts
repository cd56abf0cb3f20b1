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
 *   none it is empty), shared by the CRD's validation and the generator's limits check;
 * - whether the schema compiles as a tree (compilesAsTree), so defaults can be checked in their
 *   own subtrees without compiling the whole schema;
 * - which subtrees hold a keyword only unusual schemas have (unusualBelow), so the schema rules
 *   (schema-rules.ts) and the structural invariants (structural-rules.ts) skip the checks of those
 *   keywords elsewhere.
 *
 * test/apiextensions/schema-facts.test.ts checks each answer against the predicate it replaces,
 * and the validation's findings against those with every shortcut turned off.
 *
 * Facts are read from the schema as it is when they are first asked for; a SchemaFactsCache must
 * not outlive a change to the schemas it was asked about (one validateCRD call, or one generation).
 */
import { estimateSchemaCost, type SchemaCost } from '../validation/cel-cost.js';
import { isObject, structuralConversionError } from './structural-rules.js';

type Props = Record<string, unknown>;

/** What visit finds at or below a node. */
const DEFAULT = 1;
const UNUSUAL = 2;

const NO_COST: SchemaCost = Object.freeze({ rules: Object.freeze([]), messageExpressions: Object.freeze([]), total: 0 }) as unknown as SchemaCost;

export class SchemaFacts {
  hasDefaults = false;
  hasKubernetesExtensions = false;
  hasRules = false;
  /** Nodes with a default at or below them (as SchemaHas walks). */
  readonly defaultsBelow = new WeakSet<Props>();
  /**
   * Whether SchemaCompiler compiles the schema as a tree of plain objects, so that it cannot fail
   * and a subtree compiles on its own to the same nodes (default-rules.ts validateDefaultsLazily):
   * no $ref, and every property, additionalProperties and allOf entry a plain object.
   */
  compilesAsTree = true;
  /**
   * Nodes with, at or below them, a keyword only unusual schemas have (not, allOf, anyOf, oneOf,
   * uniqueItems, an items list, or a keyword CRDs do not support: id, $schema, $ref,
   * additionalItems, patternProperties, definitions, dependencies). Under any other node the
   * checks of those keywords find nothing.
   */
  readonly unusualBelow = new WeakSet<Props>();
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

  /**
   * One node and SchemaHas' children of it; returns what is at or below it (DEFAULT, UNUSUAL). The
   * node's own keys are read once each (a schema node has a few of the many keywords the passes ask
   * about); each question is answered as its own predicate answers it.
   */
  private visit(s: unknown): number {
    if (!isObject(s)) return 0;
    let below = 0;
    const keys = Object.keys(s);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const v = s[key];
      if (v === undefined) continue;
      switch (key) {
        case 'default':
          if (v !== null) {
            this.hasDefaults = true;
            below |= DEFAULT;
          }
          break;
        case 'items':
          if (Array.isArray(v)) {
            below |= UNUSUAL;
            if (v.length > 0) this.mayBeNonStructural = true;
            for (const sub of v) below |= this.visit(sub);
          } else below |= this.visit(v);
          break;
        case 'allOf':
        case 'anyOf':
        case 'oneOf':
          below |= UNUSUAL;
          if (!Array.isArray(v)) break;
          for (const sub of v) {
            if (key === 'allOf' && !isObject(sub)) this.compilesAsTree = false;
            below |= this.visit(sub);
          }
          break;
        case 'not':
          below |= UNUSUAL;
          below |= this.visit(v);
          break;
        case 'additionalProperties':
          if (Array.isArray(v)) this.compilesAsTree = false;
          below |= this.visit(v);
          break;
        case 'additionalItems':
          below |= UNUSUAL;
          this.mayBeNonStructural = true;
          below |= this.visit(v);
          break;
        case 'properties':
          if (Array.isArray(v)) this.compilesAsTree = false;
          if (isObject(v)) {
            for (const name in v) {
              if (!Object.hasOwn(v, name)) continue;
              const sub = v[name];
              if (!isObject(sub)) this.compilesAsTree = false;
              else below |= this.visit(sub);
            }
          }
          break;
        case 'patternProperties':
        case 'definitions':
        case 'dependencies':
          below |= UNUSUAL;
          this.mayBeNonStructural = true;
          if (isObject(v)) for (const name in v) if (Object.hasOwn(v, name)) below |= this.visit(v[name]);
          break;
        case '$ref':
          below |= UNUSUAL;
          this.compilesAsTree = false;
          this.mayBeNonStructural = true;
          break;
        case 'id':
        case '$schema':
          below |= UNUSUAL;
          this.mayBeNonStructural = true;
          break;
        case 'uniqueItems':
          below |= UNUSUAL;
          break;
        case 'x-kubernetes-preserve-unknown-fields':
          if (v === false) this.mayBeNonStructural = true;
          if (v !== null) this.hasKubernetesExtensions = true;
          break;
        case 'x-kubernetes-embedded-resource':
        case 'x-kubernetes-int-or-string':
          if (v === true) this.hasKubernetesExtensions = true;
          break;
        case 'x-kubernetes-list-map-keys':
          if (Array.isArray(v) && v.length > 0) this.hasKubernetesExtensions = true;
          break;
        case 'x-kubernetes-list-type':
          if (v !== null) this.hasKubernetesExtensions = true;
          break;
        case 'x-kubernetes-validations':
          if (Array.isArray(v) && v.length > 0) this.hasKubernetesExtensions = this.hasRules = true;
          break;
      }
    }
    if (below & DEFAULT) this.defaultsBelow.add(s);
    if (below & UNUSUAL) this.unusualBelow.add(s);
    return below;
  }
}

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
