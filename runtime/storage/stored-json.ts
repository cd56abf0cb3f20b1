/**
 * The JSON of a decoded object, derived from the stored value it was decoded from, so that the
 * watch cache need not stringify an object it has just parsed (kube's cachingObject shares one
 * serialization the same way).
 *
 * A stored value written by this process is JSON.stringify of the object without
 * metadata.resourceVersion (objects.ts encodeObject). decodeObject parses it and sets
 * metadata.resourceVersion, which becomes metadata's last key. JSON.stringify of that object is
 * therefore the stored value with `,"resourceVersion":"<rv>"` inserted before metadata's closing
 * brace: JSON.stringify(JSON.parse(s)) === s for any s JSON.stringify wrote (same key order,
 * numbers and escapes), and metadata gains exactly that one key.
 *
 * That holds only for values JSON.stringify wrote. A value read back from etcd or a database may
 * have been written by someone else (kube-apiserver's Go encoder escapes differently), so a
 * backend vouches for a value only when it is equal to one it encoded itself (WrittenValues).
 */

/**
 * JSON.stringify of decodeObject(value, revision), where value is encodeObject's output for an
 * object whose metadata closes at `metadataEnd` (encodeStored).
 */
export function withResourceVersionJSON(value: string, metadataEnd: number, revision: number): string {
  const sep = value.charCodeAt(metadataEnd - 1) === 0x7b /* { */ ? '' : ',';
  return `${value.slice(0, metadataEnd)}${sep}"resourceVersion":"${revision}"${value.slice(metadataEnd)}`;
}

/**
 * The values a backend's writes encoded, by key: a value a watch hands over is one this process
 * wrote with JSON.stringify when it equals the one noted for its key (the same string for the
 * log storage: a pointer comparison; equal text read back from etcd).
 * - The log storage notes a value before it is appended and forgets it once answered: it
 *   publishes a change to its watchers before answering the write, so every live change of this
 *   process's writes finds its value here.
 * - etcd delivers its watch events whenever they come, often after the write was answered: the
 *   values stay until a watch event takes them (take), a later write of the key replaces them, or
 *   they are the oldest when the values noted exceed `maxChars` together.
 */
export class WrittenValues {
  private readonly values = new Map<string, { value: string; metadataEnd: number }>();
  private chars = 0;

  constructor(private readonly maxChars = Infinity) {}

  note(key: string, value: string, metadataEnd: number): void {
    this.remove(key);
    this.values.set(key, { value, metadataEnd });
    this.chars += value.length;
    while (this.chars > this.maxChars) this.remove(this.values.keys().next().value as string);
  }

  /** Forgets key's value, unless a later write of the key noted another one meanwhile. */
  forget(key: string, value: string): void {
    if (this.values.get(key)?.value === value) this.remove(key);
  }

  /** Where metadata closes in value when value is the one noted for key, else -1. */
  metadataEnd(key: string, value: string): number {
    const noted = this.values.get(key);
    return noted !== undefined && noted.value === value ? noted.metadataEnd : -1;
  }

  /** metadataEnd, forgetting the value when it was the one noted. */
  take(key: string, value: string): number {
    const end = this.metadataEnd(key, value);
    if (end >= 0) this.remove(key);
    return end;
  }

  /** The number of values noted (tests). */
  get size(): number {
    return this.values.size;
  }

  private remove(key: string): void {
    const noted = this.values.get(key);
    if (noted === undefined) return;
    this.values.delete(key);
    this.chars -= noted.value.length;
  }
}

/**
 * A backend's create answers with the object it encoded (metadata.resourceVersion set last):
 * these are the answers whose JSON.stringify is known from the stored value (the splice above),
 * so the create handler can write its response without stringifying the object again (kube's
 * create response is the storage's decoded answer; here the same bytes).
 */
const answers = new WeakMap<object, { value: string; metadataEnd: number; revision: number }>();

/**
 * Records that obj, which a create returns now, is exactly decodeObject(value, revision) for a
 * value encodeStored wrote with metadata closing at metadataEnd.
 */
export function noteCreatedAnswer(obj: object, value: string, metadataEnd: number, revision: number): void {
  if (metadataEnd >= 0) answers.set(obj, { value, metadataEnd, revision });
}

/**
 * JSON.stringify(obj) when obj is a create's answer as the backend returned it, else undefined;
 * forgets the mark. Contract: the caller takes it right after the create returned obj, with
 * nothing in between able to change obj in place (the storage decorators between the backend
 * and the registry return a new object whenever they change one: conversion, encryption, the
 * CRD version wrappers; the registry's create changes nothing after storage answered). An
 * object that is not the backend's own answer (a copy, a converted object) has no mark.
 */
export function takeCreatedAnswerJSON(obj: object): string | undefined {
  const answer = answers.get(obj);
  if (answer === undefined) return undefined;
  answers.delete(obj);
  return withResourceVersionJSON(answer.value, answer.metadataEnd, answer.revision);
}
