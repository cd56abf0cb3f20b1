/**
 * The CEL cost limits apiextensions-apiserver enforces on a CRD version's schema
 * (ValidateCustomResourceDefinitionOpenAPISchema and validateCustomResourceDefinitionValidation):
 * each rule's estimated cost times its cardinality within StaticEstimatedCostLimit, and their sum
 * within StaticEstimatedCRDCostLimit. Paths and messages are kube's. The estimate itself is
 * runtime/validation/cel-cost.ts, which `kgen generate` runs too.
 */
import { field, type FieldError } from '../validation/index.js';
import { costErrorMessage, estimateSchemaCost, STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT } from '../validation/cel-cost.js';

/** kube reports at most this many of the rules that contributed most to an exceeded total. */
const MOST_EXPENSIVE_REPORTED = 4;

export function validateCELCost(schema: Record<string, unknown>, path: string): FieldError[] {
  const cost = estimateSchemaCost(schema);
  const errs: FieldError[] = [];
  for (const rule of cost.rules) {
    if (rule.expressionCost > STATIC_ESTIMATED_COST_LIMIT) {
      errs.push(field.forbidden(`${path}.${rule.schemaPath}`, costErrorMessage('estimated rule cost', rule.expressionCost, STATIC_ESTIMATED_COST_LIMIT)));
    }
  }
  if (cost.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    const expensive = [...cost.rules].sort((a, b) => b.expressionCost - a.expressionCost).slice(0, MOST_EXPENSIVE_REPORTED);
    for (const rule of expensive) errs.push(field.forbidden(`${path}.${rule.schemaPath}`, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
    errs.push(field.forbidden(path, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', cost.total, STATIC_ESTIMATED_CRD_COST_LIMIT)));
  }
  return errs;
}
