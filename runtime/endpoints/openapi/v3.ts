/**
 * Operations as OpenAPI 3.0 path items, as kube-apiserver prints them under `paths`: the one
 * printer of the generator's group/version documents and of a CRD group/version's.
 */
import type { Operation, QueryParam } from './operations.js';

const JSON_TYPES = ['application/json', 'application/yaml'];
const refTo = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** How an operation's query parameters print; the generator swaps in shared placeholders. */
export type QueryPrinter = (query: readonly QueryParam[]) => unknown[];

export const v3QueryParameter = (p: QueryParam): Record<string, unknown> => ({ name: p.name, in: 'query', description: p.description, schema: { type: p.type, uniqueItems: true } });

const inlineQuery: QueryPrinter = (query) => query.map(v3QueryParameter);

export function responseDescription(code: string): string {
  return code === '201' ? 'Created' : code === '202' ? 'Accepted' : 'OK';
}

export function v3Operation(op: Operation, printQuery: QueryPrinter = inlineQuery): Record<string, unknown> {
  const out: Record<string, unknown> = {
    tags: [op.tag],
    description: op.description,
    operationId: op.operationId,
    parameters: printQuery(op.query),
  };
  if (op.body) {
    const types = op.patchTypes ?? JSON_TYPES;
    const required = op.action !== 'delete' && op.action !== 'deletecollection';
    out.requestBody = { content: Object.fromEntries(types.map((t) => [t, { schema: refTo(op.body!) }])), ...(required ? { required: true } : {}) };
  }
  out.responses = {
    ...(op.opaqueResponse ? { '200': { description: 'OK', content: { '*/*': { schema: { type: 'string' } } } } } : {}),
    ...Object.fromEntries(
      Object.entries(op.responses).map(([code, schema]) => [
        code,
        { description: responseDescription(code), content: Object.fromEntries(JSON_TYPES.map((t) => [t, { schema: refTo(schema) }])) },
      ]),
    ),
    '401': { description: 'Unauthorized' },
  };
  out['x-kubernetes-action'] = op.action;
  out['x-kubernetes-group-version-kind'] = op.gvk;
  return out;
}

/** The `paths` of a document holding these operations, sorted by path. */
export function v3Paths(operations: Operation[], printQuery: QueryPrinter = inlineQuery): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const item = (paths[op.path] ??= {
      parameters: op.pathParams.map((p) => ({ name: p.name, in: 'path', description: p.description, required: true, schema: { type: 'string', uniqueItems: true } })),
    });
    item[op.method] = v3Operation(op, printQuery);
  }
  return Object.fromEntries(Object.keys(paths).sort().map((p) => [p, paths[p]!]));
}
