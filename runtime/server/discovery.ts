/**
 * Discovery helpers (k8s.io/apiserver/pkg/endpoints/discovery): content negotiation between
 * legacy and aggregated (apidiscovery.k8s.io v2/v2beta1) discovery, and reading the generated
 * discovery documents of the compiled APIs. The merged documents the chain serves are built by
 * runtime/aggregator/discovery.ts from every server's ServedGroupVersions.
 */
import type { GroupVersionDefinition } from '../api/resource.js';
import { parseMediaRanges } from '../endpoints/negotiation.js';
import { readOptionalJSON } from './documents.js';

interface APIGroupList {
  groups: { name: string; versions: { version: string }[] }[];
}

interface APIGroupDiscoveryList {
  items: { metadata: { name: string }; versions: { version: string }[] }[];
}

const AGGREGATED_VERSIONS = ['v2', 'v2beta1'] as const;
export type AggregatedVersion = (typeof AGGREGATED_VERSIONS)[number];

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

/**
 * The generated discovery documents of one group/version. The documents themselves are read on
 * first use (a server may never be asked for discovery; reading the 30-odd files of 100 kinds cost
 * ~3 ms of every start), then kept; the version order is read at once, for the priorities.
 */
export interface GeneratedGroupVersionDiscovery {
  /** `/apis/<g>/<v>` (or `/api/v1`): the APIResourceList. */
  resourceList(): unknown;
  /** The version's entry of the generated aggregated discovery. */
  aggregated(): unknown;
  /** Its position among its group's versions in the generated documents (0 is preferred). */
  index: number;
  /** How many versions its group has. */
  of: number;
}

/** fn's result, computed on the first call. */
function once<T>(fn: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = fn();
      done = true;
    }
    return value;
  };
}

/** What `kgen generate` wrote under discovery/ for each group/version. */
export function readGeneratedDiscovery(generatedDir: string, groupVersions: readonly GroupVersionDefinition[]): Map<string, GeneratedGroupVersionDiscovery> {
  const api = readOptionalJSON<{ versions: string[] }>(generatedDir, 'discovery/api.json');
  const apis = readOptionalJSON<APIGroupList>(generatedDir, 'discovery/apis.json');
  const aggregated = once(() => readOptionalJSON<APIGroupDiscoveryList>(generatedDir, 'discovery/aggregated.json'));
  const order = (group: string): string[] =>
    group === '' ? (api?.versions ?? []) : (apis?.groups.find((g) => g.name === group)?.versions.map((v) => v.version) ?? []);
  const out = new Map<string, GeneratedGroupVersionDiscovery>();
  for (const gv of groupVersions) {
    const relative = gv.group ? `discovery/apis/${gv.group}/${gv.version}.json` : `discovery/api/${gv.version}.json`;
    const versions = order(gv.group);
    const index = versions.indexOf(gv.version);
    out.set(`${gv.group}/${gv.version}`, {
      resourceList: once(() => readOptionalJSON(generatedDir, relative)),
      aggregated: once(() => aggregated()?.items.find((i) => i.metadata.name === gv.group)?.versions.find((v) => v.version === gv.version)),
      index: index === -1 ? versions.length : index,
      of: Math.max(versions.length, 1),
    });
  }
  return out;
}
