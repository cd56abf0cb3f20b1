/**
 * The extensions server (kube's apiextensions-apiserver in CreateServerChain): serves the
 * resources CustomResourceDefinitions define, as a DelegationTarget behind the compiled-APIs
 * server. The CRD kind itself is a compiled built-in (generator/builtin/apiextensions.k8s.io);
 * this server watches its objects, sets their names and conditions, serves each established
 * CRD's versions through the same machinery as compiled kinds, and reports their discovery and
 * OpenAPI for the aggregator in front to merge.
 */
import type { AdmissionChain } from '../admission/chain.js';
import type { ServiceResolver } from '../admission/webhook/client.js';
import { apiVersionOf } from '../api/resource.js';
import { newMethodNotSupported } from '../api/status.js';
import { serveResource } from '../endpoints/dispatch.js';
import type { APIResponse, RequestScope } from '../endpoints/handler.js';
import { errorResponse } from '../endpoints/responsewriters.js';
import { DEFAULT_GROUP_PRIORITY, DEFAULT_VERSION_PRIORITY } from '../server/priority.js';
import type { DelegationTarget, ServedGroupVersion } from '../server/delegation.js';
import { apiRequestOf, type IncomingAPIRequest, type ResolvedRequest } from '../server/handler.js';
import type { APIInstaller } from '../server/installer.js';
import type { SharedCacherOptions } from '../storage/cacher/index.js';
import type { Storage } from '../storage/interface.js';
import { isConditionTrue } from './conditions.js';
import { CRDController } from './controller.js';
import { aggregatedVersion, openapiDocument, openapiV2, resourceList, type VersionEntry } from './documents.js';
import { deprecationWarning } from './warnings.js';
import { GROUP, RESOURCE, storageVersionOf, VERSION } from './types.js';

export interface ExtensionsServerOptions {
  /**
   * The compiled APIs: the CRD kind's scope, the names compiled resources take, and the scope
   * building custom resources share with compiled kinds (its storage, key root, watch caches and
   * admission chain).
   */
  installer: APIInstaller;
  /** Accepted for the chain's wiring; the installer's storage, admission and watch caches are used. */
  storage?: Storage;
  admission?: AdmissionChain;
  watchCache?: SharedCacherOptions | false;
  log?: (line: string) => void;
  /** How long deleting a CRD waits for its custom resources to be gone (default 60 s). */
  instanceDeletionTimeoutMs?: number;
  /** Resolves conversion webhooks' clientConfig.service (through the Service's Endpoints). */
  resolveService?: ServiceResolver;
}

export class ExtensionsServer implements DelegationTarget {
  readonly name = 'apiextensions-apiserver';
  private readonly controller?: CRDController;
  private readonly listeners = new Set<() => void>();
  private served: readonly ServedGroupVersion[] = [];

  constructor(options: ExtensionsServerOptions) {
    const crdScope = options.installer.lookup(GROUP, VERSION, RESOURCE);
    // Without the built-in CRD kind (`kgen generate --no-builtins`) there is nothing to serve.
    if (!crdScope) return;
    this.controller = new CRDController({
      installer: options.installer,
      crdScope,
      log: options.log ?? (() => undefined),
      instanceDeletionTimeoutMs: options.instanceDeletionTimeoutMs,
      onServingChange: () => this.refresh(),
      resolveService: options.resolveService,
    });
  }

  /** Starts the controllers; resolves once the CRDs in storage are served again. */
  async start(): Promise<void> {
    await this.controller?.start();
  }

  /** Resolves when the controllers have nothing queued (tests wait on it). */
  async idle(): Promise<void> {
    await this.controller?.idle();
  }

  /** Is a controller queued, running or waiting to retry (CRDController.busy)? */
  busy(): boolean {
    return this.controller?.busy() ?? false;
  }

  async close(): Promise<void> {
    await this.controller?.stop();
  }

  async serve(incoming: IncomingAPIRequest, resolved: ResolvedRequest): Promise<APIResponse | undefined> {
    const info = resolved.info;
    if (!info?.isResourceRequest || !this.controller) return undefined;
    // kube's crdHandler: the CRD named <resource>.<group> serves this request, if any.
    const serving = this.controller.serving.get(`${info.resource}.${info.apiGroup}`);
    if (!serving) return undefined;
    const { crd } = serving;
    if (!isConditionTrue(crd, 'Established') && !isConditionTrue(crd, 'NamesAccepted')) return undefined;
    const version = serving.versions.get(info.apiVersion);
    if (!version) return undefined;
    if (info.verb === 'create' && isConditionTrue(crd, 'Terminating')) {
      const err = newMethodNotSupported({ group: info.apiGroup, resource: info.resource }, info.verb);
      err.status.message = `${info.verb} not allowed while custom resource definition is terminating`;
      return errorResponse(err);
    }
    const response = await serveResource(version.scope, apiRequestOf(incoming, resolved));
    const warning = deprecationWarning(crd, info.apiVersion);
    if (warning) addWarning(response, warning);
    return response;
  }

  groupVersions(): readonly ServedGroupVersion[] {
    return this.served;
  }

  /**
   * One scope per established custom resource, its storage version's when served: what kube's
   * namespace controller and garbage collector find through discovery (runtime/controllers'
   * DynamicAPIs, with onChange).
   */
  resourceScopes(): RequestScope[] {
    const out: RequestScope[] = [];
    for (const serving of this.controller?.serving.all() ?? []) {
      if (!isConditionTrue(serving.crd, 'Established')) continue;
      const storage = storageVersionOf(serving.crd)?.name;
      const chosen = (storage !== undefined ? serving.versions.get(storage) : undefined) ?? serving.versions.values().next().value;
      if (chosen) out.push(chosen.scope);
    }
    return out;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Rebuilds the served group/versions from the established CRDs and tells the listeners. */
  private refresh(): void {
    const byGV = new Map<string, VersionEntry[]>();
    for (const serving of this.controller?.serving.all() ?? []) {
      if (!isConditionTrue(serving.crd, 'Established')) continue;
      for (const { entry } of serving.versions.values()) {
        const key = apiVersionOf(entry.definition.group, entry.definition.version);
        byGV.set(key, [...(byGV.get(key) ?? []), entry]);
      }
    }
    this.served = [...byGV.values()].map((entries) => servedGroupVersion(entries));
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // A listener's failure is its own; the others still hear of the change.
      }
    }
  }
}

function servedGroupVersion(entries: VersionEntry[]): ServedGroupVersion {
  const { group, version } = entries[0]!.definition;
  let openapi: unknown;
  return {
    group,
    version,
    // kube's crdRegistrationController: every CRD group/version at 1000/100, ordered by version name.
    groupPriority: DEFAULT_GROUP_PRIORITY,
    versionPriority: DEFAULT_VERSION_PRIORITY,
    resourceList: () => resourceList(group, version, entries),
    aggregated: () => aggregatedVersion(version, entries),
    openapiV3: () => (openapi ??= openapiDocument(entries)),
    openapiV2: () => openapiV2(entries),
  };
}

function addWarning(response: APIResponse, warning: string): void {
  const header = `299 - ${JSON.stringify(warning)}`;
  const existing = response.headers.Warning;
  response.headers.Warning = existing === undefined ? [header] : [...(Array.isArray(existing) ? existing : [existing]), header];
}

/** Builds the extensions server and starts its controllers (kube's apiextensions-apiserver New + Run). */
export async function createExtensionsServer(options: ExtensionsServerOptions): Promise<ExtensionsServer> {
  const server = new ExtensionsServer(options);
  await server.start();
  return server;
}
