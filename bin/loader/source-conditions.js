/**
 * Module resolve hook for running kgen from its TypeScript sources (a checkout, under tsx): adds
 * the `kgen:source` export condition, so that `kgen/<subpath>` and `@kgen/client` imported by
 * TypeScript that is not kgen's own (generated code, admission modules, conversion modules)
 * resolve to the same source modules the CLI runs, not to the built dist/ files (one copy of each
 * runtime module; no build needed). `npm test` passes the same condition with --conditions.
 */
export async function resolve(specifier, context, next) {
  const conditions = context.conditions.includes('kgen:source') ? context.conditions : [...context.conditions, 'kgen:source'];
  return next(specifier, { ...context, conditions });
}
