/**
 * The GC's partial graph over custom resources (owners and dependents), with CRDs created and
 * deleted while dependents exist, and with the custom resources' informer watch broken while
 * an owner goes: over memory storage and over etcd (the chain's storage; informers through the
 * cacher). Each case has its own CRD, so the cases share one chain.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startControllers, type RunningControllers } from '../../runtime/controllers/index.js';
import { crontabCRD, startChain, type Chain } from '../apiextensions/chain.js';
import { EtcdCluster } from '../support/etcd.js';
import { breakWatch, eventually as eventuallyWithin } from './helpers.js';

const eventually = <T>(check: () => Promise<T> | T, what: string) => eventuallyWithin(check, what, 20_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const WIDGETS = (ns: string) => `/apis/widgets.example.com/v1/namespaces/${ns}/widgets`;

interface Obj {
  apiVersion: string;
  kind: string;
  metadata: { name: string; uid?: string; namespace?: string; deletionTimestamp?: string; finalizers?: string[]; ownerReferences?: unknown[] };
}
type Ref = { apiVersion: string; kind: string; name: string; uid: string; blockOwnerDeletion?: boolean };

const ref = (owner: Obj, extra: Partial<Ref> = {}): Ref => ({ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid!, ...extra });
const widget = (name: string, owners: Ref[] = [], finalizers?: string[]) => ({
  apiVersion: 'widgets.example.com/v1',
  kind: 'Widget',
  metadata: { name, ...(owners.length ? { ownerReferences: owners } : {}), ...(finalizers ? { finalizers } : {}) },
  spec: { replicas: 1 },
});

/** A CRD of its own per case: kind `<Kind>`, plural `<kind>s`, group `<kind>.example.com`. */
function kindOf(kind: string) {
  const plural = `${kind.toLowerCase()}s`;
  const group = `${kind.toLowerCase()}.example.com`;
  return {
    crd: crontabCRD({ group, plural, kind, shortNames: [] }),
    resource: `${plural}.${group}`,
    url: (ns: string) => `/apis/${group}/v1/namespaces/${ns}/${plural}`,
    object: (name: string, owners: Ref[] = []) => ({
      apiVersion: `${group}/v1`,
      kind,
      metadata: { name, ...(owners.length ? { ownerReferences: owners } : {}) },
      spec: { cronSpec: '* * * * *' },
    }),
  };
}

let etcdStarted: Promise<EtcdCluster> | undefined;
after(async () => {
  if (etcdStarted) await (await etcdStarted).stop();
});

const backends: Array<[string, () => Promise<string>]> = [
  ['memory', async () => 'memory:'],
  ['etcd', async () => `etcd://${(await (etcdStarted ??= EtcdCluster.start())).endpoints.map((e) => new URL(e).host).join(',')}`],
];

for (const [backend, storageURL] of backends) {
  describe(`GC over its partial graph, custom resources (${backend})`, () => {
    let c: Chain;
    let controllers: RunningControllers;
    const logged: string[] = [];

    const create = async (url: string, body: unknown): Promise<Obj> => {
      const res = await c.request('POST', url, body);
      assert.equal(res.code, 201, JSON.stringify(res.body));
      return res.body as Obj;
    };
    const exists = async (url: string) => (await c.request('GET', url)).code === 200;
    const gone = (url: string) => eventually(async () => (await c.request('GET', url)).code === 404, `${url} to be deleted`);
    const served = async (kind: ReturnType<typeof kindOf>) => {
      assert.equal((await c.request('POST', CRDS, kind.crd)).code, 201);
      await eventually(() => controllers.informers.all.find((i) => i.resource === kind.resource), `the ${kind.resource} monitor`);
      await eventually(async () => (await c.request('GET', kind.url('default'))).code === 200, `${kind.resource} to be served`);
    };
    const settled = async () => {
      await sleep(60);
      await eventually(() => controllers.idle(), 'the controllers to be idle');
    };

    before(async () => {
      c = await startChain(await storageURL());
      controllers = startControllers({ apis: c.installer, dynamic: c.extensions, log: (l) => logged.push(l), queue: { baseDelayMs: 5, maxDelayMs: 50 } });
      await controllers.synced;
    });
    after(async () => {
      await controllers.stop();
      await c.close();
    });

    it('deleting a CRD collects the dependents of its custom resources, and its custom dependents go', async () => {
      const k = kindOf('Alpha');
      await served(k);
      const owner = await create(k.url('default'), k.object('alpha-owner'));
      await create(WIDGETS('default'), widget('of-alpha', [ref(owner)]));
      await create(k.url('default'), k.object('alpha-of-alpha', [ref(owner)]));
      const wOwner = await create(WIDGETS('default'), widget('owner-of-alpha'));
      await create(k.url('default'), k.object('alpha-of-widget', [ref(wOwner)]));
      await settled();
      assert.equal((await c.request('DELETE', `${CRDS}/${k.resource}`)).code, 200);
      // kube: the CRD's cleanup deletes its objects while the kind is still served; the GC then
      // finds the widget's owner gone.
      await gone(`${CRDS}/${k.resource}`);
      await gone(`${WIDGETS('default')}/of-alpha`);
      await settled();
      assert.ok(await exists(`${WIDGETS('default')}/owner-of-alpha`));
      assert.equal((await c.request('DELETE', `${WIDGETS('default')}/owner-of-alpha`)).code, 200);
      await settled();
      assert.deepEqual(logged.filter((l) => l.includes('giving up')), []);
    });

    it('a CRD created while dependents name its kind: they are checked once it is served', async () => {
      const k = kindOf('Beta');
      const ghost = { apiVersion: `beta.example.com/v1`, kind: 'Beta', name: 'ghost', uid: '00000000-0000-4000-8000-0000000000b1' };
      await create(WIDGETS('default'), widget('waits-for-beta', [ghost]));
      await settled();
      assert.ok(await exists(`${WIDGETS('default')}/waits-for-beta`), 'not served: the reference cannot be checked');
      await served(k);
      await gone(`${WIDGETS('default')}/waits-for-beta`);
      // Served: an owner named before the dependent's informer saw it is confirmed, and collected with.
      const owner = await create(k.url('default'), k.object('beta-owner'));
      await create(WIDGETS('default'), widget('of-beta', [ref(owner)]));
      await settled();
      assert.ok(await exists(`${WIDGETS('default')}/of-beta`));
      assert.equal((await c.request('DELETE', `${k.url('default')}/beta-owner`)).code, 200);
      await gone(`${WIDGETS('default')}/of-beta`);
      assert.deepEqual(logged.filter((l) => l.includes('giving up')), []);
    });

    it('a CRD deleted and created again: dependents of the old custom resources are collected', async () => {
      const k = kindOf('Gamma');
      await served(k);
      const owner = await create(k.url('default'), k.object('gamma-owner'));
      // Held: the widget outlives the CRD (its finalizer keeps it), then names an owner of a kind
      // no longer served, then one of the new CRD's objects of the same name (another uid).
      await create(WIDGETS('default'), widget('of-gamma', [ref(owner, { blockOwnerDeletion: true })], ['example.com/hold']));
      await settled();
      assert.equal((await c.request('DELETE', `${CRDS}/${k.resource}`)).code, 200);
      await gone(`${CRDS}/${k.resource}`);
      await eventually(() => !controllers.informers.resources().includes(k.resource), 'the monitor to stop');
      await served(k);
      const again = await create(k.url('default'), k.object('gamma-owner'));
      assert.notEqual(again.metadata.uid, owner.metadata.uid);
      await eventually(async () => ((await c.request('GET', `${WIDGETS('default')}/of-gamma`)).body as Obj).metadata.deletionTimestamp, 'of-gamma to be deleted');
      const held = (await c.request('GET', `${WIDGETS('default')}/of-gamma`)).body as Obj;
      held.metadata.finalizers = [];
      assert.equal((await c.request('PUT', `${WIDGETS('default')}/of-gamma`, held)).code, 200);
      await gone(`${WIDGETS('default')}/of-gamma`);
      assert.ok(await exists(`${k.url('default')}/gamma-owner`), 'the new object stays');
      assert.deepEqual(logged.filter((l) => l.includes('giving up')), []);
    });

    it('a custom resource owner deleted while its informer watch was broken still takes its dependents', async () => {
      const k = kindOf('Delta');
      await served(k);
      const owner = await create(k.url('default'), k.object('delta-owner'));
      const other = await create(k.url('default'), k.object('delta-other'));
      await create(WIDGETS('default'), widget('of-delta', [ref(owner)]));
      await create(k.url('default'), k.object('delta-of-delta', [ref(owner)]));
      await settled();
      const store = controllers.informers.all.find((i) => i.resource === k.resource)!.store;
      const held = breakWatch(controllers.informers.informerFor(store)!, store);
      try {
        assert.equal((await c.request('DELETE', `${k.url('default')}/delta-owner`)).code, 200);
        await gone(`${k.url('default')}/delta-owner`);
        // Named while the owner's informer does not watch: a dependent of a live owner.
        await create(WIDGETS('default'), widget('of-other', [ref(other)]));
      } finally {
        held.release();
      }
      await eventually(() => held.relisted, 'the relist');
      held.restore();
      await gone(`${WIDGETS('default')}/of-delta`);
      await gone(`${k.url('default')}/delta-of-delta`);
      await settled();
      assert.ok(await exists(`${WIDGETS('default')}/of-other`));
      assert.equal((await c.request('DELETE', `${k.url('default')}/delta-other`)).code, 200);
      await gone(`${WIDGETS('default')}/of-other`);
      assert.deepEqual(logged.filter((l) => l.includes('giving up')), []);
    });
  });
}
