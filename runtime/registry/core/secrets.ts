/**
 * kube's secret strategy (pkg/registry/core/secret and the v1 conversion): `stringData` is merged
 * into `data` on every write and never stored; `type` defaults to Opaque and never changes; data
 * keys are config keys, their values at most 1 MiB in total; an `immutable` Secret keeps its data;
 * and the per-type rules of ValidateSecret (service-account-token, dockercfg, dockerconfigjson,
 * basic-auth, ssh-auth, tls).
 */
import { goJSONSyntaxError } from '../../api/json-syntax.js';
import { setOwnValue } from '../../api/ownkeys.js';
import type { KubeObject } from '../../api/meta.js';
import { toStatusCauses } from '../../validation/index.js';
import { invalid, required, tooLong } from '../../validation/field.js';
import type { FieldError } from '../../validation/types.js';
import type { RESTStrategy } from '../strategy.js';
import { MAX_SECRET_SIZE, base64Size, stringMap, validateConfigKeys, validateImmutableData } from './configdata.js';

export const SECRET_TYPE_OPAQUE = 'Opaque';
export const SECRET_TYPE_SERVICE_ACCOUNT_TOKEN = 'kubernetes.io/service-account-token';
export const SERVICE_ACCOUNT_NAME_KEY = 'kubernetes.io/service-account.name';

/** The Convert_v1_Secret_To_core_Secret merge: stringData overwrites data, then goes. */
export function mergeStringData(obj: KubeObject): void {
  const stringData = stringMap(obj.stringData);
  delete obj.stringData;
  if (!stringData || Object.keys(stringData).length === 0) return;
  const data = { ...(stringMap(obj.data) ?? {}) };
  // Keys are data: stringData {"__proto__": "x"} sets data["__proto__"], as kube does (api/ownkeys.ts).
  for (const [key, value] of Object.entries(stringData)) setOwnValue(data, key, Buffer.from(String(value), 'utf8').toString('base64'));
  obj.data = data;
}

function size(data: Record<string, string>, key: string): number {
  const v = data[key];
  return typeof v === 'string' ? base64Size(v) : 0;
}

function decoded(data: Record<string, string>, key: string): string {
  return Buffer.from(data[key] ?? '', 'base64').toString('utf8');
}

function validateJSONKey(data: Record<string, string>, key: string, errs: FieldError[]): void {
  if (!(key in data)) {
    errs.push(required(`data[${key}]`));
    return;
  }
  // Go's syntax error, as kube's json.Unmarshal gives it: Node's message would quote the contents.
  const problem = goJSONSyntaxError(decoded(data, key));
  if (problem !== undefined) errs.push(invalid(`data[${key}]`, '<secret contents redacted>', problem));
}

/** The per-type rules of ValidateSecret. */
function validateSecretType(obj: KubeObject, data: Record<string, string>): FieldError[] {
  const errs: FieldError[] = [];
  switch (obj.type) {
    case SECRET_TYPE_SERVICE_ACCOUNT_TOKEN:
      if (!obj.metadata.annotations?.[SERVICE_ACCOUNT_NAME_KEY]) errs.push(required(`metadata.annotations[${SERVICE_ACCOUNT_NAME_KEY}]`));
      break;
    case 'kubernetes.io/dockercfg':
      validateJSONKey(data, '.dockercfg', errs);
      break;
    case 'kubernetes.io/dockerconfigjson':
      validateJSONKey(data, '.dockerconfigjson', errs);
      break;
    case 'kubernetes.io/basic-auth':
      if (size(data, 'username') === 0 && size(data, 'password') === 0) {
        errs.push(required('data[username]', 'either username or password is required'));
        errs.push(required('data[password]', 'either username or password is required'));
      }
      break;
    case 'kubernetes.io/ssh-auth':
      if (size(data, 'ssh-privatekey') === 0) errs.push(required('data[ssh-privatekey]'));
      break;
    case 'kubernetes.io/tls':
      if (!('tls.crt' in data)) errs.push(required('data[tls.crt]'));
      if (!('tls.key' in data)) errs.push(required('data[tls.key]'));
      break;
    default:
      break;
  }
  return errs;
}

export function validateSecret(obj: KubeObject): FieldError[] {
  const data = stringMap(obj.data) ?? {};
  const errs = validateConfigKeys(data, 'data');
  let total = 0;
  for (const value of Object.values(data)) total += typeof value === 'string' ? base64Size(value) : 0;
  if (total > MAX_SECRET_SIZE) errs.push(tooLong('data', MAX_SECRET_SIZE));
  return [...errs, ...validateSecretType(obj, data)];
}

export function withSecretStrategy(base: RESTStrategy): RESTStrategy {
  return {
    ...base,
    prepareForCreate(obj) {
      mergeStringData(obj);
      base.prepareForCreate(obj);
      if (typeof obj.type !== 'string' || obj.type === '') obj.type = SECRET_TYPE_OPAQUE;
    },
    prepareForUpdate(obj, old) {
      mergeStringData(obj);
      base.prepareForUpdate(obj, old);
      if (typeof obj.type !== 'string' || obj.type === '') obj.type = old.type ?? SECRET_TYPE_OPAQUE;
    },
    validate(obj) {
      return [...base.validate(obj), ...toStatusCauses(validateSecret(obj))];
    },
    validateUpdate(obj, old) {
      const errs = [...validateSecret(obj), ...validateImmutableData(obj, old, ['data'])];
      if (obj.type !== old.type) errs.push(invalid('type', obj.type, 'field is immutable'));
      return [...base.validateUpdate(obj, old), ...toStatusCauses(errs)];
    },
  };
}
