/**
 * A YAML body's integers that a double would change: YAML's side of api/json-integers.ts'
 * inexactIntegerOf. The yaml package resolves `9007199254740993` to the double 9007199254740992;
 * kube's YAML decoder hands the literal to its JSON decoder, which keeps an int64 exactly. The
 * scalar's source text is still on the parsed node, so only a body with a long enough run of
 * digits is visited (16 decimal digits, 14 for `0x…`), or with `_` between digits or in a long
 * `0x…`: YAML bodies are read as YAML 1.1 (kube's goyaml.v2: duplicatefields.ts
 * parseYAMLDocuments), whose integers may be written so (`9_007_199_254_740_993`,
 * `0xFFFF_FFFF_FFFF_FF`); its `0…` octal and `0b…` binary need a run of digits to pass 2^53.
 * Nothing is parsed twice.
 */
import type { Document } from 'yaml';
import { yaml } from '../api/yaml.js';
import { isInexactInt64, type InexactInteger } from '../api/json-integers.js';

const LONG_DIGITS = /[0-9a-fA-F]{14}|[0-9]_[0-9]|0[xX][0-9a-fA-F_]{14}/;
const EXACT_LIMIT = 2 ** 53;

/** The first integer of doc (parsed from text) whose double is another number, and where it stands. */
export function inexactYAMLIntegerOf(text: string, doc: Document): InexactInteger | undefined {
  if (!LONG_DIGITS.test(text)) return undefined;
  let found: InexactInteger | undefined;
  yaml().visit(doc, {
    Scalar(_key, node, ancestors) {
      const v = node.value;
      if (typeof v !== 'number' || !Number.isInteger(v) || Math.abs(v) < EXACT_LIMIT || typeof node.source !== 'string') return undefined;
      const n = integerOfSource(node.source, node.format);
      if (n === undefined || !isInexactInt64(n)) return undefined;
      found = { literal: node.source, path: pathOf([...ancestors, node]) };
      return yaml().visit.BREAK;
    },
  });
  return found;
}

/**
 * The exact integer a scalar the yaml package read as an integer is written as, in every form
 * goyaml.v2 reads (the package's `format` names the base): a sign, `_` between digits, `0x…`,
 * `0o…` or `0…` octal, `0b…` (prefixes in either case). Undefined for any other text (a float
 * the package found whole).
 */
function integerOfSource(source: string, format: string | undefined): bigint | undefined {
  const m = /^([-+]?)(.*)$/s.exec(source.replace(/_/g, ''))!;
  const body = m[2]!;
  let n: bigint;
  try {
    switch (format) {
      case 'HEX':
        n = BigInt(`0x${body.slice(2)}`);
        break;
      case 'OCT':
        n = BigInt(`0o${body.replace(/^0[oO]?/, '') || '0'}`);
        break;
      case 'BIN':
        n = BigInt(`0b${body.slice(2)}`);
        break;
      default:
        if (!/^[0-9]+$/.test(body)) return undefined;
        n = BigInt(body);
    }
  } catch {
    return undefined;
  }
  return m[1] === '-' ? -n : n;
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
