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
  return (ctx, next) => {
    if (patterns.length === 0) return next(ctx);
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
}
