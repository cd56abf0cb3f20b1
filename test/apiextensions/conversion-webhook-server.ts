/**
 * A real HTTPS conversion webhook for tests: its own CA (made with kgen's certificate code), a
 * serving certificate for 127.0.0.1, and handlers speaking ConversionReview v1 (and v1beta1):
 *
 *   /convert    v1 spec.size <-> v2 spec.replicas (the field renamed), apiVersion set; objects
 *               in v2 carry the label served-as=v2 (a webhook may change labels)
 *   /bad-uid    answers another uid
 *   /rename     changes metadata.name
 *   /fail       result Failure with a message
 *   /big-int    converts, adding spec.big: 9007199254740993 (which a double cannot hold)
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = any;

export interface ReceivedReview {
  path: string;
  query: string;
  apiVersion: string;
  request: { uid: string; desiredAPIVersion: string; objects: Obj[] };
}

export interface ConversionWebhookServer {
  url: string;
  caBundle: string;
  reviews: ReceivedReview[];
  close(): Promise<void>;
}

const ca = newCA('conversion-webhook-test-ca');
const serving = newSignedCertificate(ca, { commonName: 'conversion-webhook', usage: 'server', hosts: ['127.0.0.1', 'localhost', 'conv.ns.svc'] });

/** The rename: v1 has spec.size, v2 spec.replicas. */
export function renameField(obj: Obj, desiredAPIVersion: string): Obj {
  const out = structuredClone(obj);
  out.apiVersion = desiredAPIVersion;
  const spec = out.spec ?? {};
  out.metadata.labels ??= {};
  if (desiredAPIVersion.endsWith('/v2')) {
    out.metadata.labels['served-as'] = 'v2';
    if ('size' in spec) {
      spec.replicas = spec.size;
      delete spec.size;
    }
  } else {
    delete out.metadata.labels['served-as'];
    if ('replicas' in spec) {
      spec.size = spec.replicas;
      delete spec.replicas;
    }
  }
  return out;
}

function respond(path: string, request: ReceivedReview['request']): Record<string, unknown> {
  const converted = request.objects.map((o) => renameField(o, request.desiredAPIVersion));
  const ok = { status: 'Success' };
  switch (path) {
    case '/bad-uid':
      return { uid: 'not-the-uid', result: ok, convertedObjects: converted };
    case '/rename':
      return { uid: request.uid, result: ok, convertedObjects: converted.map((o) => ({ ...o, metadata: { ...o.metadata, name: 'renamed' } })) };
    case '/fail':
      return { uid: request.uid, result: { status: 'Failure', message: 'cannot convert today' } };
    default:
      return { uid: request.uid, result: ok, convertedObjects: converted };
  }
}

export async function startConversionWebhook(): Promise<ConversionWebhookServer> {
  const reviews: ReceivedReview[] = [];
  const server: Server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'https://127.0.0.1');
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      reviews.push({ path: url.pathname, query: url.search, apiVersion: review.apiVersion, request: review.request });
      res.writeHead(200, { 'content-type': 'application/json' });
      const text = JSON.stringify({ apiVersion: review.apiVersion, kind: 'ConversionReview', response: respond(url.pathname, review.request) });
      res.end(url.pathname === '/big-int' ? text.replace('"spec":{', '"spec":{"big":9007199254740993,') : text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    caBundle: Buffer.from(ca.cert).toString('base64'),
    reviews,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
