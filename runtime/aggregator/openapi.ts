/**
 * Merged OpenAPI (kube-aggregator's OpenAPI v3 and v2 aggregation): `/openapi/v3` indexes the
 * document of every group/version served by the chain (the chain's front wins a tie), and
 * `/openapi/v3/<key>` serves it; `/openapi/v2` is the compiled APIs' Swagger document with every
 * other group/version merged in: CRDs' as the extensions server prints them, remote APIServices'
 * converted from their v3 documents.
 */
import type { APIResponse } from '../endpoints/handler.js';
import type { ServedGroupVersion } from '../server/delegation.js';
import { openAPIDocument, v2Response, v3DocumentResponse, v3IndexResponse, v3Key, type OpenAPIDocument, type OpenAPIRequestHeaders } from '../server/openapi.js';
import { v3ToV2 } from './openapi-v2.js';
import { mergeParameters } from '../endpoints/openapi/v2-parameters.js';

/** The v2 document a server already publishes, and which group/versions it covers. */
export interface OpenAPIV2Source {
  /** The Swagger 2.0 document (parsed), if any. */
  document(): Record<string, unknown> | undefined;
  covers(gv: ServedGroupVersion): boolean;
}

export class MergedOpenAPI {
  /** Serialized documents by the object openapiV3() returned (documents are immutable once served). */
  private readonly serialized = new WeakMap<object, OpenAPIDocument>();
  private v2Cache?: { signature: string; doc: OpenAPIDocument | undefined };

  constructor(
    private readonly sources: () => readonly ServedGroupVersion[],
    private readonly v2Source?: OpenAPIV2Source,
  ) {}

  serve(segments: string[], query: URLSearchParams, headers: OpenAPIRequestHeaders): APIResponse | undefined {
    if (segments[0] !== 'openapi') return undefined;
    if (segments[1] === 'v2' && segments.length === 2) return v2Response(this.v2(), headers);
    if (segments[1] !== 'v3') return undefined;
    // Documents asked of their servers live are listed and served only as those servers say.
    const docs = new Map([...this.v3()].filter(([, { gv }]) => gv.openapiV3URL === undefined));
    const proxied = this.proxied(docs);
    if (segments.length === 2) return v3IndexResponse(new Map([...docs].map(([key, { doc }]) => [key, doc])), proxied);
    const key = segments.slice(2).join('/');
    // A document its server serves itself (a remote APIService's): the request goes on to it.
    if (proxied.has(key)) return undefined;
    const entry = docs.get(key);
    // specProxier.handleGroupVersion: no group/version matches, `w.WriteHeader(404)`, no body.
    return entry ? v3DocumentResponse(key, entry.doc, query, headers) : { kind: 'object', code: 404, contentType: '', headers: {}, payload: '' };
  }

  /**
   * The keys whose documents their servers serve, with the URLs the servers gave: each remote
   * group/version's own key (see openapiV3URL), then every other path its server's index lists
   * (openapiV3Index; kube's getOpenAPIV3Root merges each APIService's whole index). kube leaves a
   * collision to Go's map order; kgen takes one of its outcomes, always the same: the front's own
   * documents (`local`), then remote group/versions' own keys, then the other paths, in the
   * chain's order. The aggregator's serveOpenAPIV3 proxies by the same rule.
   */
  private proxied(local: ReadonlyMap<string, unknown>): Map<string, string> {
    const urls = new Map<string, string>();
    const sources = this.sources();
    for (const gv of sources) {
      const url = gv.openapiV3URL?.();
      const key = v3Key(gv.group, gv.version);
      if (url !== undefined && !urls.has(key)) urls.set(key, url);
    }
    for (const gv of sources) {
      for (const [key, url] of gv.openapiV3Index?.() ?? []) if (!local.has(key) && !urls.has(key)) urls.set(key, url);
    }
    return urls;
  }

  /** Every group/version's v3 document by key, the chain's front first. */
  private v3(): Map<string, { gv: ServedGroupVersion; doc: OpenAPIDocument }> {
    const docs = new Map<string, { gv: ServedGroupVersion; doc: OpenAPIDocument }>();
    for (const gv of this.sources()) {
      const key = v3Key(gv.group, gv.version);
      if (docs.has(key)) continue;
      const doc = this.serialize(gv.openapiV3());
      if (doc) docs.set(key, { gv, doc });
    }
    return docs;
  }

  private serialize(value: unknown): OpenAPIDocument | undefined {
    if (typeof value !== 'object' || value === null) return undefined;
    let doc = this.serialized.get(value);
    if (!doc) {
      doc = openAPIDocument(JSON.stringify(value));
      this.serialized.set(value, doc);
    }
    return doc;
  }

  private v2(): OpenAPIDocument | undefined {
    const docs = this.v3();
    const extra = [...docs.values()].filter(({ gv }) => !this.v2Source?.covers(gv));
    const signature = extra.map(({ doc }) => doc.hash).join(',');
    if (this.v2Cache?.signature === signature) return this.v2Cache.doc;
    const base = this.v2Source?.document();
    let doc: OpenAPIDocument | undefined;
    if (!base && extra.length === 0) doc = undefined;
    else if (extra.length === 0) doc = openAPIDocument(JSON.stringify(base));
    else {
      const merged = { swagger: '2.0', info: { title: 'Kubernetes', version: 'unversioned' }, ...base } as Record<string, unknown>;
      const paths = { ...((merged.paths as object) ?? {}) } as Record<string, unknown>;
      const definitions = { ...((merged.definitions as object) ?? {}) } as Record<string, unknown>;
      // Shared parameters as kube-aggregator merges them: a key held with other content is renamed.
      const parameters = { ...((merged.parameters as object) ?? {}) } as Record<string, unknown>;
      for (const { gv, doc: v3 } of extra) {
        const converted = gv.openapiV2?.() ?? v3ToV2(JSON.parse(v3.payload));
        for (const [k, v] of Object.entries(mergeParameters(parameters, converted))) paths[k] ??= v;
        for (const [k, v] of Object.entries(converted.definitions)) definitions[k] ??= v;
      }
      doc = openAPIDocument(JSON.stringify({ ...merged, paths, definitions, ...(Object.keys(parameters).length > 0 ? { parameters } : {}) }));
    }
    this.v2Cache = { signature, doc };
    return doc;
  }
}
