/**
 * The errors of kube's JSON decoder (sigs.k8s.io/json) as go-decode.ts and go-convert.ts make
 * them, and the decoder's state: Go's UnmarshalTypeError text (`json: cannot unmarshal <kind> into
 * Go struct field <Struct>.<path> of type <goType>`), the first error remembered while decoding
 * goes on, and the fatal error that ends it.
 */

/** A `cannot unmarshal <kind> into … of type <goType>` error's parts (Go's UnmarshalTypeError). */
export interface TypeErrorParts {
  kind: string;
  goType: string;
}

/** The decoder's state: the first remembered error. */
export interface Saved {
  first: string | undefined;
  /** The parts of `first` when it is a type error (a decoder around this one names it anew). */
  firstType: TypeErrorParts | undefined;
  /**
   * Whether objects may be RepeatedKeys (json-occurrences.ts): tested before `instanceof`, which
   * costs the common body ~7% of its decode (a prototype walk per object).
   */
  repeatedKeys: boolean;
}

/**
 * A fatal error: ends the walk. `type`: the parts of a type error from a decoder that a type's own
 * UnmarshalJSON started (sigs.k8s.io/json's own error type, which the outer decoder names anew);
 * undefined for other errors (Time, IntOrString and Quantity fail with errors of their own).
 */
export class Fatal {
  constructor(
    readonly message: string,
    readonly type?: TypeErrorParts,
  ) {}
}

/** encoding/json's name for a JSON value's kind in `cannot unmarshal <kind>`. */
export function jsonKind(v: unknown): string {
  return typeof v === 'number' ? 'number' : typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'array' : 'object';
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Remembers a type error when it is the first error. */
export function typeError(saved: Saved, kind: string, struct: string, path: string, goType: string): void {
  if (saved.first !== undefined) return;
  saved.first = typeErrorMessage(kind, struct, path, goType);
  saved.firstType = { kind, goType };
}

/**
 * A type error of the json.Unmarshal a type's own UnmarshalJSON calls (metav1.Time's into a string,
 * IntOrString's into an int32): encoding/json's UnmarshalTypeError, which sigs.k8s.io/json aliases,
 * so the decoder around it names it from the field being decoded (its addErrorContext):
 * `cannot unmarshal bool into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge
 * of type int32`. Decoded alone (the unstructured converter's re-marshalled value), `Go value of type int32`.
 */
export function fatalTypeError(kind: string, struct: string, path: string, goType: string): Fatal {
  return new Fatal(typeErrorMessage(kind, struct, path, goType), { kind, goType });
}

export function typeErrorMessage(kind: string, struct: string, path: string, goType: string): string {
  return struct === '' && path === ''
    ? `json: cannot unmarshal ${kind} into Go value of type ${goType}`
    : `json: cannot unmarshal ${kind} into Go struct field ${struct}.${path} of type ${goType}`;
}
