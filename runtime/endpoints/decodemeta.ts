/**
 * A create or update body whose metadata does not decode into a metav1.ObjectMeta (a field of the
 * wrong JSON type: `resourceVersion: 5`, `labels: "x"`, `generation: "1"`) is kube's 400 from
 * transformDecodeError, `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot
 * unmarshal number into Go struct field ObjectMeta.metadata.resourceVersion of type string`,
 * before any validation. Compiled kinds decode as typed objects; a runtime CRD's metadata is
 * decoded alone by apiextensions-apiserver's schema coercer (see objectMetaDecodeError).
 */
import { objectMetaDecodeError } from '../api/objectmeta-decode.js';
import type { KubeObject } from '../api/meta.js';
import { newBadRequest, statusError } from '../api/status.js';
import { goPlusV, goQuote } from '../validation/gofmt.js';
import { STRATEGIC_MERGE_PATCH } from './patchers.js';
import type { SchemaValidator } from '../validation/index.js';
import { numberLiteralsOf, type NumberLiterals } from '../validation/json-literals.js';
import type { APIRequest, RequestScope } from './handler.js';
import type { FieldValidationDirective } from './queryparams.js';
import { expectedKind } from './requestscope.js';
import { asObjectOfKind, decodeRequestBody, isPlainObject, type DecodedBody, type ExpectedKind } from './serializer.js';

export function checkObjectMetaDecodes(obj: KubeObject, expected: ExpectedKind): void {
  const custom = expected.customResource === true;
  const err = objectMetaDecodeError(obj.metadata, custom ? '' : 'metadata.', custom);
  if (err !== undefined) throw newDecodeError(expected, err);
}

/**
 * A create or update body of a built-in kind decodes into its Go type as a whole (a wrongly typed
 * field anywhere, `spec.replicas: "3"`, is the same 400: SchemaValidator.decodeError); other
 * kinds decode into unstructured, where only metadata is decoded into a Go type. `jsonText` is the
 * body's text when it was JSON (Go judges number literals on their text: `replicas: 1.0` is refused);
 * `repeatedKeys`, that the text repeats a key (Go decodes every occurrence in turn, and an earlier
 * one's type error is the answer though JSON.parse kept only the last).
 */
export function checkObjectDecodes(obj: KubeObject, body: unknown, expected: ExpectedKind, validator: SchemaValidator, jsonText?: string, repeatedKeys = false): void {
  if (validator.decodeError === undefined) return checkObjectMetaDecodes(obj, expected);
  // The body as sent (asObjectOfKind has checked it is an object of the kind): Go decodes the
  // fields in their order, and the first wrongly typed one is the answer.
  // The literals found once, for the decoder and for the Quantities kube reads from their text.
  const literals = jsonText === undefined || repeatedKeys ? undefined : numberLiteralsOf(jsonText);
  const err = validator.decodeError(body as Record<string, unknown>, repeatedKeys ? jsonText : literals, repeatedKeys);
  if (err !== undefined) throw newDecodeError(expected, err);
  if (literals !== undefined) validator.keepQuantityLiterals?.(obj as Record<string, unknown>, literals);
}

/**
 * A create or update body as kube's handlers decode it: parsed, an object of the endpoint's kind,
 * and decoded into its Go type (checkObjectDecodes). Repeated keys are found for fieldValidation,
 * and for a built-in kind's decode, which judges every occurrence (go-decode.ts) whatever the
 * directive, and keeps what Go keeps of them (go-repeated-keys.ts: a later object merges into the
 * earlier one).
 */
export function decodeObjectBody(scope: RequestScope, req: APIRequest, directive: FieldValidationDirective): { obj: KubeObject; body: DecodedBody } {
  const body = decodeRequestBody(req, directive !== 'Ignore' || scope.validator.decodeError !== undefined);
  const obj = asObjectOfKind(body.value, expectedKind(scope));
  const repeatedKeys = body.format === 'json' && body.duplicates.length > 0;
  checkObjectDecodes(obj, body.value, expectedKind(scope), scope.validator, body.text, repeatedKeys);
  if (repeatedKeys && body.text !== undefined && scope.validator.repeatedKeysValue !== undefined) {
    // The object Go's decoder keeps: later occurrences decoded into what earlier ones filled.
    const kept = scope.validator.repeatedKeysValue(body.text);
    if (kept !== undefined) return { obj: asObjectOfKind(kept, expectedKind(scope)), body: { ...body, value: kept } };
  }
  return { obj, body };
}

/** kube's transformDecodeError: `Deployment in version "v1" cannot be handled as a Deployment: <err>`. */
export function newDecodeError(expected: ExpectedKind, err: string) {
  const version = expected.apiVersion.slice(expected.apiVersion.indexOf('/') + 1);
  return newBadRequest(`${expected.kind} in version ${JSON.stringify(version)} cannot be handled as a ${expected.kind}: ${err}`);
}

/**
 * A patch of a built-in kind whose result does not decode into the Go type: kube's patchers answer
 * 422 with one cause on the field `patch` (handlers/patch.go), not the 400 of a create. A JSON or
 * merge patch's result is JSON decoded by the codec (the value is the patched JSON, the error
 * the decoder's); a strategic merge patch's result is a map converted by the unstructured
 * converter (the value is the patch printed with %+v, the error the converter's).
 */
export function checkPatchResultDecodes(validator: SchemaValidator, patchType: string, patch: unknown, result: unknown, literals?: string | NumberLiterals): void {
  const smp = patchType === STRATEGIC_MERGE_PATCH;
  const check = smp ? validator.convertError : validator.decodeError;
  if (check === undefined) return;
  // literals: a merge patch's text (its literals stand at the same places in result), or a JSON
  // patch's literals at their places in result (jsonpatch-literals.ts).
  const places = typeof literals === 'string' ? numberLiteralsOf(literals) : literals;
  const err = smp ? check(result as Record<string, unknown>) : check(result as Record<string, unknown>, places);
  if (err === undefined) {
    // kube's patched JSON keeps the patch's number text, which a Quantity is parsed from.
    if (!smp && places !== undefined) validator.keepQuantityLiterals?.(result as Record<string, unknown>, places);
    return;
  }
  throw newPatchInvalid(smp ? goPlusV(patch) : JSON.stringify(result), err);
}

/**
 * A custom resource's patched JSON as kube's patcher decodes it (runtime.DecodeInto, no default
 * kind): the unstructured decoder needs a kind (`Object 'Kind' is missing in '<json>'`), and
 * crConverter.ConvertToVersion an apiVersion of the CRD's group (`<group>/<version>, Kind=<kind>
 * is unstructured and is not suitable for converting to "<group>/<version>"`). Either is the
 * patch's 422. Another kind or version of the group is left to asObjectOfKind.
 */
export function checkCustomResourcePatchResult(result: unknown, expected: ExpectedKind): void {
  if (!isPlainObject(result)) return;
  const kind = typeof result.kind === 'string' ? result.kind : '';
  const json = JSON.stringify(result);
  if (kind === '') throw newPatchInvalid(json, `Object 'Kind' is missing in '${json}'`);
  const { group, version } = parseGroupVersion(typeof result.apiVersion === 'string' ? result.apiVersion : '');
  if (group !== parseGroupVersion(expected.apiVersion).group) {
    throw newPatchInvalid(json, `${group}/${version}, Kind=${kind} is unstructured and is not suitable for converting to "${expected.apiVersion}"`);
  }
}

/** schema.ParseGroupVersion as FromAPIVersionAndKind uses it: anything unparsable is the empty group and version. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split('/');
  if (apiVersion === '' || parts.length > 2) return { group: '', version: '' };
  return parts.length === 1 ? { group: '', version: apiVersion } : { group: parts[0], version: parts[1] };
}

/** handlers/patch.go's NewInvalid(schema.GroupKind{}, "", …) on `patch`: an empty kind and name, which Status omits. */
function newPatchInvalid(value: string, err: string) {
  const message = `Invalid value: ${goQuote(value)}: ${err}`;
  return statusError('Invalid', ` "" is invalid: patch: ${message}`, { causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }] });
}
