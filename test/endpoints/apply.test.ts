/** Server-side apply over HTTP: create, merge by structure, pruning, conflicts, force, status, dryRun, errors. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, WIDGETS, type TestServer } from '../server/testserver.js';

const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';
const API = 'widgets.example.com/v1';

function config(name: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { apiVersion: API, kind: 'Widget', metadata: { name }, spec, ...extra };
}

describe('server-side apply', () => {
  let t: TestServer;
  const apply = (name: string, body: unknown, query = 'fieldManager=a') =>
    t.request('PATCH', `${WIDGETS}/${name}?${query}`, { body, contentType: APPLY });
  const managers = (obj: { metadata: { managedFields?: { manager: string; operation: string; subresource?: string }[] } }) =>
    (obj.metadata.managedFields ?? []).map((m) => `${m.manager}/${m.operation}${m.subresource ? `/${m.subresource}` : ''}`);
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it('requires a field manager (422, kube\'s PatchOptions message) and refuses force on other patches', async () => {
    const r = await apply('nomgr', config('nomgr', { replicas: 1 }), '');
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.message, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    const forced = await t.request('PATCH', `${WIDGETS}/nomgr?force=true`, { body: {}, contentType: MERGE });
    assert.equal(forced.status, 422);
    assert.match(forced.body.message, /force: Forbidden: may not be specified for non-apply patch/);
  });

  it('creates the object when absent (201) from a YAML body, owned by the applier', async () => {
    const yaml = `apiVersion: ${API}\nkind: Widget\nmetadata:\n  name: y1\n  labels:\n    app: y\nspec:\n  replicas: 2\n`;
    const r = await apply('y1', yaml);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.spec.replicas, 2);
    const [entry] = r.body.metadata.managedFields;
    assert.deepEqual(Object.keys(entry), ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
    assert.equal(entry.manager, 'a');
    assert.equal(entry.operation, 'Apply');
    assert.equal(entry.apiVersion, API);
    assert.match(entry.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(entry.fieldsV1, { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:replicas': {} } });
    const again = await apply('y1', yaml);
    assert.equal(again.status, 200);
    assert.equal(again.body.metadata.resourceVersion, r.body.metadata.resourceVersion, 'a no-op apply writes nothing new');
  });

  it('merges by structure: list maps by key, sets as sets, atomic lists and maps whole, granular maps per key', async () => {
    const first = config('m1', {
      replicas: 1,
      ports: [{ name: 'http', port: 80 }],
      tags: ['a'],
      notes: ['one', 'two'],
      selector: { matchLabels: { app: 'x', tier: 'web' } },
      spinnerLabels: { a: '1' },
    });
    assert.equal((await apply('m1', first)).status, 201);
    const second = config('m1', { ports: [{ name: 'https', port: 443 }], tags: ['b'], spinnerLabels: { b: '2' } });
    const r = await apply('m1', second, 'fieldManager=b');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.spec.ports, [{ name: 'http', port: 80 }, { name: 'https', port: 443 }]);
    assert.deepEqual(r.body.spec.tags, ['a', 'b']);
    assert.deepEqual(r.body.spec.spinnerLabels, { a: '1', b: '2' });
    assert.deepEqual(r.body.spec.notes, ['one', 'two']);
    assert.equal(r.body.spec.replicas, 1);
    const b = r.body.metadata.managedFields.find((m: { manager: string }) => m.manager === 'b');
    assert.deepEqual(b.fieldsV1, {
      'f:spec': {
        'f:ports': { 'k:{"name":"https"}': { '.': {}, 'f:name': {}, 'f:port': {} } },
        'f:spinnerLabels': { 'f:b': {} },
        'f:tags': { 'v:"b"': {} },
      },
    });
  });

  it('reports a conflict on atomic values another manager owns, and force replaces them whole', async () => {
    const r = await apply('m1', config('m1', { notes: ['three'], selector: { matchLabels: { app: 'y' } } }), 'fieldManager=b');
    assert.equal(r.status, 409, r.text);
    assert.deepEqual(r.body.details.causes.map((c: { field: string }) => c.field).sort(), ['.spec.notes', '.spec.selector']);
    const forced = await apply('m1', config('m1', { notes: ['three'], selector: { matchLabels: { app: 'y' } }, spinnerLabels: { b: '2' } }), 'fieldManager=b&force=true');
    assert.equal(forced.status, 200, forced.text);
    assert.deepEqual(forced.body.spec.notes, ['three']);
    assert.deepEqual(forced.body.spec.selector, { matchLabels: { app: 'y' } });
    assert.deepEqual(forced.body.spec.spinnerLabels, { a: '1', b: '2' });
    const a = forced.body.metadata.managedFields.find((m: { manager: string }) => m.manager === 'a');
    assert.equal(a.fieldsV1['f:spec']['f:notes'], undefined, 'the forced-out manager loses the field');
    assert.deepEqual(a.fieldsV1['f:spec']['f:spinnerLabels'], { 'f:a': {} });
  });

  it('conflicts with an Update manager with kube\'s message and causes; the same value is shared, not a conflict', async () => {
    const created = await t.request('POST', `${WIDGETS}?fieldManager=kubectl-client-side-apply`, { body: config('c1', { replicas: 1, color: 'red' }) });
    assert.equal(created.status, 201);
    const r = await apply('c1', config('c1', { replicas: 3 }), 'fieldManager=other');
    assert.equal(r.status, 409);
    assert.equal(r.body.reason, 'Conflict');
    assert.equal(r.body.message, `Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using ${API}: .spec.replicas`);
    assert.deepEqual(r.body.details, {
      causes: [{ reason: 'FieldManagerConflict', message: `conflict with "kubectl-client-side-apply" using ${API}`, field: '.spec.replicas' }],
    });
    const two = await apply('c1', config('c1', { replicas: 3, color: 'blue' }), 'fieldManager=other');
    assert.equal(two.status, 409);
    assert.equal(
      two.body.message,
      `Apply failed with 2 conflicts: conflicts with "kubectl-client-side-apply" using ${API}:\n- .spec.color\n- .spec.replicas`,
    );
    const same = await apply('c1', config('c1', { replicas: 1 }), 'fieldManager=other');
    assert.equal(same.status, 200, same.text);
    assert.deepEqual(managers(same.body), ['other/Apply', 'kubectl-client-side-apply/Update']);
    const forced = await apply('c1', config('c1', { replicas: 3 }), 'fieldManager=other&force=true');
    assert.equal(forced.status, 200);
    assert.equal(forced.body.spec.replicas, 3);
    const csa = forced.body.metadata.managedFields.find((m: { manager: string }) => m.manager === 'kubectl-client-side-apply');
    assert.deepEqual(csa.fieldsV1['f:spec'], { '.': {}, 'f:color': {} });
  });

  it('removes fields the applier applied before and now omits, unless another manager owns them', async () => {
    await apply('p1', config('p1', { replicas: 1, color: 'red', tags: ['x', 'y'] }));
    const shared = await apply('p1', config('p1', { replicas: 1 }), 'fieldManager=b');
    assert.equal(shared.status, 200);
    const r = await apply('p1', config('p1', { tags: ['y'] }));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.spec.color, undefined, 'color was only a\'s');
    assert.deepEqual(r.body.spec.tags, ['y'], 'set items are pruned one by one');
    assert.equal(r.body.spec.replicas, 1, 'replicas is still b\'s');
  });

  it('applies to the status subresource, merging conditions by type per manager; status is ignored on the main resource', async () => {
    await apply('s1', config('s1', { replicas: 1 }, { status: { phase: 'Pending' } }));
    const main = await t.request('GET', `${WIDGETS}/s1`);
    assert.equal(main.body.status, undefined);
    const cond = (type: string, status: string) => ({ type, status, reason: 'R', message: 'm' });
    const first = await t.request('PATCH', `${WIDGETS}/s1/status?fieldManager=ctrl-a`, {
      body: { apiVersion: API, kind: 'Widget', metadata: { name: 's1' }, status: { conditions: [cond('Ready', 'True')] } },
      contentType: APPLY,
    });
    assert.equal(first.status, 200, first.text);
    const second = await t.request('PATCH', `${WIDGETS}/s1/status?fieldManager=ctrl-b`, {
      body: { apiVersion: API, kind: 'Widget', metadata: { name: 's1' }, status: { conditions: [cond('Spinning', 'False')] }, spec: { replicas: 50 } },
      contentType: APPLY,
    });
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(second.body.status.conditions.map((c: { type: string }) => c.type), ['Ready', 'Spinning']);
    assert.equal(second.body.spec.replicas, 1, 'spec is not written through /status');
    assert.deepEqual(managers(second.body), ['a/Apply', 'ctrl-a/Apply/status', 'ctrl-b/Apply/status']);
    const b = second.body.metadata.managedFields.find((m: { manager: string }) => m.manager === 'ctrl-b');
    assert.deepEqual(Object.keys(b.fieldsV1), ['f:status']);
    assert.ok(b.fieldsV1['f:status']['f:conditions']['k:{"type":"Spinning"}']);
    const missing = await t.request('PATCH', `${WIDGETS}/nope/status?fieldManager=x`, { body: config('nope', {}), contentType: APPLY });
    assert.equal(missing.status, 404);
  });

  it('honours dryRun=All for apply-create and apply-update', async () => {
    const created = await apply('d1', config('d1', { replicas: 4 }), 'fieldManager=a&dryRun=All');
    assert.equal(created.status, 201);
    assert.equal((await t.request('GET', `${WIDGETS}/d1`)).status, 404);
    await apply('d1', config('d1', { replicas: 4 }));
    const updated = await apply('d1', config('d1', { replicas: 5 }), 'fieldManager=a&dryRun=All');
    assert.equal(updated.body.spec.replicas, 5);
    assert.equal((await t.request('GET', `${WIDGETS}/d1`)).body.spec.replicas, 4);
  });

  it('rejects bad apply configurations with 400', async () => {
    const wrongVersion = await apply('e1', { apiVersion: 'widgets.example.com/v2', kind: 'Widget', metadata: { name: 'e1' } });
    assert.equal(wrongVersion.status, 400);
    assert.equal(wrongVersion.body.message, `Incorrect version specified in apply patch. Specified patch version: widgets.example.com/v2, expected: ${API}`);
    const managed = await apply('e1', config('e1', { replicas: 1 }, { metadata: { name: 'e1', managedFields: [] } }));
    assert.equal(managed.status, 400);
    assert.equal(managed.body.message, 'metadata.managedFields must be nil');
    const unknown = await apply('e1', config('e1', { replicas: 1, bogus: true }));
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.message, `failed to create typed patch object (default/e1; ${API}, Kind=Widget): .spec.bogus: field not declared in schema`);
    const list = await apply('e1', '- a\n- b\n');
    assert.equal(list.status, 400);
    const broken = await apply('e1', 'spec: [\n');
    assert.equal(broken.status, 400);
    assert.equal((await t.request('GET', `${WIDGETS}/e1`)).status, 404);
  });

  it('names undeclared fields as structured-merge-diff does (a 400 where kube answers 500)', async () => {
    // kube's field manager returns a plain error for a configuration that does not fit the
    // schema, which its handlers answer with 500 (kubernetes#122480); kgen keeps 400 and kube's text.
    const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
    const deployment = (spec: string) =>
      `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"u"},"spec":{"selector":{"matchLabels":{"app":"u"}},"template":{"metadata":{"labels":{"app":"u"}},"spec":{${spec}}}}}`;
    const applied = (spec: string) => t.request('PATCH', `${DEPLOYMENTS}/u?fieldManager=a`, { body: deployment(spec), contentType: APPLY });
    const prefix = 'failed to create typed patch object (default/u; apps/v1, Kind=Deployment): ';
    // An item of a `map` list by its key; a missing key with a default (a port's protocol) by the default.
    const keyed = await applied('"containers":[{"name":"c","image":"x","ports":[{"containerPort":80,"typo":1}]}]');
    assert.equal(keyed.status, 400, keyed.text);
    assert.equal(keyed.body.reason, 'BadRequest');
    assert.equal(keyed.body.message, `${prefix}.spec.template.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"].typo: field not declared in schema`);
    // An atomic list's item by its index; several errors as SMD's ValidationErrors prints them.
    const several = await applied('"containers":[{"name":"c","image":"x","bogus":1}],"tolerations":[{"key":"k","typo":2}]');
    assert.equal(several.status, 400, several.text);
    assert.equal(
      several.body.message,
      `${prefix}errors:\n  .spec.template.spec.containers[name="c"].bogus: field not declared in schema\n  .spec.template.spec.tolerations[0].typo: field not declared in schema`,
    );
    // Two items of a `map` list with one key (SMD allows them in the live object only).
    const duplicate = await applied('"containers":[{"name":"c","image":"x","env":[{"name":"a","value":"1"},{"name":"a","value":"2"}]}]');
    assert.equal(duplicate.status, 400, duplicate.text);
    assert.equal(duplicate.body.message, `${prefix}.spec.template.spec.containers[name="c"].env: duplicate entries for key [name="a"]`);
    // A wrongly typed field and a `map` list item without its key are kube's 500 too (SMD's
    // `expected numeric (int or float), got string`, `element 0: associative list with keys has an
    // element that omits all key fields ["name"]`): kgen answers them with its validation's 422.
    const typed = await applied('"containers":[{"name":"c","image":"x"}]').then(() =>
      t.request('PATCH', `${DEPLOYMENTS}/u?fieldManager=a`, { body: deployment('"containers":[{"name":"c","image":"x"}]').replace('"spec":{"selector"', '"spec":{"replicas":"3","selector"'), contentType: APPLY }),
    );
    assert.equal(typed.status, 422, typed.text);
    const keyless = await applied('"containers":[{"image":"x"}]');
    assert.equal(keyless.status, 422, keyless.text);
    assert.match(keyless.body.message, /spec\.template\.spec\.containers\[0\]\.name: Required value/);
  });

  it('answers an alias bomb with 400 at once', async () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) lines.push(`${'abcdefghi'[i]}: &${'abcdefghi'[i]} [${Array(9).fill(`*${'abcdefghi'[i - 1]}`).join(',')}]`);
    const r = await apply('bomb', lines.join('\n'));
    // At once: refused by the alias count (at most MAX_YAML_ALIAS_COUNT expansions), never by
    // expanding the 9^9 nodes (which would not fit in memory). The path proves it, not a clock.
    assert.equal(r.status, 400);
    assert.match(r.body.message, /alias/i);
  });
});
