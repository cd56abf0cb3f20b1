/**
 * The etcd storage's own gRPC transport (runtime/storage/etcd/): the protobuf codec byte for byte,
 * and the gRPC channel's outcomes against a fake HTTP/2 server, classified the way etcd-codec.ts
 * classifies the etcd3 client's errors (the real etcd is exercised by the other etcd tests).
 */
import assert from 'node:assert/strict';
import http2, { type Http2Server, type ServerHttp2Stream } from 'node:http2';
import { createServer } from 'node:net';
import { after, describe, it } from 'node:test';
import { GRPCDeadlineExceededError, GRPCOutOfRangeError, GRPCUnavailableError } from 'etcd3';
import { EtcdHostDownError, isConnectionFailure, isTransient, isUnsent, toStorageError } from '../../runtime/storage/etcd-codec.js';
import { HostBreaker } from '../../runtime/storage/etcd/breaker.js';
import { GrpcChannel } from '../../runtime/storage/etcd/grpc.js';
import { EtcdKV } from '../../runtime/storage/etcd/kv.js';
import { decodeRangeResponse, decodeTxnResponse } from '../../runtime/storage/etcd/proto-decode.js';
import { frameRange, frameTxn } from '../../runtime/storage/etcd/proto-encode.js';

const b = (s: string): Buffer => Buffer.from(s);

/** A protobuf field of wire type 2 (length-delimited). */
const lenField = (field: number, body: Buffer): Buffer => Buffer.concat([Buffer.from([(field << 3) | 2, body.length]), body]);
/** A protobuf varint field (values < 128 here, or given as raw varint bytes). */
const intField = (field: number, ...varint: number[]): Buffer => Buffer.from([(field << 3) | 0, ...varint]);

describe('etcd transport: protobuf codec', () => {
  it('frames a compare-and-swap txn exactly, writing the oneof mod_revision even when 0', () => {
    const key = b('/k');
    const frame = frameTxn({
      compare: [{ key, target: 'Mod', result: 'Equal', mod_revision: 0 }],
      success: [{ request_put: { key, value: b('v') } }],
      failure: [{ request_range: { key } }],
    });
    // Compare: target=Mod(2) (result Equal is the default), key, mod_revision=0 (oneof: written).
    const compare = Buffer.concat([intField(2, 2), lenField(3, key), intField(6, 0)]);
    const put = Buffer.concat([lenField(1, key), lenField(2, b('v'))]);
    const range = lenField(1, key);
    const message = Buffer.concat([lenField(1, compare), lenField(2, lenField(2, put)), lenField(3, lenField(1, range))]);
    assert.deepEqual(frame, Buffer.concat([Buffer.from([0, 0, 0, 0, message.length]), message]));
  });

  it('frames a range with multi-byte varints and leaves defaults out', () => {
    const frame = frameRange({ key: b('/a'), range_end: b('/b'), limit: 300, revision: 2 ** 33, count_only: false });
    const message = Buffer.concat([
      lenField(1, b('/a')),
      lenField(2, b('/b')),
      intField(3, 0xac, 0x02), // 300
      intField(4, 0x80, 0x80, 0x80, 0x80, 0x20), // 2^33
    ]);
    assert.deepEqual(frame.subarray(5), message);
    assert.equal(frame.readUInt32BE(1), message.length);
  });

  it('decodes a txn response, skipping unknown fields, with revisions above 2^32', () => {
    const header = Buffer.concat([intField(1, 7), intField(3, 0x80, 0x80, 0x80, 0x80, 0x20), intField(4, 3)]);
    const kv = Buffer.concat([
      lenField(1, b('/k')),
      intField(2, 5),
      intField(3, 9),
      intField(4, 2),
      lenField(5, b('{"a":1}')),
      Buffer.from([(15 << 3) | 1, 1, 2, 3, 4, 5, 6, 7, 8]), // unknown fixed64
      Buffer.from([(14 << 3) | 5, 1, 2, 3, 4]), // unknown fixed32
    ]);
    const rangeResponse = Buffer.concat([lenField(1, header), lenField(2, kv), intField(4, 1)]);
    const message = Buffer.concat([lenField(1, header), intField(2, 0), lenField(3, lenField(1, rangeResponse)), lenField(9, b('future'))]);
    const res = decodeTxnResponse(message);
    assert.equal(res.header.revision, 2 ** 33);
    assert.equal(res.succeeded, false);
    const got = res.responses[0]?.response_range;
    assert.equal(got?.count, 1);
    assert.equal(got?.more, false);
    const decoded = got?.kvs[0];
    assert.deepEqual(
      { key: decoded?.key.toString(), value: decoded?.value.toString(), create: decoded?.create_revision, mod: decoded?.mod_revision, version: decoded?.version },
      { key: '/k', value: '{"a":1}', create: 5, mod: 9, version: 2 },
    );
  });

  it('rejects a truncated message instead of reading past it', () => {
    const message = lenField(2, Buffer.concat([lenField(1, b('/k'))]));
    assert.throws(() => decodeRangeResponse(message.subarray(0, message.length - 1)), /truncated/);
  });
});

/** A fake gRPC server: `handle` answers each stream (after reading the request). */
async function fakeServer(handle: (stream: ServerHttp2Stream, request: Buffer) => void): Promise<{ url: string; server: Http2Server; requests: Buffer[] }> {
  const server = http2.createServer();
  const requests: Buffer[] = [];
  server.on('stream', (stream) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const request = Buffer.concat(chunks);
      requests.push(request);
      handle(stream, request);
    });
    stream.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  servers.push(server);
  return { url: `http://127.0.0.1:${port}`, server, requests };
}

const servers: Http2Server[] = [];
const channels: GrpcChannel[] = [];
after(() => {
  for (const c of channels) c.close();
  for (const s of servers) s.close();
});

function channel(url: string): GrpcChannel {
  const c = new GrpcChannel(url);
  channels.push(c);
  return c;
}

/** A port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

const txnFrame = () => frameTxn({ compare: [], success: [{ request_range: { key: b('/k') } }], failure: [] });
const soon = () => Date.now() + 2000;

describe('etcd transport: gRPC channel outcomes', () => {
  it('sends the gRPC request and decodes the answer given in DATA + trailers', async () => {
    const header = Buffer.concat([intField(3, 42)]);
    const message = Buffer.concat([lenField(1, header), intField(2, 1)]);
    const { url, requests } = await fakeServer((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(Buffer.concat([Buffer.from([0, 0, 0, 0, message.length]), message]));
    });
    const frame = txnFrame();
    const res = await channel(url).unary('/etcdserverpb.KV/Txn', frame, soon(), decodeTxnResponse);
    assert.equal(res.header.revision, 42);
    assert.equal(res.succeeded, true);
    assert.deepEqual(requests[0], frame);
  });

  it('maps a trailers-only error status as the etcd3 client does (compacted → Expired)', async () => {
    const { url } = await fakeServer((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '11', 'grpc-message': 'etcdserver: mvcc: required revision has been compacted' }, { endStream: true });
    });
    const err = await channel(url).unary('/etcdserverpb.KV/Range', txnFrame(), soon(), decodeTxnResponse).then(
      () => assert.fail('expected an error'),
      (e: Error) => e,
    );
    assert.ok(err instanceof GRPCOutOfRangeError, String(err));
    assert.equal(toStorageError(err, '/k').code, 'Expired');
  });

  it('decodes a percent-encoded grpc-message in the trailers', async () => {
    const { url } = await fakeServer((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '14', 'grpc-message': 'etcdserver: no leader %E2%9C%93' }));
      stream.end();
    });
    const err = await channel(url).unary('/etcdserverpb.KV/Txn', txnFrame(), soon(), decodeTxnResponse).catch((e: Error) => e);
    assert.ok(err instanceof GRPCUnavailableError);
    assert.match((err as Error).message, /^14 UNAVAILABLE: etcdserver: no leader ✓$/);
    assert.equal(isTransient(err), true);
    assert.equal(isConnectionFailure(err), false, 'a server-side status is not a connection failure');
  });

  it('fails with DEADLINE_EXCEEDED when no answer comes in time, and the channel keeps working', async (t) => {
    let answer = false;
    const message = lenField(1, intField(3, 7));
    const { url } = await fakeServer((stream) => {
      if (!answer) return; // never answers
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(Buffer.concat([Buffer.from([0, 0, 0, 0, message.length]), message]));
    });
    const c = channel(url);
    // The deadline ends the call when it passes, not later: proved on a mocked clock (a bound on
    // elapsed time fails on a loaded machine). The server never answers, so only the deadline can.
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: Date.now() });
    let outcome: unknown = 'pending';
    const call = c.unary('/etcdserverpb.KV/Txn', txnFrame(), Date.now() + 150, decodeTxnResponse).catch((e: Error) => e);
    void call.then((v) => (outcome = v));
    t.mock.timers.tick(149);
    await new Promise((r) => setImmediate(r));
    assert.equal(outcome, 'pending', 'not before its deadline');
    t.mock.timers.tick(1);
    const err = await call;
    t.mock.timers.reset();
    assert.ok(err instanceof GRPCDeadlineExceededError, String(err));
    assert.equal(isTransient(err), true);
    assert.equal(isUnsent(err), false);
    answer = true;
    assert.equal((await c.unary('/etcdserverpb.KV/Txn', txnFrame(), soon(), decodeTxnResponse)).header.revision, 7);
  });

  it('a stream reset after the request was sent may have been applied; a refused stream or connection was not', async () => {
    const { url } = await fakeServer((stream) => stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR));
    const dropped = await channel(url).unary('/etcdserverpb.KV/Txn', txnFrame(), soon(), decodeTxnResponse).catch((e: Error) => e);
    assert.ok(dropped instanceof GRPCUnavailableError, String(dropped));
    assert.equal(isTransient(dropped), true);
    assert.equal(isUnsent(dropped), false);

    const { url: refusing } = await fakeServer((stream) => stream.close(http2.constants.NGHTTP2_REFUSED_STREAM));
    const notProcessed = await channel(refusing).unary('/etcdserverpb.KV/Txn', txnFrame(), soon(), decodeTxnResponse).catch((e: Error) => e);
    assert.ok(notProcessed instanceof GRPCUnavailableError, String(notProcessed));
    assert.equal(isUnsent(notProcessed), true);

    const refused = await channel(`http://127.0.0.1:${await closedPort()}`)
      .unary('/etcdserverpb.KV/Txn', txnFrame(), soon(), decodeTxnResponse)
      .catch((e: Error) => e);
    assert.ok(refused instanceof GRPCUnavailableError, String(refused));
    assert.equal(isUnsent(refused), true);
    assert.equal(isConnectionFailure(refused), true);
    assert.equal(toStorageError(refused, '/k').code, 'Unavailable');
  });

  it('skips a host after 3 connection failures, failing at once with EtcdHostDownError', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const kv = new EtcdKV(new Map([[url, new HostBreaker(url, 60_000)]]));
    try {
      for (let i = 0; i < 3; i++) {
        await assert.rejects(kv.range({ key: b('/k') }, { deadline: soon() }), GRPCUnavailableError);
      }
      await assert.rejects(kv.range({ key: b('/k') }, { deadline: soon() }), EtcdHostDownError);
    } finally {
      kv.close();
    }
  });
});
