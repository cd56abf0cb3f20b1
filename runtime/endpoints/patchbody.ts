/**
 * Decoding PATCH bodies, with the strict-decoding problems kube reports for them: repeated keys
 * (`duplicate field "x"`; in JSON patches only within operations, `json patch duplicate field`),
 * unknown JSON patch operation fields, and for server-side apply (always YAML, as kube decodes
 * it) `line N: key "x" already set in map`, plus the apply configuration's own checks.
 */
import type { KubeObject } from '../api/meta.js';
import { newBadRequest } from '../api/status.js';
import { jsonDuplicateMessage, yamlDuplicateMessage, type DuplicateField } from './duplicatefields.js';
import { fieldManagerOf, type TypeNode } from './fieldmanager/index.js';
import { typedPatchErrors, validationErrorsText } from './fieldmanager/typedpatch.js';
import type { RequestScope } from './handler.js';
import { JSON_PATCH, type DocumentPatchType } from './patchers.js';
import type { FieldValidationDirective } from './queryparams.js';
import { isPlainObject, parseJSONText, parseYAMLText, type ParsedBody } from './serializer.js';

export interface DocumentPatch {
  patch: unknown;
  /** Strict-decoding problems of the patch itself, reported before the object's unknown fields. */
  problems: string[];
  /** The patch's JSON text (a merge patch's number literals land in the result at their own paths). */
  text: string;
}

const JSON_PATCH_FIELDS = new Set(['op', 'path', 'value', 'from']);

function bodyText(body: Buffer | undefined): string {
  if (!body || body.length === 0) throw newBadRequest('the body of the request was empty');
  return body.toString('utf8');
}

/** Problems of a JSON patch's operations: repeated and unknown fields of each operation object. */
function jsonPatchProblems(ops: unknown, duplicates: DuplicateField[]): string[] {
  const problems = duplicates.filter((d) => d.depth === 2).map((d) => `json patch duplicate field ${JSON.stringify(d.key)}`);
  if (!Array.isArray(ops)) return problems;
  for (const op of ops) {
    if (!isPlainObject(op)) continue;
    for (const key of Object.keys(op)) if (!JSON_PATCH_FIELDS.has(key)) problems.push(`json patch unknown field ${JSON.stringify(key)}`);
  }
  return problems;
}

export function decodeDocumentPatch(body: Buffer | undefined, patchType: DocumentPatchType, directive: FieldValidationDirective): DocumentPatch {
  const text = bodyText(body);
  const parsed = parseJSONText(text, directive !== 'Ignore');
  if (directive === 'Ignore') return { patch: parsed.value, problems: [], text };
  if (patchType === JSON_PATCH) return { patch: parsed.value, problems: jsonPatchProblems(parsed.value, parsed.duplicates), text };
  return { patch: parsed.value, problems: parsed.duplicates.map(jsonDuplicateMessage), text };
}

export interface ApplyConfiguration {
  object: KubeObject;
  warnings: string[];
}

/** JSON (kubectl sends it) parsed as JSON, anything else as YAML; duplicates reported with YAML lines. */
function parseApplyBody(text: string, duplicates: boolean): ParsedBody {
  if (/^\s*\{/.test(text)) {
    try {
      return parseJSONText(text, duplicates);
    } catch {
      // Not JSON after all (YAML flow mappings look alike): YAML decides.
    }
  }
  return parseYAMLText(text, duplicates, 'error decoding YAML');
}

/** What an apply configuration must be: the endpoint's apiVersion and kind, and its schema's fields. */
export interface ApplyTarget {
  apiVersion: string;
  kind: string;
  /** Paths of fields the schema does not declare (SchemaValidator.unknownFields). */
  unknownFields(obj: unknown): string[];
  /** The kind's structure for server-side apply, which names those fields as SMD does (typedpatch.ts). */
  structure?: TypeNode;
  /** The unstructured converter's error for an object of a built-in kind (SchemaValidator.convertError). */
  convertError?(obj: Record<string, unknown>): string | undefined;
}

/** The apply target of a resource's own endpoint (and its status). */
export function scopeApplyTarget(scope: RequestScope): ApplyTarget {
  const validator = scope.validator;
  return {
    apiVersion: scope.apiVersion,
    kind: scope.definition.kind,
    unknownFields: (obj) => validator.unknownFields(obj),
    structure: fieldManagerOf(scope).structure,
    convertError: validator.convertError && ((obj) => validator.convertError!(obj)),
  };
}

/** Go's GroupVersionKind.String(): `<group>/<version>, Kind=<kind>`, so `/v1, Kind=Secret` for the core group. */
function gvkString(apiVersion: string, kind: string): string {
  return `${apiVersion.includes('/') ? apiVersion : `/${apiVersion}`}, Kind=${kind}`;
}

/** The field manager's objectGVKNN of the applied configuration: `<namespace>/<name>; <gvk>`. */
function appliedRef(config: Record<string, unknown>, target: ApplyTarget, namespace: string | undefined, name: string): string {
  const metadata = config.metadata;
  const objName = isPlainObject(metadata) && typeof metadata.name === 'string' ? metadata.name : name;
  return `${namespace ?? ''}/${objName}; ${gvkString(target.apiVersion, typeof config.kind === 'string' ? config.kind : '')}`;
}

/**
 * The result of an apply converted to the kind's Go type, as kube's structured-merge manager
 * converts it (managedfields/internal/structuredmerge.go Apply: toVersioned(newObj), the
 * unstructured converter): a value SMD's typed check lets through but Go cannot hold (a []byte
 * field's text that is not base64) fails the apply. kube answers 500 (a plain error, as for the
 * typed patch object below, kubernetes#139253); kgen 400 with kube's text.
 */
export function checkAppliedConverts(applied: KubeObject, config: KubeObject, target: ApplyTarget, namespace: string | undefined, name: string): void {
  const err = target.convertError?.(applied as unknown as Record<string, unknown>);
  // Only what SMD lets through reaches the conversion in kube: a wrongly typed value fails its
  // typed check first (kube's 500 "failed to create typed patch object"; kgen's validation 422).
  if (err !== undefined && err.startsWith('illegal base64 data')) throw newBadRequest(`failed to convert new object (${appliedRef(config as unknown as Record<string, unknown>, target, namespace, name)}) to proper version: ${err}`);
}

/**
 * The applied configuration, checked as kube's field manager checks it: an object of the
 * endpoint's apiVersion and kind, without managedFields, without fields the schema does not
 * declare (apply rejects those whatever fieldValidation says) and without two items of a `map`
 * list with one key (typedpatch.ts).
 */
export function decodeApplyPatch(
  body: Buffer | undefined,
  target: ApplyTarget,
  directive: FieldValidationDirective,
  namespace: string | undefined,
  name: string,
): ApplyConfiguration {
  const parsed = parseApplyBody(bodyText(body), directive !== 'Ignore');
  const value = parsed.value;
  if (!isPlainObject(value)) throw newBadRequest(`the apply configuration must be an object, got ${Array.isArray(value) ? 'a list' : typeof value}`);
  const apiVersion = typeof value.apiVersion === 'string' ? value.apiVersion : '';
  if (apiVersion !== target.apiVersion) {
    throw newBadRequest(`Incorrect version specified in apply patch. Specified patch version: ${apiVersion}, expected: ${target.apiVersion}`);
  }
  const kind = typeof value.kind === 'string' ? value.kind : '';
  if (kind !== target.kind) throw newBadRequest(`no corresponding type for ${gvkString(target.apiVersion, kind)}`);
  const metadata = value.metadata;
  if (metadata !== undefined && metadata !== null && !isPlainObject(metadata)) throw newBadRequest('metadata must be an object');
  if (isPlainObject(metadata) && metadata.managedFields !== undefined && metadata.managedFields !== null) {
    throw newBadRequest('metadata.managedFields must be nil');
  }
  const errors = typedPatchErrors(value, target.structure, target.unknownFields(value));
  if (errors.length > 0) {
    // kube's answer is a 500 (a plain error from the field manager, kubernetes#122480): a client's
    // mistake is kgen's 400, with kube's text.
    throw newBadRequest(`failed to create typed patch object (${appliedRef(value, target, namespace, name)}): ${validationErrorsText(errors)}`);
  }
  const object = { ...value, metadata: isPlainObject(metadata) ? metadata : {} } as KubeObject;
  const duplicates = parsed.duplicates.map(yamlDuplicateMessage);
  if (duplicates.length > 0 && directive === 'Strict') {
    throw newBadRequest(`error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  ${duplicates.join('\n  ')}`);
  }
  return { object, warnings: directive === 'Warn' ? duplicates : [] };
}
