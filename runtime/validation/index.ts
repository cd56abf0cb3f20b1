/**
 * Schema validation, pruning and defaulting (kube's CRD validation: kube-openapi validate plus
 * apiextensions structural pruning and defaulting), and kube's name and ObjectMeta validation.
 */
export type { FieldError, FieldErrorType } from './types.js';
export { compileSchemaValidator, toStatusCauses, type SchemaValidator } from './schema-validator.js';
export type { GoFields } from './compile.js';
export {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
} from './names.js';
export {
  validateObjectMeta,
  validateLabels,
  validateAnnotations,
  validateFinalizers,
  validateOwnerReferences,
  type NameValidation,
  type ObjectMetaValidationOptions,
} from './objectmeta.js';
export * as field from './field.js';
