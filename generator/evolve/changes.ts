/**
 * One API change between a baseline and the current model, as `kgen diff` lists it and as the
 * checker reports it. A change with a code is breaking (an error code) or worth a warning; one
 * without a code (an added optional field, a new version) is listed for review and release notes
 * only. `accepted` holds the reason of the @kgen:allowBreakingChange that accepts it.
 */
import { diagnostic, DIAGNOSTICS, type Diagnostic, type DiagnosticCode } from '../diagnostics.js';
import type { SourceLocation } from '../model.js';

export type ChangeType = 'added' | 'removed' | 'changed' | 'tightened' | 'loosened';

export interface ApiChange {
  change: ChangeType;
  /** `widgets.example.com/v1 Widget`, or a group/version for version-level changes. */
  subject: string;
  /** JSON path in the kind, e.g. `.spec.parts[*].name`; "" for the kind itself. */
  path: string;
  /** A short description for listings (`maxLength 63 → 32`). */
  summary: string;
  code?: DiagnosticCode;
  /** Message arguments for the code's diagnostic, besides subject and path. */
  args: Record<string, string>;
  /** The current definition. */
  loc: SourceLocation;
  accepted?: string;
}

export function severityOf(change: ApiChange): 'error' | 'warning' | 'info' {
  return change.code ? DIAGNOSTICS[change.code].severity : 'info';
}

/** Breaking changes that no marker accepts. */
export function isBreaking(change: ApiChange): boolean {
  return severityOf(change) === 'error' && change.accepted === undefined;
}

/** The diagnostics for the changes that are not accepted (errors and warnings). */
export function changeDiagnostics(changes: ApiChange[]): Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const c of changes) {
    if (!c.code || c.accepted !== undefined) continue;
    const d = diagnostic(c.code, c.loc, { subject: c.subject, path: c.path || '.', ...c.args });
    const key = `${d.code}\0${d.loc.file}:${d.loc.line}:${d.loc.col}\0${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out.sort((a, b) => a.loc.file.localeCompare(b.loc.file) || a.loc.line - b.loc.line || a.loc.col - b.loc.col || a.code.localeCompare(b.code));
}
