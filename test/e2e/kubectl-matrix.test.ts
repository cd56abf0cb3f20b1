/**
 * The kubectl version matrix: the same everyday commands, with every kubectl from 1.27 to 1.33
 * (`/usr/lib/google-cloud-sdk/bin/kubectl.1.*`), against one `kgen serve`. Each version works in
 * a namespace of its own, so the versions do not see each other's objects.
 *
 * What each version must do, as it does against kube-apiserver:
 * - api-resources;
 * - apply (create, then configure a built-in kind through strategic merge), get, get -o wide;
 * - explain;
 * - diff, client-side and server-side, exiting 1 when there is a difference;
 * - apply of an invalid object, with kube's message;
 * - apply of an unknown kind, with kubectl's own `no matches for kind` message;
 * - apply -f of a `kind: List`;
 * - apply --server-side after a client-side apply (the field manager takes the fields over);
 * - create service and create clusterrolebinding (protobuf request and response; the Service gets
 *   a cluster IP from --service-cluster-ip-range);
 * - delete.
 *
 * kubectl 1.27 and 1.28 read `/openapi/v2` as protobuf for every apply, explain and diff; later
 * versions use `/openapi/v3` except for lists and unknown kinds.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { kubectlBinary, REPO, removeDir, startKgen, table, tempDir, type KgenServer, type RunResult } from './harness.js';
import { join } from 'node:path';

const VERSIONS = ['1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33'];

function run(v: string, kubeconfig: string, args: string[], input?: string): RunResult {
  const path = kubectlBinary(v);
  const r = spawnSync(path, args, { input, encoding: 'utf8', timeout: 60_000, env: { ...process.env, KUBECONFIG: kubeconfig } });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const widget = (ns: string, name: string, replicas: number, color = 'blue') =>
  `apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: ${name}\n  namespace: ${ns}\nspec:\n  replicas: ${replicas}\n  color: ${color}\n`;
const role = (ns: string, verbs: string[]) =>
  `apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: reader\n  namespace: ${ns}\nrules:\n- apiGroups: [""]\n  resources: [services]\n  verbs: [${verbs.join(', ')}]\n`;
const list = (ns: string) => `apiVersion: v1
kind: List
items:
- apiVersion: widgets.example.com/v1
  kind: Widget
  metadata: {name: listed, namespace: ${ns}}
  spec: {replicas: 1, color: red}
- apiVersion: rbac.authorization.k8s.io/v1
  kind: RoleBinding
  metadata: {name: listed, namespace: ${ns}}
  roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
  subjects:
  - {kind: User, name: alice, apiGroup: rbac.authorization.k8s.io}
`;

describe('kubectl 1.27 to 1.33 against kgen serve', () => {
  let server: KgenServer;
  let dataDir: string;
  before(async () => {
    dataDir = tempDir('matrix');
    const generated = join(REPO, 'generated');
    server = await startKgen({ dataDir, args: ['serve', generated, '--port', '0', '--data-dir', dataDir, '--service-cluster-ip-range', '10.100.0.0/24'] });
  });
  after(async () => {
    await server?.stop();
    removeDir(dataDir);
  });

  for (const v of VERSIONS) {
    describe(`kubectl ${v}`, () => {
      const ns = `m${v.replace('.', '')}`;
      const k = (args: string[], input?: string) => run(v, server.kubeconfig, args, input);
      const ok = (args: string[], input?: string) => {
        const r = k(args, input);
        assert.equal(r.code, 0, `kubectl ${v} ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
        return r.stdout;
      };

      it('api-resources lists built-in and compiled kinds', () => {
        const rows = table(ok(['api-resources', '--no-headers']));
        const names = rows.map((r) => r[0]);
        for (const n of ['namespaces', 'services', 'clusterroles', 'roles', 'customresourcedefinitions', 'widgets']) assert.ok(names.includes(n), n);
        ok(['create', 'namespace', ns]);
      });

      it('apply creates, then get and get -o wide print the table', () => {
        assert.match(ok(['apply', '-f', '-'], widget(ns, 'w1', 2)), /widget.widgets.example.com\/w1 created/);
        assert.match(ok(['apply', '-f', '-'], widget(ns, 'w1', 2)), /widget.widgets.example.com\/w1 unchanged/);
        assert.deepEqual(table(ok(['get', 'widgets', '-n', ns])).map((r) => r.slice(0, 3)), [['NAME', 'REPLICAS', 'COLOR'], ['w1', '2', 'blue']]);
        assert.deepEqual(table(ok(['get', 'widgets', '-n', ns, '-o', 'wide']))[0], ['NAME', 'REPLICAS', 'COLOR', 'PHASE', 'AGE']);
      });

      it('apply of a built-in kind configures it through strategic merge', () => {
        assert.match(ok(['apply', '-f', '-'], role(ns, ['get'])), /role.rbac.authorization.k8s.io\/reader created/);
        assert.match(ok(['apply', '-f', '-'], role(ns, ['get', 'list'])), /role.rbac.authorization.k8s.io\/reader configured/);
        const got = JSON.parse(ok(['get', 'role', 'reader', '-n', ns, '-o', 'json']));
        assert.deepEqual(got.rules[0].verbs, ['get', 'list']);
      });

      it('explain describes a compiled kind and a built-in one', () => {
        assert.match(ok(['explain', 'widgets.spec']), /replicas/);
        assert.match(ok(['explain', 'roles.rules']), /verbs/);
      });

      it('diff exits 1 with the difference, client-side and server-side', () => {
        const client = k(['diff', '-f', '-'], widget(ns, 'w1', 3));
        assert.equal(client.code, 1, client.stderr);
        assert.match(client.stdout, /-\s+replicas: 2\n\+\s+replicas: 3/);
        const serverSide = k(['diff', '--server-side', '-f', '-'], widget(ns, 'w1', 4));
        assert.equal(serverSide.code, 1, serverSide.stderr);
        assert.match(serverSide.stdout, /\+\s+replicas: 4/);
        const same = k(['diff', '-f', '-'], widget(ns, 'w1', 2));
        assert.equal(same.code, 0, same.stderr + same.stdout);
      });

      it('apply of an invalid object prints kube message', () => {
        const r = k(['apply', '-f', '-'], widget(ns, 'bad', -5));
        assert.equal(r.code, 1);
        assert.match(r.stderr, /The Widget "bad" is invalid: spec.replicas: Invalid value: -5: spec.replicas in body should be greater than or equal to 0/);
      });

      it('apply of an unknown kind prints kubectl own message', () => {
        const r = k(['apply', '-f', '-'], `apiVersion: widgets.example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n  namespace: ${ns}\n`);
        assert.equal(r.code, 1);
        assert.match(r.stderr, /no matches for kind "Gadget" in version "widgets.example.com\/v1"/);
      });

      it('apply -f of a kind: List creates every item', () => {
        const out = ok(['apply', '-f', '-'], list(ns));
        assert.match(out, /widget.widgets.example.com\/listed created/);
        assert.match(out, /rolebinding.rbac.authorization.k8s.io\/listed created/);
      });

      it('apply --server-side after a client-side apply takes the fields over', () => {
        const out = ok(['apply', '--server-side', '-f', '-'], widget(ns, 'w1', 5));
        assert.match(out, /widget.widgets.example.com\/w1 serverside-applied/);
        const got = JSON.parse(ok(['get', 'widget', 'w1', '-n', ns, '-o', 'json']));
        assert.equal(got.spec.replicas, 5);
        const lastApplied = JSON.parse(got.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
        assert.equal(lastApplied.spec.replicas, 5, 'the server keeps last-applied current');
        assert.match(ok(['apply', '-f', '-'], widget(ns, 'w1', 6)), /configured/);
      });

      it('create service: protobuf request and response for a built-in kind', () => {
        assert.match(ok(['create', 'service', 'clusterip', 'web', '-n', ns, '--tcp=80:8080']), /service\/web created/);
        const svc = JSON.parse(ok(['get', 'service', 'web', '-n', ns, '-o', 'json']));
        assert.deepEqual(svc.spec.ports[0], { name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 });
        assert.match(svc.spec.clusterIP, /^10\.100\.0\.\d+$/, 'allocated from --service-cluster-ip-range');
        assert.match(ok(['create', 'clusterrolebinding', `pb-${ns}`, '--clusterrole=view', `--user=u-${ns}`]), /created/);
        assert.match(ok(['delete', 'clusterrolebinding', `pb-${ns}`]), /deleted/);
      });

      it('delete removes the objects', () => {
        assert.match(ok(['delete', '-f', '-'], widget(ns, 'w1', 2)), /widget.widgets.example.com "w1" deleted/);
        assert.match(ok(['delete', '-f', '-'], list(ns)), /rolebinding.rbac.authorization.k8s.io "listed" deleted/);
        assert.match(ok(['delete', 'namespace', ns]), /namespace "m\d+" deleted/);
      });
    });
  }
});
