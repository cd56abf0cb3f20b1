/**
 * Table output as kube prints it: a custom resource has Name plus exactly its CRD's
 * additionalPrinterColumns (Name and Age when it declares none, kube's serveDefaultColumnsIfEmpty);
 * the CustomResourceDefinition kind itself has kube's default table convertor columns (Name,
 * Created At in RFC 3339); compiled kinds keep their declared columns followed by Age.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { crontabCRD, startChain, type Chain } from './chain.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'string' } } } } } };

interface Column {
  name: string;
  type: string;
}

describe('tables', () => {
  let c: Chain;
  const columns = async (url: string) => {
    const res = await c.request('GET', url, undefined, { accept: TABLE });
    assert.equal(res.code, 200, JSON.stringify(res.body));
    return { names: (res.body.columnDefinitions as Column[]).map((col) => col.name), table: res.body };
  };

  before(async () => {
    c = await startChain();
    assert.equal((await c.request('POST', CRDS, crontabCRD())).code, 201);
    const bare = crontabCRD({ plural: 'gizmos', kind: 'Gizmo', shortNames: [], versions: [{ name: 'v1', served: true, storage: true, schema }] });
    assert.equal((await c.request('POST', CRDS, bare)).code, 201);
    await c.settle();
    const created = await c.request('POST', '/apis/stable.example.com/v1/namespaces/default/gizmos', { apiVersion: 'stable.example.com/v1', kind: 'Gizmo', metadata: { name: 'g1' }, spec: {} });
    assert.equal(created.code, 201);
  });
  after(async () => {
    await c.close();
  });

  it('prints exactly the declared columns of a CRD, without Age', async () => {
    const { names } = await columns('/apis/stable.example.com/v1/namespaces/default/crontabs');
    assert.deepEqual(names, ['Name', 'Spec', 'Replicas']);
  });

  it('prints Name and Age for a CRD without declared columns', async () => {
    const { names, table } = await columns('/apis/stable.example.com/v1/namespaces/default/gizmos');
    assert.deepEqual(names, ['Name', 'Age']);
    assert.equal(table.columnDefinitions[1].type, 'date');
    assert.equal(table.rows[0].cells[0], 'g1');
    assert.match(table.rows[0].cells[1], /^\d+s$/);
  });

  it('prints CustomResourceDefinitions with Name and Created At (RFC 3339), as kube', async () => {
    const { names, table } = await columns(`${CRDS}/crontabs.stable.example.com`);
    assert.deepEqual(names, ['Name', 'Created At']);
    const crd = (await c.request('GET', `${CRDS}/crontabs.stable.example.com`)).body;
    assert.deepEqual(table.rows[0].cells, ['crontabs.stable.example.com', crd.metadata.creationTimestamp]);
  });

  it('keeps Age after the declared columns of a compiled kind', async () => {
    const { names } = await columns('/apis/widgets.example.com/v1/namespaces/default/widgets');
    assert.equal(names[0], 'Name');
    assert.equal(names.at(-1), 'Age');
    const ns = await columns('/api/v1/namespaces');
    assert.deepEqual(ns.names, ['Name', 'Status', 'Age']);
  });
});
