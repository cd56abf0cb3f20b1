/**
 * Discovery (k8s.io/apiserver/pkg/endpoints/discovery): `/api`, `/api/v1`, `/apis`, `/apis/<g>`,
 * `/apis/<g>/<v>` from the generated discovery documents, and aggregated discovery
 * (apidiscovery.k8s.io/v2 APIGroupDiscoveryList) for `/api` and `/apis` when the Accept header
 * asks for it: the core group's item for `/api`, every other group's for `/apis`.
 */
import { createHash } from 'node:crypto';
import type { GroupVersionDefinition } from '../api/resource.js';
import type { APIResponse } from '../endpoints/handler.js';
import { parseMediaRanges } from '../endpoints/negotiation.js';
import { objectResponse } from '../endpoints/responsewriters.js';
import { readOptionalJSON } from './documents.js';

interface APIGroup {
  name: string;
  versions: { groupVersion: string; version: string }[];
  preferredVersion?: { groupVersion: string; version: string };
}

interface APIGroupList {
  kind: 'APIGroupList';
  apiVersion: 'v1';
  groups: APIGroup[];
}

interface GroupDiscovery {
  metadata: { name: string };
  versions: unknown[];
}

interface APIGroupDiscoveryList {
  kind: string;
  apiVersion: string;
  metadata?: unknown;
  items: GroupDiscovery[];
}

const AGGREGATED_VERSIONS = ['v2', 'v2beta1'] as const;
type AggregatedVersion = (typeof AGGREGATED_VERSIONS)[number];

export function aggregatedContentType(version: AggregatedVersion): string {
  return `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
}

/** The aggregated discovery version the client accepts first, if any. */
export function acceptsAggregated(accept: string | undefined): AggregatedVersion | undefined {
  for (const range of parseMediaRanges(accept)) {
    const { params } = range;
    if (params.as !== 'APIGroupDiscoveryList' || params.g !== 'apidiscovery.k8s.io') continue;
    if ((AGGREGATED_VERSIONS as readonly string[]).includes(params.v ?? '')) return params.v as AggregatedVersion;
  }
  return undefined;
}

export class DiscoveryDocuments {
  private readonly api: unknown;
  private readonly apis: APIGroupList;
  private readonly aggregated: APIGroupDiscoveryList;
  private readonly resourceLists = new Map<string, unknown>();

  constructor(generatedDir: string, groupVersions: readonly GroupVersionDefinition[]) {
    this.api = readOptionalJSON(generatedDir, 'discovery/api.json') ?? { kind: 'APIVersions', apiVersion: 'v1', versions: [], serverAddressByClientCIDRs: [] };
    this.apis = readOptionalJSON<APIGroupList>(generatedDir, 'discovery/apis.json') ?? { kind: 'APIGroupList', apiVersion: 'v1', groups: [] };
    this.aggregated = readOptionalJSON<APIGroupDiscoveryList>(generatedDir, 'discovery/aggregated.json') ?? {
      kind: 'APIGroupDiscoveryList',
      apiVersion: 'apidiscovery.k8s.io/v2',
      items: [],
    };
    for (const gv of groupVersions) {
      const relative = gv.group ? `discovery/apis/${gv.group}/${gv.version}.json` : `discovery/api/${gv.version}.json`;
      const doc = readOptionalJSON(generatedDir, relative);
      if (doc) this.resourceLists.set(`${gv.group}/${gv.version}`, doc);
    }
  }

  /**
   * The response for a discovery path (segments after splitting), or undefined when the path is
   * not a discovery path this server knows.
   */
  serve(segments: string[], accept: string | undefined): APIResponse | undefined {
    const [prefix, a, b, ...rest] = segments;
    if (rest.length > 0) return undefined;
    if (prefix === 'api') {
      if (a === undefined) return this.aggregatedOr(accept, true, this.api);
      if (b === undefined) return this.resourceList('', a);
      return undefined;
    }
    if (prefix !== 'apis') return undefined;
    if (a === undefined) return this.aggregatedOr(accept, false, this.apis);
    if (b === undefined) return this.group(a);
    return this.resourceList(a, b);
  }

  private aggregatedOr(accept: string | undefined, core: boolean, legacy: unknown): APIResponse {
    const version = acceptsAggregated(accept);
    if (!version) {
      const response = objectResponse(200, legacy);
      // The same URL answers in two shapes depending on Accept; caches must key on it.
      response.headers.Vary = 'Accept';
      return response;
    }
    const items = this.aggregated.items.filter((item) => (item.metadata?.name === '') === core);
    const body = { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items };
    const payload = JSON.stringify(body);
    const etag = `"${createHash('sha512').update(payload).digest('hex').toUpperCase()}"`;
    return { kind: 'object', code: 200, contentType: aggregatedContentType(version), headers: { ETag: etag, Vary: 'Accept' }, payload };
  }

  private group(name: string): APIResponse | undefined {
    const group = this.apis.groups.find((g) => g.name === name);
    if (!group) return undefined;
    return objectResponse(200, { kind: 'APIGroup', apiVersion: 'v1', ...group });
  }

  private resourceList(group: string, version: string): APIResponse | undefined {
    const doc = this.resourceLists.get(`${group}/${version}`);
    return doc ? objectResponse(200, doc) : undefined;
  }
}
