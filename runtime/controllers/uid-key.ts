/**
 * The garbage collector's graph keys its nodes by uid, one per object: as its 36-char text a uid
 * costs 56 bytes of V8 heap, as 16 one-byte chars (its 128 bits) 32 bytes.
 *
 * Contract: uidKey is injective and uidOf(uidKey(uid)) === uid for every string. A canonical uid
 * (lowercase 8-4-4-4-12 hex, what kgen's servers and kube's generate) becomes its 16 bytes, one
 * latin1 char each; anything else (an owner reference may name any string) is kept behind a
 * U+0100 mark, a char no packed key holds, so the two forms never meet.
 */

const MARK = '\u0100';
const MARK_CODE = 0x100;
const DASHES = [8, 13, 18, 23];
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The value of a lowercase hex digit, or -1. */
function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/** The graph's key of a uid. */
export function uidKey(uid: string): string {
  if (uid.length !== 36) return MARK + uid;
  if (uid.charCodeAt(8) !== 45 || uid.charCodeAt(13) !== 45 || uid.charCodeAt(18) !== 45 || uid.charCodeAt(23) !== 45) return MARK + uid;
  const bytes: number[] = new Array(16);
  let at = 0;
  for (let i = 0; i < 16; i++) {
    if (at === 8 || at === 13 || at === 18 || at === 23) at++;
    const hi = nibble(uid.charCodeAt(at));
    const lo = nibble(uid.charCodeAt(at + 1));
    if (hi < 0 || lo < 0) return MARK + uid;
    bytes[i] = (hi << 4) | lo;
    at += 2;
  }
  return String.fromCharCode(...bytes);
}

/** The uid a key was made of. */
export function uidOf(key: string): string {
  if (key.charCodeAt(0) === MARK_CODE) return key.slice(1);
  let out = '';
  for (let i = 0; i < 16; i++) {
    if (DASHES.includes(out.length)) out += '-';
    out += HEX[key.charCodeAt(i)];
  }
  return out;
}
