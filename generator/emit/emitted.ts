/** What every emitter returns: files, by path relative to the output directory. */
export interface EmittedFile {
  path: string;
  content: string;
}

export interface EmitOptions {
  /** Truncate descriptions longer than this (0: no limit). */
  maxDescriptionLength?: number;
}

/** Stable, readable JSON: two-space indent, trailing newline. Key order is the builder's. */
export function jsonFile(path: string, value: unknown): EmittedFile {
  return { path, content: JSON.stringify(value, null, 2) + '\n' };
}
