/**
 * What Go's base64.StdEncoding.Decode answers for text that is not padded standard base64:
 * encoding/json decodes a []byte field (a Secret's data, a CSR's request, a webhook's caBundle)
 * with it and keeps its error, `illegal base64 data at input byte N`, whose N is the byte offset
 * decodeQuantum stops at (encoding/base64/base64.go). \r and \n are skipped anywhere, as Go skips
 * them; the trailing bits of the last quantum need not be zero (StdEncoding is not Strict).
 */
import { isBase64 } from './formats.js';

const INVALID = 0xff;
const PAD = 0x3d; // '='
const CR = 0x0d;
const LF = 0x0a;

const DECODE = (() => {
  const map = new Uint8Array(256).fill(INVALID);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) map[alphabet.charCodeAt(i)] = i;
  return map;
})();

const isNewline = (b: number | undefined) => b === CR || b === LF;

/** Go's error text for `text` decoded as padded standard base64, or undefined when it decodes. */
export function base64DecodeError(text: string): string | undefined {
  if (isBase64(text)) return undefined;
  const at = corruptInputAt(Buffer.from(text, 'utf8'));
  return at === undefined ? undefined : `illegal base64 data at input byte ${at}`;
}

/** The offset of Go's CorruptInputError for `src`, quantum by quantum as Decode reads it. */
export function corruptInputAt(src: Uint8Array): number | undefined {
  let si = 0;
  while (si < src.length) {
    const r = quantum(src, si);
    if (typeof r === 'object') return r.corrupt;
    if (r === -1) return undefined;
    si = r;
  }
  return undefined;
}

/** decodeQuantum: the next offset, -1 when the input ended cleanly, or the corrupt offset. */
function quantum(src: Uint8Array, start: number): number | { corrupt: number } {
  let si = start;
  for (let j = 0; j < 4; j++) {
    if (si === src.length) {
      // Padded encoding: a partial quantum at the end is corrupt where it began.
      return j === 0 ? -1 : { corrupt: si - j };
    }
    const b = src[si++]!;
    if (DECODE[b] !== INVALID) continue;
    if (isNewline(b)) {
      j--;
      continue;
    }
    if (b !== PAD || j < 2) return { corrupt: si - 1 };
    if (j === 2) {
      // "==" is expected; the first '=' is consumed.
      while (si < src.length && isNewline(src[si])) si++;
      if (si === src.length) return { corrupt: src.length };
      if (src[si] !== PAD) return { corrupt: si - 1 };
      si++;
    }
    while (si < src.length && isNewline(src[si])) si++;
    // Anything after the padding is trailing garbage.
    return si < src.length ? { corrupt: si } : -1;
  }
  return si;
}
