/**
 * kube's CreateServerChain: the aggregator in front, then the compiled-APIs server, then the
 * extensions server, then "not found", joined by delegation (delegation.ts). The front answers
 * discovery and OpenAPI merged live from every server's groupVersions() (kube's discovery
 * manager), so a CRD or an APIService appears as soon as its server reports it.
 */
import { MergedDiscovery } from '../aggregator/discovery.js';
import { MergedOpenAPI } from '../aggregator/openapi.js';
import type { CompiledAPIServer } from './compiled.js';
import type { DelegationTarget, ServedGroupVersion } from '../server/delegation.js';
import { APIServerHandler, type NonResourceHandler } from '../server/handler.js';
import type { HealthCheck, HealthEndpoint } from '../server/health.js';

export interface ServerChainParts {
  /** The aggregator's own target (remote APIServices), first in the chain. */
  aggregator?: DelegationTarget;
  compiled: CompiledAPIServer;
  /** The extensions server (CustomResourceDefinitions). */
  extensions?: DelegationTarget;
  /** Service account issuer discovery (/.well-known/openid-configuration, /openid/v1/jwks). */
  issuerDiscovery?: DelegationTarget;
  health: Record<HealthEndpoint, readonly HealthCheck[]>;
  /** Non-resource handlers besides discovery, OpenAPI, health and version (metrics, profiles, docs). */
  nonResource?: readonly [string, NonResourceHandler][];
}

export interface ServerChain {
  handler: APIServerHandler;
  /** The servers in delegation order. */
  targets: readonly DelegationTarget[];
  /** Every group/version served now, in delegation order (not yet sorted by priority). */
  groupVersions(): ServedGroupVersion[];
}

export function createServerChain(parts: ServerChainParts): ServerChain {
  const targets = [parts.aggregator, parts.compiled, parts.extensions, parts.issuerDiscovery].filter((t): t is DelegationTarget => t !== undefined);
  const groupVersions = () => targets.flatMap((t) => t.groupVersions());
  const handler = new APIServerHandler({
    chain: targets,
    discovery: new MergedDiscovery(groupVersions),
    openapi: new MergedOpenAPI(groupVersions, { document: () => parts.compiled.openapiV2(), covers: (gv) => parts.compiled.covers(gv) }),
    health: parts.health,
    nonResource: parts.nonResource,
  });
  return { handler, targets, groupVersions };
}
