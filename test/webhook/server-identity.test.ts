/**
 * The name in a webhook's serving certificate, checked as Go checks it (runtime/api/server-identity.ts):
 * only subjectAltName counts. A certificate of the caBundle's CA that names the host only as its
 * CommonName is refused with Go's words, where Node alone would accept it; one with the host in
 * its SANs is called.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { callWebhook } from '../../runtime/admission/webhook/client.js';
import { chainCert } from '../support/cert-chain.js';

const ca = chainCert({ commonName: 'hooks-ca', ca: true });
const caBundle = Buffer.from(ca.cert).toString('base64');
const servers: Server[] = [];
after(() => servers.forEach((s) => s.close()));

async function hookServing(cert: { cert: string; key: string }): Promise<{ port: number; reached: () => number }> {
  let reached = 0;
  const server = createServer({ cert: cert.cert, key: cert.key }, (req, res) => {
    reached++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"u","allowed":true}}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, reached: () => reached };
}

describe('a webhook\'s serving certificate names the host in its subjectAltName, as Go requires', () => {
  it('refuses a CommonName-only certificate for the host (kube: x509 legacy Common Name), sending nothing', async () => {
    const hook = await hookServing(chainCert({ commonName: 'localhost', ca: false, extKeyUsage: ['serverAuth'] }, ca));
    const url = `https://localhost:${hook.port}/validate`;
    await assert.rejects(callWebhook({ clientConfig: { url, caBundle }, timeoutSeconds: 5, body: {} }), {
      message: `failed to call webhook: Post "${url}?timeout=5s": tls: failed to verify certificate: x509: certificate relies on legacy Common Name field, use SANs instead`,
    });
    assert.equal(hook.reached(), 0);
  });

  it('calls a webhook whose certificate names the host as a DNS SAN', async () => {
    const hook = await hookServing(chainCert({ commonName: 'hook', ca: false, extKeyUsage: ['serverAuth'], dnsNames: ['localhost'] }, ca));
    const answer = (await callWebhook({ clientConfig: { url: `https://localhost:${hook.port}/validate`, caBundle }, timeoutSeconds: 5, body: {} })) as { response: { allowed: boolean } };
    assert.equal(answer.response.allowed, true);
    assert.equal(hook.reached(), 1);
  });
});
