/**
 * A JSON text as Go's decoder reads it when an object repeats a key. JSON.parse keeps the last
 * value of a repeated key; encoding/json (and sigs.k8s.io/json, kube's fork) decodes every
 * occurrence in turn into the same field, so a wrongly typed earlier value is an error though a
 * later one is right (`{"replicas":1.0,"replicas":2}` is `cannot unmarshal number 1.0`), and the
 * first error in the text's order is the answer. go-decode.ts walks this value instead of
 * JSON.parse's for a built-in kind's body that repeats a key (a rare body: the common one never
 * gets here, findDuplicateJSONKeys having found none).
 */
import { matters, type NumberLiterals } from './json-literals.js';

/** An object that repeats a key: every key and value, in the text's order (Go's decoding order). */
export class RepeatedKeys {
  constructor(readonly pairs: ReadonlyArray<readonly [string, unknown]>) {}
}

/**
 * The value of `text` (a JSON text JSON.parse accepted), with each object that repeats a key as a
 * RepeatedKeys (other objects and lists as JSON.parse makes them), and the number literals whose
 * double is not the whole story (json-literals.ts), at their places: by key in an object, by index
 * in a list, by pair index in a RepeatedKeys. Undefined when the text nests deeper than the stack
 * allows (kube's decoder refuses such a text anyway: `exceeded max depth` beyond 10000).
 */
export function parseEveryOccurrence(text: string): { value: unknown; literals: NumberLiterals | undefined } | undefined {
  const parser = new Parser(text);
  try {
    const { value, node } = parser.value();
    return { value, literals: node };
  } catch (err) {
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

interface Parsed {
  value: unknown;
  node: NumberLiterals | undefined;
}

class Parser {
  private i = 0;
  constructor(private readonly text: string) {}

  value(): Parsed {
    this.skipSpace();
    const c = this.text.charCodeAt(this.i);
    if (c === 0x7b) return this.object();
    if (c === 0x5b) return this.list();
    if (c === 0x22) return { value: this.string(), node: undefined };
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
    // true, false or null
    const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
    this.i += word.length;
    return { value: c === 0x74 ? true : c === 0x66 ? false : null, node: undefined };
  }

  private object(): Parsed {
    this.i++; // {
    const pairs: [string, unknown][] = [];
    const nodes: (NumberLiterals | undefined)[] = [];
    const seen = new Set<string>();
    let repeated = false;
    this.skipSpace();
    if (this.text.charCodeAt(this.i) === 0x7d) {
      this.i++;
      return { value: {}, node: undefined };
    }
    for (;;) {
      this.skipSpace();
      const key = this.string();
      this.skipSpace();
      this.i++; // :
      const { value, node } = this.value();
      if (seen.has(key)) repeated = true;
      else seen.add(key);
      pairs.push([key, value]);
      nodes.push(node);
      this.skipSpace();
      if (this.text.charCodeAt(this.i++) === 0x7d) break; // else ,
    }
    let children: Map<string | number, NumberLiterals> | undefined;
    if (repeated) {
      nodes.forEach((node, index) => {
        if (node !== undefined) (children ??= new Map()).set(index, node);
      });
      return { value: new RepeatedKeys(pairs), node: children && { children } };
    }
    const obj: Record<string, unknown> = {};
    pairs.forEach(([key, value], index) => {
      // As JSON.parse: `__proto__` is an own property, not the prototype.
      if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
      else obj[key] = value;
      const node = nodes[index];
      if (node !== undefined) (children ??= new Map()).set(key, node);
    });
    return { value: obj, node: children && { children } };
  }

  private list(): Parsed {
    this.i++; // [
    const items: unknown[] = [];
    let children: Map<string | number, NumberLiterals> | undefined;
    this.skipSpace();
    if (this.text.charCodeAt(this.i) === 0x5d) {
      this.i++;
      return { value: items, node: undefined };
    }
    for (;;) {
      const { value, node } = this.value();
      if (node !== undefined) (children ??= new Map()).set(items.length, node);
      items.push(value);
      this.skipSpace();
      if (this.text.charCodeAt(this.i++) === 0x5d) break; // else ,
    }
    return { value: items, node: children && { children } };
  }

  private string(): string {
    const start = this.i;
    let escaped = false;
    let j = start + 1;
    for (;;) {
      const c = this.text.charCodeAt(j);
      if (c === 0x5c) {
        escaped = true;
        j += 2;
      } else if (c === 0x22) break;
      else j++;
    }
    this.i = j + 1;
    return escaped ? (JSON.parse(this.text.slice(start, j + 1)) as string) : this.text.slice(start + 1, j);
  }

  private number(): Parsed {
    const start = this.i;
    let j = start + 1;
    for (;;) {
      const c = this.text.charCodeAt(j);
      if ((c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d) j++;
      else break;
    }
    this.i = j;
    const literal = this.text.slice(start, j);
    return { value: Number(literal), node: matters(literal) ? { literal } : undefined };
  }

  private skipSpace(): void {
    for (;;) {
      const c = this.text.charCodeAt(this.i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.i++;
      else return;
    }
  }
}
