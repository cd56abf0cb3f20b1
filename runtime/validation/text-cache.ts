/**
 * A cache keyed by text that the server derives from its users' input (CEL rules, CEL type keys,
 * RE2 patterns), bounded by entries and by characters of key text, the least recently used
 * forgotten first. One text may be as long as a request (megabytes) and what is derived from it
 * costs tens of bytes per character, so a count alone does not bound the memory. A key longer than
 * the whole character budget is not kept.
 */
export class TextKeyedCache<V> {
  private readonly entries = new Map<string, V>();
  private chars = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxChars: number,
  ) {}

  /** The value kept for key (now the most recently used), or undefined. */
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    if (key.length > this.maxChars) return;
    if (this.entries.delete(key)) this.chars -= key.length;
    while (this.entries.size > 0 && (this.entries.size >= this.maxEntries || this.chars + key.length > this.maxChars)) {
      const oldest = this.entries.keys().next().value!;
      this.entries.delete(oldest);
      this.chars -= oldest.length;
    }
    this.entries.set(key, value);
    this.chars += key.length;
  }

  /** How many entries and characters of key text are kept (for tests of the bounds). */
  get size(): { entries: number; chars: number } {
    return { entries: this.entries.size, chars: this.chars };
  }
}
