/**
 * The server chain in process (compiled APIs, then the extensions server), over the test fixture
 * with memory or SQLite storage: requests go straight to the front handler as system:masters.
 * Independent of the HTTP layer, so the extensions server's behaviour is tested on its own.
 */
import { newAdmissionChain } from '../../runtime/admission/setup.js';
import { createExtensionsServer, type ExtensionsServer } from '../../runtime/apiextensions/index.js';
import { ensureSystemNamespaces } from '../../runtime/registry/namespaces.js';
import { CompiledAPIServer } from '../../runtime/controlplane/compiled.js';
import { APIInstaller } from '../../runtime/server/installer.js';
import { loadGenerated } from '../../runtime/controlplane/load-generated.js';
import { createServerChain, type ServerChain } from '../../runtime/controlplane/server-chain.js';
import { openStorage } from '../../runtime/storage/factory.js';
import type { Storage } from '../../runtime/storage/interface.js';
import { FIXTURE_DIR } from '../server/testserver.js';
import { controlPlaneStorageProviders } from '../../runtime/controlplane/storage-providers.js';

export interface Reply {
  code: number;
  headers: Record<string, string | string[]>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface Chain {
  extensions: ExtensionsServer;
  installer: APIInstaller;
  chain: ServerChain;
  request(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** Waits until the CRD controllers have nothing left to do. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

const USER = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };

export async function startChain(storageURL = 'memory:', dataDir = '/tmp'): Promise<Chain> {
  const storage: Storage = await openStorage(storageURL, { dataDir });
  const admission = newAdmissionChain();
  const installer = new APIInstaller({ generatedDir: FIXTURE_DIR, storage, admission, storageProviders: controlPlaneStorageProviders() });
  (await loadGenerated(FIXTURE_DIR)).installAll(installer);
  await ensureSystemNamespaces(installer.namespaceStore()!);
  const extensions = await createExtensionsServer({ installer, storage, admission });
  const chain = createServerChain({ compiled: new CompiledAPIServer(installer, FIXTURE_DIR), extensions, health: { healthz: [], livez: [], readyz: [] } });
  const request = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
    const res = await chain.handler.handle(
      {
        method,
        url,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
        signal: new AbortController().signal,
      },
      { user: USER } as never,
    );
    if (res.kind !== 'object') throw new Error(`${method} ${url}: a stream`);
    return { code: res.code, headers: res.headers, body: res.payload ? JSON.parse(res.payload) : undefined };
  };
  const settle = async () => {
    // Each status write comes back through the informer, which may queue another reconcile: the
    // fixed point is the controllers idle (nothing queued, running or waiting to retry) and no
    // write for three turns of 10 ms in a row (was 50 fixed turns of 20 ms: at least 1 s a call).
    let quiet = 0;
    let revision = await storage.currentRevision();
    for (let i = 0; quiet < 3; i++) {
      if (i > 1000) throw new Error('the CRD controllers did not settle in 1,000 turns');
      await new Promise((r) => setTimeout(r, 10));
      await extensions.idle();
      const now = await storage.currentRevision();
      quiet = !extensions.busy() && now === revision ? quiet + 1 : 0;
      revision = now;
    }
  };
  return {
    extensions,
    installer,
    chain,
    request,
    settle,
    async close() {
      await extensions.close();
      await installer.close();
      await storage.close();
    },
  };
}

export function crontabCRD(overrides: { versions?: unknown[]; shortNames?: string[]; group?: string; plural?: string; kind?: string } = {}): Record<string, unknown> {
  const group = overrides.group ?? 'stable.example.com';
  const plural = overrides.plural ?? 'crontabs';
  const kind = overrides.kind ?? 'CronTab';
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, shortNames: overrides.shortNames ?? ['ct'] },
      versions: overrides.versions ?? [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
          additionalPrinterColumns: [
            { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: { cronSpec: { type: 'string' }, image: { type: 'string' }, replicas: { type: 'integer', default: 1, minimum: 0, maximum: 10 } },
                },
                status: { type: 'object', properties: { replicas: { type: 'integer' } } },
              },
            },
          },
        },
      ],
    },
  };
}

/** The spec schema of a CRD's first version, for tests that add fields and rules to it. */
export function specSchemaOf(crd: Record<string, unknown>): Record<string, unknown> & { properties: Record<string, unknown> } {
  const version = (crd.spec as { versions: Array<Record<string, unknown>> }).versions[0]!;
  return (version.schema as { openAPIV3Schema: { properties: { spec: Record<string, unknown> & { properties: Record<string, unknown> } } } }).openAPIV3Schema.properties.spec;
}

/** A namespaced CRD of one served and stored version, v1, whose spec has `properties` (no subresources, no columns). */
export function crdWithSpec(group: string, plural: string, kind: string, properties: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties } } } } }],
    },
  };
}
