/**
 * kube's configmap strategy (pkg/registry/core/configmap) over the generic one: data and
 * binaryData keys are config keys and never the same key in both, their total size is at most
 * 1 MiB, and an `immutable` ConfigMap keeps its data.
 */
import type { KubeObject } from '../../api/meta.js';
import { toStatusCauses } from '../../validation/index.js';
import { invalid, tooLong } from '../../validation/field.js';
import type { FieldError } from '../../validation/types.js';
import type { RESTStrategy } from '../strategy.js';
import { MAX_SECRET_SIZE, base64Size, stringMap, validateConfigKeys, validateImmutableData } from './configdata.js';

export function validateConfigMap(obj: KubeObject): FieldError[] {
  const data = stringMap(obj.data) ?? {};
  const binary = stringMap(obj.binaryData) ?? {};
  const errs = [...validateConfigKeys(data, 'data'), ...validateConfigKeys(binary, 'binaryData')];
  let total = 0;
  for (const [key, value] of Object.entries(data)) total += key.length + Buffer.byteLength(String(value));
  for (const [key, value] of Object.entries(binary)) {
    total += key.length + base64Size(String(value));
    if (key in data) errs.push(invalid(`data[${key}]`, key, 'duplicate of key present in binaryData'));
  }
  // kube passes "" as the path: the error refers to the whole object.
  if (total > MAX_SECRET_SIZE) errs.push(tooLong('', MAX_SECRET_SIZE));
  return errs;
}

export function withConfigMapStrategy(base: RESTStrategy): RESTStrategy {
  return {
    ...base,
    validate(obj) {
      return [...base.validate(obj), ...toStatusCauses(validateConfigMap(obj))];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...toStatusCauses([...validateConfigMap(obj), ...validateImmutableData(obj, old, ['data', 'binaryData'])])];
    },
  };
}
