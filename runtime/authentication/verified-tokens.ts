/**
 * Tokens whose signature has already verified, remembered by a salted SHA-256 of the whole token
 * (kube's token cache keys its entries with HMAC-SHA256 under a random per-process key, so no
 * token is held in memory by the cache; a random per-process salt does the same here, and
 * `crypto.hash` costs ~1.2 µs where an HMAC object costs ~6). A signature check is a pure function of the token and
 * the key, so a token seen before under the same key spares the RSA verification (~35 µs) and
 * the JSON parse of its payload. Nothing else is remembered: what can change (expiry, the
 * account and the bound object still existing) is checked on every request by the caller, so a
 * revoked token is refused at once, unlike kube's 10 s cache of whole authentication answers.
 * Only verified tokens are kept (bounded, least recently used out first): garbage costs the full
 * check every time but takes no room.
 */
import { hash, randomBytes } from 'node:crypto';

export class VerifiedTokens<C extends object> {
  private readonly entries = new Map<string, { claims: C; key: object }>();
  private readonly salt = randomBytes(32).toString('hex');

  constructor(private readonly maxEntries = 4096) {}

  /** The claims of token under key: remembered, or check()'s answer (kept when it verified). */
  claims(token: string, key: object, check: () => C | undefined): C | undefined {
    const id = hash('sha256', this.salt + token, 'base64');
    const known = this.entries.get(id);
    if (known !== undefined && known.key === key) {
      // Re-inserted: the map's order is the recency order.
      this.entries.delete(id);
      this.entries.set(id, known);
      return known.claims;
    }
    const claims = check();
    if (claims === undefined) return undefined;
    deepFreeze(claims);
    this.entries.delete(id);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(id, { claims, key });
    return claims;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Claims are shared by every request presenting the token: no one may change them. */
function deepFreeze(value: object): void {
  Object.freeze(value);
  for (const v of Object.values(value)) if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) deepFreeze(v);
}
