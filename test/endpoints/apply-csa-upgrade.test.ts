/**
 * `kubectl apply --server-side` on an object client-side apply manages, request by request as
 * kubectl (1.26 and later, k8s.io/kubectl pkg/cmd/apply) sends them:
 * 1. the server-side apply of the configuration (manager `kubectl`);
 * 2. saveLastApplyAnnotationIfNecessary: an apply of the annotation alone by `kubectl-last-applied`;
 * 3. migrateToSSAIfNecessary: a JSON patch that replaces metadata.managedFields with client-go's
 *    csaupgrade result (the `kubectl-client-side-apply` Update entry merged into `kubectl`'s
 *    Apply entry) and metadata.resourceVersion with the one it read;
 * 4. the same server-side apply again, which now removes what client-side apply had set and the
 *    configuration no longer has.
 * The first apply removes nothing (kubectl has applied nothing before), as in kube: a field that
 * only client-side apply set stays until step 4.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, WIDGETS, type TestServer } from '../server/testserver.js';

const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const API = 'widgets.example.com/v1';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const CSA = 'kubectl-client-side-apply';

interface Entry {
  manager: string;
  operation: string;
  apiVersion: string;
  time?: string;
  fieldsType: string;
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}
interface Obj {
  metadata: { resourceVersion: string; annotations: Record<string, string>; managedFields: Entry[] };
  spec: Record<string, unknown>;
}

const config = (name: string, spec: Record<string, unknown>) => ({ apiVersion: API, kind: 'Widget', metadata: { name }, spec });

/** The union of two FieldsV1 trees. */
function unionFields(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = k in out ? unionFields(out[k] as Record<string, unknown>, v as Record<string, unknown>) : v;
  return out;
}

/** client-go's csaupgrade.UpgradeManagedFieldsPatch(obj, {kubectl-client-side-apply}, "kubectl"). */
function upgradePatch(obj: Obj, resourceVersion = obj.metadata.resourceVersion): unknown[] {
  const entries = obj.metadata.managedFields.map((e) => ({ ...e }));
  const ssa = entries.find((e) => e.manager === 'kubectl' && e.operation === 'Apply');
  const csa = entries.find((e) => e.manager === CSA && e.operation === 'Update');
  assert.ok(ssa && csa, JSON.stringify(entries));
  ssa.fieldsV1 = unionFields(ssa.fieldsV1, csa.fieldsV1);
  return [
    { op: 'replace', path: '/metadata/managedFields', value: entries.filter((e) => e !== csa) },
    { op: 'replace', path: '/metadata/resourceVersion', value: resourceVersion },
  ];
}

const specOwners = (obj: Obj) =>
  Object.fromEntries(obj.metadata.managedFields.map((m) => [`${m.manager}/${m.operation}`, Object.keys((m.fieldsV1['f:spec'] as Record<string, unknown>) ?? {}).filter((k) => k !== '.').sort()]));

describe('client-side apply, then kubectl apply --server-side with the managed fields upgrade', () => {
  let t: TestServer;
  const patch = (name: string, manager: string, body: unknown, contentType: string) => t.request('PATCH', `${WIDGETS}/${name}?fieldManager=${manager}`, { body, contentType });

  /** kubectl apply (client-side) of c1, then of c2: color replaced by tags. */
  async function clientSideHistory(name: string): Promise<void> {
    const c1 = config(name, { replicas: 1, color: 'blue' });
    const c2 = config(name, { replicas: 1, tags: ['a'] });
    const created = await t.request('POST', `${WIDGETS}?fieldManager=${CSA}`, { body: { ...c1, metadata: { name, annotations: { [LAST_APPLIED]: JSON.stringify(c1) } } } });
    assert.equal(created.status, 201, created.text);
    const switched = await patch(name, CSA, { metadata: { annotations: { [LAST_APPLIED]: JSON.stringify(c2) } }, spec: { color: null, tags: ['a'] } }, MERGE);
    assert.equal(switched.status, 200, switched.text);
    assert.deepEqual(specOwners(switched.body), { [`${CSA}/Update`]: ['f:replicas', 'f:tags'] });
  }

  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it('the first apply keeps what only client-side apply set; upgrade and re-apply remove it', async () => {
    await clientSideHistory('m1');
    const c1 = config('m1', { replicas: 1, color: 'blue' });

    // 1. Nothing of kubectl's to prune yet: tags stays (for a Pod template's probe handlers, the
    //    object is then invalid and the apply is refused, as on kube-apiserver).
    const first = await patch('m1', 'kubectl', c1, APPLY);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body.spec, { replicas: 1, color: 'blue', tags: ['a'] });
    assert.deepEqual(specOwners(first.body), { 'kubectl/Apply': ['f:color', 'f:replicas'], [`${CSA}/Update`]: ['f:replicas', 'f:tags'] });
    assert.deepEqual(JSON.parse(first.body.metadata.annotations[LAST_APPLIED]).spec, { replicas: 1, color: 'blue' });

    // 2. The annotation alone, by kubectl-last-applied: no Apply manager owns it yet.
    const annotation = first.body.metadata.annotations[LAST_APPLIED];
    const saved = await patch('m1', 'kubectl-last-applied', { apiVersion: API, kind: 'Widget', metadata: { name: 'm1', annotations: { [LAST_APPLIED]: annotation } } }, APPLY);
    assert.equal(saved.status, 200, saved.text);

    // 3. The managedFields kubectl sends are stored as sent: no entry for the patch itself.
    const upgrade = upgradePatch(saved.body);
    const upgraded = await patch('m1', 'kubectl', upgrade, JSON_PATCH);
    assert.equal(upgraded.status, 200, upgraded.text);
    const sent = (upgrade[0] as { value: Entry[] }).value;
    assert.deepEqual(
      upgraded.body.metadata.managedFields.map((e: Entry) => [e.manager, e.operation, e.fieldsV1]),
      sent.map((e) => [e.manager, e.operation, e.fieldsV1]),
    );
    assert.deepEqual(specOwners(upgraded.body), { 'kubectl/Apply': ['f:color', 'f:replicas', 'f:tags'], 'kubectl-last-applied/Apply': [] });
    assert.deepEqual(upgraded.body.spec, first.body.spec);

    // 4. kubectl applied tags (by the upgrade) and no longer does: it goes.
    const reapplied = await patch('m1', 'kubectl', c1, APPLY);
    assert.equal(reapplied.status, 200, reapplied.text);
    assert.deepEqual(reapplied.body.spec, { replicas: 1, color: 'blue' });
    assert.deepEqual(specOwners(reapplied.body), { 'kubectl/Apply': ['f:color', 'f:replicas'], 'kubectl-last-applied/Apply': [] });
    const lastApplied = reapplied.body.metadata.managedFields.find((e: Entry) => e.manager === 'kubectl-last-applied');
    assert.deepEqual(lastApplied.fieldsV1, { 'f:metadata': { 'f:annotations': { [`f:${LAST_APPLIED}`]: {} } } });
    assert.deepEqual(JSON.parse(reapplied.body.metadata.annotations[LAST_APPLIED]), c1);
  });

  it('an upgrade patch read at an older resourceVersion is a 409, so kubectl reads again and retries', async () => {
    await clientSideHistory('m2');
    const first = await patch('m2', 'kubectl', config('m2', { replicas: 1, color: 'blue' }), APPLY);
    assert.equal(first.status, 200, first.text);
    const stale = upgradePatch(first.body);
    const touched = await patch('m2', 'someone', { metadata: { labels: { x: 'y' } } }, MERGE);
    assert.equal(touched.status, 200, touched.text);
    const r = await patch('m2', 'kubectl', stale, JSON_PATCH);
    assert.equal(r.status, 409, r.text);
    assert.equal(r.body.reason, 'Conflict');
    const now = await t.request('GET', `${WIDGETS}/m2`);
    assert.ok(now.body.metadata.managedFields.some((e: Entry) => e.manager === CSA), 'the managed fields are unchanged');
  });
});
