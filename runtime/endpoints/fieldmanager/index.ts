/**
 * Field management for the write handlers: building a resource's FieldManager, and the manager
 * name of a request (the `fieldManager` parameter, else the User-Agent's product, as kube's
 * managerOrUserAgent), checked as kube's ValidateFieldManager checks it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { apiVersionOf, type ResourceDefinition } from '../../api/resource.js';
import { newInvalid } from '../../api/status.js';
import { FieldManager, type FieldManagerConfig } from './fieldmanager.js';
import { buildTypeSchema, UNTYPED } from './typeschema.js';

export { FieldManager, newApplyConflict, type ApplyOptions, type Subresource } from './fieldmanager.js';
export { FieldSet, pathString } from './fieldset.js';
export { decodeManagedFields, encodeManagedFields } from './managedfields.js';
export { strategicMergePatch } from './strategicmerge.js';
export { compare, merge, removeItems, toFieldSet } from './typed.js';
export { buildTypeSchema, fieldType, type TypeNode } from './typeschema.js';

/** metav1 FieldManagerMaxLength. */
export const FIELD_MANAGER_MAX_LENGTH = 128;

/** The FieldManager of a resource, from its group/version's OpenAPI component schemas. */
export function newFieldManager(definition: ResourceDefinition, schemas?: Record<string, unknown>, statusResets?: FieldManagerConfig['statusResets']): FieldManager {
  return new FieldManager({
    structure: schemas ? buildTypeSchema(schemas, definition.schemaName) : UNTYPED,
    apiVersion: apiVersionOf(definition.group, definition.version),
    statusEnabled: definition.subresources.status,
    specReplicasPath: definition.subresources.scale?.specReplicasPath,
    statusResets,
  });
}

function isPrintable(ch: string): boolean {
  return !/[\p{C}\p{Z}]/u.test(ch) || ch === ' ';
}

/** kube's prefixFromUserAgent: the product before the first '/', printable, at most 128 bytes. */
export function managerFromUserAgent(userAgent: string | undefined): string {
  const product = (userAgent ?? '').split('/')[0]!;
  let out = '';
  for (const ch of product) {
    if (!isPrintable(ch)) continue;
    if (Buffer.byteLength(out + ch) > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
  }
  return out;
}

/**
 * The `fieldManager` parameter, validated (422 on a PatchOptions/CreateOptions/UpdateOptions
 * error, as kube answers): too long or unprintable.
 */
export function fieldManagerParam(query: URLSearchParams, optionsKind: string): string {
  const value = query.get('fieldManager') ?? '';
  const causes = [];
  if (Buffer.byteLength(value) > FIELD_MANAGER_MAX_LENGTH) {
    causes.push({ reason: 'FieldValueTooLong', field: 'fieldManager', message: `Too long: may not be more than ${FIELD_MANAGER_MAX_LENGTH} bytes` });
  }
  [...value].forEach((ch, i) => {
    if (!isPrintable(ch)) {
      causes.push({ reason: 'FieldValueInvalid', field: `fieldManager[${i}]`, message: `Invalid value: ${JSON.stringify(value)}: all characters must be printable` });
    }
  });
  if (causes.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: optionsKind }, '', causes);
  return value;
}

/** The manager an Update is recorded under: the parameter, else the User-Agent's product. */
export function updateManager(query: URLSearchParams, headers: IncomingHttpHeaders, optionsKind: string): string {
  return fieldManagerParam(query, optionsKind) || managerFromUserAgent(headers['user-agent']);
}

const untypedManagers = new WeakMap<ResourceDefinition, FieldManager>();

/** The scope's FieldManager; an untyped one when the scope was built without schemas. */
export function fieldManagerOf(scope: { definition: ResourceDefinition; fieldManager?: FieldManager }): FieldManager {
  if (scope.fieldManager) return scope.fieldManager;
  let fm = untypedManagers.get(scope.definition);
  if (!fm) untypedManagers.set(scope.definition, (fm = newFieldManager(scope.definition)));
  return fm;
}
