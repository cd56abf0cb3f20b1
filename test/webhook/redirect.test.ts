/**
 * Webhooks answered with a redirect: kube calls every webhook (admission and CRD conversion through
 * callWebhook; token review and subject access review through postReview) with client-go's rest
 * client, whose http.Client has no CheckRedirect, so Go's defaults apply: 307/308 are followed
 * with the same method and body, 301/302/303 turn a POST into a GET without body, at most 10 hops,
 * with the same CA, client credentials and token on every hop; a 3xx without Location is the
 * answer.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';
import { callWebhook } from '../../runtime/admission/webhook/client.js';
import { postReview, type WebhookEndpoint } from '../../runtime/webhook/kubeconfig-endpoint.js';

const ca = newCA('redirect-ca');
const CA_PEM = Buffer.from(ca.cert);
const serving = newSignedCertificate(ca, { commonName: 'hook', usage: 'server', hosts: ['127.0.0.1', 'localhost'] });
const stranger = newCA('stranger-ca');
const strangerServing = newSignedCertificate(stranger, { commonName: 'other', usage: 'server', hosts: ['127.0.0.1'] });

/** Answers /answer with what it received; the other paths redirect (see each). */
function hookServer(cert: { cert: string; key: string }, other: () => string): Server {
  return createServer({ cert: cert.cert, key: cert.key }, (req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'https://x');
      const path = url.pathname;
      const hops = /^\/hops\/(\d+)$/.exec(path);
      const redirect = (code: number, location?: string) => res.writeHead(code, location ? { location } : {}).end();
      if (path === '/answer') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization ?? '', query: url.search }));
      } else if (path === '/307') redirect(307, '/answer');
      else if (path === '/308-elsewhere') redirect(308, `${other()}/answer`);
      else if (path === '/302') redirect(302, 'answer');
      else if (path === '/303') redirect(303, '/answer');
      else if (path === '/301') redirect(301, '/answer');
      else if (path === '/no-location') redirect(307);
      else if (path === '/to-http') redirect(307, `http://127.0.0.1:${plainPort()}/answer`);
      else if (path === '/to-file') redirect(307, 'file:///etc/passwd');
      else if (hops) redirect(307, Number(hops[1]) > 0 ? `/hops/${Number(hops[1]) - 1}` : '/answer');
      else res.writeHead(404).end();
    });
  });
}

/** A plain-HTTP listener that records whether anything reached it. */
let plain: import('node:http').Server;
let plainHits = 0;
const plainPort = () => (plain.address() as AddressInfo).port;

let main: Server;
let second: Server;
let foreign: Server;
const urlOf = (s: Server) => `https://127.0.0.1:${(s.address() as AddressInfo).port}`;

before(async () => {
  second = hookServer(serving, () => urlOf(second));
  foreign = hookServer(strangerServing, () => urlOf(foreign));
  let elsewhere = () => urlOf(second);
  main = hookServer(serving, () => elsewhere());
  for (const s of [main, second, foreign]) await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  plain = (await import('node:http')).createServer((_req, res) => {
    plainHits++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
  // /308-elsewhere on main goes to `second` (same CA) unless a test points it at `foreign`.
  pointElsewhere = (to) => (elsewhere = () => urlOf(to === 'foreign' ? foreign : second));
});
let pointElsewhere: (to: 'second' | 'foreign') => void;

after(() => {
  for (const s of [main, second, foreign, plain]) {
    s.closeAllConnections();
    s.close();
  }
});

const review = { kind: 'AdmissionReview', request: { uid: 'u1' } };
const admission = (path: string) =>
  callWebhook({ clientConfig: { url: `${urlOf(main)}${path}`, caBundle: CA_PEM.toString('base64') }, timeoutSeconds: 5, body: review }) as Promise<{ method: string; body: string; auth: string; query: string }>;
const endpoint = (path: string): WebhookEndpoint => ({ file: 'test', url: new URL(`${urlOf(main)}${path}`), ca: CA_PEM, token: 's3cret', insecureSkipTLSVerify: false });
const tokenReview = (path: string) => postReview(endpoint(path), review, 5000) as Promise<{ method: string; body: string; auth: string }>;

describe('an admission or conversion webhook that redirects (callWebhook)', () => {
  it('follows 307 and 308 with the same method and body, to another host under the same CA', async () => {
    for (const path of ['/307', '/308-elsewhere']) {
      const got = await admission(path);
      assert.equal(got.method, 'POST', path);
      assert.deepEqual(JSON.parse(got.body), review, path);
    }
  });

  it('turns the POST into a GET without body on 301, 302 and 303', async () => {
    for (const path of ['/301', '/302', '/303']) {
      const got = await admission(path);
      assert.equal(got.method, 'GET', path);
      assert.equal(got.body, '', path);
    }
  });

  it('follows 10 redirects and fails on the 11th with Go\'s words', async () => {
    assert.equal((await admission('/hops/9')).method, 'POST');
    await assert.rejects(admission('/hops/10'), (err: Error) => {
      assert.match(err.message, /^failed to call webhook: Post "https:\/\/127\.0\.0\.1:\d+\/hops\/0": stopped after 10 redirects$/);
      return true;
    });
  });

  it('takes a 3xx without Location as the answer', async () => {
    await assert.rejects(admission('/no-location'), /the server responded with the status code 307/);
  });

  it('verifies the redirect target with the same CA', async () => {
    pointElsewhere('foreign');
    try {
      await assert.rejects(admission('/308-elsewhere'), /x509: certificate signed by unknown authority/);
    } finally {
      pointElsewhere('second');
    }
  });
});

describe('a redirect that leaves https (a deliberate difference: Go follows https → http)', () => {
  it('is refused before anything is sent: the review and the token never cross in clear text', async () => {
    await assert.rejects(admission('/to-http'), /failed to call webhook: Post "https:\/\/127\.0\.0\.1:\d+\/to-http\?timeout=5s": redirect from https to http refused: http:\/\/127\.0\.0\.1:\d+\/answer/);
    await assert.rejects(tokenReview('/to-http'), /redirect from https to http refused/);
    assert.equal(plainHits, 0);
  });

  it('refuses a scheme other than http(s) with Go\'s words', async () => {
    await assert.rejects(admission('/to-file'), /unsupported protocol scheme "file"/);
    await assert.rejects(tokenReview('/to-file'), /unsupported protocol scheme "file"/);
  });
});

describe('a token or authorization webhook that redirects (postReview)', () => {
  it('follows 307/308 with the same method, body and token; 302 becomes a GET', async () => {
    for (const path of ['/307', '/308-elsewhere']) {
      const got = await tokenReview(path);
      assert.deepEqual([got.method, JSON.parse(got.body), got.auth], ['POST', review, 'Bearer s3cret'], path);
    }
    const got = await tokenReview('/302');
    assert.deepEqual([got.method, got.body, got.auth], ['GET', '', 'Bearer s3cret']);
  });

  it('fails on the 11th redirect and on a target the CA does not sign', async () => {
    assert.equal((await tokenReview('/hops/9')).method, 'POST');
    await assert.rejects(tokenReview('/hops/10'), /^Error: Post "https:\/\/127\.0\.0\.1:\d+\/hops\/0": stopped after 10 redirects$/);
    pointElsewhere('foreign');
    try {
      await assert.rejects(tokenReview('/308-elsewhere'), /Post "https:\/\/127\.0\.0\.1:\d+\/answer": .*(certificate|self.signed|issuer)/i);
    } finally {
      pointElsewhere('second');
    }
  });
});
