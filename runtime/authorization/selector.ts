/**
 * metav1.LabelSelector matching (LabelSelectorAsSelector + Matches) for ClusterRole aggregation:
 * matchLabels and matchExpressions (In, NotIn, Exists, DoesNotExist), all ANDed; an empty
 * selector matches everything.
 */
import type { LabelSelector } from './types.js';

export function labelSelectorMatches(selector: LabelSelector, labels: Record<string, string> | undefined): boolean {
  const have = labels ?? {};
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (have[key] !== value) return false;
  }
  for (const req of selector.matchExpressions ?? []) {
    const present = Object.prototype.hasOwnProperty.call(have, req.key);
    const values = req.values ?? [];
    switch (req.operator) {
      case 'In':
        if (!present || !values.includes(have[req.key]!)) return false;
        break;
      case 'NotIn':
        if (present && values.includes(have[req.key]!)) return false;
        break;
      case 'Exists':
        if (!present) return false;
        break;
      case 'DoesNotExist':
        if (present) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
