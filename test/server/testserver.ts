/**
 * A kgen API server over test/fixtures/server-apis with memory storage on a free port, and a small
 * HTTP helper for tests. Shared by test/registry, test/endpoints and test/server.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer, type ServerOptions } from '../../runtime/controlplane/index.js';
import { tlsFetch, type ClientCredentials, type Fetch } from '../support/https.js';
import { forgetKubectlDiscovery } from '../support/kubectl-cache.js';

/**
 * The generated directory the tests serve. It lives under test/.tmp (inside the repo) so the
 * generated code's `kgen/...` imports resolve to this package. test/run.js compiles the fixture once
 * per run (the output of `kgen generate`, as generate() writes it here) and names its directory in
 * KGEN_TEST_SERVER_FIXTURE; the files only read it, and the runner removes it. A file run on its
 * own (`npx tsx --test <file>`) compiles its own copy, removed when its process exits; only then is
 * the generator (the TypeScript compiler: 1-2 s of CPU under tsx) loaded.
 */
export const FIXTURE_DIR = process.env.KGEN_TEST_SERVER_FIXTURE || (await compileFixture());

async function compileFixture(): Promise<string> {
  const { formatDiagnostic, generate } = await import('../../generator/index.js');
  const outDir = fileURLToPath(new URL(`../.tmp/server-generated-${process.pid}/`, import.meta.url));
  const result = generate({ apisDir: fileURLToPath(new URL('../fixtures/server-apis/apis/', import.meta.url)), outDir });
  if (!result.ok) throw new Error(`test/fixtures/server-apis does not compile:\n${result.diagnostics.map((d) => formatDiagnostic(d)).join('\n')}`);
  process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
  return outDir;
}
export const WIDGETS = '/apis/widgets.example.com/v1/namespaces/default/widgets';
export const GADGETS = '/apis/widgets.example.com/v1/gadgets';
export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface RequestOptions {
  body?: unknown;
  /** Defaults to application/json when a body is given; null sends none. */
  contentType?: string | null;
  accept?: string;
  headers?: Record<string, string>;
}

export interface TestServer {
  server: RunningServer;
  url: string;
  request(method: string, path: string, opts?: RequestOptions): Promise<Reply>;
  /** fetch() for this server: plain, or over HTTPS as the admin (see test/support/https.ts). */
  fetch: Fetch;
  /** Over HTTPS: a fetch with other credentials (a token, another client certificate, none). */
  fetchAs(credentials: Omit<ClientCredentials, 'ca'>): Fetch;
  close(): Promise<void>;
}

/** Asserts kube's 400 BadRequest Status with exactly this message for the request. */
export async function expectBadRequest(t: TestServer, method: string, path: string, message: string, body?: unknown): Promise<void> {
  const r = await t.request(method, path, body === undefined ? undefined : { body });
  assert.equal(r.status, 400, r.text);
  assert.deepEqual(r.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });
}

/**
 * Serves the fixture in insecure dev mode (plain HTTP, every request kgen-dev in system:masters)
 * unless `tls` is given: tests of the API itself do not need authentication. Pass `tls: true`
 * (and a dataDir) to serve HTTPS with the full chain; `fetch` then presents the admin certificate.
 */
export async function startTestServer(overrides: Partial<ServerOptions> = {}): Promise<TestServer> {
  const secure = overrides.tls !== undefined && overrides.tls !== false;
  const server = await startServer({ generatedDir: FIXTURE_DIR, storage: 'memory:', port: 0, insecureDevMode: !secure, ...overrides });
  // kubectl may have cached another server's APIs for this port (test/support/kubectl-cache.ts).
  forgetKubectlDiscovery(server.url);
  const credentials = server.credentials;
  const fetchAs = (who: Omit<ClientCredentials, 'ca'>): Fetch => (credentials ? tlsFetch({ ca: credentials.servingCA ?? credentials.ca.cert, ...who }) : fetch);
  const fetchAsAdmin = credentials ? fetchAs({ cert: credentials.admin.cert, key: credentials.admin.key }) : fetch;
  const request = async (method: string, path: string, opts: RequestOptions = {}): Promise<Reply> => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    let body: string | Blob | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      if (opts.contentType !== null) headers['content-type'] = opts.contentType ?? 'application/json';
      // fetch labels string bodies text/plain; an untyped Blob goes out with no Content-Type at all.
      else body = new Blob([body]);
    }
    if (opts.accept) headers.accept = opts.accept;
    const res = await fetchAsAdmin(server.url + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: parsed };
  };
  return { server, url: server.url, request, fetch: fetchAsAdmin, fetchAs, close: () => server.close() };
}

export function widget(name: string, spec: Record<string, unknown> = { replicas: 1 }, extra: Record<string, unknown> = {}) {
  const { metadata, ...rest } = extra as { metadata?: Record<string, unknown> };
  return { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name, ...(metadata ?? {}) }, spec, ...rest };
}

export function gadget(name: string, size = 'small') {
  return { apiVersion: 'widgets.example.com/v1', kind: 'Gadget', metadata: { name }, spec: { size } };
}
