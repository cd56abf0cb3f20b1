/**
 * Writes one emitted file, and compares one with the disk. A file given as parts
 * (EmittedFile.parts) is encoded part by part into one buffer: no joined string is made, and only
 * the parts that hold characters beyond Latin-1 go through the two-byte path (one such part makes
 * a joined string two-byte as a whole: swagger.json, 6.7 MB for the 100-kind set, holds two curly
 * quotes from kgen's built-in descriptions). For its ~3,100 parts: 4.6 ms of CPU against 16.9 to
 * join and write the string, and 7.0 to write each part's buffer with writev.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { EmittedFile } from '../emit/emitted.js';

export function writeEmitted(path: string, file: EmittedFile, previous?: readonly string[]): void {
  writeFileSync(path, (file.parts && encodeParts(file.parts, previous)) ?? file.content);
}

/** The file at `path` holds exactly `file`'s content (compared as UTF-8 bytes when it has parts). */
export function sameOnDisk(path: string, file: EmittedFile): boolean {
  if (!file.parts) return readFileSync(path, 'utf8') === file.content;
  const bytes = encodeParts(file.parts, undefined, false) ?? Buffer.from(file.content);
  return readFileSync(path).equals(bytes);
}

/**
 * A parts array's UTF-8 bytes (the first `starts[n]` bytes of `bytes`), where each part starts in
 * them (one more entry: the end), and a spare buffer the next encoding may fill.
 */
interface Encoded {
  bytes: Buffer;
  starts: Uint32Array;
  spare?: Buffer;
}

/**
 * The bytes parts arrays were last encoded to, while the array lives: a `--watch` session keeps the
 * parts of the files it wrote (WriteState), so the next write of such a file copies the bytes of
 * every part that is the same as the one at its index last time (for a kept version's parts, the
 * same string: compared by pointer) instead of encoding it again, into the buffer the write
 * before last used (two buffers per file take turns: a new ~10 MB of buffers per regeneration
 * made V8 collect more often, external memory counting towards its heap limits).
 */
const encodings = new WeakMap<readonly string[], Encoded>();

/**
 * The parts array whose bytes each kept buffer holds now. A buffer is reused as a spare two writes
 * later, so an older array's entry may name a buffer that holds another array's bytes since: an
 * entry is used only while its buffer still holds its array's bytes (a parts array written again,
 * as an emitter that keeps its EmittedFile per version would, is encoded afresh).
 */
const holders = new WeakMap<Buffer, readonly string[]>();

/**
 * The UTF-8 bytes of `parts` joined, or undefined when a character is split between two parts.
 * `previous`: the parts this file was last written from, whose bytes are reused where they match;
 * `keep`: whether to keep the bytes for the next write (not for a comparison with the disk).
 */
function encodeParts(parts: readonly string[], previous?: readonly string[], keep = true): Buffer | undefined {
  const known = previous && previous.length === parts.length ? encodings.get(previous) : undefined;
  const prior = known && holders.get(known.bytes) === previous ? known : undefined;
  const starts = new Uint32Array(parts.length + 1);
  let size = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    // A surrogate pair split between two parts is only one character in the joined string.
    const last = part.charCodeAt(part.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) return undefined;
    starts[i] = size;
    size += prior && previous![i] === part ? prior.starts[i + 1]! - prior.starts[i]! : Buffer.byteLength(part);
  }
  starts[parts.length] = size;
  const spare = prior?.spare && prior.spare.length >= size ? prior.spare : undefined;
  const buffer = spare ?? (keep ? Buffer.allocUnsafeSlow(size) : Buffer.allocUnsafe(size));
  let at = 0;
  for (let i = 0; i < parts.length; ) {
    if (prior && previous![i] === parts[i]) {
      // A run of parts as they were: one copy of their bytes.
      let end = i + 1;
      while (end < parts.length && previous![end] === parts[end]) end++;
      at += prior.bytes.copy(buffer, at, prior.starts[i]!, prior.starts[end]!);
      i = end;
    } else at += buffer.write(parts[i++]!, at);
  }
  if (keep) {
    encodings.set(parts, { bytes: buffer, starts, spare: prior?.bytes });
    holders.set(buffer, parts);
  }
  return buffer.length === size ? buffer : buffer.subarray(0, size);
}
