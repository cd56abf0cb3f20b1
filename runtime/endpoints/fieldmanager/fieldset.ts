/**
 * Sets of field paths (structured-merge-diff's fieldpath.Set) and their FieldsV1 encoding.
 *
 * A path is a list of path elements, each written as in FieldsV1: `f:<field>` for a map field,
 * `k:{"name":"x"}` for an item of a `map` list, `v:"value"` for an item of a `set` list,
 * `i:<n>` for an index. A set is a trie over them: a node is a *member* when its path itself is
 * in the set (`.: {}` in FieldsV1 when it also has children).
 */

export type PathElement = string;
export type Path = readonly PathElement[];

/** Recent field elements by name: one string per field name, so lookups and keys hash once. */
const fieldElements = new Map<string, PathElement>();
const MAX_FIELD_ELEMENTS = 4096;

export function fieldElement(name: string): PathElement {
  let pe = fieldElements.get(name);
  if (pe === undefined) {
    pe = `f:${name}`;
    if (fieldElements.size >= MAX_FIELD_ELEMENTS) fieldElements.clear();
    fieldElements.set(name, pe);
  }
  return pe;
}

/**
 * `k:{"a":"x","b":1}`: SMD's keyedAssociativeListItemToPathElement. `keys` must be sorted by name
 * (SMD sorts the key fields: keyMap.Sort()); a key field the item omits takes its schema default
 * from `defaults` when it has one (getAssociativeKeyDefault), so a port sent without `protocol`
 * is the item `{"containerPort":80,"protocol":"TCP"}` that defaulting stores; else it is left out.
 */
export function keyElement(keys: readonly string[], item: Record<string, unknown>, defaults?: ReadonlyMap<string, unknown>): PathElement {
  const key: Record<string, unknown> = {};
  for (const k of keys) {
    const v = item[k];
    if (v !== undefined) key[k] = v;
    else if (defaults !== undefined && defaults.has(k)) key[k] = defaults.get(k);
  }
  return `k:${JSON.stringify(key)}`;
}

export function valueElement(value: unknown): PathElement {
  return `v:${JSON.stringify(value)}`;
}

export function indexElement(i: number): PathElement {
  return `i:${i}`;
}

/** SMD's PathElement order: fields, then keys, then values, then indexes; each by text. */
function elementRank(pe: PathElement): number {
  switch (pe[0]) {
    case 'f':
      return 0;
    case 'k':
      return 1;
    case 'v':
      return 2;
    default:
      return 3;
  }
}

export function compareElements(a: PathElement, b: PathElement): number {
  const ra = elementRank(a);
  const rb = elementRank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 3) return Number(a.slice(2)) - Number(b.slice(2));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One element as fieldpath.Path.String() writes it: `.name`, `[name="x"]`, `[="v"]`, `[0]`. */
function elementString(pe: PathElement): string {
  const body = pe.slice(2);
  switch (pe[0]) {
    case 'f':
      return `.${body}`;
    case 'k': {
      let key: Record<string, unknown> = {};
      try {
        key = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return `[${body}]`;
      }
      return `[${Object.entries(key).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}]`;
    }
    case 'v':
      return `[=${body}]`;
    default:
      return `[${body}]`;
  }
}

/** `.spec.ports[name="http"].port`, as kube prints paths in conflicts. */
export function pathString(path: Path): string {
  return path.map(elementString).join('');
}

/** The path elements of a node in SMD's order (plain text order when all are fields, the common case). */
function sortedElements(children: Map<PathElement, FieldSet>): PathElement[] {
  const keys = [...children.keys()];
  if (keys.length < 2) return keys;
  for (const pe of keys) if (pe.charCodeAt(0) !== 0x66 /* f */) return keys.sort(compareElements);
  return keys.sort();
}

/**
 * A set of paths. Contract: a set is not modified once it is built (insert and the FieldsV1
 * parser build new sets; union works on a copy), because difference and recursiveDifference
 * share the subtrees they leave alone with their results instead of copying them.
 */
export class FieldSet {
  readonly children = new Map<PathElement, FieldSet>();
  member = false;

  static of(...paths: Path[]): FieldSet {
    const set = new FieldSet();
    for (const p of paths) set.insert(p);
    return set;
  }

  insert(path: Path): void {
    let node: FieldSet = this;
    for (const pe of path) {
      let next = node.children.get(pe);
      if (!next) {
        next = new FieldSet();
        node.children.set(pe, next);
      }
      node = next;
    }
    if (path.length > 0) node.member = true;
  }

  has(path: Path): boolean {
    const node = this.at(path);
    return node !== undefined && node.member;
  }

  /** The subtree under path (not a copy), if any. */
  at(path: Path): FieldSet | undefined {
    let node: FieldSet | undefined = this;
    for (const pe of path) {
      node = node.children.get(pe);
      if (!node) return undefined;
    }
    return node;
  }

  empty(): boolean {
    if (this.member) return false;
    for (const child of this.children.values()) if (!child.empty()) return false;
    return true;
  }

  clone(): FieldSet {
    const out = new FieldSet();
    out.member = this.member;
    for (const [pe, child] of this.children) out.children.set(pe, child.clone());
    return out;
  }

  union(other: FieldSet): FieldSet {
    const out = this.clone();
    out.addAll(other);
    return out;
  }

  private addAll(other: FieldSet): void {
    this.member ||= other.member;
    for (const [pe, child] of other.children) {
      let mine = this.children.get(pe);
      if (!mine) {
        mine = new FieldSet();
        this.children.set(pe, mine);
      }
      mine.addAll(child);
    }
  }

  /**
   * Paths in this set and not in other (path by path, not subtrees). A subtree other does not
   * touch is shared with the result, not copied (sets are not modified once built, see the class).
   */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member && !other.member;
    for (const [pe, child] of this.children) {
      const theirs = other.children.get(pe);
      if (theirs === undefined || (child.children.size === 0 && !theirs.member)) {
        if (!child.empty()) out.children.set(pe, child);
        continue;
      }
      if (child.children.size === 0) continue;
      const diff = child.difference(theirs);
      if (!diff.empty()) out.children.set(pe, diff);
    }
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member && other.member;
    for (const [pe, child] of this.children) {
      const theirs = other.children.get(pe);
      if (!theirs) continue;
      const both = child.intersection(theirs);
      if (!both.empty()) out.children.set(pe, both);
    }
    return out;
  }

  /** Paths in this set that neither are in other nor lie under a member of other. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member && !other.member;
    for (const [pe, child] of this.children) {
      const theirs = other.children.get(pe);
      if (theirs?.member) continue;
      if (theirs === undefined) {
        if (!child.empty()) out.children.set(pe, child);
        continue;
      }
      const diff = child.recursiveDifference(theirs);
      if (!diff.empty()) out.children.set(pe, diff);
    }
    return out;
  }

  /** Member paths in SMD's sorted order. */
  paths(): PathElement[][] {
    const out: PathElement[][] = [];
    const walk = (node: FieldSet, prefix: PathElement[]) => {
      if (node.member && prefix.length > 0) out.push(prefix);
      for (const pe of [...node.children.keys()].sort(compareElements)) walk(node.children.get(pe)!, [...prefix, pe]);
    };
    walk(this, []);
    return out;
  }

  /** The FieldsV1 object: `{"f:spec": {"f:replicas": {}}}`, with `.` for members that have children. */
  toFieldsV1(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (this.children.size === 0) return out;
    if (this.member) out['.'] = {};
    for (const pe of sortedElements(this.children)) {
      const child = this.children.get(pe)!;
      if (!child.empty()) out[pe] = child.toFieldsV1();
    }
    return out;
  }

  /** Parses FieldsV1; throws an Error on a malformed document. */
  static fromFieldsV1(value: unknown): FieldSet {
    const set = new FieldSet();
    readFieldsV1(set, value ?? {}, 0);
    return set;
  }
}

/** fromFieldsV1's walk: raw's keys into node (one Object.keys per node, the key prefix checked by character). */
function readFieldsV1(node: FieldSet, raw: unknown, depth: number): void {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('FieldsV1 must be an object');
  const keys = Object.keys(raw);
  if (depth > 0 && keys.length === 0) node.member = true;
  for (const key of keys) {
    if (key === '.') {
      if (depth > 0) node.member = true;
      continue;
    }
    if (!isFieldsV1Key(key)) throw new Error(`invalid FieldsV1 key ${JSON.stringify(key)}`);
    let next = node.children.get(key);
    if (!next) {
      next = new FieldSet();
      node.children.set(key, next);
    }
    readFieldsV1(next, (raw as Record<string, unknown>)[key], depth + 1);
  }
}

/** /^[fkvi]:/ */
function isFieldsV1Key(key: string): boolean {
  if (key.charCodeAt(1) !== 0x3a /* : */) return false;
  const c = key.charCodeAt(0);
  return c === 0x66 /* f */ || c === 0x6b /* k */ || c === 0x76 /* v */ || c === 0x69 /* i */;
}
