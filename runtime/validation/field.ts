/**
 * Constructors for field errors, one per function of k8s.io/apimachinery/pkg/util/validation/field
 * (errors.go, v1.32), rendering the message exactly as field.Error.ErrorBody does.
 */
import { goBadValue, goQuote } from './gofmt.js';
import type { FieldError } from './types.js';

function withDetail(body: string, detail: string): string {
  return detail ? `${body}: ${detail}` : body;
}

/** field.Required: `Required value` (+ `: detail`). */
export function required(field: string, detail = ''): FieldError {
  return { type: 'FieldValueRequired', field, message: withDetail('Required value', detail) };
}

/** field.Forbidden: `Forbidden: detail`. */
export function forbidden(field: string, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field, message: withDetail('Forbidden', detail) };
}

/** field.Invalid: `Invalid value: <value>: detail`. */
export function invalid(field: string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, message: withDetail(`Invalid value: ${goBadValue(value)}`, detail) };
}

/** field.Invalid of a Go value the caller has already printed (a struct's %#v, see gofmt.ts). */
export function invalidPrinted(field: string, printed: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, message: withDetail(`Invalid value: ${printed}`, detail) };
}

/** field.TypeInvalid: printed like Invalid. */
export function typeInvalid(field: string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueTypeInvalid', field, message: withDetail(`Invalid value: ${goBadValue(value)}`, detail) };
}

/** field.NotSupported: `Unsupported value: "x": supported values: "a", "b"`. */
export function notSupported(field: string, value: unknown, validValues: string[]): FieldError {
  const detail = validValues.length > 0 ? `supported values: ${validValues.map(goQuote).join(', ')}` : '';
  return { type: 'FieldValueNotSupported', field, message: withDetail(`Unsupported value: ${goBadValue(value)}`, detail) };
}

/** field.NotFound: `Not found: "a"`. */
export function notFound(field: string, value: unknown): FieldError {
  return { type: 'FieldValueNotFound', field, message: `Not found: ${goBadValue(value)}` };
}

/** field.Duplicate: `Duplicate value: "a"`. */
export function duplicate(field: string, value: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field, message: `Duplicate value: ${goBadValue(value)}` };
}

/** field.TooLong: the value is never printed; `Too long: may not be more than 5 bytes`. */
export function tooLong(field: string, maxLength: number): FieldError {
  const detail = maxLength >= 0 ? `may not be more than ${maxLength} ${maxLength === 1 ? 'byte' : 'bytes'}` : 'value is too long';
  return { type: 'FieldValueTooLong', field, message: `Too long: ${detail}` };
}

/** field.TooMany: `Too many: 4: must have at most 3 items`. */
export function tooMany(field: string, actual: number, max: number): FieldError {
  const detail = max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items';
  const head = actual >= 0 ? `Too many: ${actual}` : 'Too many';
  return { type: 'FieldValueTooMany', field, message: `${head}: ${detail}` };
}
