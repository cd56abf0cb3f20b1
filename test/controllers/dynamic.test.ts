/**
 * The namespace controller and the garbage collector over resources defined at run time: a CRD
 * established after the controllers started is monitored, its objects are deleted with their
 * namespace, ownerReferences to and from custom resources are followed, a rebuilt resource hands
 * its informer over without spurious events, and the monitor stops when the CRD is deleted.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startControllers, type RunningControllers } from '../../runtime/controllers/index.js';
import { crontabCRD, startChain, type Chain } from '../apiextensions/chain.js';
import { eventually as eventuallyWithin } from './helpers.js';

/** Generous: the suite runs beside many others on a loaded machine; it returns as soon as the check holds. */
const eventually = <T>(check: () => Promise<T> | T, what: string) => eventuallyWithin(check, what, 20_000);

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CRONTABS = (ns: string) => `/apis/stable.example.com/v1/namespaces/${ns}/crontabs`;
const WIDGETS = (ns: string) => `/apis/widgets.example.com/v1/namespaces/${ns}/widgets`;
const RESOURCE = 'crontabs.stable.example.com';

interface Obj {
  apiVersion: string;
  kind: string;
  metadata: { name: string; uid?: string; namespace?: string };
}

function ownerRefTo(owner: Obj) {
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid! };
}

function cronTab(name: string, owners: ReturnType<typeof ownerRefTo>[] = []) {
  return { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name, ...(owners.length ? { ownerReferences: owners } : {}) }, spec: { cronSpec: '* * * * *' } };
}

function widget(name: string, owners: ReturnType<typeof ownerRefTo>[] = []) {
  return { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name, ...(owners.length ? { ownerReferences: owners } : {}) }, spec: { replicas: 1 } };
}

describe('controllers over custom resources', () => {
  let c: Chain;
  let controllers: RunningControllers;
  const logged: string[] = [];

  const create = async (url: string, body: unknown): Promise<Obj> => {
    const res = await c.request('POST', url, body);
    assert.equal(res.code, 201, JSON.stringify(res.body));
    return res.body as Obj;
  };
  const gone = (url: string) => async () => (await c.request('GET', url)).code === 404;

  before(async () => {
    c = await startChain();
    controllers = startControllers({ apis: c.installer, dynamic: c.extensions, log: (l) => logged.push(l), queue: { baseDelayMs: 5, maxDelayMs: 50 } });
    await controllers.synced;
  });
  after(async () => {
    await controllers.stop();
    await c.close();
  });

  it('monitors a CRD established after start', async () => {
    assert.ok(!controllers.informers.resources().includes(RESOURCE));
    assert.equal((await c.request('POST', CRDS, crontabCRD())).code, 201);
    await eventually(() => controllers.informers.resources().includes(RESOURCE), 'the crontabs monitor');
  });

  it('deletes the custom resources of a deleted namespace, then the namespace', async () => {
    await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'doomed' } });
    await create(CRONTABS('doomed'), cronTab('in-ns'));
    await create(WIDGETS('doomed'), widget('w-in-ns'));
    assert.equal((await c.request('DELETE', '/api/v1/namespaces/doomed')).code, 200);
    await eventually(gone(`${CRONTABS('doomed')}/in-ns`), 'the custom resource to go with its namespace');
    await eventually(gone('/api/v1/namespaces/doomed'), 'the namespace to be finalized');
  });

  it('collects a custom resource whose owner goes (Background)', async () => {
    const owner = await create(WIDGETS('default'), widget('owner-w'));
    await create(CRONTABS('default'), cronTab('dep-ct', [ownerRefTo(owner)]));
    assert.equal((await c.request('DELETE', `${WIDGETS('default')}/owner-w`, { propagationPolicy: 'Background' })).code, 200);
    await eventually(gone(`${CRONTABS('default')}/dep-ct`), 'the custom resource dependent to be collected');
  });

  it('collects the dependents of a custom resource owner', async () => {
    const owner = await create(CRONTABS('default'), cronTab('owner-ct'));
    await create(WIDGETS('default'), widget('dep-w', [ownerRefTo(owner)]));
    await create(CRONTABS('default'), cronTab('dep-ct2', [ownerRefTo(owner)]));
    assert.equal((await c.request('DELETE', `${CRONTABS('default')}/owner-ct`, { propagationPolicy: 'Background' })).code, 200);
    await eventually(gone(`${WIDGETS('default')}/dep-w`), 'the compiled dependent to be collected');
    await eventually(gone(`${CRONTABS('default')}/dep-ct2`), 'the custom resource dependent to be collected');
  });

  it('keeps following a CRD whose spec changed (the informer hands over, no object is lost)', async () => {
    const kept = await create(CRONTABS('default'), cronTab('kept'));
    // A dependent from before the change: the graph holds a node for its owner (the GC's graph
    // keeps nodes only for objects it needs, see DependencyGraph), which the handover must keep.
    await create(WIDGETS('default'), widget('dep-w1', [ownerRefTo(kept)]));
    const before = controllers.informers.all.find((i) => i.resource === RESOURCE)!;
    await eventually(() => controllers.garbageCollector.graph.get(kept.metadata.uid!)?.store === before.store, "the owner's node, from the crontabs informer");
    const crd = (await c.request('GET', `${CRDS}/${RESOURCE}`)).body;
    crd.spec.versions[0].additionalPrinterColumns.push({ name: 'Image', type: 'string', jsonPath: '.spec.image' });
    assert.equal((await c.request('PUT', `${CRDS}/${RESOURCE}`, crd)).code, 200);
    const after = await eventually(() => {
      const i = controllers.informers.all.find((x) => x.resource === RESOURCE);
      return i !== before ? i : undefined;
    }, 'a new crontabs informer');
    await after.synced;
    assert.ok(after.list().some((o) => o.metadata.uid === kept.metadata.uid));
    assert.equal(controllers.garbageCollector.graph.get(kept.metadata.uid!)?.store, after.store);
    await create(WIDGETS('default'), widget('dep-w2', [ownerRefTo(kept)]));
    assert.equal((await c.request('DELETE', `${CRONTABS('default')}/kept`)).code, 200);
    await eventually(gone(`${WIDGETS('default')}/dep-w2`), 'the dependent of the rebuilt resource to be collected');
    await eventually(gone(`${WIDGETS('default')}/dep-w1`), 'the dependent from before the change to be collected');
  });

  it('stops the monitor when the CRD is deleted', async () => {
    const orphan = await create(CRONTABS('default'), cronTab('last'));
    assert.equal((await c.request('DELETE', `${CRDS}/${RESOURCE}`)).code, 200);
    await eventually(() => !controllers.informers.resources().includes(RESOURCE), 'the crontabs monitor to stop');
    assert.equal(controllers.garbageCollector.graph.get(orphan.metadata.uid!), undefined);
    assert.deepEqual(logged.filter((l) => l.includes('giving up')), []);
  });

  it('collects a dependent whose custom resource owner never existed once the CRD is served', async () => {
    const ghost = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', name: 'ghost', uid: '00000000-0000-0000-0000-000000000001' };
    await create(WIDGETS('default'), widget('waits', [ghost]));
    // Not served: the reference cannot be checked, so the widget stays.
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await c.request('GET', `${WIDGETS('default')}/waits`)).code, 200);
    assert.equal((await c.request('POST', CRDS, crontabCRD())).code, 201);
    await eventually(gone(`${WIDGETS('default')}/waits`), 'the dependent of a missing owner to be collected');
  });
});

describe('controllers started after CRDs exist', () => {
  it('monitors the custom resources served at start', async () => {
    const c = await startChain();
    try {
      assert.equal((await c.request('POST', CRDS, crontabCRD())).code, 201);
      // Established where the controllers look at start (the server's resource scopes).
      await eventually(() => c.extensions.resourceScopes().length === 1, 'the CRD to be established');
      const controllers = startControllers({ apis: c.installer, dynamic: c.extensions });
      try {
        await controllers.synced;
        assert.ok(controllers.informers.resources().includes(RESOURCE));
      } finally {
        await controllers.stop();
      }
    } finally {
      await c.close();
    }
  });
});
