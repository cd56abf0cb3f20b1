/**
 * The shape of a protobuf message table (how protobuf.ts encodes and decodes a kind): the types
 * alone, so the registry of tables (protobuf-registry.ts) and the codec do not import each other.
 */

export type Scalar = 'string' | 'int64' | 'int32' | 'bool' | 'bytes' | 'double';
/**
 * time: metav1.Time {seconds 1, nanos 2}, JSON at second precision; microTime: metav1.MicroTime,
 * the same message, JSON at microsecond precision; fieldsV1: metav1.FieldsV1 {Raw 1} holding JSON;
 * extraMap: map<string, ExtraValue{items 1}>; bytesMap: map<string, bytes>, base64 strings in
 * JSON; intOrString: intstr.IntOrString {type 1, intVal 2, strVal 3}; quantity:
 * resource.Quantity {string 1}; json: a JSON value as raw bytes {raw 1} (apiextensions JSON,
 * runtime.RawExtension).
 */
export type Special = 'time' | 'microTime' | 'stringMap' | 'fieldsV1' | 'extraMap' | 'bytesMap' | 'intOrString' | 'quantity' | 'json';

export interface FieldDesc {
  name: string;
  kind: Scalar | Special | MessageDesc | MapDesc;
  repeated?: boolean;
  /**
   * A zero value decoded stays in the JSON form: a JSON field without omitempty, or a Go pointer
   * (`*int32`, `*bool`, ...), which is on the wire only when the client set it.
   */
  keepZero?: boolean;
  /** An embedded Go struct (`json:",inline"`): its message's fields are the outer object's. */
  inline?: boolean;
}

export type MessageDesc = { readonly [field: number]: FieldDesc };
/** map<string, V>: entries {key 1, value 2}, V any kind (stringMap is map<string, string>). */
export interface MapDesc {
  map: FieldDesc['kind'];
}
