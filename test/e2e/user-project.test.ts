/**
 * A user project outside this repository, with kgen installed as a dependency and its own apis/
 * folder: `npx kgen generate ./apis`, then `npx kgen serve`, then kubectl, with no other set-up.
 *
 * The install links the checkout with --ignore-scripts: npm would otherwise run kgen's `prepare`
 * (`npm run build`, ~25 s of CPU), whose dist/ a linked checkout never runs (bin/kgen.js runs the
 * sources when .git is beside it). That build, run by `prepare`, is test/e2e/pack.test.ts's: its
 * `npm pack` of the repository runs the same script and installs what it built.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { REPO, kubectlOk, removeDir, startKgen, table, tempDir } from './harness.js';

const ORDER = `import type { int32, Time } from 'kgen';

/**
 * Order is a customer's order.
 * @kgen:resource shortNames=ord
 * @kgen:printcolumn name=Items type=integer jsonPath=.spec.items
 */
export interface Order {
  spec: OrderSpec;
}

export interface OrderSpec {
  /** @minimum 1 */
  items: int32;
  customer: string;
  placed?: Time;
}
`;

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

describe('a user project with kgen as a dependency', () => {
  const project = tempDir('user-project');
  after(() => removeDir(project));

  it('generates and serves its own apis with npx kgen', async () => {
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'shop-api', version: '1.0.0', private: true, type: 'module' }, null, 2));
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--save-dev', REPO], project);
    assert.ok(existsSync(join(project, 'node_modules', 'kgen', 'package.json')));
    assert.match(readFileSync(join(project, 'package.json'), 'utf8'), /"kgen":/);

    mkdirSync(join(project, 'apis', 'shop.example.com', 'v1'), { recursive: true });
    writeFileSync(join(project, 'apis', 'shop.example.com', 'v1', 'order.ts'), ORDER);
    const out = run('npx', ['kgen', 'generate', './apis'], project);
    assert.match(out, /shop\.example\.com\/v1\s+Order/);
    assert.ok(existsSync(join(project, 'generated', 'openapi', 'v3', 'apis', 'shop.example.com', 'v1.json')));
    assert.ok(existsSync(join(project, 'generated', 'client', 'index.ts')));
    assert.match(run('npx', ['kgen', 'generate', './apis', '--check'], project), /up to date/);

    const server = await startKgen({ cwd: project, command: ['npx', 'kgen'], args: ['serve', '--port', '0'] });
    try {
      const kubeconfig = join(project, '.kgen', 'kubeconfig');
      assert.ok(existsSync(kubeconfig), 'serve writes .kgen/kubeconfig in the project');
      const created = kubectlOk(kubeconfig, ['create', '-f', '-'], 'apiVersion: shop.example.com/v1\nkind: Order\nmetadata: {name: o1}\nspec: {items: 2, customer: ann}\n');
      assert.equal(created.trim(), 'order.shop.example.com/o1 created');
      const rows = table(kubectlOk(kubeconfig, ['get', 'ord']));
      assert.deepEqual(rows[0], ['NAME', 'ITEMS', 'AGE']);
      assert.deepEqual(rows[1]!.slice(0, 2), ['o1', '2']);
      assert.match(kubectlOk(kubeconfig, ['api-resources', '--api-group=shop.example.com']), /orders\s+ord\s+shop\.example\.com\/v1\s+true\s+Order/);
    } finally {
      await server.stop();
    }
  });
});
