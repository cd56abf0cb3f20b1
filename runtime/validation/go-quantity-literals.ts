/**
 * A Quantity of a built-in kind sent as a JSON number, kept as kube keeps it: resource.Quantity's
 * UnmarshalJSON strips the quotes of a string and hands the bytes to ParseQuantity either way, so
 * a number is parsed from its literal's text (`1e3` stays `1e3`, `1.5e6` is `1500e3`, `1E-3` stays
 * `1E-3`), where JSON.parse keeps only the double (1000, whose text `1000` is `1k`). The literal
 * is written as a string, which the defaulting walk then writes as MarshalJSON does (defaults.ts
 * writeGoQuantity), exactly as it writes the same text sent quoted.
 *
 * Only the literals json-literals.ts keeps (a fraction, an exponent, 16 digits or more) can
 * differ from their double's text (`-0` is `0` either way), so a body without any is not walked.
 */
import type { NumberLiterals } from './json-literals.js';
import type { SchemaNode } from './node.js';

/**
 * Writes each Quantity (SchemaNode.goQuantity) of `v` that is a JSON number with a literal in
 * `at` (the tree of v's literals, by key and index) as that literal's text. In place.
 */
export function keepQuantityLiterals(node: SchemaNode, v: unknown, at: NumberLiterals): void {
  const below = at.children;
  if (below === undefined || node.preserveUnknown || typeof v !== 'object' || v === null) return;
  if (Array.isArray(v)) {
    const items = node.items;
    if (items === undefined) return;
    for (const [i, place] of below) {
      if (typeof i !== 'number' || i >= v.length) continue;
      const literal = quantityLiteral(items, v[i], place);
      if (literal !== undefined) v[i] = literal;
      else keepQuantityLiterals(items, v[i], place);
    }
    return;
  }
  const obj = v as Record<string, unknown>;
  const values = node.additional;
  for (const [key, place] of below) {
    if (typeof key !== 'string' || !Object.hasOwn(obj, key)) continue;
    const child = typeof values === 'object' ? values : node.properties?.get(key);
    if (child === undefined) continue;
    const literal = quantityLiteral(child, obj[key], place);
    if (literal !== undefined) obj[key] = literal;
    else keepQuantityLiterals(child, obj[key], place);
  }
}

/** The literal of a Quantity sent as a number, or undefined for anything else. */
function quantityLiteral(node: SchemaNode, x: unknown, place: NumberLiterals): string | undefined {
  return node.goQuantity && typeof x === 'number' ? place.literal : undefined;
}
