/**
 * Merged discovery (kube-aggregator's discovery handlers and aggregated discovery manager):
 * `/api`, `/api/<v>`, `/apis`, `/apis/<g>`, `/apis/<g>/<v>` and the aggregated
 * apidiscovery.k8s.io v2/v2beta1 APIGroupDiscoveryList for `/api` and `/apis`, built live from
 * the group/versions every server in the chain (and every remote APIService) serves, in
 * priority order with the preferred version first (see priority.ts).
 */
import { createHash } from 'node:crypto';
import type { APIResponse } from '../endpoints/handler.js';
import { objectResponse } from '../endpoints/responsewriters.js';
import type { ServedGroupVersion } from '../server/delegation.js';
import { acceptsAggregated, aggregatedContentType } from '../server/discovery.js';
import { sortGroupVersions, type SortedGroup } from '../server/priority.js';

interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

function groupVersionOf(group: string, version: string): GroupVersionForDiscovery {
  return { groupVersion: group ? `${group}/${version}` : version, version };
}

/** A v1 APIGroup (without kind/apiVersion, as inside an APIGroupList). */
function apiGroup(group: SortedGroup) {
  const versions = group.versions.map((v) => groupVersionOf(group.name, v.version));
  return { name: group.name, versions, preferredVersion: versions[0]! };
}

export class MergedDiscovery {
  /** sources: every group/version served now, the chain's front first. */
  constructor(private readonly sources: () => readonly ServedGroupVersion[]) {}

  /** The discovery response for a path's segments, or undefined for a path it does not serve. */
  serve(segments: string[], accept: string | undefined): APIResponse | undefined {
    const [prefix, a, b, ...rest] = segments;
    if (rest.length > 0 || (prefix !== 'api' && prefix !== 'apis')) return undefined;
    const groups = sortGroupVersions(this.sources());
    const core = prefix === 'api';
    if (a === undefined) return this.root(groups, core, accept);
    if (core) return b === undefined ? this.resourceList(groups, '', a) : undefined;
    if (b === undefined) {
      const group = groups.find((g) => g.name === a && a !== '');
      return group ? objectResponse(200, { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group) }) : undefined;
    }
    return this.resourceList(groups, a, b);
  }

  private resourceList(groups: SortedGroup[], group: string, version: string): APIResponse | undefined {
    const gv = groups.find((g) => g.name === group)?.versions.find((v) => v.version === version);
    const list = gv?.resourceList();
    return list ? objectResponse(200, list) : undefined;
  }

  private root(groups: SortedGroup[], core: boolean, accept: string | undefined): APIResponse {
    const selected = groups.filter((g) => (g.name === '') === core);
    const version = acceptsAggregated(accept);
    if (!version) {
      const legacy = core
        ? { kind: 'APIVersions', apiVersion: 'v1', versions: selected.flatMap((g) => g.versions.map((v) => v.version)), serverAddressByClientCIDRs: [] }
        : { kind: 'APIGroupList', apiVersion: 'v1', groups: selected.map(apiGroup) };
      const response = objectResponse(200, legacy);
      // The same URL answers in two shapes depending on Accept; caches must key on it.
      response.headers.Vary = 'Accept';
      return response;
    }
    const items = selected.map((g) => ({
      metadata: { name: g.name, creationTimestamp: null },
      versions: g.versions.map((v) => v.aggregated()).filter((v) => v !== undefined),
    }));
    const payload = JSON.stringify({ kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items });
    const etag = `"${createHash('sha512').update(payload).digest('hex').toUpperCase()}"`;
    return { kind: 'object', code: 200, contentType: aggregatedContentType(version), headers: { ETag: etag, Vary: 'Accept' }, payload };
  }
}
