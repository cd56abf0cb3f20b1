/**
 * A two-version kind with real kubectl and `kgen serve` (the bundled Widget: v1 stores,
 * v1beta1 is deprecated and calls v1's `spec.replicas` `spec.size`):
 * - an "old" server whose storage version is v1beta1 writes objects; the bundled server (storage
 *   version v1) over the same data reads them correctly in both versions;
 * - get, list, watch and patch round-trip through both versions; objects are stored once (checked
 *   in storage itself); kubectl prints the deprecation warning;
 * - `kgen migrate-storage` rewrites the old objects in v1.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generate, formatDiagnostic } from '../../generator/index.js';
import type { KubeObject } from '../../runtime/api/meta.js';
import { openStorage } from '../../runtime/storage/factory.js';
import { resourcePrefix } from '../../runtime/storage/keys.js';
import { KGEN_BIN, REPO, kubectl, kubectlOk, removeDir, startKgen, table, tempDir, type KgenServer } from './harness.js';
import { kubectlBackground } from './kubectl-workflow-helpers.js';

const WARNING = 'Warning: widgets.example.com/v1beta1 Widget is deprecated; use widgets.example.com/v1 Widget';
const BETA = 'widgets.v1beta1.widgets.example.com';
const V1 = 'widgets.v1.widgets.example.com';
const PREFIX = resourcePrefix('widgets.example.com', 'widgets');

const betaWidget = (name: string, size: number, color = 'blue') =>
  `apiVersion: widgets.example.com/v1beta1\nkind: Widget\nmetadata:\n  name: ${name}\nspec:\n  size: ${size}\n  color: ${color}\n`;
const v1Widget = (name: string, replicas: number, color = 'green') =>
  `apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: ${name}\nspec:\n  replicas: ${replicas}\n  color: ${color}\n`;

/** The bundled apis as they were before v1 became the storage version: v1beta1 stores. */
function generateOldLayout(work: string): string {
  const apis = join(work, 'apis');
  cpSync(join(REPO, 'apis'), apis, { recursive: true });
  const edit = (path: string, from: string, to: string) => {
    const text = readFileSync(join(apis, path), 'utf8');
    assert.ok(text.includes(from), `${path} has ${JSON.stringify(from)}`);
    writeFileSync(join(apis, path), text.replace(from, to));
  };
  edit('widgets.example.com/v1/widget.ts', ' * @kgen:storageversion\n', '');
  edit('widgets.example.com/v1beta1/widget.ts', ' * @kgen:deprecatedversion\n', ' * @kgen:storageversion\n');
  // The conversions are the same pairs; they live in the non-storage version's folder.
  renameSync(join(apis, 'widgets.example.com/v1beta1/conversion.ts'), join(apis, 'widgets.example.com/v1/conversion.ts'));
  edit('widgets.example.com/v1/conversion.ts', "from '../v1/widget.js'", "from './widget.js'");
  edit('widgets.example.com/v1/conversion.ts', "import type { WidgetSpec } from './widget.js';", "import type { WidgetSpec } from '../v1beta1/widget.js';");
  const out = join(work, 'generated');
  const result = generate({ apisDir: apis, outDir: out });
  assert.ok(result.ok, result.diagnostics.map((d) => formatDiagnostic(d)).join('\n'));
  return out;
}

async function readStored(dataDir: string): Promise<Map<string, KubeObject>> {
  const storage = await openStorage('sqlite:', { dataDir });
  try {
    const list = await storage.getList(PREFIX);
    return new Map(list.items.map((o) => [o.metadata.name!, o]));
  } finally {
    await storage.close();
  }
}

describe('kubectl: a kind in two versions, converted through its storage version', () => {
  let work: string;
  let dataDir: string;
  let server: KgenServer;
  /** What the old server left in storage. */
  let oldStored: Map<string, KubeObject>;
  const k = (...args: string[]) => kubectlOk(server.kubeconfig, args);
  const json = (...args: string[]) => JSON.parse(k(...args, '-o', 'json'));

  before(async () => {
    mkdirSync(join(REPO, 'test/.tmp'), { recursive: true });
    work = mkdtempSync(join(REPO, 'test/.tmp/e2e-versions-'));
    dataDir = tempDir('versions');
    const old = await startKgen({ generatedDir: generateOldLayout(work), dataDir, storage: 'sqlite:' });
    try {
      kubectlOk(old.kubeconfig, ['create', '-f', '-'], betaWidget('old1', 2) + '---\n' + betaWidget('old2', 4, 'red'));
    } finally {
      await old.stop();
    }
    oldStored = await readStored(dataDir);
    server = await startKgen({ generatedDir: join(REPO, 'generated'), dataDir, storage: 'sqlite:' });
  });
  after(async () => {
    await server?.stop();
    removeDir(dataDir);
    rmSync(work, { recursive: true, force: true });
  });

  it('the old server stored its objects in v1beta1, with size', () => {
    assert.deepEqual([...oldStored.keys()].sort(), ['old1', 'old2']);
    assert.equal(oldStored.get('old1')!.apiVersion, 'widgets.example.com/v1beta1');
    assert.deepEqual(oldStored.get('old1')!.spec, { size: 2, color: 'blue' });
  });

  it('reads objects stored in the old storage version correctly, in both versions', () => {
    const v1 = json('get', V1, 'old1');
    assert.deepEqual([v1.apiVersion, v1.spec.replicas, v1.spec.color], ['widgets.example.com/v1', 2, 'blue']);
    assert.equal(v1.spec.size, undefined);
    const beta = kubectl(server.kubeconfig, ['get', BETA, 'old1', '-o', 'json']);
    assert.equal(beta.code, 0, beta.stderr);
    assert.deepEqual(JSON.parse(beta.stdout).spec, { size: 2, color: 'blue' });
  });

  it('prints the deprecation warning for every request to v1beta1, and none for v1', () => {
    const beta = kubectl(server.kubeconfig, ['get', BETA]);
    assert.equal(beta.code, 0, beta.stderr);
    assert.ok(beta.stderr.includes(WARNING), beta.stderr);
    assert.deepEqual(table(beta.stdout)[0], ['NAME', 'SIZE', 'COLOR', 'AGE']);
    const v1 = kubectl(server.kubeconfig, ['get', 'widgets']);
    assert.equal(v1.code, 0, v1.stderr);
    assert.ok(!v1.stderr.includes('Warning'), v1.stderr);
    assert.deepEqual(table(v1.stdout)[0], ['NAME', 'REPLICAS', 'COLOR', 'AGE'], 'the preferred version is v1');
  });

  it('round-trips create, get and list through both versions', () => {
    kubectlOk(server.kubeconfig, ['apply', '-f', '-'], betaWidget('b1', 3));
    kubectlOk(server.kubeconfig, ['apply', '-f', '-'], v1Widget('a1', 5));
    const v1Rows = table(k('get', V1)).slice(1).map((r) => [r[0], r[1]]);
    assert.deepEqual(v1Rows, [['a1', '5'], ['b1', '3'], ['old1', '2'], ['old2', '4']]);
    const betaRows = table(kubectl(server.kubeconfig, ['get', BETA]).stdout).slice(1).map((r) => [r[0], r[1]]);
    assert.deepEqual(betaRows, v1Rows);
    const list = JSON.parse(kubectl(server.kubeconfig, ['get', BETA, '-o', 'json']).stdout);
    assert.ok(list.items.every((i: KubeObject) => i.apiVersion === 'widgets.example.com/v1beta1' && typeof (i.spec as { size?: number }).size === 'number'));
  });

  it('patches apply to the requested version (merge and JSON patch)', () => {
    const merged = kubectl(server.kubeconfig, ['patch', BETA, 'a1', '--type=merge', '-p', '{"spec":{"size":7}}']);
    assert.equal(merged.code, 0, merged.stderr);
    assert.ok(merged.stderr.includes(WARNING));
    assert.equal(json('get', V1, 'a1').spec.replicas, 7);
    kubectlOk(server.kubeconfig, ['patch', BETA, 'b1', '--type=json', '-p', '[{"op":"replace","path":"/spec/size","value":9}]']);
    assert.equal(json('get', 'widgets', 'b1').spec.replicas, 9);
    k('patch', V1, 'b1', '--type=merge', '-p', '{"spec":{"replicas":8}}');
    assert.equal(JSON.parse(kubectl(server.kubeconfig, ['get', BETA, 'b1', '-o', 'json']).stdout).spec.size, 8);
  });

  it('watches in the requested version', async () => {
    const watch = kubectlBackground(server.kubeconfig, ['get', BETA, 'b1', '-w', '-o', 'json']);
    try {
      await watch.waitFor(/"size": 8/);
      k('patch', V1, 'b1', '--type=merge', '-p', '{"spec":{"replicas":11}}');
      await watch.waitFor(/"size": 11/);
      assert.doesNotMatch(watch.stdout(), /"replicas": 11/);
      assert.match(watch.stdout(), /"apiVersion": "widgets\.example\.com\/v1beta1"/);
    } finally {
      watch.stop();
    }
  });

  it('kgen migrate-storage rewrites every object in v1; each object is stored once', async () => {
    const run = spawnSync(process.execPath, [KGEN_BIN, 'migrate-storage', '--kubeconfig', server.kubeconfig], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^widgets\.widgets\.example\.com: 4 objects migrated$/m);
    await server.stop();
    const stored = await readStored(dataDir);
    assert.deepEqual([...stored.keys()].sort(), ['a1', 'b1', 'old1', 'old2'], 'one stored object per widget, not one per version');
    for (const [name, obj] of stored) {
      assert.equal(obj.apiVersion, 'widgets.example.com/v1', `${name} is stored in v1`);
      assert.equal((obj.spec as { size?: number }).size, undefined, name);
    }
    assert.deepEqual(stored.get('old1')!.spec, { replicas: 2, color: 'blue' });
    assert.equal(stored.get('old1')!.metadata.uid, oldStored.get('old1')!.metadata.uid, 'rewritten, not recreated');
  });
});
