/**
 * The extensions server in the server chain: a CRD posted at run time gets kube's conditions and
 * accepted names, and its resource is served at once through the machinery of compiled kinds
 * (validation, defaults, pruning, printer columns, status and scale, watch), appears in
 * discovery and OpenAPI, and goes with its objects when the CRD is deleted; after a restart over
 * SQLite it is served again.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crontabCRD, startChain, type Chain } from './chain.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

function condition(crd: { status?: { conditions?: { type: string }[] } }, type: string) {
  const c = crd.status?.conditions?.find((x) => x.type === type) as Record<string, unknown> | undefined;
  if (!c) return undefined;
  const { lastTransitionTime, ...rest } = c;
  assert.match(String(lastTransitionTime), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  return rest;
}

describe('extensions server', () => {
  let c: Chain;
  before(async () => {
    c = await startChain();
  });
  after(async () => {
    await c.close();
  });

  it('establishes a CRD with kube conditions and accepted names', async () => {
    const created = await c.request('POST', CRDS, crontabCRD());
    assert.equal(created.code, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.status.storedVersions, ['v1']);
    assert.deepEqual(created.body.spec.conversion, { strategy: 'None' });
    assert.equal(created.body.spec.names.listKind, 'CronTabList');
    await c.settle();
    const crd = (await c.request('GET', `${CRDS}/crontabs.stable.example.com`)).body;
    assert.deepEqual(condition(crd, 'NamesAccepted'), { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
    assert.deepEqual(condition(crd, 'Established'), { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
    assert.deepEqual(crd.status.acceptedNames, { plural: 'crontabs', kind: 'CronTab', singular: 'crontab', shortNames: ['ct'], listKind: 'CronTabList' });
  });

  it('serves the custom resource: defaults, pruning, schema validation', async () => {
    const created = await c.request('POST', CRONTABS, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'c1' }, spec: { cronSpec: '* * * * */5', unknown: 1 } }, {});
    assert.equal(created.code, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.spec, { cronSpec: '* * * * */5', replicas: 1 });
    assert.equal(created.body.metadata.generation, 1);
    const strict = await c.request('POST', `${CRONTABS}?fieldValidation=Strict`, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'c9' }, spec: { bogus: 1 } });
    assert.equal(strict.code, 400);
    assert.match(strict.body.message, /strict decoding error: unknown field "spec.bogus"/);
    const bad = await c.request('POST', CRONTABS, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'c2' }, spec: { replicas: 50 } });
    assert.equal(bad.code, 422);
    assert.equal(bad.body.message, 'CronTab.stable.example.com "c2" is invalid: spec.replicas: Invalid value: 50: spec.replicas in body should be less than or equal to 10');
  });

  it('refuses metadata that does not decode into ObjectMeta with 400, named as the schema coercer decodes it (metadata alone, keys sorted)', async () => {
    const bad = await c.request('POST', CRONTABS, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { resourceVersion: 5, name: 'c3', labels: 'x' }, spec: {} });
    assert.equal(bad.code, 400, JSON.stringify(bad.body));
    assert.equal(bad.body.reason, 'BadRequest');
    assert.equal(bad.body.message, 'CronTab in version "v1" cannot be handled as a CronTab: json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string');
  });

  it('prints the CRD printer columns in a Table', async () => {
    const table = (await c.request('GET', CRONTABS, undefined, { accept: TABLE })).body;
    assert.deepEqual(
      table.columnDefinitions.map((col: { name: string }) => col.name),
      ['Name', 'Spec', 'Replicas'],
    );
    assert.deepEqual(table.rows[0].cells.slice(0, 3), ['c1', '* * * * */5', 1]);
  });

  it('serves the status and scale subresources', async () => {
    const status = await c.request('PUT', `${CRONTABS}/c1/status`, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'c1' }, spec: { replicas: 7 }, status: { replicas: 2 } });
    assert.equal(status.code, 200, JSON.stringify(status.body));
    assert.deepEqual(status.body.status, { replicas: 2 });
    assert.equal(status.body.spec.replicas, 1);
    const scale = (await c.request('GET', `${CRONTABS}/c1/scale`)).body;
    assert.equal(scale.kind, 'Scale');
    assert.deepEqual([scale.spec.replicas, scale.status.replicas], [1, 2]);
  });

  it('serves custom resources in JSON only: 406 when only protobuf is acceptable', async () => {
    const pb = 'application/vnd.kubernetes.protobuf';
    const json = await c.request('GET', `${CRONTABS}/c1`, undefined, { accept: `${pb},application/json` });
    assert.equal(json.code, 200);
    assert.equal(json.body.kind, 'CronTab');
    const refused = await c.request('GET', `${CRONTABS}/c1`, undefined, { accept: pb });
    assert.equal(refused.code, 406);
  });

  it('refuses a body of another kind as the custom resource validator does (422)', async () => {
    const r = await c.request('POST', CRONTABS, { apiVersion: 'stable.example.com/v1', kind: 'CronJob', metadata: { name: 'k1' }, spec: {} });
    assert.equal(r.code, 422, JSON.stringify(r.body));
    // kube's rest.BeforeCreate names the kind its typer reads from the object: the body's.
    assert.equal(r.body.message, 'CronJob.stable.example.com "k1" is invalid: kind: Invalid value: "CronJob": must be CronTab');
    assert.deepEqual({ ...r.body.details, causes: undefined }, { name: 'k1', group: 'stable.example.com', kind: 'CronJob', causes: undefined });
  });

  it('a patch whose result has no kind, or an apiVersion of another group, is 422 as kube\'s patch decode', async () => {
    const jsonPatch = { 'content-type': 'application/json-patch+json' };
    const before = (await c.request('GET', `${CRONTABS}/c1`)).body;
    // kube decodes the patched JSON with no defaults: the unstructured decoder needs a kind, and
    // the CR converter an apiVersion of the CRD's group (crConverter.ConvertToVersion).
    const cases: Array<[unknown, (json: string) => string]> = [
      [[{ op: 'remove', path: '/kind' }], (json) => `Object 'Kind' is missing in '${json}'`],
      [[{ op: 'replace', path: '/apiVersion', value: 'other.example.com/v1' }], () => 'other.example.com/v1, Kind=CronTab is unstructured and is not suitable for converting to "stable.example.com/v1"'],
      [[{ op: 'remove', path: '/apiVersion' }], () => '/, Kind=CronTab is unstructured and is not suitable for converting to "stable.example.com/v1"'],
    ];
    for (const [patch, error] of cases) {
      const r = await c.request('PATCH', `${CRONTABS}/c1`, patch, jsonPatch);
      assert.equal(r.code, 422, JSON.stringify(r.body));
      const cause = r.body.details.causes[0];
      assert.equal(cause.field, 'patch');
      const json = JSON.parse(cause.message.slice('Invalid value: '.length, cause.message.indexOf('": ') + 1));
      assert.equal(cause.message, `Invalid value: ${JSON.stringify(json)}: ${error(json)}`);
      assert.equal(r.body.message, ` "" is invalid: patch: ${cause.message}`);
    }
    assert.equal((await c.request('GET', `${CRONTABS}/c1`)).body.metadata.resourceVersion, before.metadata.resourceVersion);
  });

  it('refuses strategic merge patch with kube 415, and does not offer it in OpenAPI', async () => {
    const smp = await c.request('PATCH', `${CRONTABS}/c1`, { spec: { replicas: 3 } }, { 'content-type': 'application/strategic-merge-patch+json' });
    assert.equal(smp.code, 415, JSON.stringify(smp.body));
    assert.equal(smp.body.reason, 'UnsupportedMediaType');
    const merge = await c.request('PATCH', `${CRONTABS}/c1`, { spec: { replicas: 3 } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal(merge.code, 200, JSON.stringify(merge.body));
    const doc = (await c.request('GET', '/openapi/v3/apis/stable.example.com/v1')).body;
    const patch = doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}'].patch;
    assert.ok(!('application/strategic-merge-patch+json' in patch.requestBody.content));
    await c.request('PATCH', `${CRONTABS}/c1`, { spec: { replicas: 1 } }, { 'content-type': 'application/merge-patch+json' });
  });

  it('watches the custom resource', async () => {
    const res = await c.chain.handler.handle(
      { method: 'GET', url: `${CRONTABS}?watch=true&resourceVersion=0`, headers: {}, signal: new AbortController().signal },
      { user: { name: 'admin', groups: ['system:masters'] } } as never,
    );
    assert.equal(res.kind, 'stream');
    if (res.kind !== 'stream') return;
    const it = res.chunks[Symbol.asyncIterator]();
    const first = JSON.parse(String((await it.next()).value).trim());
    assert.equal(first.type, 'ADDED');
    assert.equal(first.object.metadata.name, 'c1');
    res.close();
  });

  it('reports discovery and OpenAPI for the established version', async () => {
    const gv = c.extensions.groupVersions().find((g) => g.group === 'stable.example.com');
    assert.ok(gv);
    assert.deepEqual([gv.version, gv.groupPriority, gv.versionPriority], ['v1', 1000, 100]);
    const list = (await c.request('GET', '/apis/stable.example.com/v1')).body;
    assert.deepEqual(
      list.resources.map((r: { name: string }) => r.name),
      // kube's CRD discovery lists status before scale.
      ['crontabs', 'crontabs/status', 'crontabs/scale'],
    );
    assert.deepEqual(list.resources[0].shortNames, ['ct']);
    const index = (await c.request('GET', '/openapi/v3')).body;
    const url = index.paths['apis/stable.example.com/v1'].serverRelativeURL as string;
    const doc = (await c.request('GET', url)).body;
    const schema = doc.components.schemas['com.example.stable.v1.CronTab'];
    assert.deepEqual(schema['x-kubernetes-group-version-kind'], [{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }]);
    const patch = doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}'].patch;
    assert.deepEqual(patch['x-kubernetes-group-version-kind'], { group: 'stable.example.com', version: 'v1', kind: 'CronTab' });
    assert.ok(patch.parameters.some((p: { name: string }) => p.name === 'fieldValidation'));
  });

  it('refuses names another CRD or a compiled resource of the group holds', async () => {
    assert.equal((await c.request('POST', CRDS, crontabCRD({ plural: 'crons', kind: 'Cron', shortNames: ['ct'] }))).code, 201);
    assert.equal((await c.request('POST', CRDS, crontabCRD({ group: 'widgets.example.com', plural: 'widgets', kind: 'Widget2', shortNames: [] }))).code, 201);
    await c.settle();
    const crons = (await c.request('GET', `${CRDS}/crons.stable.example.com`)).body;
    assert.deepEqual(condition(crons, 'NamesAccepted'), { type: 'NamesAccepted', status: 'False', reason: 'ShortNamesConflict', message: '"ct" is already in use' });
    const widgets = (await c.request('GET', `${CRDS}/widgets.widgets.example.com`)).body;
    assert.deepEqual(condition(widgets, 'NamesAccepted'), { type: 'NamesAccepted', status: 'False', reason: 'PluralConflict', message: '"widgets" is already in use' });
    assert.deepEqual(condition(widgets, 'Established'), { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
    assert.equal(c.extensions.groupVersions().filter((g) => g.group === 'widgets.example.com').length, 0);
    assert.equal((await c.request('DELETE', `${CRDS}/widgets.widgets.example.com`)).code, 200);
    assert.equal((await c.request('DELETE', `${CRDS}/crons.stable.example.com`)).code, 200);
    await c.settle();
  });

  it('validates the CRD itself with kube messages', async () => {
    const bad = crontabCRD();
    (bad.metadata as { name: string }).name = 'wrong.stable.example.com';
    const res = await c.request('POST', CRDS, bad);
    assert.equal(res.code, 422);
    assert.equal(
      res.body.message,
      'CustomResourceDefinition.apiextensions.k8s.io "wrong.stable.example.com" is invalid: metadata.name: Invalid value: "wrong.stable.example.com": must be spec.names.plural+"."+spec.group',
    );
  });

  it('deleting the CRD removes its objects and its resource (cleanup finalizer, Terminating)', async () => {
    const deleted = await c.request('DELETE', `${CRDS}/crontabs.stable.example.com`);
    assert.equal(deleted.code, 200);
    assert.deepEqual(deleted.body.metadata.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
    assert.deepEqual(condition(deleted.body, 'Terminating'), {
      type: 'Terminating',
      status: 'True',
      reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    });
    await c.settle();
    assert.equal((await c.request('GET', `${CRDS}/crontabs.stable.example.com`)).code, 404);
    assert.equal((await c.request('GET', CRONTABS)).code, 404);
    assert.equal(c.extensions.groupVersions().length, 0);
    // Created again, the resource starts empty.
    assert.equal((await c.request('POST', CRDS, crontabCRD())).code, 201);
    await c.settle();
    const list = await c.request('GET', CRONTABS);
    assert.equal(list.code, 200);
    assert.deepEqual(list.body.items, []);
  });

  it('serves several versions, converting with the None strategy, with deprecation warnings', async () => {
    const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'string' } } } } } };
    const crd = crontabCRD({
      plural: 'gizmos',
      kind: 'Gizmo',
      shortNames: [],
      versions: [
        { name: 'v1beta1', served: true, storage: false, deprecated: true, schema },
        { name: 'v1', served: true, storage: true, schema },
      ],
    });
    assert.equal((await c.request('POST', CRDS, crd)).code, 201);
    await c.settle();
    const created = await c.request('POST', '/apis/stable.example.com/v1beta1/namespaces/default/gizmos', { apiVersion: 'stable.example.com/v1beta1', kind: 'Gizmo', metadata: { name: 'g1' }, spec: { size: 'L' } });
    assert.equal(created.code, 201, JSON.stringify(created.body));
    assert.equal(created.body.apiVersion, 'stable.example.com/v1beta1');
    assert.deepEqual(created.headers.Warning, ['299 - "stable.example.com/v1beta1 Gizmo is deprecated; use stable.example.com/v1 Gizmo"']);
    const v1 = await c.request('GET', '/apis/stable.example.com/v1/namespaces/default/gizmos/g1');
    assert.equal(v1.body.apiVersion, 'stable.example.com/v1');
    assert.equal(v1.headers.Warning, undefined);
    const versions = c.extensions.groupVersions().filter((g) => g.group === 'stable.example.com').map((g) => g.version).sort();
    assert.deepEqual(versions, ['v1', 'v1beta1']);
  });
});

describe('extensions server restart', () => {
  it('serves the CRDs in SQLite storage again after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kgen-crd-restart-'));
    try {
      const url = `sqlite:${join(dir, 'kgen.db')}`;
      const first = await startChain(url, dir);
      assert.equal((await first.request('POST', CRDS, crontabCRD())).code, 201);
      await first.settle();
      assert.equal((await first.request('POST', CRONTABS, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'kept' }, spec: {} })).code, 201);
      await first.close();
      const second = await startChain(url, dir);
      try {
        // Served as soon as createExtensionsServer resolves.
        const got = await second.request('GET', `${CRONTABS}/kept`);
        assert.equal(got.code, 200, JSON.stringify(got.body));
        assert.equal(got.body.spec.replicas, 1);
        assert.ok(second.extensions.groupVersions().some((g) => g.group === 'stable.example.com'));
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
