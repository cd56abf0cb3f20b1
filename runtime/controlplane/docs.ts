/**
 * `/docs/`: the HTML API reference `kgen generate` wrote to `<generatedDir>/docs/` (see
 * generator/emit/docs.ts), served read-only. Authorised like /openapi (the system:discovery
 * role lists /docs and /docs/*). Pages are read once, on first request; names are single path
 * segments, so nothing outside the folder can be named. A Content-Security-Policy keeps every
 * fetch on this server.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { APIResponse } from '../endpoints/handler.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
};

const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

export function docsServer(generatedDir: string): (path: string, segments: string[]) => APIResponse | undefined {
  const dir = join(generatedDir, 'docs');
  let files: Map<string, Buffer> | undefined;
  const load = () => {
    files = new Map();
    if (!existsSync(dir)) return files;
    for (const name of readdirSync(dir)) if (TYPES[extname(name)]) files.set(name, readFileSync(join(dir, name)));
    return files;
  };
  return (path, segments): APIResponse | undefined => {
    if (segments[0] !== 'docs') return undefined;
    // Relative links need the trailing slash, as a static file server redirects a folder.
    if (path === '/docs') return { kind: 'object', code: 301, contentType: 'text/plain; charset=utf-8', headers: { Location: '/docs/' }, payload: 'Moved Permanently: /docs/\n' };
    if (segments.length > 2) return undefined;
    const name = segments[1] || 'index.html';
    const body = (files ?? load()).get(name);
    if (!body) return undefined;
    return { kind: 'object', code: 200, contentType: TYPES[extname(name)]!, headers: { 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff' }, payload: '', body };
  };
}
