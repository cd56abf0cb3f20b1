/** Reads a watch response over HTTP: newline-delimited `{type, object}` events, one at a time. */
import assert from 'node:assert/strict';

export interface WatchStreamEvent {
  type: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  object: any;
}

/** Opens `path` on a server at `url` and returns a reader of its events; fails on a non-200. */
export async function openWatchStream(url: string, path: string, accept?: string) {
  const controller = new AbortController();
  const res = await fetch(url + path, { headers: accept ? { accept } : {}, signal: controller.signal });
  if (res.status !== 200) assert.fail(`watch ${path}: ${res.status} ${await res.text()}`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = false;
  /** The next event, or undefined once the server has ended the stream. */
  async function next(): Promise<WatchStreamEvent | undefined> {
    for (;;) {
      const nl = buffer.indexOf('\n');
      if (nl >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        return JSON.parse(line) as WatchStreamEvent;
      }
      if (ended) return undefined;
      const { value, done } = await reader.read();
      if (done) ended = true;
      else buffer += decoder.decode(value, { stream: true });
    }
  }
  /** Every remaining event, until the server ends the stream. */
  async function rest(): Promise<WatchStreamEvent[]> {
    const out: WatchStreamEvent[] = [];
    for (let e = await next(); e; e = await next()) out.push(e);
    return out;
  }
  return { contentType: res.headers.get('content-type'), next, rest, close: () => controller.abort() };
}
