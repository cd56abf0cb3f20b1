/**
 * Admission test helpers: an APIInstaller over kgen's committed generated/ tree (typed models and
 * registrations) with memory storage, serving requests straight through the endpoint handlers,
 * so a test can set the request's user as the authentication filter would.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UserInfo } from '../../runtime/api/auth.js';
import type { AdmissionChain } from '../../runtime/admission/chain.js';
import { serveResource } from '../../runtime/endpoints/dispatch.js';
import type { APIRequest } from '../../runtime/endpoints/handler.js';
import { ensureSystemNamespaces } from '../../runtime/registry/namespaces.js';
import { APIInstaller } from '../../runtime/server/installer.js';
import { resolveRequestInfo } from '../../runtime/server/requestinfo.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { controlPlaneStorageProviders } from '../../runtime/controlplane/storage-providers.js';

export const GENERATED_DIR = fileURLToPath(new URL('../../generated/', import.meta.url));
export const WIDGETS = '/apis/widgets.example.com/v1/namespaces/default/widgets';

export interface Reply {
  status: number;
  headers: Record<string, string | string[]>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface Harness {
  installer: APIInstaller;
  request(method: string, path: string, opts?: { body?: unknown; contentType?: string; user?: UserInfo }): Promise<Reply>;
  close(): Promise<void>;
}

export async function startHarness(admission: AdmissionChain): Promise<Harness> {
  const storage = new MemoryStorage();
  const installer = new APIInstaller({ generatedDir: GENERATED_DIR, storage, admission, watchCache: false, storageProviders: controlPlaneStorageProviders() });
  const generated = (await import(pathToFileURL(join(GENERATED_DIR, 'index.ts')).href)) as { installAll(i: APIInstaller): void };
  generated.installAll(installer);
  await ensureSystemNamespaces(installer.namespaceStore()!);
  await admission.startWebhooks(installer);
  const request: Harness['request'] = async (method, path, opts = {}) => {
    const url = new URL(path, 'http://kgen.invalid');
    const info = resolveRequestInfo(method, url.pathname, url.searchParams);
    const req: APIRequest = {
      info,
      method,
      query: url.searchParams,
      headers: opts.body === undefined ? {} : { 'content-type': opts.contentType ?? 'application/json' },
      body: opts.body === undefined ? undefined : Buffer.from(typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body)),
      signal: new AbortController().signal,
      user: opts.user,
    };
    const scope = installer.lookup(info.apiGroup, info.apiVersion, info.resource);
    if (!scope) throw new Error(`no scope for ${path}`);
    const res = await serveResource(scope, req);
    if (res.kind !== 'object') throw new Error('unexpected stream');
    return { status: res.code, headers: res.headers, body: JSON.parse(res.payload) };
  };
  return {
    installer,
    request,
    async close() {
      admission.stop();
      await installer.close();
      await storage.close();
    },
  };
}
