/**
 * CORS (kube's WithCORS, `--cors-allowed-origins`): off when no patterns are given. A request
 * whose Origin matches one of the patterns (regular expressions, as kube's) gets the
 * Access-Control-* headers, whatever the later filters answer; a matching preflight OPTIONS is
 * answered here with 204. Non-matching origins get no CORS headers (the browser then blocks).
 */
import type { ObjectResponse } from '../../endpoints/handler.js';
import type { Filter } from './types.js';

const ALLOWED_METHODS = ['POST', 'GET', 'OPTIONS', 'PUT', 'DELETE', 'PATCH'];
const ALLOWED_HEADERS = ['Content-Type', 'Content-Length', 'Accept-Encoding', 'X-CSRF-Token', 'Authorization', 'X-Requested-With', 'If-Modified-Since'];
const EXPOSED_HEADERS = ['Date'];

/** kube's help text for --cors-allowed-origins, which its validation errors repeat. */
export const CORS_ALLOWED_ORIGINS_HELP =
  'List of allowed origins for CORS, comma separated. An allowed origin can be a regular expression to support subdomain matching. ' +
  'If this list is empty CORS will not be enabled. Please ensure each expression matches the entire hostname by anchoring ' +
  "to the start with '^' or including the '//' prefix, and by anchoring to the end with '$' or including the ':' port separator suffix. " +
  "Examples of valid expressions are '//example\\.com(:|$)' and '^https://example\\.com(:|$)'";

/**
 * kube's validateCorsAllowedOriginList (CVE-2022-1996): every pattern must pin the start of the
 * host (`^` or `//`) and its end (`$` or `:`), else `example\.com` would also allow
 * `https://example.com.evil.io`, whose pages the browser then lets read answers (credentials
 * included: Access-Control-Allow-Credentials). kube's check, as relaxed: the markers are looked
 * for anywhere in the pattern. The errors, in kube's words; none when the list is valid.
 */
export function corsAllowedOriginsProblems(patterns: readonly string[]): string[] {
  const problems: string[] = [];
  for (const pattern of patterns) {
    if (pattern.length === 0) {
      problems.push(`empty value in --cors-allowed-origins, help: ${CORS_ALLOWED_ORIGINS_HELP}`);
      continue;
    }
    let why: string | undefined;
    try {
      new RegExp(pattern);
      const pinStart = pattern.includes('^') || pattern.includes('//');
      const pinEnd = pattern.includes('$') || pattern.includes(':');
      if (!pinStart || !pinEnd) why = 'regular expression does not pin to start/end of host in the origin header';
    } catch (err) {
      why = (err as Error).message;
    }
    if (why) problems.push(`--cors-allowed-origins has an invalid regular expression: ${why}, help: ${CORS_ALLOWED_ORIGINS_HELP}`);
  }
  return problems;
}

/** Compiles the patterns; an invalid one is an error naming the flag, as kube fails at start-up. */
export function compileOriginPatterns(patterns: readonly string[]): RegExp[] {
  return patterns.map((p) => {
    try {
      return new RegExp(p);
    } catch (err) {
      throw new Error(`invalid CORS allowed origin, --cors-allowed-origins flag was set to ${patterns.join(',')} - ${(err as Error).message}`);
    }
  });
}

function noContent(): ObjectResponse {
  return { kind: 'object', code: 204, contentType: '', headers: {}, payload: '' };
}

export function withCORS(allowedOriginPatterns: readonly string[]): Filter {
  const patterns = compileOriginPatterns(allowedOriginPatterns);
  return (next) => {
    // Off without patterns: kube does not install the filter then.
    if (patterns.length === 0) return next;
    return (ctx) => {
      const raw = ctx.request.headers.origin;
      const origin = Array.isArray(raw) ? raw[0] : raw;
      if (!origin || !patterns.some((re) => re.test(origin))) return next(ctx);
      const headers = ctx.responseHeaders;
      headers['Access-Control-Allow-Origin'] = origin;
      headers['Access-Control-Allow-Methods'] = ALLOWED_METHODS.join(', ');
      headers['Access-Control-Allow-Headers'] = ALLOWED_HEADERS.join(', ');
      headers['Access-Control-Expose-Headers'] = EXPOSED_HEADERS.join(', ');
      headers['Access-Control-Allow-Credentials'] = 'true';
      headers.Vary = 'Origin';
      if (ctx.request.method === 'OPTIONS') return Promise.resolve(noContent());
      return next(ctx);
    };
  };
}
