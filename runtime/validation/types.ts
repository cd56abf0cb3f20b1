/**
 * Field errors as k8s.io/apimachinery/pkg/util/validation/field defines them: a machine-readable
 * type, the field path ('spec.ports[0].name') and the message body (field.Error.ErrorBody(), i.e.
 * without the leading field), e.g. 'Invalid value: 11: spec.replicas in body should be less than or equal to 10'.
 */

export type FieldErrorType =
  | 'FieldValueInvalid'
  | 'FieldValueRequired'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid'
  | 'FieldValueForbidden'
  | 'FieldValueNotFound';

export interface FieldError {
  type: FieldErrorType;
  field: string;
  message: string;
}
