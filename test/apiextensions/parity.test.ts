/**
 * One code path makes the documents of compiled kinds and CRDs: a kind compiled by kgen and the
 * same kind served as a CustomResourceDefinition (the CRD manifest kgen emits for it: same group,
 * version, kind, names and schema) have the same discovery entries (legacy and aggregated) and
 * the same OpenAPI v3 and v2 schemas and operations, except where kube-apiserver itself serves a
 * custom resource differently from a Go-typed one. Each allowed difference is listed below with
 * kube's reason; anything else that differs fails the test.
 *
 * The compiled side is the generator's output (the compiled-APIs server serves those files
 * verbatim); the CRD side is what the server chain serves after the CRD is established.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile } from '../../generator/index.js';
import { yaml } from '../../runtime/api/yaml.js';
import { startChain, type Chain } from './chain.js';

const GROUP = 'gadgets.example.com';
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** Two kinds covering both scopes, status and scale, short names and categories; no named types, so both schemas are inline. */
const GADGET = `import type { int32 } from 'kgen';

/**
 * Gadget is a thing with replicas.
 * @kgen:resource scope=Namespaced shortNames=gd categories=all
 * @kgen:subresource status
 * @kgen:subresource scale specReplicasPath=.spec.replicas statusReplicasPath=.status.replicas labelSelectorPath=.status.selector
 * @kgen:printcolumn name=Replicas type=integer jsonPath=.spec.replicas
 */
export interface Gadget {
  /** Desired state. */
  spec: {
    /**
     * Number of replicas.
     * @minimum 0
     * @default 1
     */
    replicas?: int32;
    /** Colour of the gadget. */
    color?: 'red' | 'green';
  };
  /** Observed state. */
  status?: {
    replicas?: int32;
    selector?: string;
  };
}

/**
 * GadgetPool groups gadgets cluster-wide.
 * @kgen:resource scope=Cluster
 */
export interface GadgetPool {
  spec: {
    /** Most gadgets in the pool. */
    size?: int32;
  };
}
`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('a compiled kind and the same kind served as a CRD', () => {
  let dir: string;
  let chain: Chain;
  const compiled: Record<string, Json> = {};

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kgen-parity-'));
    mkdirSync(join(dir, GROUP, 'v1'), { recursive: true });
    writeFileSync(join(dir, GROUP, 'v1', 'gadget.ts'), GADGET);
    const result = compile({ apisDir: dir });
    assert.equal(result.ok, true, JSON.stringify(result.diagnostics));
    const file = (path: string) => result.files.find((f) => f.path === path)?.content ?? assert.fail(`no ${path}`);
    compiled.resources = JSON.parse(file(`discovery/apis/${GROUP}/v1.json`));
    compiled.aggregated = JSON.parse(file('discovery/aggregated.json')).items.find((g: Json) => g.metadata.name === GROUP);
    compiled.v3 = JSON.parse(file(`openapi/v3/apis/${GROUP}/v1.json`));
    compiled.v2 = JSON.parse(file('openapi/v2/swagger.json'));
    chain = await startChain();
    for (const plural of ['gadgets', 'gadgetpools']) {
      const crd = yaml().parse(file(`crds/${GROUP}_${plural}.yaml`));
      const created = await chain.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
      assert.equal(created.code, 201, JSON.stringify(created.body));
    }
    await chain.settle();
  });

  after(async () => {
    await chain?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the same resources in /apis/<group>/<version>', async () => {
    const served = await chain.request('GET', `/apis/${GROUP}/v1`);
    assert.equal(served.code, 200);
    assert.deepEqual(legacyComparable(served.body), legacyComparable(compiled.resources));
  });

  it('lists the same resources in aggregated discovery (apidiscovery.k8s.io/v2)', async () => {
    const served = await chain.request('GET', '/apis', undefined, { accept: AGGREGATED });
    assert.equal(served.code, 200);
    const group = served.body.items.find((g: Json) => g.metadata.name === GROUP);
    assert.ok(group, 'the CRD group is discovered');
    assert.deepEqual(aggregatedComparable(group), aggregatedComparable(compiled.aggregated));
  });

  it('differs in order only where kube does: verbs and subresources', async () => {
    const served = (await chain.request('GET', `/apis/${GROUP}/v1`)).body;
    const names = (list: Json) => list.resources.map((r: Json) => r.name);
    const gadgets = (list: Json) => list.resources.find((r: Json) => r.name === 'gadgets');
    assert.deepEqual(names(compiled.resources), ['gadgetpools', 'gadgets', 'gadgets/scale', 'gadgets/status']);
    assert.deepEqual(names(served), ['gadgetpools', 'gadgets', 'gadgets/status', 'gadgets/scale']);
    assert.deepEqual(gadgets(compiled.resources).verbs, ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    assert.deepEqual(gadgets(served).verbs, ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch']);
    const aggregated = (await chain.request('GET', '/apis', undefined, { accept: AGGREGATED })).body.items.find((g: Json) => g.metadata.name === GROUP);
    const subresources = (group: Json) => group.versions[0].resources.find((r: Json) => r.resource === 'gadgets').subresources.map((x: Json) => x.subresource);
    assert.deepEqual(subresources(compiled.aggregated), ['scale', 'status']);
    assert.deepEqual(subresources(aggregated), ['status', 'scale']);
  });

  it('publishes the same OpenAPI v3 document', async () => {
    const served = await chain.request('GET', `/openapi/v3/apis/${GROUP}/v1`);
    assert.equal(served.code, 200);
    assert.deepEqual(v3Comparable(served.body), v3Comparable(compiled.v3));
  });

  it('publishes the same paths and definitions in OpenAPI v2', async () => {
    const served = await chain.request('GET', '/openapi/v2', undefined, { accept: 'application/json' });
    assert.equal(served.code, 200);
    assert.deepEqual(v2Comparable(served.body), v2Comparable(compiled.v2));
  });
});

/**
 * Allowed difference: verb order. kube-apiserver's installer sorts a Go-typed resource's verbs;
 * apiextensions' discovery controller writes a custom resource's in its own fixed order
 * (delete, deletecollection, get, list, patch, create, update, watch). The set is the same.
 */
const verbSet = (verbs: string[]) => [...verbs].sort();

/**
 * Allowed difference: subresource order. The installer registers a Go-typed resource's storage
 * paths sorted (scale before status); apiextensions' discovery controller appends status, then
 * scale. Compared by name.
 */
const byName = <T>(items: T[], name: (t: T) => string) => [...items].sort((a, b) => name(a).localeCompare(name(b)));

function legacyComparable(list: Json): Json {
  const resources = list.resources.map((r: Json) => ({ ...r, verbs: verbSet(r.verbs) }));
  return { ...list, resources: byName(resources, (r: Json) => r.name) };
}

function aggregatedComparable(group: Json): Json {
  return {
    name: group.metadata.name,
    versions: group.versions.map((v: Json) => ({
      ...v,
      resources: v.resources.map((r: Json) => ({
        ...r,
        verbs: verbSet(r.verbs),
        ...(r.subresources ? { subresources: byName(r.subresources, (s: Json) => s.subresource) } : {}),
      })),
    })),
  };
}

/**
 * Allowed difference: `default: {}` on metadata. kube-openapi gives a Go type's non-pointer
 * struct field (ObjectMeta, ListMeta) an empty-object default; apiextensions-apiserver's OpenAPI
 * builder refers to ObjectMeta/ListMeta without one.
 */
function withoutMetadataDefault(schemas: Json, own: string[]): Json {
  const out = structuredClone(schemas);
  for (const name of own) {
    const metadata = out[name]?.properties?.metadata;
    if (metadata) delete metadata.default;
  }
  return out;
}

/**
 * Allowed difference: patch content types. kube-apiserver accepts strategic merge patches only
 * for Go types (a CRD has no patch strategy to merge by), so a custom resource's PATCH operations
 * list json-patch, merge-patch and apply-patch only.
 */
const STRATEGIC = 'application/strategic-merge-patch+json';

function ownSchemaNames(doc: Json, definitions: 'v3' | 'v2'): string[] {
  const schemas = definitions === 'v3' ? doc.components.schemas : doc.definitions;
  return Object.keys(schemas).filter((k) => k.startsWith('com.example.gadgets.'));
}

function v3Comparable(doc: Json): Json {
  const paths = structuredClone(doc.paths);
  for (const item of Object.values<Json>(paths)) {
    const body = item.patch?.requestBody?.content;
    if (body) delete body[STRATEGIC];
  }
  // Allowed difference: `info`. kube's CRD handler titles its per-group/version document
  // "Kubernetes CRD Swagger"; the Go-typed APIs' documents are titled "Kubernetes".
  return { openapi: doc.openapi, paths, schemas: withoutMetadataDefault(doc.components.schemas, ownSchemaNames(doc, 'v3')) };
}

function v2Comparable(doc: Json): Json {
  const paths = Object.fromEntries(Object.entries<Json>(doc.paths).filter(([p]) => p.startsWith(`/apis/${GROUP}/`)).map(([p, item]) => [p, structuredClone(item)]));
  for (const item of Object.values<Json>(paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      if (method === 'parameters') continue;
      if (method === 'patch') op.consumes = op.consumes.filter((t: string) => t !== STRATEGIC);
      // Allowed difference: what other operations consume. kube-apiserver's installer lets a Go
      // type's routes consume */*; apiextensions' builder lists JSON and YAML for a custom resource's.
      else delete op.consumes;
      // Allowed difference: protobuf. kube-apiserver serves Go types as
      // application/vnd.kubernetes.protobuf too; custom resources only as JSON and YAML.
      if (op.produces) op.produces = op.produces.filter((t: string) => t !== 'application/vnd.kubernetes.protobuf');
    }
  }
  const names = ownSchemaNames(doc, 'v2');
  const definitions = withoutMetadataDefault(Object.fromEntries(names.map((n) => [n, doc.definitions[n]])), names);
  return { paths, definitions };
}
