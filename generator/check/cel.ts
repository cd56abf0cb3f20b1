/**
 * Check stage for CEL rules (@kgen:validation, @kgen:immutable): each rule must compile, in the
 * server's own CEL environment, against the declared type of the value it is written on (KG050),
 * and a transition rule (oldSelf) must sit where kube can correlate an old value (KG051): not
 * under the items of a list that is not a list-type=map.
 */
import type { DiagnosticBag } from '../diagnostics.js';
import type { ApiVersion, NamedType, Schema, ValidationRule, WellKnownName } from '../model.js';
import { assertNever } from '../model.js';
import { compileRule, type CompiledRule } from '../../runtime/validation/cel-compile.js';
import { DYN, escapeName, withTypeMeta, type DeclType } from '../../runtime/validation/cel-decl.js';
import { IMMUTABLE_RULE } from '../parse/validations.js';

export function checkRules(version: ApiVersion, diags: DiagnosticBag): void {
  const types = new Map(version.types.map((t) => [t.name, t]));
  const compiled = new Map<ValidationRule, CompiledRule>();
  const walker = new RuleWalker(types, diags, compiled);
  for (const kind of version.kinds) {
    walker.visitRules(kind.schema, withTypeMeta(declOf(kind.schema, types)), false);
    walker.visitChildren(kind.schema, false, new Set());
  }
}

class RuleWalker {
  constructor(
    private readonly types: Map<string, NamedType>,
    private readonly diags: DiagnosticBag,
    private readonly compiled: Map<ValidationRule, CompiledRule>,
  ) {}

  /** Compiles the node's rules (each once per generation) and checks oldSelf placement. */
  visitRules(schema: Schema, self: DeclType, uncorrelated: boolean): void {
    for (const rule of schema.validations ?? []) {
      const tag = rule.rule === IMMUTABLE_RULE.rule && rule.message === IMMUTABLE_RULE.message ? '@kgen:immutable' : '@kgen:validation';
      let compiled = this.compiled.get(rule);
      if (!compiled) {
        compiled = compileRule(rule, self);
        this.compiled.set(rule, compiled);
        if (compiled.error) {
          const what = compiled.errorIn === 'rule' ? `rule "${rule.rule}"` : compiled.errorIn === 'fieldPath' ? `fieldPath "${rule.fieldPath}"` : `messageExpression "${rule.messageExpression}"`;
          this.diags.add('KG050', rule.loc, { what, tag, problem: compiled.error });
        }
      }
      if (!compiled.error && compiled.usesOldSelf && uncorrelated && !this.misplaced.has(rule)) {
        this.misplaced.add(rule);
        this.diags.add('KG051', rule.loc, { tag, where: 'the items of a list that is not a @kgen:listType map list' });
      }
    }
  }

  private readonly misplaced = new Set<ValidationRule>();

  /** Visits every schema below `schema`, following named types (each once per path). */
  visitChildren(schema: Schema, uncorrelated: boolean, path: Set<string>): void {
    switch (schema.type) {
      case 'object':
        for (const p of schema.properties) this.visit(p.schema, uncorrelated, path);
        break;
      case 'array':
        this.visit(schema.items, uncorrelated || schema.listType !== 'map', path);
        break;
      case 'map':
        this.visit(schema.values, uncorrelated, path);
        break;
      case 'ref': {
        const named = this.types.get(schema.name);
        if (!named || path.has(schema.name)) break;
        const inner = new Set(path).add(schema.name);
        this.visit(named.schema, uncorrelated, inner);
        break;
      }
      default:
        break;
    }
  }

  private visit(schema: Schema, uncorrelated: boolean, path: Set<string>): void {
    this.visitRules(schema, declOf(schema, this.types), uncorrelated);
    this.visitChildren(schema, uncorrelated, path);
  }
}

const scalar = (name: 'int' | 'double' | 'string' | 'bool' | 'timestamp'): DeclType => ({ kind: 'scalar', name });
const object = (fields: Record<string, () => DeclType>): DeclType => ({ kind: 'object', fields: new Map(Object.entries(fields)) });
const STR = () => scalar('string');

/** The well-known types' fields, as their OpenAPI schemas declare them. */
const WELL_KNOWN: Record<WellKnownName, () => DeclType> = {
  ObjectMeta: () => DYN,
  Condition: () =>
    object({ type: STR, status: STR, observedGeneration: () => scalar('int'), lastTransitionTime: () => scalar('timestamp'), reason: STR, message: STR }),
  LabelSelector: () =>
    object({
      matchLabels: () => ({ kind: 'map', values: STR }),
      matchExpressions: () => ({ kind: 'list', items: () => object({ key: STR, operator: STR, values: () => ({ kind: 'list', items: STR }) }) }),
    }),
  ObjectReference: () =>
    object({ apiVersion: STR, fieldPath: STR, kind: STR, name: STR, namespace: STR, resourceVersion: STR, uid: STR }),
};

/** The declared CEL type of a model schema (kube's SchemaDeclType over the emitted schema). */
export function declOf(schema: Schema, types: Map<string, NamedType>, depth = 0): DeclType {
  switch (schema.type) {
    case 'string':
    case 'duration':
      return scalar('string');
    case 'time':
      return scalar('timestamp');
    case 'integer':
      return scalar('int');
    case 'number':
      return scalar('double');
    case 'boolean':
      return scalar('bool');
    case 'intOrString':
    case 'quantity':
    case 'unknown':
      return DYN;
    case 'array':
      return { kind: 'list', items: () => declOf(schema.items, types, depth + 1) };
    case 'map':
      return { kind: 'map', values: () => declOf(schema.values, types, depth + 1) };
    case 'object': {
      const fields = new Map<string, () => DeclType>();
      for (const p of schema.properties) {
        const name = escapeName(p.name);
        if (name !== undefined) fields.set(name, () => declOf(p.schema, types, depth + 1));
      }
      return { kind: 'object', fields };
    }
    case 'ref': {
      const named = types.get(schema.name);
      return named && depth < 64 ? declOf(named.schema, types, depth + 1) : DYN;
    }
    case 'wellKnown':
      return WELL_KNOWN[schema.name]();
    default:
      return assertNever(schema, 'schema');
  }
}
