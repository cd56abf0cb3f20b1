import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, it } from 'node:test';
import {
  ResourceClient,
  RestClient,
  StatusError,
  decodeWatchStream,
  isForbidden,
  isGone,
  type KubeObject,
  type WatchEvent,
} from '@kgen/client';
import { newGone } from '../../runtime/api/status.js';
import { startStub } from './stub-server.js';

interface Widget extends KubeObject {
  spec?: { label?: string };
}

const widgets = { group: 'widgets.example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true };

const line = (type: string, name: string, extra: object = {}) =>
  JSON.stringify({ type, object: { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name, resourceVersion: '1' }, ...extra } }) + '\n';

async function* chunksOf(...parts: Array<string | Buffer>): AsyncGenerator<Buffer | string> {
  for (const p of parts) yield p;
}

/** Splits a buffer into pieces of `size` bytes, cutting through JSON tokens and UTF-8 sequences. */
function split(text: string, size: number): Buffer[] {
  const buf = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, i + size));
  return out;
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('decodeWatchStream', () => {
  it('decodes events split at every byte boundary, multi-byte characters included', async () => {
    const text = line('ADDED', 'w1', { spec: { label: 'größe ✓ 🚀' } }) + line('MODIFIED', 'w1') + '\n' + line('DELETED', 'w1');
    for (const size of [1, 2, 3, 7, 64, 10_000]) {
      const events = await collect(decodeWatchStream<Widget>(chunksOf(...split(text, size))));
      assert.deepEqual(events.map((e) => e.type), ['ADDED', 'MODIFIED', 'DELETED'], `chunk size ${size}`);
      assert.equal(events[0]!.object.spec?.label, 'größe ✓ 🚀');
    }
  });

  it('decodes a last event without a trailing newline, and BOOKMARK events', async () => {
    const bookmark = JSON.stringify({ type: 'BOOKMARK', object: { kind: 'Widget', apiVersion: 'widgets.example.com/v1', metadata: { resourceVersion: '42' } } });
    const events = await collect(decodeWatchStream(chunksOf(line('ADDED', 'a'), bookmark)));
    assert.deepEqual(events.map((e) => e.type), ['ADDED', 'BOOKMARK']);
    assert.equal(events[1]!.object.metadata.resourceVersion, '42');
  });

  it('throws an ERROR event as StatusError, so 410 Expired is isGone', async () => {
    const gone = newGone('too old resource version: 5 (10)').status;
    const stream = decodeWatchStream(chunksOf(line('ADDED', 'a'), JSON.stringify({ type: 'ERROR', object: gone }) + '\n', line('ADDED', 'b')));
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const e of stream) seen.push(e.object.metadata.name!);
      })(),
      (err: unknown) => {
        assert.ok(err instanceof StatusError);
        assert.ok(isGone(err));
        assert.equal(err.code, 410);
        assert.equal(err.message, 'too old resource version: 5 (10)');
        return true;
      },
    );
    assert.deepEqual(seen, ['a']);
  });

  it('rejects malformed lines and unknown event types with client-go\'s words, quoting none of the line', async () => {
    await assert.rejects(collect(decodeWatchStream(chunksOf('{"type":"ADDED",\n'))), {
      message: 'unable to decode an event from the watch stream: unexpected end of JSON input',
    });
    // A Secret's line cut or garbled on its way: its data must not reach the error (and so the logs).
    const secret = '{"type":"ADDED","object":{"kind":"Secret","data":{"password":"aHVudGVyMg=="}}}';
    await assert.rejects(collect(decodeWatchStream(chunksOf(secret.slice(0, -2) + 'x\n'))), (err: Error) => {
      assert.equal(err.message, "unable to decode an event from the watch stream: invalid character 'x' after object key:value pair");
      return true;
    });
    await assert.rejects(collect(decodeWatchStream(chunksOf(secret.replace('ADDED', 'EXPLODED') + '\n'))), (err: Error) => {
      assert.equal(err.message, 'unable to decode an event from the watch stream: got invalid watch event type: EXPLODED');
      return true;
    });
    await assert.rejects(collect(decodeWatchStream(chunksOf('{"type":"ERROR","object":{"oops":1}}\n'))), (err: StatusError) => err.code === 500);
  });

  it('refuses a line longer than 16 MiB (client-go\'s streaming decoder), reading little past it', async () => {
    // A broken or hostile server that never ends a line: client-go's watch decoder stops at
    // 16 MiB (ErrObjectTooLarge); holding it all would grow without bound.
    const chunk = 'a'.repeat(64 * 1024);
    let sent = 0;
    async function* endless(): AsyncGenerator<string> {
      // 20 MiB, so that a decoder without the limit fails (at the end of the stream) rather than hangs.
      while (sent < 20 * 1024 * 1024) {
        sent += chunk.length;
        yield chunk;
      }
    }
    await assert.rejects(collect(decodeWatchStream(endless())), {
      message: 'unable to decode an event from the watch stream: object to decode was longer than maximum allowed size',
    });
    assert.ok(sent <= 16 * 1024 * 1024 + 2 * chunk.length, `read ${sent} bytes`);
    // One event just under the limit, in small pieces, still decodes.
    const big = line('ADDED', 'big', { spec: { label: 'x'.repeat(16 * 1024 * 1024 - 200) } });
    const events = await collect(decodeWatchStream<Widget>(chunksOf(...split(big, 64 * 1024))));
    assert.equal(events[0]!.object.spec?.label?.length, 16 * 1024 * 1024 - 200);
  });
});

describe('ResourceClient.watch', () => {
  /** A stub that streams `parts` as chunked NDJSON with a pause between writes, then ends or hangs. */
  async function streamingStub(parts: string[], opts: { end: boolean } = { end: true }) {
    let closed = false;
    const stub = await startStub(async (_req, res: ServerResponse, raw) => {
      raw.socket.once('close', () => (closed = true));
      res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
      res.flushHeaders();
      for (const p of parts) {
        res.write(p);
        await delay(5);
      }
      if (opts.end) res.end();
    });
    return { stub, closed: () => closed };
  }

  it('streams events chunk by chunk, with the watch query', async () => {
    const text = line('ADDED', 'w1') + line('MODIFIED', 'w1') + line('DELETED', 'w1');
    const s = await startStub(async (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      for (const b of split(text, 13)) {
        res.write(b);
        await delay(2);
      }
      res.end();
    });
    const rest = new RestClient({ server: s.url, qps: 0 });
    const c = new ResourceClient<Widget>(rest, widgets, 'ns');
    const events: WatchEvent<Widget>[] = [];
    for await (const e of c.watch({ resourceVersion: '5', labelSelector: 'a=b', allowWatchBookmarks: true, timeoutSeconds: 30 })) events.push(e);
    assert.deepEqual(events.map((e) => `${e.type}/${e.object.metadata.name}`), ['ADDED/w1', 'MODIFIED/w1', 'DELETED/w1']);
    const req = s.requests[0]!;
    assert.equal(req.path, '/apis/widgets.example.com/v1/namespaces/ns/widgets');
    assert.equal(req.query.get('watch'), 'true');
    assert.equal(req.query.get('resourceVersion'), '5');
    assert.equal(req.query.get('labelSelector'), 'a=b');
    assert.equal(req.query.get('allowWatchBookmarks'), 'true');
    assert.equal(req.query.get('timeoutSeconds'), '30');
    rest.close();
    await s.close();
  });

  it('watches all namespaces without a namespace', async () => {
    const { stub } = await streamingStub([line('ADDED', 'x')]);
    const rest = new RestClient({ server: stub.url, qps: 0 });
    const events = await collect(new ResourceClient<Widget>(rest, widgets).watch());
    assert.equal(events.length, 1);
    assert.equal(stub.requests[0]!.path, '/apis/widgets.example.com/v1/widgets');
    rest.close();
    await stub.close();
  });

  it('throws an ERROR event from the server as StatusError (isGone)', async () => {
    const gone = newGone('too old resource version: 1 (7)').status;
    const { stub } = await streamingStub([line('ADDED', 'a'), JSON.stringify({ type: 'ERROR', object: gone }) + '\n'], { end: false });
    const rest = new RestClient({ server: stub.url, qps: 0 });
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const e of new ResourceClient<Widget>(rest, widgets, 'ns').watch({ resourceVersion: '1' })) seen.push(e.type);
      })(),
      (err) => isGone(err),
    );
    assert.deepEqual(seen, ['ADDED']);
    rest.close();
    await stub.close();
  });

  it('closes the connection when the consumer stops early', async () => {
    const { stub, closed } = await streamingStub([line('ADDED', 'a'), line('ADDED', 'b')], { end: false });
    const rest = new RestClient({ server: stub.url, qps: 0 });
    for await (const e of new ResourceClient<Widget>(rest, widgets, 'ns').watch()) {
      assert.equal(e.object.metadata.name, 'a');
      break;
    }
    for (let i = 0; i < 100 && !closed(); i++) await delay(10);
    assert.ok(closed(), 'server saw the watch connection close');
    rest.close();
    await stub.close();
  });

  it('ends quietly when the signal aborts', async () => {
    const { stub, closed } = await streamingStub([line('ADDED', 'a')], { end: false });
    const rest = new RestClient({ server: stub.url, qps: 0 });
    const ac = new AbortController();
    const seen: string[] = [];
    for await (const e of new ResourceClient<Widget>(rest, widgets, 'ns').watch({ signal: ac.signal })) {
      seen.push(e.type);
      setTimeout(() => ac.abort(), 20);
    }
    assert.deepEqual(seen, ['ADDED']);
    for (let i = 0; i < 100 && !closed(); i++) await delay(10);
    assert.ok(closed());
    rest.close();
    await stub.close();
  });

  it('ends when the connection drops mid-stream, as client-go closes its watch channel', async () => {
    const s = await startStub(async (_req, res, raw) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(line('ADDED', 'a') + '{"type":"MODI');
      await delay(20);
      raw.socket.destroy();
    });
    const rest = new RestClient({ server: s.url, qps: 0 });
    const events = await collect(new ResourceClient<Widget>(rest, widgets, 'ns').watch());
    assert.deepEqual(events.map((e) => e.type), ['ADDED']);
    rest.close();
    await s.close();
  });

  it('rejects a refused watch with the Status', async () => {
    const s = await startStub((_req, res) => {
      res.writeHead(403, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403, message: 'no watching' }));
    });
    const rest = new RestClient({ server: s.url, qps: 0 });
    await assert.rejects(collect(new ResourceClient<Widget>(rest, widgets, 'ns').watch()), (err) => isForbidden(err));
    rest.close();
    await s.close();
  });
});
