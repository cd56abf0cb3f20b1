/**
 * kgen's own gRPC client against a hostile or broken etcd (runtime/storage/etcd/grpc.ts,
 * watch-stream.ts, proto-decode.ts): a length prefix beyond what clientv3 accepts, a body that
 * never ends, a truncated field inside a nested message, an unknown field. Each must fail the
 * call or the stream with a typed error, at once, holding no more than what arrived: never wait
 * for gigabytes, never read a neighbour's bytes as a value.
 */
import assert from 'node:assert/strict';
import http2, { type Http2Server, type ServerHttp2Stream } from 'node:http2';
import { after, describe, it } from 'node:test';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';
import { chainCert } from '../support/cert-chain.js';
import { GrpcChannel } from '../../runtime/storage/etcd/grpc.js';
import type { EtcdTLS } from '../../runtime/storage/etcd/tls.js';
import { decodeRangeResponse } from '../../runtime/storage/etcd/proto-decode.js';
import { decodeWatchResponse, type WatchResponse } from '../../runtime/storage/etcd/proto-watch.js';
import { GrpcWatchStream } from '../../runtime/storage/etcd/watch-stream.js';

const servers: Http2Server[] = [];
const channels: GrpcChannel[] = [];
after(() => {
  for (const c of channels) c.close();
  for (const s of servers) s.close();
});

/** An HTTP/2 server answering every call with `handle`. */
async function fakeEtcd(handle: (stream: ServerHttp2Stream) => void): Promise<GrpcChannel> {
  const server = http2.createServer();
  server.on('stream', (stream) => {
    stream.on('error', () => {});
    stream.once('data', () => handle(stream));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  const channel = new GrpcChannel(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
  channels.push(channel);
  return channel;
}

/** Writes a prefix announcing `length` bytes, then 1 MiB chunks until the client goes away; resolves with the bytes sent. */
function endlessBody(stream: ServerHttp2Stream, length: number): Promise<number> {
  return new Promise((resolve) => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
    const prefix = Buffer.alloc(5);
    prefix.writeUInt32BE(length, 1);
    stream.write(prefix);
    const chunk = Buffer.alloc(1024 * 1024, 0x0a);
    let sent = 0;
    let done = false;
    const pump = () => {
      while (!done && !stream.destroyed && sent < 512 * 1024 * 1024) {
        sent += chunk.length;
        if (!stream.write(chunk)) {
          stream.once('drain', pump);
          return;
        }
      }
    };
    stream.on('close', () => {
      done = true;
      resolve(sent);
    });
    pump();
  });
}

function watchOutcome(channel: GrpcChannel): Promise<{ data: WatchResponse[]; error?: Error }> {
  return new Promise((resolve) => {
    const data: WatchResponse[] = [];
    const stream = new GrpcWatchStream(channel);
    stream.on('data', (res: WatchResponse) => data.push(res));
    stream.on('error', (error: Error) => resolve({ data, error }));
    stream.on('end', () => resolve({ data }));
    stream.write({ create_request: { key: Buffer.from('/k/') } });
  });
}

const MAX = 2 ** 31 - 1;

describe('etcd client against a hostile member: message sizes', { timeout: 60_000 }, () => {
  it('fails a watch whose message announces more than 2 GiB at once, with RESOURCE_EXHAUSTED, and stops reading', async () => {
    let sent!: Promise<number>;
    const channel = await fakeEtcd((stream) => (sent = endlessBody(stream, 0xffffffff)));
    const { data, error } = await watchOutcome(channel);
    assert.equal(data.length, 0);
    assert.match(String(error), new RegExp(`8 RESOURCE_EXHAUSTED: grpc: received message larger than max \\(4294967295 vs\\. ${MAX}\\)`));
    assert.ok((await sent) < 256 * 1024 * 1024, `the client went on reading: ${await sent} bytes`);
  });

  it('fails a unary call whose answer announces more than 2 GiB at once, before its deadline', async () => {
    let sent!: Promise<number>;
    const channel = await fakeEtcd((stream) => (sent = endlessBody(stream, 0xfffffff0)));
    const started = Date.now();
    await assert.rejects(
      channel.unary('/etcdserverpb.KV/Range', Buffer.from([0, 0, 0, 0, 0]), Date.now() + 20_000, decodeRangeResponse),
      new RegExp(`8 RESOURCE_EXHAUSTED: grpc: received message larger than max \\(4294967280 vs\\. ${MAX}\\)`),
    );
    assert.ok(Date.now() - started < 10_000);
    assert.ok((await sent) < 256 * 1024 * 1024, `the client went on reading: ${await sent} bytes`);
  });

  it('reads an 8 MiB watch message arriving in small pieces whole', async () => {
    const value = Buffer.alloc(8 * 1024 * 1024, 0x61);
    // WatchResponse{events: [Event{kv: KeyValue{key: "/k/a", mod_revision: 5, value}}]}
    const kv = Buffer.concat([Buffer.from([0x0a, 4]), Buffer.from('/k/a'), Buffer.from([0x18, 5, 0x2a]), varint(value.length), value]);
    const event = Buffer.concat([Buffer.from([0x12]), varint(kv.length), kv]);
    const message = Buffer.concat([Buffer.from([0x5a]), varint(event.length), event]);
    const frame = Buffer.concat([Buffer.from([0, 0, 0, 0, 0]), message]);
    frame.writeUInt32BE(message.length, 1);
    const channel = await fakeEtcd((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      for (let at = 0; at < frame.length; at += 4096) stream.write(frame.subarray(at, at + 4096));
      stream.end();
    });
    const { data, error } = await watchOutcome(channel);
    assert.equal(error, undefined);
    assert.equal(data.length, 1);
    assert.equal(data[0]!.events[0]!.kv.mod_revision, 5);
    assert.ok(data[0]!.events[0]!.kv.value.equals(value));
  });
});

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Buffer.from(out);
}

describe('etcd client against a hostile member: malformed messages', () => {
  it('refuses a nested message whose last field has no value, instead of reading the next bytes as its value', () => {
    // Event{kv: KeyValue{key: "/k", mod_revision: <missing>}}, then the event's type 1 (DELETE)
    // outside the KeyValue: the 0x08 must not become the KeyValue's mod_revision.
    const kv = Buffer.from([0x0a, 2, 0x2f, 0x6b, 0x18]);
    const event = Buffer.concat([Buffer.from([0x12, kv.length]), kv, Buffer.from([0x08, 1])]);
    const message = Buffer.concat([Buffer.from([0x5a, event.length]), event]);
    assert.throws(() => decodeWatchResponse(message), /protobuf: truncated/);
  });

  it('refuses a fixed-size field cut short inside a nested message', () => {
    // KeyValue{key: "/k", <field 9, fixed64 with 2 of its 8 bytes>} inside an Event.
    const kv = Buffer.from([0x0a, 2, 0x2f, 0x6b, (9 << 3) | 1, 1, 2]);
    const event = Buffer.concat([Buffer.from([0x12, kv.length]), kv, Buffer.from([0x08, 1, 0x08, 1, 0x08, 1])]);
    const message = Buffer.concat([Buffer.from([0x5a, event.length]), event]);
    assert.throws(() => decodeWatchResponse(message), /protobuf: truncated/);
  });

  it('skips unknown fields of every wire type it can skip', () => {
    const unknown = Buffer.concat([Buffer.from([(90 << 3) & 0x7f | 0x80, 90 >> 4, 7]), Buffer.from([(12 << 3) | 1, 1, 2, 3, 4, 5, 6, 7, 8]), Buffer.from([(13 << 3) | 5, 1, 2, 3, 4]), Buffer.from([(14 << 3) | 2, 2, 9, 9])]);
    const header = Buffer.from([0x0a, 2, 0x18, 42]);
    const res = decodeWatchResponse(Buffer.concat([unknown, header, Buffer.from([0x18, 1])]));
    assert.equal(res.header.revision, 42);
    assert.equal(res.created, true);
  });
});

describe('etcd client over TLS: it fails closed', () => {
  const ca = newCA('etcd-ca');
  const stranger = newCA('stranger-ca');
  const client = newSignedCertificate(ca, { commonName: 'kgen', usage: 'client', hosts: [] });
  const tls: EtcdTLS = { ca: Buffer.from(ca.cert), cert: Buffer.from(client.cert), key: Buffer.from(client.key) };

  /** A TLS member serving `serving`, asking for a client certificate signed by ca; resolves the URL and the client names it saw. */
  async function member(serving: { cert: string; key: string }): Promise<{ url: string; clients: string[] }> {
    const clients: string[] = [];
    const server = http2.createSecureServer({ cert: serving.cert, key: serving.key, ca: ca.cert, requestCert: true, rejectUnauthorized: true });
    server.on('stream', (stream) => {
      stream.on('error', () => {});
      const peer = (stream.session?.socket as import('node:tls').TLSSocket | undefined)?.getPeerCertificate();
      clients.push(String(peer?.subject?.CN ?? ''));
      stream.once('data', () => {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
        // RangeResponse{header: {revision: 9}}
        stream.end(Buffer.from([0, 0, 0, 0, 4, 0x0a, 2, 0x18, 9]));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server as unknown as Http2Server);
    return { url: `https://127.0.0.1:${(server.address() as { port: number }).port}`, clients };
  }

  const range = (url: string, with_: EtcdTLS) => {
    const channel = new GrpcChannel(url, with_);
    channels.push(channel);
    return channel.unary('/etcdserverpb.KV/Range', Buffer.from([0, 0, 0, 0, 0]), Date.now() + 5_000, decodeRangeResponse);
  };

  it('answers over mutual TLS when the member is signed by the CA for its address, presenting the client certificate', async () => {
    const { url, clients } = await member(newSignedCertificate(ca, { commonName: 'etcd', usage: 'server', hosts: ['127.0.0.1'] }));
    assert.equal((await range(url, tls)).header.revision, 9);
    assert.deepEqual(clients, ['kgen']);
  });

  it('refuses a member signed by another CA', async () => {
    const { url, clients } = await member(newSignedCertificate(stranger, { commonName: 'etcd', usage: 'server', hosts: ['127.0.0.1'] }));
    await assert.rejects(range(url, tls), /14 UNAVAILABLE.*(certificate|self.signed|issuer)/i);
    assert.deepEqual(clients, []);
  });

  it('refuses a member whose certificate, signed by the CA, names another host', async () => {
    const { url, clients } = await member(newSignedCertificate(ca, { commonName: 'etcd', usage: 'server', hosts: ['etcd.example', '10.9.9.9'] }));
    await assert.rejects(range(url, tls), /14 UNAVAILABLE.*(altnames|not valid for|IP: 127\.0\.0\.1 is not in the cert)/i);
    assert.deepEqual(clients, []);
  });

  it('refuses a member whose certificate names its host only as the CommonName (Go matches SANs only)', async () => {
    const rsaCA = chainCert({ commonName: 'etcd-rsa-ca', ca: true });
    const { url, clients } = await member(chainCert({ commonName: 'localhost', ca: false, extKeyUsage: ['serverAuth'] }, rsaCA));
    await assert.rejects(range(url.replace('127.0.0.1', 'localhost'), { ...tls, ca: Buffer.from(rsaCA.cert) }), /14 UNAVAILABLE.*x509: certificate relies on legacy Common Name field, use SANs instead/);
    assert.deepEqual(clients, []);
  });

  it('refuses a member whose certificate is a client certificate of the CA', async () => {
    const { url, clients } = await member(newSignedCertificate(ca, { commonName: 'etcd', usage: 'client', hosts: ['127.0.0.1'] }));
    await assert.rejects(range(url, tls), /14 UNAVAILABLE/);
    assert.deepEqual(clients, []);
  });
});
