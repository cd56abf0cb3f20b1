/**
 * The etcd Watch stream over our own gRPC channel (runtime/storage/etcd/watch-stream.ts): its
 * messages checked against etcd's own rpc.proto (through protobufjs, what etcd3 used), and its
 * framing and outcomes against a fake HTTP/2 server (the real etcd is exercised by the storage
 * conformance suite, the fault, replica and TLS tests).
 */
import assert from 'node:assert/strict';
import http2, { type Http2Server, type ServerHttp2Stream } from 'node:http2';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import protobuf from 'protobufjs';
import { GRPCUnavailableError } from 'etcd3';
import { isConnectionFailure } from '../../runtime/storage/etcd-codec.js';
import { GrpcChannel } from '../../runtime/storage/etcd/grpc.js';
import { decodeWatchResponse, frameWatchCreate, type WatchResponse } from '../../runtime/storage/etcd/proto-watch.js';
import { GrpcWatchStream } from '../../runtime/storage/etcd/watch-stream.js';

const rpcProto = join(dirname(createRequire(import.meta.url).resolve('etcd3/package.json')), 'proto', 'rpc.proto');
const root = await new protobuf.Root().load(rpcProto, { keepCase: true });
const WatchRequest = root.lookupType('etcdserverpb.WatchRequest');
const WatchResponsePb = root.lookupType('etcdserverpb.WatchResponse');
const b = (s: string): Buffer => Buffer.from(s);
const kv = (key: string, create: number, mod: number, value: string) => ({ key: b(key), create_revision: create, mod_revision: mod, version: 1, value: b(value) });

/** A WatchResponse as etcd encodes it (protobufjs with etcd's rpc.proto), as one gRPC frame. */
function responseFrame(res: object): Buffer {
  const message = Buffer.from(WatchResponsePb.encode(WatchResponsePb.create(res)).finish());
  const prefix = Buffer.from([0, 0, 0, 0, 0]);
  prefix.writeUInt32BE(message.length, 1);
  return Buffer.concat([prefix, message]);
}

describe('etcd watch stream: messages', () => {
  it('frames a create request that etcd reads as key, range_end, start_revision and prev_kv', () => {
    const frame = frameWatchCreate({ key: b('/registry/a/'), range_end: b('/registry/a0'), start_revision: 2 ** 33, prev_kv: true });
    assert.equal(frame[0], 0);
    assert.equal(frame.readUInt32BE(1), frame.length - 5);
    const req = WatchRequest.toObject(WatchRequest.decode(frame.subarray(5)), { longs: Number }) as { create_request: Record<string, unknown> };
    assert.deepEqual(
      { ...req.create_request, key: String(req.create_request.key), range_end: String(req.create_request.range_end) },
      { key: '/registry/a/', range_end: '/registry/a0', start_revision: 2 ** 33, prev_kv: true },
    );
  });

  it('decodes the responses etcd sends: created, events with prev_kv, canceled by compaction', () => {
    const created = decodeWatchResponse(responseFrame({ header: { revision: 7 }, watch_id: 0, created: true }).subarray(5));
    assert.deepEqual({ created: created.created, canceled: created.canceled, revision: created.header.revision, events: created.events }, { created: true, canceled: false, revision: 7, events: [] });
    const events = decodeWatchResponse(
      responseFrame({
        header: { revision: 2 ** 33 },
        events: [
          { type: 0, kv: kv('/k/a', 2 ** 33, 2 ** 33, '{"a":1}') },
          { type: 0, kv: kv('/k/b', 5, 9, '{"b":2}'), prev_kv: kv('/k/b', 5, 6, '{"b":1}') },
          { type: 1, kv: { key: b('/k/c'), mod_revision: 10 }, prev_kv: kv('/k/c', 3, 4, '{"c":1}') },
        ],
      }).subarray(5),
    );
    assert.deepEqual(
      events.events.map((e) => [e.type, e.kv.key.toString(), e.kv.create_revision, e.kv.mod_revision, e.kv.value.toString(), e.prev_kv?.value.toString()]),
      [
        ['Put', '/k/a', 2 ** 33, 2 ** 33, '{"a":1}', undefined],
        ['Put', '/k/b', 5, 9, '{"b":2}', '{"b":1}'],
        ['Delete', '/k/c', 0, 10, '', '{"c":1}'],
      ],
    );
    const canceled = decodeWatchResponse(responseFrame({ canceled: true, compact_revision: 12, cancel_reason: 'mvcc: required revision has been compacted' }).subarray(5));
    assert.deepEqual([canceled.canceled, canceled.compact_revision, canceled.cancel_reason], [true, 12, 'mvcc: required revision has been compacted']);
  });
});

const servers: Http2Server[] = [];
const channels: GrpcChannel[] = [];
after(() => {
  for (const c of channels) c.close();
  for (const s of servers) s.close();
});

/** An HTTP/2 server answering the Watch call with `handle` (given what the client wrote so far). */
async function fakeWatch(handle: (stream: ServerHttp2Stream, firstRequest: Buffer) => void): Promise<GrpcChannel> {
  const server = http2.createServer();
  server.on('stream', (stream) => {
    stream.once('data', (chunk: Buffer) => handle(stream, chunk));
    stream.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  const channel = new GrpcChannel(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
  channels.push(channel);
  return channel;
}

/** Opens a stream, writes one create request, and collects what it emits until 'end' or 'error'. */
function collect(channel: GrpcChannel): Promise<{ data: WatchResponse[]; end?: true; error?: Error }> {
  return new Promise((resolve) => {
    const out: { data: WatchResponse[]; end?: true; error?: Error } = { data: [] };
    const stream = new GrpcWatchStream(channel);
    stream.on('data', (res: WatchResponse) => out.data.push(res));
    stream.on('end', () => resolve({ ...out, end: true }));
    stream.on('error', (error: Error) => resolve({ ...out, error }));
    stream.write({ create_request: { key: b('/k/'), start_revision: 3, prev_kv: true } });
  });
}

describe('etcd watch stream: framing and outcomes', () => {
  it('reads messages split across DATA frames and several in one, in order; OK ends it', async () => {
    let request: Buffer | undefined;
    const channel = await fakeWatch((stream, first) => {
      request = first;
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      const all = Buffer.concat([
        responseFrame({ created: true }),
        ...[4, 5, 6].map((rev) => responseFrame({ events: [{ type: 0, kv: kv(`/k/${rev}`, rev, rev, 'x'.repeat(3000)) }] })),
      ]);
      // Odd slices: a prefix split in two, a message split across writes, two messages in one.
      const cuts = [3, 10, 3100, 3200, all.length];
      let at = 0;
      for (const cut of cuts) {
        stream.write(all.subarray(at, cut));
        at = cut;
      }
      stream.end();
    });
    const { data, end, error } = await collect(channel);
    assert.equal(error, undefined);
    assert.equal(end, true);
    assert.deepEqual(data.map((r) => (r.created ? 'created' : r.events.map((e) => e.kv.mod_revision).join())), ['created', '4', '5', '6']);
    assert.deepEqual(request, frameWatchCreate({ key: b('/k/'), start_revision: 3, prev_kv: true }));
  });

  it('fails with the typed error of a status in the trailers', async () => {
    const channel = await fakeWatch((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '14', 'grpc-message': 'etcdserver:%20no%20leader' }));
      stream.end(responseFrame({ created: true }));
    });
    const { data, error } = await collect(channel);
    assert.equal(data.length, 1);
    assert.ok(error instanceof GRPCUnavailableError, String(error));
    assert.match(error.message, /etcdserver: no leader/);
  });

  it('fails with UNAVAILABLE, a connection failure, when the connection breaks mid-stream', async () => {
    const channel = await fakeWatch((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
      stream.write(responseFrame({ created: true }), () => stream.session?.destroy());
    });
    const { data, error } = await collect(channel);
    assert.equal(data.length, 1);
    assert.ok(error instanceof GRPCUnavailableError, String(error));
    assert.ok(isConnectionFailure(error));
  });

  it('fails with INTERNAL on a message it cannot decode, and emits nothing after cancel()', async () => {
    const channel = await fakeWatch((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
      stream.write(Buffer.from([0, 0, 0, 0, 2, (1 << 3) | 2, 9]));
    });
    const { error } = await collect(channel);
    assert.match(String(error), /13 INTERNAL: Failed to parse server response/);

    let emitted = 0;
    let closed!: () => void;
    const serverClosed = new Promise<void>((r) => (closed = r));
    const quiet = await fakeWatch((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
      stream.on('close', () => closed());
      stream.write(responseFrame({ created: true }));
    });
    const stream = new GrpcWatchStream(quiet);
    for (const event of ['data', 'error', 'end']) stream.on(event, () => emitted++);
    stream.write({ create_request: { key: b('/k/') } });
    await new Promise((r) => stream.once('data', r));
    stream.cancel();
    await serverClosed;
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(emitted, 1);
  });
});
