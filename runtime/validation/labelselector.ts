/**
 * metav1validation.ValidateLabelSelector (k8s.io/apimachinery/pkg/apis/meta/v1/validation): the
 * one check of a metav1.LabelSelector a kind carries (webhook selectors, a Deployment's and a
 * PersistentVolumeClaim's spec.selector).
 */
import type { MetaLabelSelector } from '../api/labels.js';
import { isQualifiedName, isValidLabelValue } from '../api/names.js';
import { forbidden, invalid, required } from './field.js';
import type { FieldError } from './types.js';

export function validateLabelSelector(selector: MetaLabelSelector | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [key, value] of Object.entries(selector?.matchLabels ?? {})) {
    for (const msg of isQualifiedName(key)) errs.push(invalid(`${path}.matchLabels`, key, msg));
    for (const msg of isValidLabelValue(value)) errs.push(invalid(`${path}.matchLabels`, value, msg));
  }
  (selector?.matchExpressions ?? []).forEach((expr, i) => {
    const p = `${path}.matchExpressions[${i}]`;
    const values = expr.values ?? [];
    if (expr.operator === 'In' || expr.operator === 'NotIn') {
      if (values.length === 0) errs.push(required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (expr.operator === 'Exists' || expr.operator === 'DoesNotExist') {
      if (values.length > 0) errs.push(forbidden(`${p}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
      errs.push(invalid(`${p}.operator`, expr.operator, 'not a valid selector operator'));
    }
    for (const msg of isQualifiedName(expr.key ?? '')) errs.push(invalid(`${p}.key`, expr.key, msg));
    values.forEach((value, j) => {
      for (const msg of isValidLabelValue(value)) errs.push(invalid(`${p}.values[${j}]`, value, msg));
    });
  });
  return errs;
}
