/**
 * getJSON (OIDC discovery and JWK set fetches) has a whole-fetch deadline, not only a socket idle
 * timeout: an issuer that trickles bytes, each within the idle period, is cut off at the deadline.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, it } from 'node:test';
import { getJSON } from '../../runtime/authentication/oidc-keys.js';
import { publicKeyOf } from '../../runtime/authentication/jwt.js';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';

const ca = newCA('oidc-trickle-ca');
const serving = newSignedCertificate(ca, { commonName: 'issuer', usage: 'server', hosts: ['127.0.0.1'] });
const timers = new Set<NodeJS.Timeout>();
const server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
  if (req.url === '/whole') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}');
  if (req.url === '/huge') return void res.writeHead(200, { 'content-type': 'application/json' }).end(`{"keys":[],"pad":"${'x'.repeat(2 * 1024 * 1024)}"}`);
  if (req.url === '/redirect') return void res.writeHead(302, { location: `${base.replace('127.0.0.1', 'localhost')}/whole` }).end();
  // One space every 50 ms for ever (valid leading JSON whitespace): never idle for long.
  res.writeHead(200, { 'content-type': 'application/json' });
  const timer = setInterval(() => res.write(' '), 50);
  timers.add(timer);
  res.on('close', () => {
    clearInterval(timer);
    timers.delete(timer);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
after(() => {
  for (const t of timers) clearInterval(t);
  server.closeAllConnections();
  server.close();
});

it('ends a fetch whose body trickles past the deadline, though no byte is ever late', { timeout: 20_000 }, async () => {
  const started = Date.now();
  await assert.rejects(getJSON(`${base}/trickle`, ca.cert, 1_000), /oidc: get .*\/trickle: no complete answer within 1000 ms/);
  const took = Date.now() - started;
  assert.ok(took >= 900 && took < 10_000, `rejected after ${took} ms`);
  // The issuer's side of the connection is closed too (the request is destroyed, not left reading).
  for (let i = 0; i < 100 && timers.size > 0; i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(timers.size, 0, 'the trickling answer was not aborted');
});

it('answers a prompt document within the deadline', async () => {
  assert.deepEqual(await getJSON(`${base}/whole`, ca.cert, 5_000), { keys: [] });
});

it('refuses a document over 1 MiB, a redirect (not followed) and plain http', async () => {
  await assert.rejects(getJSON(`${base}/huge`, ca.cert, 5_000), /oidc: get .*\/huge: document too large/);
  await assert.rejects(getJSON(`${base}/redirect`, ca.cert, 5_000), /oidc: get .*\/redirect: 302 Found/);
  await assert.rejects(getJSON(base.replace('https:', 'http:') + '/whole', ca.cert, 5_000), /scheme must be https/);
});

it('takes no symmetric or private key from a key set as a verification key', () => {
  // A set that hands out an HMAC secret (kty oct) must not make HS256 tokens verifiable.
  assert.equal(publicKeyOf({ kty: 'oct', k: Buffer.from('secret').toString('base64url'), alg: 'HS256', kid: 'k' }), undefined);
});
