/**
 * A YAML body's integers that a double would change: YAML's side of json-literals.ts'
 * inexactIntegerOf. The yaml package resolves `9007199254740993` to the double 9007199254740992;
 * kube's YAML decoder hands the literal to its JSON decoder, which keeps an int64 exactly. The
 * scalar's source text is still on the parsed node, so only a body with a long enough run of
 * digits is visited (16 decimal digits, 14 for `0x…`), and nothing is parsed twice.
 */
import type { Document } from 'yaml';
import { yaml } from '../api/yaml.js';
import { isInexactInt64, type InexactInteger } from '../validation/json-literals.js';

const LONG_DIGITS = /[0-9a-fA-F]{14}/;
const EXACT_LIMIT = 2 ** 53;

/** The first integer of doc (parsed from text) whose double is another number, and where it stands. */
export function inexactYAMLIntegerOf(text: string, doc: Document): InexactInteger | undefined {
  if (!LONG_DIGITS.test(text)) return undefined;
  let found: InexactInteger | undefined;
  yaml().visit(doc, {
    Scalar(_key, node, ancestors) {
      const v = node.value;
      if (typeof v !== 'number' || !Number.isInteger(v) || Math.abs(v) < EXACT_LIMIT || typeof node.source !== 'string') return undefined;
      let n: bigint;
      try {
        n = BigInt(node.source); // decimal, 0x… and 0o… as YAML 1.2's core schema writes them
      } catch {
        return undefined;
      }
      if (!isInexactInt64(n)) return undefined;
      found = { literal: node.source, path: pathOf([...ancestors, node]) };
      return yaml().visit.BREAK;
    },
  });
  return found;
}

/** The field path (`spec.items[2].size`) of the last node of chain, from the document down. */
function pathOf(chain: readonly unknown[]): string {
  let path = '';
  for (let i = 0; i < chain.length - 1; i++) {
    const node = chain[i];
    const next = chain[i + 1];
    if (yaml().isPair(node)) {
      if (next === node.key) break;
      const key = yaml().isScalar(node.key) ? String(node.key.value) : String(node.key);
      path = path === '' ? key : `${path}.${key}`;
    } else if (yaml().isSeq(node)) {
      path += `[${node.items.indexOf(next as never)}]`;
    }
  }
  return path;
}
