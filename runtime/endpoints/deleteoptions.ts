/** metav1.DeleteOptions from the request body (optional) and query, validated as kube does. */
import { newBadRequest, newInvalid } from '../api/status.js';
import type { PropagationPolicy } from '../registry/deletion.js';
import type { Preconditions } from '../storage/interface.js';
import type { APIRequest } from './handler.js';
import { parseDryRun, parseInt64Param } from './queryparams.js';
import { decodeBody, isPlainObject } from './serializer.js';

export type { PropagationPolicy };

export interface DeleteOptions {
  preconditions?: Preconditions;
  dryRun: boolean;
  propagationPolicy?: PropagationPolicy;
  /** Deprecated; exclusive with propagationPolicy. */
  orphanDependents?: boolean;
  gracePeriodSeconds?: number;
}

const POLICIES: PropagationPolicy[] = ['Foreground', 'Background', 'Orphan'];

function invalidDeleteOptions(field: string, message: string): Error {
  return newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', [{ reason: 'FieldValueInvalid', field, message }]);
}

/** orphanDependents from the body (a boolean) or the query (`true`/`false`). */
function readOrphanDependents(body: Record<string, unknown>, query: URLSearchParams): boolean | undefined {
  const raw = body.orphanDependents ?? query.get('orphanDependents') ?? undefined;
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw newBadRequest(`invalid orphanDependents ${JSON.stringify(raw)}`);
}

function unsupported(field: string, value: unknown, supported: string[]): Error {
  return newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', [
    {
      reason: 'FieldValueNotSupported',
      field,
      message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
    },
  ]);
}

function readBody(req: APIRequest): Record<string, unknown> {
  if (!req.body || req.body.length === 0) return {};
  const body = decodeBody(req);
  if (!isPlainObject(body)) throw newBadRequest('DeleteOptions must be a JSON object');
  if (body.kind !== undefined && body.kind !== 'DeleteOptions') {
    throw newBadRequest(`the kind in the data (${String(body.kind)}) does not match the expected kind (DeleteOptions)`);
  }
  return body;
}

function readPreconditions(value: unknown): Preconditions | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) throw newBadRequest('DeleteOptions.preconditions must be an object');
  const out: Preconditions = {};
  for (const field of ['uid', 'resourceVersion'] as const) {
    const v = value[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw newBadRequest(`DeleteOptions.preconditions.${field} must be a string`);
    out[field] = v;
  }
  return out;
}

export function parseDeleteOptions(req: APIRequest): DeleteOptions {
  const body = readBody(req);
  const bodyDryRun = body.dryRun;
  if (bodyDryRun !== undefined && bodyDryRun !== null) {
    if (!Array.isArray(bodyDryRun)) throw newBadRequest('DeleteOptions.dryRun must be a list');
    for (const v of bodyDryRun) if (v !== 'All') throw unsupported('dryRun', v, ['All']);
  }
  const policy = (body.propagationPolicy ?? req.query.get('propagationPolicy') ?? undefined) as unknown;
  if (policy !== undefined && policy !== '' && !POLICIES.includes(policy as PropagationPolicy)) {
    throw unsupported('propagationPolicy', policy, [...POLICIES, 'nil']);
  }
  const orphanDependents = readOrphanDependents(body, req.query);
  if (orphanDependents !== undefined && policy) {
    throw invalidDeleteOptions('propagationPolicy', `Invalid value: ${JSON.stringify(policy)}: orphanDependents and deletionPropagation cannot be both set`);
  }
  const options: DeleteOptions = {
    dryRun: parseDryRun(req.query, 'DeleteOptions') || (Array.isArray(bodyDryRun) && bodyDryRun.length > 0),
  };
  const preconditions = readPreconditions(body.preconditions);
  if (preconditions) options.preconditions = preconditions;
  if (policy) options.propagationPolicy = policy as PropagationPolicy;
  if (orphanDependents !== undefined) options.orphanDependents = orphanDependents;
  const queryGrace = req.query.get('gracePeriodSeconds');
  // The query's int64 is read as kube's parameter codec reads it (a 400 beyond int64 or not a number).
  const fromQuery = queryGrace === null || queryGrace === '' ? undefined : parseInt64Param(queryGrace);
  const grace = body.gracePeriodSeconds ?? fromQuery;
  if (grace !== undefined && grace !== '') {
    const n = Number(grace);
    if (!Number.isInteger(n)) throw newBadRequest(`invalid gracePeriodSeconds ${JSON.stringify(grace)}`);
    options.gracePeriodSeconds = n;
  }
  return options;
}
