/**
 * The generic store over memory storage, configured as the installer configures it for the
 * fixture's Widget (namespaced, status + scale), Gadget (cluster-scoped) and Namespace.
 */
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import type { ResourceDefinition } from '../../runtime/api/resource.js';
import { StatusError } from '../../runtime/api/status.js';
import { parseFieldSelector } from '../../runtime/registry/fieldselector.js';
import { parseLabelSelector } from '../../runtime/api/labels.js';
import { ensureSystemNamespaces, newNamespaceLifecycle, withNamespaceStrategy } from '../../runtime/registry/namespaces.js';
import { Store } from '../../runtime/registry/store.js';
import { newCustomResourceStrategy, newStatusStrategy, type StrategyConfig } from '../../runtime/registry/strategy.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { compileSchemaValidator } from '../../runtime/validation/index.js';
import type { ResourceRegistration } from '../../runtime/registry/define.js';
import { FIXTURE_DIR } from '../server/testserver.js';

/** A generated storage module of the compiled fixture. */
async function registration(rel: string, name: string): Promise<ResourceRegistration> {
  const mod = (await import(pathToFileURL(join(FIXTURE_DIR, rel)).href)) as Record<string, ResourceRegistration>;
  return mod[name]!;
}
const namespaces = await registration('storage/core/v1/namespaces.ts', 'namespaces');
const gadgets = await registration('storage/widgets.example.com/v1/gadgets.ts', 'gadgets');
const widgets = await registration('storage/widgets.example.com/v1/widgets.ts', 'widgets');

function schemasOf(rel: string) {
  return JSON.parse(readFileSync(join(FIXTURE_DIR, rel), 'utf8')).components.schemas;
}

function storeFor(storage: MemoryStorage, definition: ResourceDefinition, docPath: string) {
  const validator = compileSchemaValidator(schemasOf(docPath), definition.schemaName);
  const isNs = definition.plural === 'namespaces';
  const config: StrategyConfig = { definition, validator, nameValidation: isNs ? 'DNS1123Label' : undefined };
  const base = newCustomResourceStrategy(config);
  const strategy = isNs ? withNamespaceStrategy(base) : base;
  const store = new Store({ definition, storage, strategy, namespaceLifecycle: newNamespaceLifecycle(storage) });
  return { store, status: store.withUpdateStrategy(newStatusStrategy(strategy, config)) };
}

function statusOf(err: unknown) {
  assert.ok(err instanceof StatusError, `expected a StatusError, got ${String(err)}`);
  return err.status;
}

/** The Status of a 422 Invalid the promise rejects with. */
async function invalid(p: Promise<unknown>) {
  let status: ReturnType<typeof statusOf> | undefined;
  await assert.rejects(p, (err) => ((status = statusOf(err)), true));
  assert.equal(status!.code, 422, status!.message);
  assert.equal(status!.reason, 'Invalid');
  return status!;
}

async function rejects(p: Promise<unknown>, code: number, reason: string, message?: RegExp) {
  await assert.rejects(p, (err) => {
    const s = statusOf(err);
    assert.equal(s.code, code, s.message);
    assert.equal(s.reason, reason);
    if (message) assert.match(s.message ?? '', message);
    return true;
  });
}

const W = (name: string, spec: Record<string, unknown> = { replicas: 2 }, more: Partial<KubeObject> = {}): KubeObject => ({
  apiVersion: 'widgets.example.com/v1',
  kind: 'Widget',
  metadata: { name },
  spec,
  ...more,
});

describe('generic store', () => {
  let storage: MemoryStorage;
  let w: ReturnType<typeof storeFor>;
  let g: ReturnType<typeof storeFor>;

  beforeEach(async () => {
    storage = new MemoryStorage();
    const ns = storeFor(storage, namespaces.definition, 'openapi/v3/api/v1.json');
    await ensureSystemNamespaces(ns.store);
    w = storeFor(storage, widgets.definition, 'openapi/v3/apis/widgets.example.com/v1.json');
    g = storeFor(storage, gadgets.definition, 'openapi/v3/apis/widgets.example.com/v1.json');
  });

  it('creates the system namespaces once, labelled and Active', async () => {
    const ns = storeFor(storage, namespaces.definition, 'openapi/v3/api/v1.json');
    await ensureSystemNamespaces(ns.store);
    const list = await ns.store.list(undefined);
    assert.deepEqual(list.items.map((i) => i.metadata.name), ['default', 'kube-public', 'kube-system']);
    const def = list.items[0]!;
    assert.deepEqual(def.status, { phase: 'Active' });
    assert.equal(def.metadata.labels?.['kubernetes.io/metadata.name'], 'default');
    await rejects(ns.store.delete(undefined, 'default'), 403, 'Forbidden', /namespaces "default" is forbidden: this namespace may not be deleted/);
  });

  it('fills system metadata on create and drops status when the status subresource is on', async () => {
    const created = await w.store.create('default', W('w1', { replicas: 2 }, { status: { phase: 'Up' } }));
    const meta = created.metadata;
    assert.match(meta.uid ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.match(meta.creationTimestamp ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.equal(meta.generation, 1);
    assert.equal(meta.namespace, 'default');
    assert.match(meta.resourceVersion ?? '', /^\d+$/);
    assert.equal(created.status, undefined);
  });

  it('generates names from generateName and applies schema defaults', async () => {
    const created = await w.store.create('default', W('', {}, { metadata: { generateName: 'gen-' } }));
    assert.match(created.metadata.name ?? '', /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.equal((created.spec as { replicas: number }).replicas, 1);
  });

  it('rejects a create in a missing namespace with 404 namespaces "x" not found', async () => {
    await rejects(w.store.create('nope', W('w1')), 404, 'NotFound', /^namespaces "nope" not found$/);
  });

  it('rejects invalid objects with 422 and one cause per field', async () => {
    await assert.rejects(w.store.create('default', W('Bad_Name', { replicas: 500, color: 'pink' })), (err) => {
      const s = statusOf(err);
      assert.equal(s.code, 422);
      assert.equal(s.reason, 'Invalid');
      assert.equal(s.details?.kind, 'Widget');
      assert.equal(s.details?.group, 'widgets.example.com');
      assert.equal(s.details?.name, 'Bad_Name');
      const fields = (s.details?.causes ?? []).map((c) => c.field).sort();
      assert.deepEqual(fields, ['metadata.name', 'spec.color', 'spec.replicas']);
      assert.match(s.message ?? '', /^Widget\.widgets\.example\.com "Bad_Name" is invalid: \[/);
      return true;
    });
    await rejects(w.store.create('default', W('')), 422, 'Invalid', /metadata\.name: Required value: name or generateName is required/);
  });

  it('reports AlreadyExists for a second create', async () => {
    await w.store.create('default', W('w1'));
    await rejects(w.store.create('default', W('w1')), 409, 'AlreadyExists', /^widgets\.widgets\.example\.com "w1" already exists$/);
  });

  it('bumps generation only when something other than metadata and status changes', async () => {
    const c = await w.store.create('default', W('w1'));
    const labelled = await w.store.update('default', 'w1', {
      updatedObject: (cur) => ({ ...cur, metadata: { ...cur.metadata, labels: { a: 'b' } } }),
    });
    assert.equal(labelled.metadata.generation, 1);
    const statusViaMain = await w.store.update('default', 'w1', { updatedObject: (cur) => ({ ...cur, status: { phase: 'X' } }) });
    assert.equal(statusViaMain.metadata.generation, 1);
    assert.equal(statusViaMain.status, undefined, 'main resource keeps the old status');
    const scaled = await w.store.update('default', 'w1', { updatedObject: (cur) => ({ ...cur, spec: { replicas: 5 } }) });
    assert.equal(scaled.metadata.generation, 2);
    assert.equal(scaled.metadata.uid, c.metadata.uid);
    assert.equal(scaled.metadata.creationTimestamp, c.metadata.creationTimestamp);
  });

  it('keeps generation, creationTimestamp and uid server-managed', async () => {
    const c = await w.store.create('default', W('w1'));
    const u = await w.store.update('default', 'w1', {
      updatedObject: (cur) => ({ ...cur, metadata: { ...cur.metadata, generation: 42, creationTimestamp: '2000-01-01T00:00:00Z', uid: '' } }),
    });
    assert.equal(u.metadata.generation, 1);
    assert.equal(u.metadata.creationTimestamp, c.metadata.creationTimestamp);
    assert.equal(u.metadata.uid, c.metadata.uid);
    await rejects(
      w.store.update('default', 'w1', { updatedObject: (cur) => ({ ...cur, metadata: { ...cur.metadata, uid: 'other' } }) }),
      422,
      'Invalid',
      /metadata\.uid: Invalid value: "other": field is immutable/,
    );
  });

  it('refuses an update that sets or changes the deletion fields (422, as ValidateObjectMetaUpdate), and puts back what it removes', async () => {
    const c = await w.store.create('default', W('w1'));
    const set = await invalid(
      w.store.update('default', 'w1', {
        updatedObject: (cur) => ({ ...cur, metadata: { ...cur.metadata, deletionTimestamp: '2024-01-01T02:00:00.123+02:00', deletionGracePeriodSeconds: 30 } }),
      }),
    );
    assert.equal(
      set.message,
      'Widget.widgets.example.com "w1" is invalid: [metadata.deletionTimestamp: Invalid value: "2024-01-01T00:00:00Z": field is immutable, metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable]',
    );
    assert.deepEqual(set.details?.causes, [
      { reason: 'FieldValueInvalid', field: 'metadata.deletionTimestamp', message: 'Invalid value: "2024-01-01T00:00:00Z": field is immutable' },
      { reason: 'FieldValueInvalid', field: 'metadata.deletionGracePeriodSeconds', message: 'Invalid value: 30: field is immutable' },
    ]);
    const u = await w.store.update('default', 'w1', {
      updatedObject: (cur) => ({ ...cur, metadata: { ...cur.metadata, deletionTimestamp: null, deletionGracePeriodSeconds: null } as unknown as KubeObject['metadata'] }),
    });
    assert.equal(u.metadata.deletionTimestamp, undefined);
    assert.equal(u.metadata.deletionGracePeriodSeconds, undefined);
    assert.equal(u.metadata.uid, c.metadata.uid);
  });

  it('keeps a deleting object\'s deletionTimestamp and grace period against an update, and refuses a changed grace period', async () => {
    await w.store.create('default', { ...W('w1'), metadata: { ...W('w1').metadata, finalizers: ['example.com/hold'] } });
    await w.store.delete('default', 'w1', {});
    const deleting = await w.store.get('default', 'w1');
    assert.ok(deleting.metadata.deletionTimestamp);
    const u = await w.store.update('default', 'w1', {
      updatedObject: (cur) => {
        const { deletionTimestamp: _t, deletionGracePeriodSeconds: _g, ...meta } = cur.metadata;
        return { ...cur, metadata: { ...meta, labels: { a: 'b' } } };
      },
    });
    assert.equal(u.metadata.deletionTimestamp, deleting.metadata.deletionTimestamp);
    assert.equal(u.metadata.deletionGracePeriodSeconds, deleting.metadata.deletionGracePeriodSeconds);
    const moved = await w.store.update('default', 'w1', { updatedObject: (cur) => ({ ...cur, metadata: { ...cur.metadata, deletionTimestamp: '2000-01-01T00:00:00Z' } }) });
    assert.equal(moved.metadata.deletionTimestamp, deleting.metadata.deletionTimestamp, 'a changed deletionTimestamp is put back, as BeforeUpdate does');
    const changed = await invalid(w.store.update('default', 'w1', { updatedObject: (cur) => ({ ...cur, metadata: { ...cur.metadata, deletionGracePeriodSeconds: 99 } }) }));
    assert.deepEqual(changed.details?.causes, [{ reason: 'FieldValueInvalid', field: 'metadata.deletionGracePeriodSeconds', message: 'Invalid value: 99: field is immutable' }]);
    // Both at once: kube's order, finalizers first.
    const both = await invalid(
      w.store.update('default', 'w1', { updatedObject: (cur) => ({ ...cur, metadata: { ...cur.metadata, deletionGracePeriodSeconds: 99, finalizers: ['example.com/hold', 'example.com/more'] } }) }),
    );
    assert.deepEqual(both.details?.causes?.map((c) => c.field), ['metadata.finalizers', 'metadata.deletionGracePeriodSeconds']);
  });

  it('status updates change only status', async () => {
    await w.store.create('default', W('w1'));
    const u = await w.status.update('default', 'w1', {
      updatedObject: (cur) => ({ ...cur, spec: { replicas: 9 }, metadata: { ...cur.metadata, labels: { x: 'y' } }, status: { phase: 'Ready' } }),
    });
    assert.deepEqual(u.status, { phase: 'Ready' });
    assert.deepEqual(u.spec, { replicas: 2 });
    assert.equal(u.metadata.labels, undefined);
    assert.equal(u.metadata.generation, 1);
  });

  it('detects stale resourceVersions (409) and allows unconditional updates', async () => {
    const c = await w.store.create('default', W('w1'));
    await w.store.update('default', 'w1', { updatedObject: (cur) => ({ ...cur, spec: { replicas: 3 } }) });
    await rejects(
      w.store.update('default', 'w1', { updatedObject: () => ({ ...c, spec: { replicas: 4 } }) }),
      409,
      'Conflict',
      /^Operation cannot be fulfilled on widgets\.widgets\.example\.com "w1": the object has been modified; please apply your changes to the latest version and try again$/,
    );
    const { resourceVersion: _rv, ...meta } = c.metadata;
    const u = await w.store.update('default', 'w1', { updatedObject: () => ({ ...c, metadata: meta, spec: { replicas: 4 } }) });
    assert.deepEqual(u.spec, { replicas: 4 });
  });

  it('refuses a resourceVersion that is no revision with 422, and treats "0" as none', async () => {
    const c = await w.store.create('default', W('w1'));
    await rejects(
      w.store.update('default', 'w1', { updatedObject: () => ({ ...c, metadata: { ...c.metadata, resourceVersion: 'abc' }, spec: { replicas: 4 } }) }),
      422,
      'Invalid',
      /^Widget\.widgets\.example\.com "w1" is invalid: metadata\.resourceVersion: Invalid value: "abc": must be a decimal resource version$/,
    );
    const numeric = { ...c.metadata, resourceVersion: Number(c.metadata.resourceVersion) } as unknown as KubeObject['metadata'];
    await rejects(
      w.store.update('default', 'w1', { updatedObject: () => ({ ...c, metadata: numeric, spec: { replicas: 4 } }) }),
      422,
      'Invalid',
      /metadata\.resourceVersion: Invalid value: \d+: must be of type string$/,
    );
    const u = await w.store.update('default', 'w1', { updatedObject: () => ({ ...c, metadata: { ...c.metadata, resourceVersion: '0' }, spec: { replicas: 5 } }) });
    assert.deepEqual(u.spec, { replicas: 5 });
    assert.notEqual(u.metadata.resourceVersion, c.metadata.resourceVersion);
  });

  it('reads a stated resourceVersion as a number, as kube\'s strconv.ParseUint: zeros in front count for nothing, past uint64 is no revision', async () => {
    const c = await w.store.create('default', W('w1'));
    const at = (resourceVersion: string, replicas: number) => () => ({ ...c, metadata: { ...c.metadata, resourceVersion }, spec: { replicas } });
    // "007" is revision 7: the current one written with zeros in front is no conflict.
    const u = await w.store.update('default', 'w1', { updatedObject: at(`00${c.metadata.resourceVersion}`, 6) });
    assert.deepEqual(u.spec, { replicas: 6 });
    assert.notEqual(u.metadata.resourceVersion, `00${c.metadata.resourceVersion}`);
    // A run of zeros is 0: unset, an unconditional update.
    const v = await w.store.update('default', 'w1', { updatedObject: at('0000', 7) });
    assert.deepEqual(v.spec, { replicas: 7 });
    // 2^64-1 is a revision (not the current one: a conflict); 2^64 and longer are none at all.
    await rejects(w.store.update('default', 'w1', { updatedObject: at('18446744073709551615', 8) }), 409, 'Conflict');
    for (const rv of ['18446744073709551616', '9'.repeat(40), `${'0'.repeat(30)}1${'0'.repeat(20)}`]) {
      await rejects(w.store.update('default', 'w1', { updatedObject: at(rv, 8) }), 422, 'Invalid', /metadata\.resourceVersion: Invalid value: "\d+": must be a decimal resource version$/);
    }
    // A stale revision stays a conflict.
    await rejects(w.store.update('default', 'w1', { updatedObject: at(c.metadata.resourceVersion!, 8) }), 409, 'Conflict');
  });

  it('never creates on update', async () => {
    await rejects(w.store.update('default', 'missing', { updatedObject: (cur) => cur }), 404, 'NotFound', /^widgets\.widgets\.example\.com "missing" not found$/);
  });

  it('does not store dry-run writes', async () => {
    const dry = await w.store.create('default', W('w1'), { dryRun: true });
    assert.equal(dry.metadata.name, 'w1');
    await rejects(w.store.get('default', 'w1'), 404, 'NotFound');
    await w.store.create('default', W('w1'));
    const rv = (await w.store.get('default', 'w1')).metadata.resourceVersion;
    await w.store.update('default', 'w1', { updatedObject: (cur) => ({ ...cur, spec: { replicas: 7 } }) }, { dryRun: true });
    await w.store.delete('default', 'w1', { dryRun: true });
    const after = await w.store.get('default', 'w1');
    assert.equal(after.metadata.resourceVersion, rv);
    assert.deepEqual(after.spec, { replicas: 2 });
  });

  it('deletes immediately, honouring uid and resourceVersion preconditions', async () => {
    const c = await w.store.create('default', W('w1'));
    await rejects(
      w.store.delete('default', 'w1', { preconditions: { uid: 'nope' } }),
      409,
      'Conflict',
      new RegExp(`the UID in the precondition \\(nope\\) does not match the UID in record \\(${c.metadata.uid}\\)`),
    );
    await rejects(w.store.delete('default', 'w1', { preconditions: { resourceVersion: '1' } }), 409, 'Conflict', /the ResourceVersion in the precondition \(1\) does not match/);
    const deleted = await w.store.delete('default', 'w1', { preconditions: { uid: c.metadata.uid, resourceVersion: c.metadata.resourceVersion } });
    assert.equal(deleted.metadata.uid, c.metadata.uid);
    await rejects(w.store.get('default', 'w1'), 404, 'NotFound');
  });

  it('lists and deletes collections by label and field selectors', async () => {
    await w.store.create('default', W('a', { replicas: 1, color: 'red' }, { metadata: { name: 'a', labels: { tier: 'front' } } }));
    await w.store.create('default', W('b', { replicas: 1, color: 'blue' }, { metadata: { name: 'b', labels: { tier: 'back' } } }));
    await w.store.create('kube-system', W('c', { replicas: 1, color: 'red' }));
    const all = await w.store.list(undefined);
    assert.equal(all.kind, 'WidgetList');
    assert.equal(all.apiVersion, 'widgets.example.com/v1');
    assert.deepEqual(all.items.map((i) => i.metadata.name), ['a', 'b', 'c']);
    const red = await w.store.list('default', { fieldSelector: parseFieldSelector('spec.color=red', ['.spec.color']) });
    assert.deepEqual(red.items.map((i) => i.metadata.name), ['a']);
    const page = await w.store.list(undefined, { limit: 2 });
    assert.equal(page.items.length, 2);
    assert.ok(page.metadata.continue);
    const rest = await w.store.list(undefined, { limit: 2, continue: page.metadata.continue });
    assert.deepEqual(rest.items.map((i) => i.metadata.name), ['c']);
    const gone = await w.store.deleteCollection('default', { labelSelector: parseLabelSelector('tier in (front)') });
    assert.deepEqual(gone.items.map((i) => i.metadata.name), ['a']);
    assert.deepEqual((await w.store.list(undefined)).items.map((i) => i.metadata.name), ['b', 'c']);
  });

  it('keeps cluster-scoped objects out of namespaces', async () => {
    const created = await g.store.create(undefined, {
      apiVersion: 'widgets.example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'g1', namespace: 'default' },
      spec: { size: 'large' },
    });
    assert.equal(created.metadata.namespace, undefined);
    assert.equal((await g.store.get(undefined, 'g1')).metadata.name, 'g1');
  });

  it('watches with synthetic ADDED events, then changes, filtered by selectors', async () => {
    await w.store.create('default', W('a'));
    const watch = w.store.watch('default', { resourceVersion: '0', fieldSelector: parseFieldSelector('metadata.name=a') });
    const it = watch[Symbol.asyncIterator]();
    const first = await it.next();
    assert.equal(first.value.type, 'ADDED');
    assert.equal(first.value.object.metadata.name, 'a');
    await w.store.create('default', W('b'));
    await w.store.update('default', 'a', { updatedObject: (cur) => ({ ...cur, spec: { replicas: 9 } }) });
    await w.store.delete('default', 'a');
    assert.deepEqual([(await it.next()).value.type, (await it.next()).value.type], ['MODIFIED', 'DELETED']);
    watch.stop();
    assert.equal((await it.next()).done, true);
  });

  it('ends a watch from a compacted revision with an ERROR event carrying 410 Expired', async () => {
    await w.store.create('default', W('a'));
    await w.store.create('default', W('b'));
    await storage.compact(await storage.currentRevision());
    const watch = w.store.watch('default', { resourceVersion: '1' });
    const events = [];
    for await (const e of watch) events.push(e);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'ERROR');
    const status = events[0]!.object as unknown as { code: number; reason: string; status: string };
    assert.equal(status.code, 410);
    assert.equal(status.reason, 'Expired');
    assert.equal(status.status, 'Failure');
  });
});
