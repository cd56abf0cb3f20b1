/**
 * Query parameters of resource requests (metav1.ListOptions, CreateOptions, UpdateOptions,
 * PatchOptions, DeleteOptions as URL parameters). Unknown parameters are ignored, as kube does.
 * Bad values are errors with kube's wording, never a 500.
 */
import { newBadRequest, newInvalid } from '../api/status.js';
import { parseFieldSelector, type FieldSelector } from '../registry/fieldselector.js';
import { parseLabelSelector, type LabelSelector } from '../api/labels.js';
import { goQuote } from '../validation/gofmt.js';

export type FieldValidationDirective = 'Strict' | 'Warn' | 'Ignore';

function invalidOption(optionsKind: string, field: string, value: string, supported: string[]): Error {
  return newInvalid({ group: 'meta.k8s.io', kind: optionsKind }, '', [
    {
      reason: 'FieldValueNotSupported',
      field,
      message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
    },
  ]);
}

/** `dryRun=All` → true. Any other value is 422, as kube's options validation answers. */
export function parseDryRun(query: URLSearchParams, optionsKind: string): boolean {
  const values = query.getAll('dryRun').filter((v) => v !== '');
  for (const v of values) if (v !== 'All') throw invalidOption(optionsKind, 'dryRun', v, ['All']);
  return values.length > 0;
}

/** Server-side field validation; kube's default when the parameter is absent is Warn. */
export function parseFieldValidation(query: URLSearchParams, optionsKind: string): FieldValidationDirective {
  const value = query.get('fieldValidation') ?? '';
  if (value === '') return 'Warn';
  const lower = value.toLowerCase();
  if (lower === 'strict') return 'Strict';
  if (lower === 'warn') return 'Warn';
  if (lower === 'ignore') return 'Ignore';
  throw invalidOption(optionsKind, 'fieldValidation', value, ['Ignore', 'Strict', 'Warn']);
}

/** Go's strconv.ParseBool as metav1 query parameters use it. */
export function parseBool(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null || value === '') return false;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  throw newBadRequest(`invalid boolean value ${JSON.stringify(value)} for query parameter ${name}`);
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/**
 * An int64 query parameter as kube's parameter codec reads it (runtime.Convert_Slice_string_To_int64:
 * strconv.ParseInt(s, 10, 64)); its error is the handlers' 400 with Go's text:
 * `strconv.ParseInt: parsing "99999999999999999999": value out of range`, `…: invalid syntax`.
 */
export function parseInt64Param(value: string): number {
  if (!/^[+-]?\d+$/.test(value)) throw newBadRequest(`strconv.ParseInt: parsing ${goQuote(value)}: invalid syntax`);
  const n = BigInt(value);
  if (n > INT64_MAX || n < INT64_MIN) throw newBadRequest(`strconv.ParseInt: parsing ${goQuote(value)}: value out of range`);
  return Number(n);
}

function parseNonNegativeInt(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  const n = parseInt64Param(value);
  if (n < 0) throw newBadRequest(`invalid value ${JSON.stringify(value)} for query parameter ${name}: must be a non-negative integer`);
  return n;
}

export interface ListQuery {
  labelSelector: LabelSelector;
  fieldSelector: FieldSelector;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan' | 'Exact';
  watch: boolean;
  timeoutSeconds?: number;
  allowWatchBookmarks: boolean;
}

export function parseListQuery(query: URLSearchParams, selectableFields: readonly string[]): ListQuery {
  const match = query.get('resourceVersionMatch') ?? '';
  if (match !== '' && match !== 'NotOlderThan' && match !== 'Exact') {
    throw invalidOption('ListOptions', 'resourceVersionMatch', match, ['Exact', 'NotOlderThan']);
  }
  const out: ListQuery = {
    labelSelector: parseLabelSelector(query.get('labelSelector') ?? undefined),
    fieldSelector: parseFieldSelector(query.get('fieldSelector') ?? undefined, selectableFields),
    watch: parseBool(query, 'watch'),
    allowWatchBookmarks: parseBool(query, 'allowWatchBookmarks'),
  };
  const limit = parseNonNegativeInt(query, 'limit');
  if (limit) out.limit = limit;
  const cont = query.get('continue');
  if (cont) out.continue = cont;
  const rv = query.get('resourceVersion');
  if (rv !== null && rv !== '') out.resourceVersion = rv;
  if (match !== '') out.resourceVersionMatch = match as 'NotOlderThan' | 'Exact';
  const timeout = parseNonNegativeInt(query, 'timeoutSeconds');
  if (timeout !== undefined) out.timeoutSeconds = timeout;
  return out;
}
