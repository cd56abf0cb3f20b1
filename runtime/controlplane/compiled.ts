/**
 * The compiled-APIs server (kube's "kube-apiserver" in CreateServerChain): serves the resources
 * `kgen generate` compiled, as a DelegationTarget. Its discovery and OpenAPI are the generated
 * documents, reported per group/version for the aggregator in front to merge; requests for
 * anything it does not install pass on to the next server of the chain.
 */
import { join } from 'node:path';
import type { GroupVersionDefinition } from '../api/resource.js';
import { builtinPriority, DEFAULT_GROUP_PRIORITY, DEFAULT_VERSION_PRIORITY } from '../server/priority.js';
import { serveResource } from '../endpoints/dispatch.js';
import type { RequestScope } from '../endpoints/handler.js';
import type { DelegationResult, DelegationTarget, ServedGroupVersion } from '../server/delegation.js';
import { readGeneratedDiscovery } from '../server/discovery.js';
import { readJSONFile, readOptionalJSON } from '../server/documents.js';
import { apiRequestOf, type IncomingAPIRequest, type ResolvedRequest } from '../server/handler.js';
import type { APIInstaller } from '../server/installer.js';

function servedGroupVersion(generatedDir: string, gv: GroupVersionDefinition, discovery: ReturnType<typeof readGeneratedDiscovery>): ServedGroupVersion {
  const docs = discovery.get(`${gv.group}/${gv.version}`)!;
  const builtin = builtinPriority(gv.group, gv.version);
  let openapi: unknown;
  return {
    group: gv.group,
    version: gv.version,
    groupPriority: builtin?.group ?? DEFAULT_GROUP_PRIORITY,
    // The generator lists a group's versions preferred first; keep that order.
    versionPriority: builtin?.version ?? DEFAULT_VERSION_PRIORITY + (docs.of - 1 - docs.index),
    resourceList: docs.resourceList,
    aggregated: docs.aggregated,
    openapiV3: () => (openapi ??= readJSONFile(join(generatedDir, gv.openapiPath))),
  };
}

export class CompiledAPIServer implements DelegationTarget {
  readonly name = 'kgen-apiserver';
  private readonly served: ServedGroupVersion[];
  private readonly keys: Set<string>;
  private v2?: Record<string, unknown> | null;
  private lastScope?: { group: string; version: string; resource: string; scope: RequestScope };

  constructor(
    private readonly installer: APIInstaller,
    private readonly generatedDir: string,
  ) {
    const installed = installer.groupVersions();
    const discovery = readGeneratedDiscovery(generatedDir, installed);
    this.served = installed.map((gv) => servedGroupVersion(generatedDir, gv, discovery));
    this.keys = new Set(installed.map((gv) => `${gv.group}/${gv.version}`));
  }

  /** Synchronous when the handler is (a GET the watch cache answers); see DelegationTarget.serve. */
  serve(incoming: IncomingAPIRequest, resolved: ResolvedRequest): DelegationResult {
    const info = resolved.info;
    if (!info?.isResourceRequest) return undefined;
    const scope = this.scopeOf(info.apiGroup, info.apiVersion, info.resource);
    if (!scope) return undefined;
    return serveResource(scope, apiRequestOf(incoming, resolved));
  }

  groupVersions(): readonly ServedGroupVersion[] {
    return this.served;
  }

  /**
   * The installed resource's scope. Clients repeat the same resource, so the last one found is
   * remembered (installed scopes are never replaced or removed while the server runs).
   */
  private scopeOf(group: string, version: string, resource: string): RequestScope | undefined {
    const last = this.lastScope;
    if (last && last.resource === resource && last.version === version && last.group === group) return last.scope;
    const scope = this.installer.lookup(group, version, resource);
    if (scope) this.lastScope = { group, version, resource, scope };
    return scope;
  }

  /** The compiled APIs do not change while the server runs. */
  onChange(): () => void {
    return () => undefined;
  }

  /**
   * The generated Swagger 2.0 document, which covers every compiled group/version, less the paths
   * and definitions of those --runtime-config turned off.
   */
  openapiV2(): Record<string, unknown> | undefined {
    if (this.v2 === undefined) {
      const doc = readOptionalJSON<Record<string, unknown>>(this.generatedDir, 'openapi/v2/swagger.json');
      this.v2 = doc ? withoutPaths(doc, this.installer.disabledPathPrefixes()) : null;
    }
    return this.v2 ?? undefined;
  }

  covers(gv: ServedGroupVersion): boolean {
    return this.served.includes(gv) || this.keys.has(`${gv.group}/${gv.version}`);
  }
}

/**
 * `doc` without the paths under `prefixes` (`/apis/<group>/<version>/`) and the definitions only
 * they use: those named in kgen's `<reversed group>.<version>.` form, or whose
 * x-kubernetes-group-version-kind names only disabled group/versions.
 */
function withoutPaths(doc: Record<string, unknown>, prefixes: readonly string[]): Record<string, unknown> {
  if (prefixes.length === 0) return doc;
  const gvs = prefixes.map((p) => {
    const [, root, a, b] = p.split('/');
    return root === 'api' ? { group: '', version: a! } : { group: a!, version: b! };
  });
  const names = gvs.map(({ group, version }) => `${group === '' ? 'io.k8s.api.core' : group.split('.').reverse().join('.')}.${version}.`);
  const disabledGVK = (gvk: unknown) =>
    Array.isArray(gvk) && gvk.length > 0 && gvk.every((e: { group?: string; version?: string }) => gvs.some((gv) => gv.group === (e.group ?? '') && gv.version === e.version));
  const paths = Object.fromEntries(Object.entries((doc.paths ?? {}) as Record<string, unknown>).filter(([path]) => !prefixes.some((p) => path.startsWith(p))));
  const definitions = Object.fromEntries(
    Object.entries((doc.definitions ?? {}) as Record<string, Record<string, unknown>>).filter(
      ([name, schema]) => !names.some((n) => name.startsWith(n)) && !disabledGVK(schema['x-kubernetes-group-version-kind']),
    ),
  );
  return { ...doc, paths, definitions };
}
