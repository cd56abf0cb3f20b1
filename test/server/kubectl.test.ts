/**
 * Real kubectl (v1.32, on PATH) against the server with the kubeconfig it writes: catches wire
 * mismatches in discovery, OpenAPI, Table output, protobuf bodies and error Statuses early.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startServer, type RunningServer } from '../../runtime/controlplane/index.js';
import { FIXTURE_DIR } from './testserver.js';
import { forgetKubectlDiscovery } from '../support/kubectl-cache.js';

const run = promisify(execFile);

describe('kubectl against kgen serve', () => {
  let server: RunningServer;
  let dir: string;

  async function kubectl(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
    try {
      const { stdout, stderr } = await run('kubectl', args, {
        env: { ...process.env, KUBECONFIG: server.kubeconfigPath, HOME: dir },
        timeout: 20_000,
      });
      return { stdout, stderr, code: 0 };
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; code?: number };
      return { stdout: e.stdout ?? '', stderr: e.stderr ?? '', code: typeof e.code === 'number' ? e.code : 1 };
    }
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kgen-kubectl-'));
    server = await startServer({ generatedDir: FIXTURE_DIR, storage: 'memory:', dataDir: dir, port: 0 });
    forgetKubectlDiscovery(server.url);
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists api-resources from aggregated discovery', async () => {
    const r = await kubectl('api-resources', '--no-headers');
    assert.equal(r.code, 0, r.stderr);
    const rows = r.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/));
    // kgen's built-in groups (admission, authorization, RBAC) are listed too.
    assert.ok(rows.some((row) => row.join(' ') === 'roles rbac.authorization.k8s.io/v1 true Role'), r.stdout);
    assert.ok(rows.some((row) => row.join(' ') === 'selfsubjectaccessreviews authorization.k8s.io/v1 false SelfSubjectAccessReview'), r.stdout);
    const own = rows.filter((row) => row.includes('v1') || row.includes('widgets.example.com/v1'));
    assert.deepEqual(own, [
      ['configmaps', 'cm', 'v1', 'true', 'ConfigMap'],
      ['endpoints', 'ep', 'v1', 'true', 'Endpoints'],
      ['events', 'ev', 'v1', 'true', 'Event'],
      ['namespaces', 'ns', 'v1', 'false', 'Namespace'],
      ['persistentvolumeclaims', 'pvc', 'v1', 'true', 'PersistentVolumeClaim'],
      ['secrets', 'v1', 'true', 'Secret'],
      ['serviceaccounts', 'sa', 'v1', 'true', 'ServiceAccount'],
      ['services', 'svc', 'v1', 'true', 'Service'],
      ['gadgets', 'gd', 'widgets.example.com/v1', 'false', 'Gadget'],
      ['widgets', 'wd', 'widgets.example.com/v1', 'true', 'Widget'],
    ]);
  });

  it('creates from a file (with OpenAPI-backed validation) and prints the declared columns', async () => {
    const file = join(dir, 'w.yaml');
    writeFileSync(file, 'apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: kw1\n  labels: {app: demo}\nspec:\n  replicas: 3\n  color: red\n');
    const created = await kubectl('create', '-f', file);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout.trim(), 'widget.widgets.example.com/kw1 created');

    const get = await kubectl('get', 'widgets');
    assert.equal(get.code, 0, get.stderr);
    const [header, row] = get.stdout.trim().split('\n');
    assert.deepEqual(header!.trim().split(/\s+/), ['NAME', 'REPLICAS', 'COLOR', 'AGE']);
    assert.deepEqual(row!.trim().split(/\s+/).slice(0, 3), ['kw1', '3', 'red']);
    assert.match(row!.trim().split(/\s+/)[3]!, /^\d+s$/);

    const wide = await kubectl('get', 'wd', '-o', 'wide', '-A', '--show-labels');
    assert.equal(wide.code, 0, wide.stderr);
    assert.deepEqual(wide.stdout.split('\n')[0]!.trim().split(/\s+/), ['NAMESPACE', 'NAME', 'REPLICAS', 'COLOR', 'READY', 'AGE', 'LABELS']);
    assert.match(wide.stdout, /default\s+kw1\s+3\s+red\s+\d+s\s+app=demo/);
  });

  it('scales, patches, creates a namespace (protobuf) and deletes', async () => {
    const scaled = await kubectl('scale', 'widget/kw1', '--replicas=5');
    assert.equal(scaled.code, 0, scaled.stderr);
    const patched = await kubectl('patch', 'wd', 'kw1', '--type=merge', '-p', '{"spec":{"color":"blue"}}');
    assert.equal(patched.code, 0, patched.stderr);
    const json = JSON.parse((await kubectl('get', 'wd', 'kw1', '-o', 'json')).stdout);
    assert.equal(json.spec.replicas, 5);
    assert.equal(json.spec.color, 'blue');
    const strategic = await kubectl('patch', 'wd', 'kw1', '-p', '{"spec":{"color":"green"}}');
    assert.equal(strategic.code, 0, strategic.stderr);
    assert.equal(JSON.parse((await kubectl('get', 'wd', 'kw1', '-o', 'json')).stdout).spec.color, 'green');

    const ns = await kubectl('create', 'namespace', 'kns');
    assert.equal(ns.code, 0, ns.stderr);
    assert.match((await kubectl('get', 'ns', 'kns')).stdout, /^NAME\s+STATUS\s+AGE\nkns\s+Active\s+\d+s\n$/);

    const invalid = await kubectl('patch', 'wd', 'kw1', '--type=merge', '-p', '{"spec":{"replicas":-3}}');
    assert.notEqual(invalid.code, 0);
    assert.match(invalid.stderr, /The Widget "kw1" is invalid: \n?\* ?spec\.replicas|spec\.replicas: Invalid value: -3/);

    const deleted = await kubectl('delete', 'wd', 'kw1');
    assert.equal(deleted.code, 0, deleted.stderr);
    const missing = await kubectl('get', 'wd', 'kw1');
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /widgets\.widgets\.example\.com "kw1" not found/);
  });
});
