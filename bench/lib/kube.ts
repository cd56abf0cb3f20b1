/** Small HTTP helpers against a kgen server for setting up benchmarks (not what is measured). */
import { writeFileSync } from 'node:fs';
import { collectionPath, objectName, sampleObject } from './objects.js';
import type { KindSpec } from '../synth/spec.js';

export async function send(url: string, method: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': contentType },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

export async function mustSend(url: string, method: string, body?: unknown, contentType?: string): Promise<string> {
  const r = await send(url, method, body, contentType);
  if (r.status >= 300) throw new Error(`${method} ${url}: ${r.status} ${r.text.slice(0, 500)}`);
  return r.text;
}

/** Creates `count` objects `<prefix>-<i>` through the API, `concurrency` at a time. */
export async function createObjects(base: string, k: KindSpec, prefix: string, count: number, concurrency = 16): Promise<void> {
  const url = base + collectionPath(k);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await mustSend(url, 'POST', sampleObject(k, objectName(prefix, i), i));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/** Writes the exact bytes of GET `url` to `file`; returns them. */
export async function captureBytes(url: string, file: string): Promise<Buffer> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  writeFileSync(file, bytes);
  return bytes;
}

/** A template of an object's JSON with its name replaced by __NAME__ (for creates of distinct objects). */
export function nameTemplate(json: string, name: string): string {
  return json.split(`"${name}"`).join('"__NAME__"');
}
