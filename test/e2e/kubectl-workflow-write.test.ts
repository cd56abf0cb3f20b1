/**
 * kubectl workflow, writes: client-side and server-side apply, diff, edit, replace, label,
 * annotate, every patch type, scale, wait, deletion with finalizers, of a collection and of a
 * namespace, plus api-versions and explain. Every assertion is on what kubectl printed, and
 * what the server then holds (a later `kubectl get`, or where kubectl's printing of it is not the
 * point, a GET over HTTP), with kube-apiserver's behaviour (and wording) as the reference.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { REPO, kubectl, kubectlOk, removeDir, startKgen, table, tempDir, type KgenServer } from './harness.js';
import { kubectlBackground, sedEditor, widgetYAML } from './kubectl-workflow-helpers.js';

describe('kubectl workflow: writes', () => {
  let server: KgenServer;
  const scratch = tempDir('kubectl-write');
  const k = (...args: string[]) => kubectlOk(server.kubeconfig, args);
  const kIn = (input: string, ...args: string[]) => kubectlOk(server.kubeconfig, args, input);
  const jsonpath = (name: string, path: string, ...flags: string[]) => k('get', 'wd', name, ...flags, '-o', `jsonpath=${path}`);
  /**
   * The stored Widget, read over HTTP: what a write left on the server, checked without another
   * kubectl (kubectl's jsonpath printer is still used where its output is the point).
   */
  const stored = async (name: string, ns = 'default') => {
    const r = await server.fetch(`${server.url}/apis/widgets.example.com/v1/namespaces/${ns}/widgets/${name}`);
    assert.equal(r.status, 200, `${ns}/${name}`);
    return JSON.parse(await r.text());
  };

  before(async () => {
    server = await startKgen({ generatedDir: join(REPO, 'generated'), storage: 'memory:' });
  });
  after(async () => {
    await server.stop();
    removeDir(server.dataDir);
    removeDir(scratch);
  });

  it('api-versions lists every served group version', () => {
    assert.equal(
      k('api-versions'),
      'admissionregistration.k8s.io/v1\napiextensions.k8s.io/v1\napiregistration.k8s.io/v1\napps/v1\nauthentication.k8s.io/v1\nauthentication.k8s.io/v1beta1\nauthorization.k8s.io/v1\ncoordination.k8s.io/v1\nevents.k8s.io/v1\nops.example.org/v1beta1\nrbac.authorization.k8s.io/v1\nv1\nwidgets.example.com/v1\nwidgets.example.com/v1beta1\n',
    );
  });

  it('explain --recursive prints the whole field tree', () => {
    const out = k('explain', 'widget', '--recursive');
    assert.match(out, /^GROUP:\s+widgets\.example\.com$/m);
    assert.match(out, /^KIND:\s+Widget$/m);
    assert.match(out, /^VERSION:\s+v1$/m);
    assert.match(out, /^DESCRIPTION:\n\s+Widget is a thing that spins\./m);
    assert.match(out, /^FIELDS:$/m);
    assert.match(out, /^  metadata\t<ObjectMeta>$/m);
    assert.match(out, /^    finalizers\t<\[\]string>$/m);
    assert.match(out, /^  spec\t<WidgetSpec> -required-$/m);
    assert.match(out, /^    parts\t<\[\]Part>$/m);
    assert.match(out, /^      count\t<integer> -required-$/m);
    assert.match(out, /^    replicas\t<integer>$/m);
    assert.match(out, /^  status\t<WidgetStatus>$/m);
    assert.match(out, /^    conditions\t<\[\]Condition>$/m);
    assert.match(out, /^      lastTransitionTime\t<string> -required-$/m);
  });

  it('create namespace, then objects in it', () => {
    assert.equal(k('create', 'namespace', 'work'), 'namespace/work created\n');
    assert.deepEqual(table(k('get', 'ns', 'work')).map((r) => r.slice(0, 2)), [
      ['NAME', 'STATUS'],
      ['work', 'Active'],
    ]);
    const dup = kubectl(server.kubeconfig, ['create', 'namespace', 'work']);
    assert.equal(dup.code, 1);
    assert.equal(dup.stderr.trim(), 'Error from server (AlreadyExists): namespaces "work" already exists');
  });

  it('apply (client-side) creates, configures on a change, and is unchanged on a re-apply', () => {
    assert.equal(kIn(widgetYAML({ name: 'a1', replicas: 1 }), 'apply', '-f', '-'), 'widget.widgets.example.com/a1 created\n');
    assert.equal(kIn(widgetYAML({ name: 'a1', replicas: 4, color: 'green' }), 'apply', '-f', '-'), 'widget.widgets.example.com/a1 configured\n');
    assert.equal(kIn(widgetYAML({ name: 'a1', replicas: 4, color: 'green' }), 'apply', '-f', '-'), 'widget.widgets.example.com/a1 unchanged\n');
    assert.equal(jsonpath('a1', '{.spec.replicas} {.spec.color} {.metadata.generation}'), '4 green 2');
    const lastApplied = JSON.parse(jsonpath('a1', `{.metadata.annotations.kubectl\\.kubernetes\\.io/last-applied-configuration}`));
    assert.deepEqual(lastApplied.spec, { replicas: 4, color: 'green' });
  });

  it('apply --server-side creates, reports a conflict with another manager, and --force-conflicts takes the field', async () => {
    const manifest = widgetYAML({ name: 's1', replicas: 2, color: 'blue' });
    assert.equal(kIn(manifest, 'apply', '--server-side', '-f', '-'), 'widget.widgets.example.com/s1 serverside-applied\n');
    assert.equal((await stored('s1')).spec.replicas, 2);

    const changed = widgetYAML({ name: 's1', replicas: 3, color: 'blue' });
    const conflict = kubectl(server.kubeconfig, ['apply', '--server-side', '--field-manager=other', '-f', '-'], changed);
    assert.equal(conflict.code, 1);
    assert.match(conflict.stderr, /^error: Apply failed with 1 conflict: conflict with "kubectl": \.spec\.replicas$/m);
    assert.match(conflict.stderr, /re-run the apply\n\s+command with the `--force-conflicts` flag/);
    assert.equal((await stored('s1')).spec.replicas, 2);

    assert.equal(
      kIn(changed, 'apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', '-'),
      'widget.widgets.example.com/s1 serverside-applied\n',
    );
    assert.equal((await stored('s1')).spec.replicas, 3);
    const managers = jsonpath('s1', '{.metadata.managedFields[*].manager}').split(' ').sort();
    assert.deepEqual(managers, ['kubectl', 'other']);
  });

  it('diff shows the change, exits 1, and stores nothing', async () => {
    kIn(widgetYAML({ name: 'd1', replicas: 2 }), 'apply', '-f', '-');
    const before = (await stored('d1')).metadata.resourceVersion;
    const r = kubectl(server.kubeconfig, ['diff', '-f', '-'], widgetYAML({ name: 'd1', replicas: 9 }));
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^-  replicas: 2$/m);
    assert.match(r.stdout, /^\+  replicas: 9$/m);
    assert.match(r.stdout, /^-  generation: 1$/m);
    assert.match(r.stdout, /^\+  generation: 2$/m);
    const after = await stored('d1');
    assert.deepEqual([after.spec.replicas, after.metadata.generation, after.metadata.resourceVersion], [2, 1, before]);
    const same = kubectl(server.kubeconfig, ['diff', '-f', '-'], widgetYAML({ name: 'd1', replicas: 2 }));
    assert.equal(same.code, 0, same.stderr);
    assert.equal(same.stdout, '');
  });

  it('edit with KUBE_EDITOR set to a script changes the object', async () => {
    kIn(widgetYAML({ name: 'e1', replicas: 2 }), 'create', '-f', '-');
    const editor = sedEditor(scratch, 'edit-replicas.sh', 's/^  replicas: 2$/  replicas: 6/');
    const r = kubectl(server.kubeconfig, ['edit', 'wd', 'e1'], undefined, { KUBE_EDITOR: editor, EDITOR: editor });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'widget.widgets.example.com/e1 edited\n');
    assert.equal((await stored('e1')).spec.replicas, 6);

    const noop = sedEditor(scratch, 'edit-nothing.sh', 's/^nothing$/x/');
    const unchanged = kubectl(server.kubeconfig, ['edit', 'wd', 'e1'], undefined, { KUBE_EDITOR: noop, EDITOR: noop });
    assert.equal(unchanged.code, 0, unchanged.stderr);
    assert.match(unchanged.stderr, /Edit cancelled, no changes made\./);
  });

  it('replace with a stale resourceVersion is a conflict; a fresh one replaces', async () => {
    kIn(widgetYAML({ name: 'r1', replicas: 2 }), 'create', '-f', '-');
    const stale = k('get', 'wd', 'r1', '-o', 'yaml');
    k('label', 'wd', 'r1', 'bump=1');
    const r = kubectl(server.kubeconfig, ['replace', '-f', '-'], stale.replace('replicas: 2', 'replicas: 3'));
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr.trim(),
      'Error from server (Conflict): error when replacing "STDIN": Operation cannot be fulfilled on widgets.widgets.example.com "r1": the object has been modified; please apply your changes to the latest version and try again',
    );
    assert.equal((await stored('r1')).spec.replicas, 2);
    const fresh = k('get', 'wd', 'r1', '-o', 'yaml');
    assert.equal(kIn(fresh.replace('replicas: 2', 'replicas: 3'), 'replace', '-f', '-'), 'widget.widgets.example.com/r1 replaced\n');
    const replaced = await stored('r1');
    assert.deepEqual([replaced.spec.replicas, replaced.metadata.labels.bump], [3, '1']);
  });

  it('label and annotate add, refuse to overwrite without --overwrite, and remove', async () => {
    kIn(widgetYAML({ name: 'l1' }), 'create', '-f', '-');
    assert.equal(k('label', 'wd', 'l1', 'team=a'), 'widget.widgets.example.com/l1 labeled\n');
    const again = kubectl(server.kubeconfig, ['label', 'wd', 'l1', 'team=b']);
    assert.equal(again.code, 1);
    assert.equal(again.stderr.trim(), "error: 'team' already has a value (a), and --overwrite is false");
    assert.equal(k('label', 'wd', 'l1', 'team=b', '--overwrite'), 'widget.widgets.example.com/l1 labeled\n');
    assert.equal((await stored('l1')).metadata.labels.team, 'b');
    assert.deepEqual(table(k('get', 'wd', '-l', 'team=b')).map((r) => r[0]), ['NAME', 'l1']);
    assert.equal(k('label', 'wd', 'l1', 'team-'), 'widget.widgets.example.com/l1 unlabeled\n');
    assert.deepEqual(table(k('get', 'wd', 'l1', '--show-labels')).map((r) => r.at(-1)), ['LABELS', '<none>']);

    assert.equal(k('annotate', 'wd', 'l1', 'note=first'), 'widget.widgets.example.com/l1 annotated\n');
    assert.equal(k('annotate', 'wd', 'l1', 'note=second', '--overwrite'), 'widget.widgets.example.com/l1 annotated\n');
    const annotated = await stored('l1');
    assert.equal(annotated.metadata.annotations.note, 'second');
    assert.equal(annotated.metadata.generation, 1, 'metadata-only changes do not bump generation');
  });

  it("removing the last label drops the empty map, as kube's ObjectMeta round trip does", () => {
    kIn(widgetYAML({ name: 'l2', labels: { only: 'one' } }), 'create', '-f', '-');
    k('label', 'wd', 'l2', 'only-');
    assert.doesNotMatch(k('get', 'wd', 'l2', '-o', 'yaml'), /labels:/);
  });

  it('patch --type=merge and --type=json', async () => {
    kIn(widgetYAML({ name: 'p1', replicas: 2 }), 'create', '-f', '-');
    assert.equal(k('patch', 'wd', 'p1', '--type=merge', '-p', '{"spec":{"replicas":8}}'), 'widget.widgets.example.com/p1 patched\n');
    assert.equal(k('patch', 'wd', 'p1', '--type=merge', '-p', '{"spec":{"replicas":8}}'), 'widget.widgets.example.com/p1 patched (no change)\n');
    assert.equal(
      k('patch', 'wd', 'p1', '--type=json', '-p', '[{"op":"replace","path":"/spec/color","value":"green"},{"op":"add","path":"/metadata/labels","value":{"x":"y"}}]'),
      'widget.widgets.example.com/p1 patched\n',
    );
    const patched = await stored('p1');
    assert.deepEqual([patched.spec.replicas, patched.spec.color, patched.metadata.labels.x], [8, 'green', 'y']);

    const invalid = kubectl(server.kubeconfig, ['patch', 'wd', 'p1', '--type=merge', '-p', '{"spec":{"replicas":500}}']);
    assert.equal(invalid.code, 1);
    assert.equal(
      invalid.stderr.trim(),
      'The Widget "p1" is invalid: spec.replicas: Invalid value: 500: spec.replicas in body should be less than or equal to 100',
    );
  });

  it('patch with the default strategic type works on a compiled kind, as on an aggregated server', async () => {
    const r = kubectl(server.kubeconfig, ['patch', 'wd', 'p1', '-p', '{"spec":{"replicas":4}}']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'widget.widgets.example.com/p1 patched\n');
    assert.equal((await stored('p1')).spec.replicas, 4);
    kubectlOk(server.kubeconfig, ['patch', 'wd', 'p1', '--type=merge', '-p', '{"spec":{"replicas":8}}']);
  });

  it('scale, and scale --current-replicas as a precondition', async () => {
    kIn(widgetYAML({ name: 'sc1', replicas: 2 }), 'create', '-f', '-');
    assert.equal(k('scale', 'wd', 'sc1', '--replicas=5'), 'widget.widgets.example.com/sc1 scaled\n');
    assert.equal((await stored('sc1')).spec.replicas, 5);
    assert.equal(k('scale', 'wd', 'sc1', '--current-replicas=5', '--replicas=6'), 'widget.widgets.example.com/sc1 scaled\n');
    const stale = kubectl(server.kubeconfig, ['scale', 'wd', 'sc1', '--current-replicas=5', '--replicas=7']);
    assert.equal(stale.code, 1);
    assert.equal(stale.stderr.trim(), 'error: Expected replicas to be 5, was 6');
    assert.equal((await stored('sc1')).spec.replicas, 6);
    assert.equal(k('get', 'wd', 'sc1', '--subresource=scale', '-o', 'jsonpath={.kind} {.apiVersion} {.spec.replicas}'), 'Scale autoscaling/v1 6');
  });

  it('wait --for=condition=Ready returns once /status sets the condition', async () => {
    kIn(widgetYAML({ name: 'wt1' }), 'create', '-f', '-');
    const wait = kubectlBackground(server.kubeconfig, ['wait', '--for=condition=Ready', 'wd/wt1', '--timeout=20s']);
    try {
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(wait.stdout(), '', 'the condition is not met yet');
      const condition = { type: 'Ready', status: 'True', reason: 'Spinning', message: 'all spinners up', lastTransitionTime: '2024-01-01T00:00:00Z' };
      k('patch', 'wd', 'wt1', '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: { conditions: [condition] } }));
      assert.equal(await wait.exited, 0, wait.stderr());
      assert.equal(wait.stdout(), 'widget.widgets.example.com/wt1 condition met\n');
    } finally {
      await wait.stop();
    }
    // Already met: returns at once; the condition type matches case-insensitively.
    assert.equal(k('wait', '--for=condition=ready', 'wd/wt1', '--timeout=5s'), 'widget.widgets.example.com/wt1 condition met\n');
    const notMet = kubectl(server.kubeconfig, ['wait', '--for=condition=Stopped', 'wd/wt1', '--timeout=1s']);
    assert.equal(notMet.code, 1);
    assert.equal(notMet.stderr.trim(), 'error: timed out waiting for the condition on widgets/wt1');
  });

  it('wait --for=delete returns once the object is gone', async () => {
    kIn(widgetYAML({ name: 'wt2' }), 'create', '-f', '-');
    // -v=6 logs each answer kubectl gets: the delete goes once its watch is open (a fixed 300 ms
    // was not always enough at load 16; the delete then came first and wait printed nothing).
    const wait = kubectlBackground(server.kubeconfig, ['wait', '--for=delete', 'wd/wt2', '--timeout=20s', '-v=6']);
    try {
      await wait.waitFor(/[?&]watch=true\S* 200 OK/, 20_000, 'stderr');
      assert.equal(k('delete', 'wd', 'wt2'), 'widget.widgets.example.com "wt2" deleted\n');
      assert.equal(await wait.exited, 0, wait.stderr());
      assert.equal(wait.stdout(), 'widget.widgets.example.com/wt2 condition met\n');
    } finally {
      await wait.stop();
    }
  });

  it('delete of an object with a finalizer leaves it terminating until the finalizer is removed', () => {
    kIn(widgetYAML({ name: 'f1', finalizers: ['example.com/hold'] }), 'create', '-f', '-');
    assert.equal(k('delete', 'wd', 'f1', '--wait=false'), 'widget.widgets.example.com "f1" deleted\n');
    const got = kubectl(server.kubeconfig, ['get', 'wd', 'f1', '-o', 'jsonpath={.metadata.deletionTimestamp} {.metadata.finalizers}']);
    assert.equal(got.code, 0, `the object must still exist while it has a finalizer: ${got.stderr}`);
    assert.match(got.stdout, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \["example\.com\/hold"\]$/);
    assert.match(k('describe', 'wd', 'f1'), /^\s+Deletion Timestamp:\s+\d{4}-/m);
    assert.equal(
      k('patch', 'wd', 'f1', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]'),
      'widget.widgets.example.com/f1 patched\n',
    );
    const gone = kubectl(server.kubeconfig, ['get', 'wd', 'f1']);
    assert.equal(gone.code, 1);
    assert.equal(gone.stderr.trim(), 'Error from server (NotFound): widgets.widgets.example.com "f1" not found');
  });

  it('delete --all deletes every widget in the namespace, one by one', async () => {
    for (const n of ['b1', 'b2', 'b3']) kIn(widgetYAML({ name: n, namespace: 'work' }), 'create', '-f', '-');
    kIn(widgetYAML({ name: 'keep', namespace: 'default' }), 'create', '-f', '-');
    assert.equal(
      k('delete', 'wd', '--all', '-n', 'work'),
      ['b1', 'b2', 'b3'].map((n) => `widget.widgets.example.com "${n}" deleted\n`).join(''),
    );
    const r = kubectl(server.kubeconfig, ['get', 'wd', '-n', 'work']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trim(), 'No resources found in work namespace.');
    assert.equal((await stored('keep')).metadata.name, 'keep', 'another namespace keeps its widget');
  });

  it('delete namespace deletes the widgets in it, then the namespace', () => {
    k('create', 'namespace', 'doomed');
    for (const n of ['x1', 'x2']) kIn(widgetYAML({ name: n, namespace: 'doomed' }), 'create', '-f', '-');
    assert.equal(k('delete', 'namespace', 'doomed', '--timeout=30s'), 'namespace "doomed" deleted\n');
    const ns = kubectl(server.kubeconfig, ['get', 'ns', 'doomed']);
    assert.equal(ns.code, 1);
    assert.equal(ns.stderr.trim(), 'Error from server (NotFound): namespaces "doomed" not found');
    const all = table(k('get', 'wd', '-A'));
    assert.ok(!all.some((r) => r[0] === 'doomed'), `widgets of the deleted namespace are still listed:\n${all.join('\n')}`);
    const inNs = kubectl(server.kubeconfig, ['get', 'wd', '-n', 'doomed']);
    assert.equal(inNs.stderr.trim(), 'No resources found in doomed namespace.');
    // The namespace can be created again, empty.
    assert.equal(k('create', 'namespace', 'doomed'), 'namespace/doomed created\n');
    assert.equal(kubectl(server.kubeconfig, ['get', 'wd', '-n', 'doomed']).stdout, '');
  });
});
