/**
 * What ConfigMap and Secret share (kube's pkg/apis/core/validation): config keys, the 1 MiB size
 * limit (core.MaxSecretSize, also ConfigMaps' limit) and the `immutable` rule.
 */
import type { KubeObject } from '../../api/meta.js';
import { forbidden, invalid } from '../../validation/field.js';
import type { FieldError } from '../../validation/types.js';
import { jsonEqual } from '../equality.js';

/** core.MaxSecretSize: 1 MiB, the limit of a Secret's data and of a ConfigMap's data plus binaryData. */
export const MAX_SECRET_SIZE = 1024 * 1024;

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const CONFIG_KEY_MESSAGE =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

/** validation.IsConfigMapKey: every reason `key` is not a valid data key. */
export function configKeyErrors(key: string): string[] {
  const errs: string[] = [];
  if (key.length > 253) errs.push('must be no more than 253 characters');
  if (!CONFIG_KEY.test(key)) errs.push(CONFIG_KEY_MESSAGE);
  if (key === '.') errs.push("must not be '.'");
  else if (key === '..') errs.push("must not be '..'");
  else if (key.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

export function validateConfigKeys(map: Record<string, unknown> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of Object.keys(map ?? {}).sort()) {
    for (const msg of configKeyErrors(key)) errs.push(invalid(`${path}[${key}]`, key, msg));
  }
  return errs;
}

export function stringMap(value: unknown): Record<string, string> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, string>) : undefined;
}

/** Decoded size of a base64 value (what kube counts: the bytes, not their encoding). */
export function base64Size(value: string): number {
  return Buffer.byteLength(value, 'base64');
}

const IMMUTABLE = 'field is immutable when `immutable` is set';

/** ValidateConfigMapUpdate / ValidateSecretUpdate: once `immutable: true`, the data fields and the flag stay. */
export function validateImmutableData(obj: KubeObject, old: KubeObject, fields: readonly string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (obj.immutable !== true) errs.push(forbidden('immutable', IMMUTABLE));
  for (const f of fields) {
    if (!jsonEqual(obj[f] ?? {}, old[f] ?? {})) errs.push(forbidden(f, IMMUTABLE));
  }
  return errs;
}
