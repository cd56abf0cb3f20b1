/**
 * Writes one emitted file, and compares one with the disk. A file given as parts
 * (EmittedFile.parts) is encoded part by part: no joined string is made, and only the parts that
 * hold characters beyond Latin-1 go through the two-byte path (one such part makes a joined string
 * two-byte as a whole: swagger.json, 6.7 MB for the 100-kind set, holds two curly quotes from
 * kgen's built-in descriptions). For its ~3,100 parts: 4.6 ms of CPU against 16.9 to join and
 * write the string, and 7.0 to write each part's buffer with writev.
 */
import { closeSync, openSync, readFileSync, writeFileSync, writevSync } from 'node:fs';
import type { EmittedFile } from '../emit/emitted.js';

/**
 * Writes `file` at `path`. `previous`: the parts the file was last written from (a `--watch`
 * session's; see `encodings` below). With a `scratch`, the file is encoded into it and nothing is
 * kept for a later write: a one-shot run's output.
 */
export function writeEmitted(path: string, file: EmittedFile, previous?: readonly string[], scratch?: Scratch): void {
  if (scratch) return writeThroughScratch(path, file, scratch);
  const chunks = file.parts && encodeParts(file.parts, previous);
  if (!chunks) writeFileSync(path, file.content);
  else if (chunks.length <= 1) writeFileSync(path, chunks[0] ?? '');
  else writeChunks(path, chunks);
}

/**
 * One buffer that the files of one write are encoded into, one after another, instead of a new
 * buffer per file (`writeFileSync` of a string makes one, as does encoding parts to keep). The
 * memory a write touches is then its largest file's size, not the sum of all (24 MB for the
 * 100-kind output, ~220 MB for 1,000 kinds): each page touched for the first time is a page fault,
 * ~10-17 µs of CPU each on the machine of the tenth session on, where a cold generate's ~48,000
 * faults were a third of its CPU.
 */
export class Scratch {
  private buffer: Buffer | undefined;

  /** A buffer of at least `size` bytes; its content is not kept between calls. */
  take(size: number): Buffer {
    if (!this.buffer || this.buffer.length < size) this.buffer = Buffer.allocUnsafeSlow(Math.max(size, 2 * (this.buffer?.length ?? 32 * 1024)));
    return this.buffer;
  }
}

function writeThroughScratch(path: string, file: EmittedFile, scratch: Scratch): void {
  const parts = file.parts && !splitsCharacter(file.parts) ? file.parts : [file.content];
  let size = 0;
  for (const part of parts) size += Buffer.byteLength(part);
  const buffer = scratch.take(size);
  let at = 0;
  for (const part of parts) at += buffer.write(part, at);
  writeFileSync(path, buffer.subarray(0, at));
}

/** A surrogate pair split between two parts (one character in the joined string). */
function splitsCharacter(parts: readonly string[]): boolean {
  for (const part of parts) {
    const last = part.charCodeAt(part.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) return true;
  }
  return false;
}

/** The file at `path` holds exactly `file`'s content (compared as UTF-8 bytes when it has parts). */
export function sameOnDisk(path: string, file: EmittedFile): boolean {
  if (!file.parts) return readFileSync(path, 'utf8') === file.content;
  const bytes = encodeParts(file.parts, undefined, false)?.[0] ?? Buffer.from(file.content);
  return readFileSync(path).equals(bytes);
}

/** Writes the chunks in order into a new file at `path` (as writeFileSync would write them joined). */
function writeChunks(path: string, chunks: Buffer[]): void {
  const fd = openSync(path, 'w');
  try {
    let rest = chunks;
    for (;;) {
      const wrote = writevSync(fd, rest);
      // A short write (which regular files do not do in practice): the rest from where it stopped.
      let written = wrote;
      let i = 0;
      while (i < rest.length && written >= rest[i]!.length) written -= rest[i++]!.length;
      if (i === rest.length) return;
      if (wrote === 0) throw new Error(`${path}: nothing could be written`);
      rest = [rest[i]!.subarray(written), ...rest.slice(i + 1)];
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * A parts array's UTF-8 bytes, as chunks that are never written to again (a later encoding takes
 * slices of them), and where each part starts in the bytes (one more entry: the end).
 */
interface Encoded {
  chunks: Buffer[];
  /** Where each chunk starts in the bytes (one more entry: the end). */
  chunkStarts: number[];
  starts: Uint32Array;
}

/**
 * The bytes parts arrays were last encoded to, while the array lives: a `--watch` session keeps the
 * parts of the files it wrote (WriteState), so the next write of such a file takes the bytes of
 * every run of parts that are the same as the ones at their index last time (for a kept version's
 * parts, the same strings: compared by pointer) as slices of the last chunks, encodes only the
 * other parts, and writes the chunks with one writev: no copy of the unchanged ~10 MB in memory
 * (3 ms of CPU per regeneration) and no new buffer of the file's size (external memory counts
 * towards V8's heap limits). Chunks are never reused for other bytes, so an entry stays valid
 * while its array lives, whichever files were written since.
 */
const encodings = new WeakMap<readonly string[], Encoded>();

/** Past this many chunks, one file's encoding is joined into one buffer (writev's cost grows with them). */
const MAX_CHUNKS = 64;

/**
 * The UTF-8 bytes of `parts` joined, as chunks (one, without a `previous` encoding), or undefined
 * when a character is split between two parts.
 * `previous`: the parts this file was last written from, whose bytes are reused where they match;
 * `keep`: whether to keep the bytes for the next write (not for a comparison with the disk).
 */
function encodeParts(parts: readonly string[], previous?: readonly string[], keep = true): Buffer[] | undefined {
  const prior = previous && previous.length === parts.length ? encodings.get(previous) : undefined;
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
  let chunks: Buffer[] = [];
  if (!prior) chunks.push(encodeRun(parts, starts, 0, parts.length, keep));
  else {
    for (let i = 0; i < parts.length; ) {
      let end = i + 1;
      if (previous![i] === parts[i]) {
        // A run of parts as they were: slices of the last chunks.
        while (end < parts.length && previous![end] === parts[end]) end++;
        sliceInto(prior, prior.starts[i]!, prior.starts[end]!, chunks);
      } else {
        while (end < parts.length && previous![end] !== parts[end]) end++;
        if (starts[end]! > starts[i]!) chunks.push(encodeRun(parts, starts, i, end, keep));
      }
      i = end;
    }
    if (chunks.length > MAX_CHUNKS) chunks = [Buffer.concat(chunks, size)];
  }
  if (keep) {
    const chunkStarts = [0];
    for (const c of chunks) chunkStarts.push(chunkStarts.at(-1)! + c.length);
    encodings.set(parts, { chunks, chunkStarts, starts });
  }
  return chunks;
}

/** parts[from..to) encoded into one new buffer. */
function encodeRun(parts: readonly string[], starts: Uint32Array, from: number, to: number, keep: boolean): Buffer {
  const size = starts[to]! - starts[from]!;
  const buffer = keep ? Buffer.allocUnsafeSlow(size) : Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = from; i < to; i++) at += buffer.write(parts[i]!, at);
  return buffer;
}

/** Appends to `out` the slices of `encoded`'s chunks that hold its bytes [from, to). */
function sliceInto(encoded: Encoded, from: number, to: number, out: Buffer[]): void {
  const { chunks, chunkStarts } = encoded;
  let k = 0;
  while (k < chunks.length && chunkStarts[k + 1]! <= from) k++;
  for (; k < chunks.length && chunkStarts[k]! < to; k++) {
    const start = chunkStarts[k]!;
    out.push(chunks[k]!.subarray(Math.max(from, start) - start, Math.min(to, chunkStarts[k + 1]!) - start));
  }
}
