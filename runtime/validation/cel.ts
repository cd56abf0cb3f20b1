/**
 * CEL validation rules (x-kubernetes-validations): the entry points the schema validator, the
 * generator and the extensions server (CRDs posted at run time) share.
 *
 * - newCelValidator / celErrors: evaluation on every write (cel-validate.ts).
 * - compileRule: one rule against the declared type of its node (cel-compile.ts).
 * - celRuleErrors: every rule of an OpenAPI schema checked as kube checks a CRD's schema when the
 *   CRD is written, so a CRD with a rule that does not compile can be refused up front.
 */
import type { OpenAPIV3 } from 'openapi-types';
import { compileRule } from './cel-compile.js';
import { readValidationRules, RULE_REASONS, type RawValidationRule } from './cel-rules.js';
import type { CelValidator } from './cel-validate.js';
import { declTypeOfNode } from './cel-value.js';
import { SchemaCompiler, type SchemaInput } from './compile.js';
import { invalid, notSupported, required } from './field.js';
import { finalizeNodes } from './finalize.js';
import type { SchemaNode } from './node.js';
import type { FieldError } from './types.js';

export { compileRule, resolveFieldPath, type CompiledRule } from './cel-compile.js';
export { escapeName, type DeclType } from './cel-decl.js';
export { celEnvironment } from './cel-env.js';
export { newCelValidator, type CelValidator } from './cel-validate.js';
export { readValidationRules, ruleMessageOrDefault, type RawValidationRule } from './cel-rules.js';

const BLOCKED = 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

/**
 * The CEL errors to add to `schemaErrors`: rules are not evaluated over a value of the wrong type
 * or an unsupported enum value (kube's hasBlockingErr); one error says so instead.
 */
export function celErrors(cel: CelValidator, schemaErrors: FieldError[], obj: unknown, old: unknown): FieldError[] {
  if (schemaErrors.some((e) => e.type === 'FieldValueTypeInvalid' || e.type === 'FieldValueNotSupported')) {
    return [invalid('<nil>', null, BLOCKED)];
  }
  return cel.validate(obj, old);
}

/**
 * Checks every x-kubernetes-validations entry of `schema` (a CRD version's openAPIV3Schema, or a
 * named component of `components`) as apiextensions validation does: a rule is required, a
 * multi-line rule needs a message, messages are one line, reasons are kube's, and the rule, its
 * messageExpression and fieldPath compile against the schema. `path` is where the schema sits,
 * e.g. 'spec.versions[0].schema.openAPIV3Schema'.
 */
export function celRuleErrors(schema: SchemaInput, path: string, components: Record<string, SchemaInput> = {}): FieldError[] {
  const rootName = '\u0000root';
  const compiler = new SchemaCompiler({ ...components, [rootName]: schema });
  const root = compiler.compileNamed(rootName);
  finalizeNodes(compiler.nodes, undefined);
  const errs: FieldError[] = [];
  const seen = new Set<SchemaNode>();
  const visit = (node: SchemaNode, at: string, isRoot: boolean): void => {
    if (seen.has(node)) return;
    seen.add(node);
    node.validations?.forEach((rule, i) => errs.push(...ruleErrors(rule, node, isRoot, `${at}.x-kubernetes-validations[${i}]`)));
    if (node.items) visit(node.items, `${at}.items`, node.items.embedded);
    if (typeof node.additional === 'object') visit(node.additional, `${at}.additionalProperties`, node.additional.embedded);
    for (const [name, child] of node.properties ?? []) visit(child, `${at}.properties[${name}]`, child.embedded);
  };
  visit(root, path, true);
  return errs;
}

function ruleErrors(rule: RawValidationRule, node: SchemaNode, isRoot: boolean, at: string): FieldError[] {
  const errs: FieldError[] = [];
  if (rule.rule.trim() === '') return [required(`${at}.rule`)];
  if (rule.rule.includes('\n') && !rule.message && !rule.messageExpression) {
    errs.push(required(`${at}.message`, 'message must be specified if rule contains line breaks'));
  }
  if (rule.message?.includes('\n')) errs.push(invalid(`${at}.message`, rule.message, 'message must not contain line breaks'));
  if (rule.reason !== undefined && !(RULE_REASONS as readonly string[]).includes(rule.reason)) {
    errs.push(notSupported(`${at}.reason`, rule.reason, [...RULE_REASONS]));
  }
  const compiled = compileRule(rule, declTypeOfNode(node, isRoot), { typeCheck: true });
  if (compiled.error) {
    const field = compiled.errorIn === 'rule' ? `${at}.rule` : `${at}.${compiled.errorIn}`;
    const value = compiled.errorIn === 'fieldPath' ? rule.fieldPath : compiled.errorIn === 'messageExpression' ? rule.messageExpression : rule.rule;
    errs.push(invalid(field, value, compiled.errorIn === 'rule' ? `compilation failed: ${compiled.error}` : compiled.error!));
  }
  return errs;
}

/** Reads the rules of one raw OpenAPI schema node (for callers that walk schemas themselves). */
export function rulesOf(schema: OpenAPIV3.SchemaObject): RawValidationRule[] {
  const raw = (schema as Record<string, unknown>)['x-kubernetes-validations'];
  return Array.isArray(raw) ? readValidationRules(raw) : [];
}
