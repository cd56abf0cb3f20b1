/**
 * kubectl workflow, reads: `get` in every output mode kubectl users rely on, with label and field
 * selectors, paging, all namespaces, label columns and sorting; `get -w` seeing later changes;
 * and `describe`. Every assertion is on what kubectl printed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { REPO, kubectl, kubectlOk, removeDir, startKgen, table, type KgenServer } from './harness.js';
import { kubectlBackground, widgetYAML } from './kubectl-workflow-helpers.js';

const widgets = [
  widgetYAML({ name: 'w1', replicas: 3, color: 'blue', labels: { team: 'a', tier: 'front' } }),
  widgetYAML({ name: 'w2', replicas: 1, color: 'red', labels: { team: 'b', tier: 'front' } }),
  widgetYAML({ name: 'w3', replicas: 5, color: 'blue', labels: { team: 'a', tier: 'back' } }),
  widgetYAML({ name: 'w4', replicas: 2, color: 'green', labels: { team: 'c' } }),
  widgetYAML({ name: 'w5', replicas: 4, color: 'red', labels: { tier: 'back' } }),
].join('---\n');

describe('kubectl workflow: get, get -w, describe', () => {
  let server: KgenServer;
  const k = (...args: string[]) => kubectlOk(server.kubeconfig, args);
  /** The NAME column of a `get` (without the header). */
  const names = (...args: string[]) => table(k('get', 'wd', ...args)).slice(1).map((r) => r[0]);

  before(async () => {
    server = await startKgen({ generatedDir: join(REPO, 'generated'), storage: 'memory:' });
    kubectlOk(server.kubeconfig, ['create', '-f', '-'], widgets);
    k('create', 'namespace', 'team-x');
    kubectlOk(server.kubeconfig, ['create', '-n', 'team-x', '-f', '-'], widgetYAML({ name: 'o1', replicas: 7, color: 'green' }));
    k('patch', 'wd', 'w1', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Spinning"}}');
  });
  after(async () => {
    await server.stop();
    removeDir(server.dataDir);
  });

  it('prints the declared printer columns plus NAME and AGE', () => {
    const rows = table(k('get', 'widgets'));
    assert.deepEqual(rows[0], ['NAME', 'REPLICAS', 'COLOR', 'AGE']);
    assert.deepEqual(
      rows.slice(1).map((r) => r.slice(0, 3)),
      [
        ['w1', '3', 'blue'],
        ['w2', '1', 'red'],
        ['w3', '5', 'blue'],
        ['w4', '2', 'green'],
        ['w5', '4', 'red'],
      ],
    );
    for (const r of rows.slice(1)) assert.match(r[3]!, /^\d+s$/);
  });

  it('-o wide adds the priority>0 column (PHASE)', () => {
    const rows = table(k('get', 'wd', '-o', 'wide'));
    assert.deepEqual(rows[0], ['NAME', 'REPLICAS', 'COLOR', 'PHASE', 'AGE']);
    assert.deepEqual(rows[1]!.slice(0, 4), ['w1', '3', 'blue', 'Spinning']);
    // A missing value prints as an empty cell, so the row has one cell fewer once split.
    assert.deepEqual(rows[2]!.slice(0, 3), ['w2', '1', 'red']);
    assert.match(rows[2]![3]!, /^\d+s$/);
  });

  it('-o yaml, -o json, -o name and -o jsonpath', () => {
    const yaml = k('get', 'wd', 'w1', '-o', 'yaml');
    assert.match(yaml, /^apiVersion: widgets\.example\.com\/v1$/m);
    assert.match(yaml, /^kind: Widget$/m);
    assert.match(yaml, /^  name: w1$/m);
    assert.match(yaml, /^    team: a$/m);
    assert.match(yaml, /^  replicas: 3$/m);
    assert.match(yaml, /^  phase: Spinning$/m);

    const json = JSON.parse(k('get', 'wd', 'w1', '-o', 'json'));
    assert.equal(json.kind, 'Widget');
    assert.equal(json.metadata.namespace, 'default');
    assert.equal(json.spec.color, 'blue');
    assert.equal(json.status.phase, 'Spinning');

    const list = JSON.parse(k('get', 'wd', '-o', 'json'));
    assert.equal(list.kind, 'List');
    assert.deepEqual(
      list.items.map((i: { kind: string; metadata: { name: string } }) => `${i.kind}/${i.metadata.name}`),
      ['Widget/w1', 'Widget/w2', 'Widget/w3', 'Widget/w4', 'Widget/w5'],
    );

    assert.equal(
      k('get', 'wd', '-o', 'name'),
      ['w1', 'w2', 'w3', 'w4', 'w5'].map((n) => `widget.widgets.example.com/${n}\n`).join(''),
    );
    assert.equal(k('get', 'wd', 'w3', '-o', 'jsonpath={.spec.replicas}'), '5');
    assert.equal(k('get', 'wd', '-o', 'jsonpath={.items[*].spec.color}'), 'blue red blue green red');
  });

  it('-l with =, ==, !=, in, notin, exists, !key and a conjunction', () => {
    assert.deepEqual(names('-l', 'team=a'), ['w1', 'w3']);
    assert.deepEqual(names('-l', 'team==a'), ['w1', 'w3']);
    assert.deepEqual(names('-l', 'team!=a'), ['w2', 'w4', 'w5']);
    assert.deepEqual(names('-l', 'team in (b,c)'), ['w2', 'w4']);
    assert.deepEqual(names('-l', 'team notin (a,b)'), ['w4', 'w5']);
    assert.deepEqual(names('-l', 'team'), ['w1', 'w2', 'w3', 'w4']);
    assert.deepEqual(names('-l', '!team'), ['w5']);
    assert.deepEqual(names('-l', 'tier=front,team=a'), ['w1']);
    const none = kubectl(server.kubeconfig, ['get', 'wd', '-l', 'team=zzz']);
    assert.equal(none.code, 0);
    assert.equal(none.stdout, '');
    assert.match(none.stderr, /No resources found in default namespace\./);
  });

  it('a malformed label selector is the server-side parse error', () => {
    const r = kubectl(server.kubeconfig, ['get', 'wd', '-l', 'team in (a']);
    assert.notEqual(r.code, 0);
    assert.equal(
      r.stderr.trim(),
      `Error from server (BadRequest): Unable to find "widgets.example.com/v1, Resource=widgets" that match label selector "team in (a", field selector "": unable to parse requirement: found '', expected: ',' or ')'`,
    );
  });

  it('--field-selector on metadata.name, a selectable field, and an unsupported field', () => {
    assert.deepEqual(names('--field-selector', 'metadata.name=w2'), ['w2']);
    assert.deepEqual(names('--field-selector', 'metadata.namespace=default'), ['w1', 'w2', 'w3', 'w4', 'w5']);
    assert.deepEqual(names('--field-selector', 'spec.color=blue'), ['w1', 'w3']);
    assert.deepEqual(names('--field-selector', 'spec.color!=blue'), ['w2', 'w4', 'w5']);
    assert.deepEqual(names('--field-selector', 'spec.color=red', '-l', 'tier=back'), ['w5']);
    const r = kubectl(server.kubeconfig, ['get', 'wd', '--field-selector', 'spec.rpm=3']);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr.trim(),
      'Error from server (BadRequest): Unable to find "widgets.example.com/v1, Resource=widgets" that match label selector "", field selector "spec.rpm=3": field label not supported: spec.rpm',
    );
  });

  it('--chunk-size=2 pages through 5 objects with continue tokens', () => {
    const r = kubectl(server.kubeconfig, ['get', 'wd', '--chunk-size=2', '-v=6']);
    assert.equal(r.code, 0, r.stderr);
    const requests = r.stderr.split('\n').filter((l) => /GET .*\/namespaces\/default\/widgets\?/.test(l));
    assert.equal(requests.length, 3, r.stderr);
    assert.match(requests[0]!, /\?limit=2 200 OK/);
    assert.match(requests[1]!, /\?continue=[^&]+&limit=2 200 OK/);
    assert.match(requests[2]!, /\?continue=[^&]+&limit=2 200 OK/);
    const rows = table(r.stdout);
    // One header for the whole listing, then all five rows in order.
    assert.deepEqual(rows.map((row) => row[0]), ['NAME', 'w1', 'w2', 'w3', 'w4', 'w5']);
  });

  it('-A adds the NAMESPACE column and lists every namespace', () => {
    const rows = table(k('get', 'wd', '-A'));
    assert.deepEqual(rows[0], ['NAMESPACE', 'NAME', 'REPLICAS', 'COLOR', 'AGE']);
    assert.deepEqual(
      rows.slice(1).map((r) => r.slice(0, 3)),
      [
        ['default', 'w1', '3'],
        ['default', 'w2', '1'],
        ['default', 'w3', '5'],
        ['default', 'w4', '2'],
        ['default', 'w5', '4'],
        ['team-x', 'o1', '7'],
      ],
    );
    assert.deepEqual(table(k('get', 'wd', '-n', 'team-x')).map((r) => r[0]), ['NAME', 'o1']);
  });

  it('--show-labels and -L team', () => {
    const shown = table(k('get', 'wd', '--show-labels'));
    assert.deepEqual(shown[0], ['NAME', 'REPLICAS', 'COLOR', 'AGE', 'LABELS']);
    assert.deepEqual(
      shown.slice(1).map((r) => [r[0], r[4]]),
      [
        ['w1', 'team=a,tier=front'],
        ['w2', 'team=b,tier=front'],
        ['w3', 'team=a,tier=back'],
        ['w4', 'team=c'],
        ['w5', 'tier=back'],
      ],
    );
    const byTeam = table(k('get', 'wd', '-L', 'team'));
    assert.deepEqual(byTeam[0], ['NAME', 'REPLICAS', 'COLOR', 'AGE', 'TEAM']);
    assert.deepEqual(byTeam.slice(1).map((r) => [r[0], r[4] ?? '']), [
      ['w1', 'a'],
      ['w2', 'b'],
      ['w3', 'a'],
      ['w4', 'c'],
      ['w5', ''],
    ]);
  });

  it('--sort-by=.spec.replicas orders the rows by the field', () => {
    assert.deepEqual(names('--sort-by=.spec.replicas'), ['w2', 'w4', 'w1', 'w5', 'w3']);
    assert.deepEqual(names('--sort-by=.spec.color'), ['w1', 'w3', 'w4', 'w2', 'w5']);
  });

  it('get all includes widgets (category all)', () => {
    const rows = table(k('get', 'all'));
    const listed = rows.map((r) => r[0]!.replace(/^widget\.widgets\.example\.com\//, ''));
    for (const n of ['w1', 'w2', 'w3', 'w4', 'w5']) assert.ok(listed.includes(n), `get all lacks ${n}:\n${rows.join('\n')}`);
    assert.ok(!listed.includes('o1'));
  });

  it('get -w prints the initial list, then a row for a later change', async () => {
    const watch = kubectlBackground(server.kubeconfig, ['get', 'wd', '-w']);
    try {
      await watch.waitFor(/^w5 +4 +red/m);
      k('scale', 'wd', 'w4', '--replicas=9');
      const out = await watch.waitFor(/^w4 +9 +green/m);
      const rows = table(out);
      assert.deepEqual(rows[0], ['NAME', 'REPLICAS', 'COLOR', 'AGE']);
      assert.deepEqual(rows.map((r) => r[0]), ['NAME', 'w1', 'w2', 'w3', 'w4', 'w5', 'w4']);
      kubectlOk(server.kubeconfig, ['create', '-f', '-'], widgetYAML({ name: 'w6', replicas: 6, color: 'red' }));
      await watch.waitFor(/^w6 +6 +red/m);
    } finally {
      await watch.stop();
    }
    k('delete', 'wd', 'w6');
    k('scale', 'wd', 'w4', '--replicas=2');
  });

  it('get NAME -w starts with the object and sees its change', async () => {
    const watch = kubectlBackground(server.kubeconfig, ['get', 'wd', 'w2', '-w']);
    try {
      await watch.waitFor(/^w2 +1 +red/m);
      k('patch', 'wd', 'w2', '--type=merge', '-p', '{"spec":{"replicas":8}}');
      k('patch', 'wd', 'w3', '--type=merge', '-p', '{"spec":{"replicas":6}}');
      const out = await watch.waitFor(/^w2 +8 +red/m);
      assert.deepEqual(table(out).map((r) => r[0]), ['NAME', 'w2', 'w2']);
    } finally {
      await watch.stop();
    }
    assert.doesNotMatch(watch.stdout(), /^w3/m);
    k('patch', 'wd', 'w2', '--type=merge', '-p', '{"spec":{"replicas":1}}');
    k('patch', 'wd', 'w3', '--type=merge', '-p', '{"spec":{"replicas":5}}');
  });

  it('describe prints metadata, spec and status fields and no events', () => {
    k('annotate', 'wd', 'w1', 'note=hello');
    const out = k('describe', 'widget', 'w1');
    assert.match(out, /^Name:\s+w1$/m);
    assert.match(out, /^Namespace:\s+default$/m);
    assert.match(out, /^Labels:\s+team=a\n\s+tier=front$/m);
    assert.match(out, /^Annotations:\s+note: hello$/m);
    assert.match(out, /^API Version:\s+widgets\.example\.com\/v1$/m);
    assert.match(out, /^Kind:\s+Widget$/m);
    assert.match(out, /^Metadata:\n\s+Creation Timestamp:\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
    assert.match(out, /^\s+Generation:\s+1$/m);
    assert.match(out, /^\s+Resource Version:\s+\d+$/m);
    assert.match(out, /^\s+UID:\s+[0-9a-f-]{36}$/m);
    assert.match(out, /^Spec:\n\s+Color:\s+blue\n\s+Replicas:\s+3$/m);
    assert.match(out, /^Status:\n\s+Phase:\s+Spinning$/m);
    assert.match(out, /^Events:\s+<none>$/m);
  });
});
