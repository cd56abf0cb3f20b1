/**
 * kube's ValidateListOptions (k8s.io/apimachinery/pkg/apis/meta/internalversion/validation) for
 * the resourceVersion / resourceVersionMatch / continue / sendInitialEvents combinations, answered
 * as kube's list handler answers them: 422 `ListOptions.meta.k8s.io "" is invalid: …`. The
 * storage-level rule that continue excludes a resourceVersion is a 400, as in kube's storage.
 */
import type { StatusCause } from '../api/meta.js';
import { newBadRequest, newInvalid } from '../api/status.js';
import { parseBool } from './queryparams.js';

const EXACT = 'Exact';
const NOT_OLDER_THAN = 'NotOlderThan';

/** `sendInitialEvents` as kube's *bool: undefined when absent. */
export function parseSendInitialEvents(query: URLSearchParams): boolean | undefined {
  const value = query.get('sendInitialEvents');
  return value === null || value === '' ? undefined : parseBool(query, 'sendInitialEvents');
}

/** Throws kube's error for an invalid combination of read options; `watch` selects the watch rules. */
export function validateListOptions(query: URLSearchParams, watch: boolean): void {
  const rv = query.get('resourceVersion') ?? '';
  const match = query.get('resourceVersionMatch') ?? '';
  const cont = query.get('continue') ?? '';
  const sendInitialEvents = parseSendInitialEvents(query);
  const causes = watch ? watchCauses(match, cont, sendInitialEvents) : listCauses(rv, match, cont, sendInitialEvents);
  if (causes.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', causes);
  if (!watch && cont !== '' && rv !== '' && rv !== '0') {
    throw newBadRequest('specifying resource version is not allowed when using continue');
  }
  // Storage refuses the same for a list; a watch must hear it as the answer's status, not as an
  // ERROR event after a 200 (kube's watch handler fails before the stream starts too). After the
  // continue rule, as kube's storage.ValidateListOptions orders them.
  if (rv !== '' && !/^\d{1,15}$/.test(rv)) throw newBadRequest(`invalid resource version: ${JSON.stringify(rv)}`);
}

function listCauses(rv: string, match: string, cont: string, sendInitialEvents: boolean | undefined): StatusCause[] {
  const causes: StatusCause[] = [];
  if (match !== '') {
    if (rv === '') causes.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (cont !== '') causes.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== EXACT && match !== NOT_OLDER_THAN) causes.push(notSupported('resourceVersionMatch', match, [EXACT, NOT_OLDER_THAN, '']));
    if (match === EXACT && rv === '0') causes.push(forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (sendInitialEvents !== undefined) causes.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return causes;
}

function watchCauses(match: string, cont: string, sendInitialEvents: boolean | undefined): StatusCause[] {
  const causes: StatusCause[] = [];
  if (sendInitialEvents !== undefined && match !== NOT_OLDER_THAN) {
    causes.push(forbidden('resourceVersionMatch', `sendInitialEvents requires setting resourceVersionMatch to ${NOT_OLDER_THAN}`));
  }
  if (match !== '') {
    if (sendInitialEvents === undefined) {
      causes.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    }
    if (match !== NOT_OLDER_THAN) causes.push(notSupported('resourceVersionMatch', match, [NOT_OLDER_THAN]));
    if (cont !== '') causes.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return causes;
}

function forbidden(field: string, detail: string): StatusCause {
  return { reason: 'FieldValueForbidden', field, message: `Forbidden: ${detail}` };
}

function notSupported(field: string, value: string, supported: string[]): StatusCause {
  const list = supported.map((s) => JSON.stringify(s)).join(', ');
  return { reason: 'FieldValueNotSupported', field, message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${list}` };
}
