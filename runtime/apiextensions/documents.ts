/**
 * The discovery and OpenAPI documents of the CRDs served in one group/version, built by the same
 * runtime builders the generator writes compiled kinds' documents with (runtime/endpoints/discovery
 * and /openapi), keyed on each version's ResourceDefinition: an APIResourceList, the
 * apidiscovery.k8s.io/v2 version entry, an OpenAPI v3 document with kube-apiserver's paths and
 * operations, and the group/version's Swagger 2.0 part of `/openapi/v2`. What kube itself serves differently for a custom resource (verb and subresource
 * order, no strategic merge patch, no `default: {}` on metadata) follows `customResource`.
 */
import { apiVersionOf } from '../api/resource.js';
import { aggregatedVersion as aggregatedVersionOf, apiResourceList } from '../endpoints/discovery/resources.js';
import { resourceOperations, type Operation } from '../endpoints/openapi/operations.js';
import { v2Definitions, v2Paths } from '../endpoints/openapi/v2.js';
import { shareParameters } from '../endpoints/openapi/v2-parameters.js';
import { v3Paths } from '../endpoints/openapi/v3.js';
import type { ComponentSchemas, ServedVersion } from './definition.js';

/** One CRD's served version plus the CRD's storage version (for the storage version hash). */
export interface VersionEntry extends ServedVersion {
  storageVersion: string;
}

/** The legacy `/apis/<group>/<version>` APIResourceList. */
export function resourceList(group: string, version: string, entries: VersionEntry[]): unknown {
  return apiResourceList(apiVersionOf(group, version), entries);
}

/** This group/version's apidiscovery.k8s.io/v2 APIVersionDiscovery. */
export function aggregatedVersion(version: string, entries: VersionEntry[]): unknown {
  return aggregatedVersionOf(version, entries.map((e) => e.definition));
}

/** The operations and component schemas of the CRDs served in one group/version. */
function parts(entries: VersionEntry[]): { operations: Operation[]; schemas: ComponentSchemas } {
  const schemas: ComponentSchemas = {};
  for (const { schemas: own } of entries) Object.assign(schemas, own);
  return { operations: entries.flatMap((e) => resourceOperations(e.definition)), schemas };
}

/** The OpenAPI v3 document `/openapi/v3/apis/<group>/<version>` of the CRDs served there. */
export function openapiDocument(entries: VersionEntry[]): unknown {
  const { operations, schemas } = parts(entries);
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes CRD Swagger', version: 'v0.1.0' },
    paths: v3Paths(operations),
    components: { schemas: Object.fromEntries(Object.keys(schemas).sort().map((k) => [k, schemas[k]])) },
  };
}

/**
 * Their part of `/openapi/v2`: Swagger paths, definitions and shared parameters, printed as
 * compiled kinds' are (kube's CRD builder shares parameters as kube-openapi's builder does; the
 * aggregator merges them with mergeParameters).
 */
export function openapiV2(entries: VersionEntry[]): { paths: Record<string, unknown>; definitions: Record<string, unknown>; parameters: Record<string, unknown> } {
  const { operations, schemas } = parts(entries);
  const { paths, parameters } = shareParameters(v2Paths(operations));
  return { paths, definitions: v2Definitions(schemas), parameters };
}
