/**
 * Server-side field validation of decoded bodies (kube's fieldValidation directive): unknown
 * fields are an error under Strict, a `Warning` header under Warn, silent under Ignore; in every
 * case they are pruned before the object reaches the registry.
 */
import type { KubeObject } from '../api/meta.js';
import { newBadRequest } from '../api/status.js';
import type { SchemaValidator } from '../registry/strategy.js';
import type { FieldValidationDirective } from './queryparams.js';

export interface DecodeTarget {
  kind: string;
  version: string;
  validator: SchemaValidator;
}

/** Applies the directive to obj (mutating it: unknown fields are pruned), adding warnings. */
export function checkUnknownFields(obj: KubeObject, target: DecodeTarget, directive: FieldValidationDirective, warnings: string[]): void {
  const unknown = directive === 'Ignore' ? [] : target.validator.unknownFields(obj);
  if (unknown.length > 0) {
    const problems = unknown.map((f) => `unknown field ${JSON.stringify(f)}`);
    if (directive === 'Strict') {
      throw newBadRequest(
        `${target.kind} in version ${JSON.stringify(target.version)} cannot be handled as a ${target.kind}: strict decoding error: ${problems.join(', ')}`,
      );
    }
    warnings.push(...problems);
  }
  target.validator.prune(obj);
}
