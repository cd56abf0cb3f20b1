/**
 * The aggregator's proxy to an APIService's backend (runtime/aggregator/proxy.ts) against a real
 * HTTPS backend: answers are passed back byte for byte (protobuf included), a redirect is
 * neither followed nor passed on (kube's 502), the backend's certificate is verified against the
 * caBundle, and the client's credentials never reach the backend.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { proxyToBackend } from '../../runtime/aggregator/proxy.js';
import { RemoteAPIService } from '../../runtime/aggregator/remote.js';
import type { ServiceListers } from '../../runtime/aggregator/resolver.js';
import type { ObjectResponse, StreamResponse } from '../../runtime/endpoints/handler.js';
import { chainCert } from '../support/cert-chain.js';

const ca = chainCert({ commonName: 'backend-ca', ca: true });
const serving = chainCert({ commonName: 'api.backend.svc', ca: false, extKeyUsage: ['serverAuth'], dnsNames: ['api.backend.svc'] }, ca);
/** Right CA, right name, but only as the CommonName: Go (so kube) has not matched that since 1.15. */
const commonNameOnly = chainCert({ commonName: 'api.backend.svc', ca: false, extKeyUsage: ['serverAuth'] }, ca);
/** Right CA, a SAN for another service. */
const otherName = chainCert({ commonName: 'api.backend.svc', ca: false, extKeyUsage: ['serverAuth'], dnsNames: ['other.backend.svc'] }, ca);
const otherCA = chainCert({ commonName: 'other-ca', ca: true });
const client = chainCert({ commonName: 'front-proxy-client', ca: false, extKeyUsage: ['clientAuth'] }, ca);

/** Bytes that are not UTF-8: what a protobuf answer (`k8s\0` + a message) looks like. */
const PROTOBUF = Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x92, 0xff, 0xc3, 0x28, 0x80, 0x00, 0xfe]);

let backend: Server;
let endless = false;
let port = 0;
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];

before(async () => {
  backend = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    if (endless && (req.url === '/apis/x.example.com/v1' || req.url === '/apis' || req.url === '/openapi/v3')) {
      // A body that never ends: 64 KiB every few ms until the aggregator hangs up.
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const timer = setInterval(() => res.write(chunk), 2);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (req.url?.startsWith('/apis/x.example.com/v1/things?watch=true')) {
      // The bytes in two writes, apart: the proxy passes them on as they come.
      res.writeHead(200, { 'content-type': 'application/vnd.kubernetes.protobuf;stream=watch' });
      res.write(PROTOBUF.subarray(0, 5));
      setTimeout(() => res.end(PROTOBUF.subarray(5)), 20);
      return;
    }
    if (req.url?.startsWith('/apis/x.example.com/v1/protobuf')) {
      res.writeHead(200, { 'content-type': 'application/vnd.kubernetes.protobuf', 'content-length': PROTOBUF.length });
      res.end(PROTOBUF);
    } else if (req.url?.startsWith('/apis/x.example.com/v1/not-modified')) {
      res.writeHead(304);
      res.end();
    } else if (req.url?.startsWith('/apis/x.example.com/v1/redirect')) {
      res.writeHead(302, { location: 'https://127.0.0.1:1/elsewhere', 'content-type': 'text/plain' });
      res.end('moved');
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"kind":"Status","message":"ünïcode"}');
    }
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  port = (backend.address() as AddressInfo).port;
});
after(() => backend.close());

const listers: ServiceListers = {
  service: () => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'api', namespace: 'backend' }, spec: { ports: [{ port: 443 }] } }),
  endpoints: () => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'api', namespace: 'backend' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port }] }] }),
};

function remote(caPEM: string): RemoteAPIService {
  const r = new RemoteAPIService(
    'v1.x.example.com',
    { group: 'x.example.com', version: 'v1', service: { namespace: 'backend', name: 'api', port: 443 }, caBundle: Buffer.from(caPEM).toString('base64') },
    { cert: client.cert, key: client.key },
  );
  r.available = true;
  return r;
}

/** An answer as the client gets it: a backend's is a pass-through stream, read here to its end. */
interface Answer {
  code: number;
  contentType: string;
  headers: ObjectResponse['headers'];
  body: Buffer;
  payload: string;
  streamed: boolean;
}

async function proxy(r: RemoteAPIService, path: string, headers: IncomingHttpHeaders = {}): Promise<Answer> {
  const response = await proxyToBackend(r, listers, { method: 'GET', url: path, headers, signal: new AbortController().signal }, { username: 'alice', groups: ['dev'] }, () => {});
  if (response.kind === 'object') {
    const body = response.body ?? Buffer.from(response.payload, 'utf8');
    return { code: response.code, contentType: response.contentType, headers: response.headers, body, payload: response.payload, streamed: false };
  }
  assert.equal(response.passThrough, true);
  const chunks: Buffer[] = [];
  for await (const chunk of response.chunks) chunks.push(Buffer.from(chunk));
  response.close();
  const body = Buffer.concat(chunks);
  return { code: response.code, contentType: response.contentType, headers: response.headers, body, payload: body.toString('utf8'), streamed: true };
}

const bytesOf = (r: Answer) => r.body;

describe('aggregator proxy', () => {
  test('passes a protobuf answer back byte for byte, and JSON text unchanged', async () => {
    const r = remote(ca.cert);
    const proto = await proxy(r, '/apis/x.example.com/v1/protobuf', { accept: 'application/vnd.kubernetes.protobuf' });
    assert.equal(proto.code, 200);
    assert.equal(proto.contentType, 'application/vnd.kubernetes.protobuf');
    assert.deepEqual(bytesOf(proto), PROTOBUF);
    assert.ok(proto.streamed, 'a backend answer is streamed, not read whole');
    assert.equal(proto.headers['content-length'], String(PROTOBUF.length), "the backend's Content-Length is kept");
    const json = await proxy(r, '/apis/x.example.com/v1/things');
    assert.equal(json.payload, '{"kind":"Status","message":"ünïcode"}');
    assert.deepEqual(bytesOf(json), Buffer.from('{"kind":"Status","message":"ünïcode"}'));
    r.agent.destroy();
  });

  test('passes a protobuf watch back byte for byte, as it streams', async () => {
    const r = remote(ca.cert);
    const response = await proxyToBackend(r, listers, { method: 'GET', url: '/apis/x.example.com/v1/things?watch=true', headers: { accept: 'application/vnd.kubernetes.protobuf;stream=watch' }, signal: new AbortController().signal }, { username: 'alice', groups: [] }, () => {});
    assert.equal(response.kind, 'stream');
    const chunks: Buffer[] = [];
    for await (const chunk of (response as StreamResponse).chunks) chunks.push(Buffer.from(chunk));
    (response as StreamResponse).close();
    assert.deepEqual(Buffer.concat(chunks), PROTOBUF);
    r.agent.destroy();
  });

  test("answers a backend's redirect with kube's 502, neither following nor forwarding it (CVE-2022-3172)", async () => {
    const r = remote(ca.cert);
    const before = seen.length;
    const res = await proxy(r, '/apis/x.example.com/v1/redirect');
    // k8s.io/apimachinery/pkg/util/proxy/upgradeaware.go, RejectForwardingRedirects (kube-apiserver's
    // --aggregator-reject-forwarding-redirect, true by default).
    assert.equal(res.code, 502);
    assert.equal(res.contentType, 'text/plain; charset=utf-8');
    assert.deepEqual(res.headers, {}, 'no Location reaches the client');
    assert.equal(res.payload, 'the backend attempted to redirect this request, which is not permitted');
    assert.equal(seen.length, before + 1, 'one request reached the backend');
    // A 3xx without a Location (304 Not Modified) is not a redirect: passed on.
    const notModified = await proxy(r, '/apis/x.example.com/v1/not-modified');
    assert.equal(notModified.code, 304);
    r.agent.destroy();
  });

  test("sends the user as front-proxy headers, never the client's credentials", async () => {
    const r = remote(ca.cert);
    await proxy(r, '/apis/x.example.com/v1/things', { authorization: 'Bearer secret-token', 'impersonate-user': 'root', 'x-remote-user': 'root', cookie: 'c=1' });
    const headers = seen.at(-1)!.headers;
    assert.equal(headers.authorization, undefined);
    assert.equal(headers['impersonate-user'], undefined);
    assert.equal(headers['x-remote-user'], 'alice');
    assert.equal(headers['x-remote-group'], 'dev');
    r.agent.destroy();
  });

  test('refuses a backend whose certificate the caBundle does not sign (503), with no fallback', async () => {
    const r = remote(otherCA.cert);
    const before = seen.length;
    const res = await proxy(r, '/apis/x.example.com/v1/things');
    assert.equal(res.code, 503);
    assert.match(res.payload, /certificate/);
    assert.equal(seen.length, before, 'no request reached the backend');
    r.agent.destroy();
  });
});

describe('aggregator proxy: the name in the backend\'s certificate', () => {
  /** A backend on its own port serving `cert`, and how many requests reached it. */
  async function backendWith(cert: { cert: string; key: string }) {
    let reached = 0;
    const server = createServer({ cert: cert.cert, key: cert.key }, (_req, res) => {
      reached++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const own = (server.address() as AddressInfo).port;
    const ownListers: ServiceListers = { ...listers, endpoints: () => ({ ...listers.endpoints('backend', 'api')!, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port: own }] }] }) };
    return { listers: ownListers, reached: () => reached, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  for (const [what, cert, message] of [
    ['only as its CommonName (no subjectAltName)', commonNameOnly, 'x509: certificate relies on legacy Common Name field, use SANs instead'],
    ['for another name', otherName, "Hostname/IP does not match certificate's altnames: Host: api.backend.svc. is not in the cert's altnames: DNS:other.backend.svc"],
  ] as const) {
    test(`refuses a certificate of the caBundle's CA naming <service>.<namespace>.svc ${what} (503)`, async () => {
      const b = await backendWith(cert);
      const r = remote(ca.cert);
      try {
        const response = await proxyToBackend(r, b.listers, { method: 'GET', url: '/apis/x.example.com/v1/things', headers: {}, signal: new AbortController().signal }, { username: 'alice', groups: [] }, () => {});
        assert.equal(response.kind, 'object');
        assert.equal(response.code, 503);
        assert.equal((response as ObjectResponse).payload, `${message}\n`);
        assert.equal(b.reached(), 0, 'no request reached the backend');
      } finally {
        r.agent.destroy();
        await b.close();
      }
    });
  }
});

describe("aggregator: its own fetches from a backend are bounded", () => {
  /** Rejects when `promise` takes longer than ms. */
  const within = <T>(ms: number, promise: Promise<T>) =>
    Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not done after ${ms} ms`)), ms).unref())]);

  test('the availability check reads the status alone, and discovery and OpenAPI reads stop at their deadline', async () => {
    endless = true;
    const r = remote(ca.cert);
    const endpoint = new URL(`https://127.0.0.1:${port}`);
    try {
      // kube's check closes the body unread (available_controller.go); before, an endless body held the probe for ever.
      await within(5_000, r.checkDiscovery(endpoint, 1_000));
      const started = Date.now();
      // refresh() keeps the last copy when a read fails: it resolves, and it does so at the deadline.
      await within(10_000, r.refresh(endpoint, 1_000));
      assert.ok(Date.now() - started < 5_000);
      assert.equal(r.served.aggregated(), undefined, 'nothing was taken from a body that never ended');
    } finally {
      endless = false;
      r.agent.destroy();
    }
  });
});
