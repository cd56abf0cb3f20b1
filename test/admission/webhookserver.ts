/**
 * A real HTTPS admission webhook for tests: a CA made in the test (with kgen's own certificate
 * code), a serving certificate for 127.0.0.1 it signs, and handlers speaking AdmissionReview v1:
 *
 *   /mutate    adds the label admitted-by=webhook with a JSONPatch
 *   /validate  denies spec.replicas > 10 with a warning (no code: kube's 403), warns above 5; a `deny-code`
 *              label makes the denial carry that code
 *   /tag       adds the label tagged=yes (the object must have labels)
 *   /patch-anyway  answers a patch even without an object
 *   /deepen    a patch 493 levels deep whose result nests 982 levels (two adds, the second
 *              inside the first's value): too deep to store
 *   /deep-patch  a patch 603 levels deep: too deep to decode
 *   /big-int-patch  a patch adding 9007199254740993, which a double cannot hold
 *   /slow      answers after 3 s (or never, when the caller gives up first)
 *   /garbage   answers something that is not an AdmissionReview
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Review = { request: any; path: string; query: string };

export interface WebhookServer {
  /** https://127.0.0.1:<port> */
  url: string;
  /** base64 of the CA's PEM, for clientConfig.caBundle. */
  caBundle: string;
  /** Every review received, in order. */
  reviews: Review[];
  /** The path of every review answered, in order (not one whose caller had gone). */
  answered: string[];
  close(): Promise<void>;
}

const ca = newCA('webhook-test-ca');
export const CA_BUNDLE = Buffer.from(ca.cert).toString('base64');
const serving = newSignedCertificate(ca, { commonName: 'webhook', usage: 'server', hosts: ['127.0.0.1', 'localhost', 'webhook.default.svc'] });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (request: any) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** `levels` objects nested through the key `a`, innermost {}. */
function nestedA(levels: number): Record<string, unknown> {
  let v: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) v = { a: v };
  return v;
}

const jsonPatch = (ops: unknown[]) => ({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });

const handlers: Record<string, Handler> = {
  '/mutate': (request) => {
    if (!request.object) return { allowed: true };
    const hasLabels = request.object.metadata?.labels !== undefined;
    const patch = hasLabels
      ? [{ op: 'add', path: '/metadata/labels/admitted-by', value: 'webhook' }]
      : [{ op: 'add', path: '/metadata/labels', value: { 'admitted-by': 'webhook' } }];
    return { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
  },
  '/validate': (request) => {
    const replicas = request.object?.spec?.replicas ?? 0;
    if (replicas > 10) {
      const code = request.object.metadata?.labels?.['deny-code'];
      return {
        allowed: false,
        status: { message: `spec.replicas must be at most 10, got ${replicas}`, ...(code ? { code: Number(code), reason: 'Invalid' } : {}) },
        warnings: [`spec.replicas ${replicas} is above 10`],
      };
    }
    return replicas > 5 ? { allowed: true, warnings: [`spec.replicas ${replicas} is above 5`] } : { allowed: true };
  },
  '/tag': (request) => {
    if (request.object?.metadata?.labels?.tagged) return { allowed: true };
    const patch = [{ op: 'add', path: '/metadata/labels/tagged', value: 'yes' }];
    return { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
  },
  '/patch-anyway': () => ({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from('[{"op":"add","path":"/x","value":1}]').toString('base64') }),
  '/deepen': () =>
    jsonPatch([
      { op: 'add', path: '/spec/deep', value: nestedA(490) },
      { op: 'add', path: `/spec/deep${'/a'.repeat(489)}/b`, value: nestedA(490) },
    ]),
  '/deep-patch': () => jsonPatch([{ op: 'add', path: '/spec/deep', value: nestedA(600) }]),
  '/big-int-patch': () => ({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from('[{"op":"add","path":"/spec/big","value":9007199254740993}]').toString('base64') }),
  '/slow': () => new Promise((resolve) => setTimeout(() => resolve({ allowed: true }), 3000).unref()),
};

export async function startWebhookServer(): Promise<WebhookServer> {
  const reviews: Review[] = [];
  const answered: string[] = [];
  const server: Server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'https://127.0.0.1');
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      reviews.push({ request: review.request, path: url.pathname, query: url.search });
      if (url.pathname === '/garbage') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"kind":"Nonsense"}');
        return;
      }
      const response = await handlers[url.pathname]!(review.request);
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, ...response } }));
      answered.push(url.pathname);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    caBundle: CA_BUNDLE,
    reviews,
    answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
