/**
 * Insecure dev mode's Host check: plain HTTP without authentication listens on loopback only,
 * but a web page can still reach it by DNS rebinding (its own name re-pointed at 127.0.0.1, so
 * the browser sends `Host: attacker.example`). Only loopback host names are served: `localhost`,
 * 127.0.0.0/8 and `[::1]`, with or without a port. Anything else is 403 Forbidden.
 */
import { statusError } from '../../api/status.js';
import { errorResponse } from '../../endpoints/responsewriters.js';
import type { Filter } from './types.js';

const LOOPBACK_HOST = /^(?:localhost|127(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}|\[(?:::1|0:0:0:0:0:0:0:1)\])(?::\d{1,5})?$/i;

/** Whether a Host header names the loopback interface. */
export function isLoopbackHostHeader(host: string | undefined): boolean {
  return host !== undefined && LOOPBACK_HOST.test(host);
}

export function withLoopbackHostOnly(): Filter {
  // The last Host header that passed: a client sends the same one on every request.
  let lastLoopback: string | undefined;
  return (next) => (ctx) => {
    const host = ctx.request.headers.host;
    if (host !== undefined && host === lastLoopback) return next(ctx);
    if (isLoopbackHostHeader(host)) {
      lastLoopback = host;
      return next(ctx);
    }
    return errorResponse(
      statusError('Forbidden', `host ${JSON.stringify(host ?? '')} is not a loopback name: --insecure-dev-mode serves only requests for localhost, 127.0.0.0/8 or [::1]`),
    );
  };
}
