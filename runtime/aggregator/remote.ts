/**
 * One APIService served by another server (spec.service set): its TLS transport, whether it is
 * available, and its discovery and OpenAPI as last fetched from the backend (kube's aggregated
 * discovery manager and OpenAPI v3 aggregator keep the same caches). Reported to the front as a
 * ServedGroupVersion with the APIService's priorities; a backend that stopped answering keeps its
 * last discovery marked `freshness: Stale`, as kube does.
 */
import type { Agent } from 'node:https';
import type { KubeObject } from '../api/meta.js';
import type { ServedGroupVersion } from '../server/delegation.js';
import type { CertificateAndKey } from '../api/certificates.js';
import { aggregatedContentType } from '../server/discovery.js';
import type { APIServiceSpec as GeneratedAPIServiceSpec } from '../../generated/models/apiregistration.k8s.io/v1.js';
import { authProxyHeaders, newBackendAgent, readBody, sendToBackend, type BackendTLS } from './transport.js';

/** kube's discovery-check identity (the availability controller's requests). */
/** The most of a discovery or OpenAPI document read from a backend (kube's largest per-version OpenAPI documents are a few MiB). */
const MAX_FETCHED_BYTES = 64 * 1024 * 1024;

export const AGGREGATOR_USER = { username: 'system:kube-aggregator', groups: ['system:masters'] };

/** The spec as stored objects carry it: the generated model's fields, any of them possibly unset. */
export type APIServiceSpec = Partial<GeneratedAPIServiceSpec>;

export function specOf(apiService: KubeObject): APIServiceSpec {
  return (apiService.spec ?? {}) as APIServiceSpec;
}

/** What makes two specs need a new transport. */
function transportKey(spec: APIServiceSpec): string {
  return JSON.stringify([spec.service?.namespace, spec.service?.name, spec.insecureSkipTLSVerify === true, spec.caBundle ?? '']);
}

export class RemoteAPIService {
  readonly tls: BackendTLS;
  readonly agent: Agent;
  /** Set by the availability controller. */
  available = false;
  private discovery?: unknown;
  private stale = false;
  private openapi?: { hash: string; doc: unknown };
  /** The backend's serverRelativeURL for this group/version in its last `/openapi/v3` index. */
  openapiURL?: string;
  /** Every path of the backend's last `/openapi/v3` index, key → serverRelativeURL. */
  openapiIndex?: ReadonlyMap<string, string>;
  readonly served: ServedGroupVersion;

  constructor(
    readonly name: string,
    readonly spec: APIServiceSpec,
    client: CertificateAndKey,
  ) {
    this.tls = {
      caBundle: spec.caBundle ? Buffer.from(spec.caBundle, 'base64').toString('utf8') : undefined,
      insecureSkipTLSVerify: spec.insecureSkipTLSVerify === true,
      serverName: `${spec.service?.name ?? ''}.${spec.service?.namespace ?? ''}.svc`,
      client,
    };
    this.agent = newBackendAgent(this.tls);
    const self = this;
    this.served = {
      group: spec.group ?? '',
      version: spec.version ?? '',
      groupPriority: spec.groupPriorityMinimum ?? 0,
      versionPriority: spec.versionPriority ?? 0,
      // /apis/<g>/<v> is proxied to the backend live (503 while it is unavailable), as kube does.
      resourceList: () => undefined,
      aggregated() {
        if (self.discovery === undefined) return undefined;
        return self.stale ? { ...(self.discovery as object), freshness: 'Stale' } : self.discovery;
      },
      openapiV3: () => self.openapi?.doc,
      openapiV3URL: () => self.openapiURL,
      openapiV3Index: () => self.openapiIndex,
    };
  }

  sameTransport(spec: APIServiceSpec): boolean {
    return transportKey(spec) === transportKey(this.spec);
  }

  get group(): string {
    return this.spec.group ?? '';
  }

  get version(): string {
    return this.spec.version ?? '';
  }

  get ref() {
    return { namespace: this.spec.service?.namespace ?? '', name: this.spec.service?.name ?? '', port: this.spec.service?.port ?? 443 };
  }

  close(): void {
    this.agent.destroy();
  }

  /** `/apis/<g>/<v>` (the discovery check), as system:kube-aggregator. */
  discoveryPath(): string {
    return this.group ? `/apis/${this.group}/${this.version}` : `/api/${this.version}`;
  }

  /**
   * A GET as system:kube-aggregator. These run unasked, every probe, so a backend's answer is
   * bounded: at most MAX_FETCHED_BYTES, read within timeoutMs of its headers (an endless or
   * trickled body held the probe, and grew the server's memory, for as long as it kept coming).
   * `statusOnly` reads no body (kube's availability check looks at the status alone).
   */
  private async get(endpoint: URL, path: string, accept: string, timeoutMs: number, statusOnly = false): Promise<{ status: number; body: Buffer }> {
    const res = await sendToBackend(this.agent, this.tls, { method: 'GET', endpoint, path, headers: { accept, ...authProxyHeaders(AGGREGATOR_USER) }, timeoutMs });
    if (statusOnly) {
      res.destroy();
      return { status: res.statusCode ?? 0, body: Buffer.alloc(0) };
    }
    return { status: res.statusCode ?? 0, body: await readBody(res, { maxBytes: MAX_FETCHED_BYTES, deadlineMs: timeoutMs }) };
  }

  /**
   * kube's discovery check: GET /apis/<g>/<v> must answer (2xx; 401/403 prove the connection
   * and TLS work too). Throws the FailedDiscoveryCheck message's cause.
   */
  async checkDiscovery(endpoint: URL, timeoutMs: number): Promise<void> {
    const url = new URL(this.discoveryPath(), endpoint).href;
    let status: number;
    try {
      status = (await this.get(endpoint, this.discoveryPath(), 'application/json', timeoutMs, true)).status;
    } catch (err) {
      throw new Error(`Get "${url}": ${(err as Error).message}`);
    }
    if (status === 401 || status === 403) return;
    if (status < 200 || status >= 300) throw new Error(`bad status from ${url}: ${status}`);
  }

  /** Marks the cached discovery stale (the backend stopped answering). */
  markStale(): void {
    this.stale = true;
  }

  /**
   * Fetches the backend's aggregated discovery entry for this group/version, its `/openapi/v3`
   * index entry (the URL the front lists and proxies) and, when its hash changed, its OpenAPI v3
   * document (for `/openapi/v2`). Failures keep the last copy (discovery marked stale).
   */
  async refresh(endpoint: URL, timeoutMs: number): Promise<void> {
    try {
      const root = this.group ? '/apis' : '/api';
      const res = await this.get(endpoint, root, `${aggregatedContentType('v2')},application/json`, timeoutMs);
      if (res.status === 200) {
        const list = JSON.parse(res.body.toString('utf8')) as { items?: { metadata?: { name?: string }; versions?: { version?: string }[] }[] };
        const entry = list.items?.find((i) => (i.metadata?.name ?? '') === this.group)?.versions?.find((v) => v.version === this.version);
        if (entry) {
          this.discovery = entry;
          this.stale = false;
        }
      }
      const index = await this.get(endpoint, '/openapi/v3', 'application/json', timeoutMs);
      if (index.status !== 200) return;
      const paths = (JSON.parse(index.body.toString('utf8')) as { paths?: Record<string, { serverRelativeURL?: string }> }).paths ?? {};
      const key = this.group ? `apis/${this.group}/${this.version}` : `api/${this.version}`;
      // As specProxier replaces a backend's discovery with each index it downloads.
      this.openapiIndex = new Map(Object.entries(paths).flatMap(([k, v]) => (typeof v?.serverRelativeURL === 'string' ? [[k, v.serverRelativeURL] as const] : [])));
      const url = this.openapiIndex.get(key);
      this.openapiURL = url;
      if (!url) return;
      const hash = new URL(url, 'https://backend.invalid').searchParams.get('hash') ?? url;
      if (this.openapi?.hash === hash) return;
      const doc = await this.get(endpoint, url, 'application/json', timeoutMs);
      if (doc.status === 200) this.openapi = { hash, doc: JSON.parse(doc.body.toString('utf8')) };
    } catch {
      this.stale = this.discovery !== undefined;
    }
  }
}
