/**
 * Paths with `.` or `..` segments, literal or percent-encoded (`%2e`, `%2E%2e`, `.%2e`, …), are
 * refused with 400 and never resolved. Resolving them would route `…/widgets/%2e%2e/…` to
 * another resource than the one a path-filtering proxy in front of the server saw; kube does not
 * normalise request paths either, and refuses such names ("may not be '..'").
 */
import { newBadRequest } from '../../api/status.js';

/** A segment made only of dots, `%2e` or `%2E`, one or two of them. */
function isDotSegment(path: string, start: number, end: number): boolean {
  let dots = 0;
  for (let i = start; i < end; ) {
    if (path.charCodeAt(i) === 0x2e) {
      i++;
    } else if (path.charCodeAt(i) === 0x25 && path.charCodeAt(i + 1) === 0x32 && (path.charCodeAt(i + 2) | 0x20) === 0x65) {
      i += 3;
    } else {
      return false;
    }
    if (++dots > 2) return false;
  }
  return dots > 0;
}

/** Whether the path part of a request URL (path and query) has a `.` or `..` segment. */
export function hasDotSegment(url: string): boolean {
  let end = url.indexOf('?');
  if (end < 0) end = url.length;
  let start = 0;
  while (start <= end) {
    let slash = url.indexOf('/', start);
    if (slash < 0 || slash > end) slash = end;
    // Segments of at most 6 characters (`%2e%2e`) can be dot segments.
    if (slash - start <= 6 && slash > start && isDotSegment(url, start, slash)) return true;
    start = slash + 1;
  }
  return false;
}

export function dotSegmentError(url: string) {
  const path = url.split('?', 1)[0]!;
  return newBadRequest(`invalid request path ${JSON.stringify(path)}: a path segment may not be '.' or '..' (nor their percent-encoded forms)`);
}
