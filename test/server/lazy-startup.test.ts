/**
 * What `kgen serve --insecure-dev-mode` does not load at start: cel-js (until a schema with
 * x-kubernetes-validations is compiled) and node-forge (until a certificate is made: insecure dev
 * mode makes its front-proxy credentials when the aggregator first needs them); and, up to the
 * moment it listens, neither yaml (a config file, YAML output), ws (a channel upgrade),
 * better-sqlite3 (memory storage opens no SQLite store) nor prom-client (loaded once listening,
 * for /metrics). The child process (lazy-startup-child.ts) runs under NODE_DEBUG=esm,module, whose
 * lines name every module loaded; it starts the server through cli/serve-runtime.ts, the one module
 * `kgen serve` reaches the runtime by, so what that module alone imports (e.g. the --workers
 * metrics of runtime/metrics/cluster.ts) counts too.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
// test/run.js's TypeScript loader for the child, not tsx's costlier hooks (~1 s of CPU less per process).
const TS_LOADER = fileURLToPath(new URL('../support/ts-loader.mjs', import.meta.url));
import { describe, it } from 'node:test';
import { FIXTURE_DIR } from './testserver.js';

const CHILD = fileURLToPath(new URL('./lazy-startup-child.ts', import.meta.url));
const MARKER = '--- kgen started ---';
const CEL_JS = '/node_modules/@marcbachmann/cel-js/lib/index.js';
const NODE_FORGE = '/node_modules/node-forge/lib/index.js';
const LISTENING = '--- kgen listening ---';
const YAML = '/node_modules/yaml/dist/index.js';
const WS = '/node_modules/ws/index.js';
const PROM_CLIENT = '/node_modules/prom-client/index.js';
const BETTER_SQLITE3 = '/node_modules/better-sqlite3/lib/index.js';

function runChild(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TS_LOADER, CHILD, FIXTURE_DIR], { env: { ...process.env, NODE_DEBUG: 'esm,module' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

// Both cases read the same run: the child writes the start-up marker and the listening marker in
// one start, and each case checks its own side of its marker (one child rather than two: ~5 s of CPU).
let run: ReturnType<typeof runChild> | undefined;
const childRun = (): ReturnType<typeof runChild> => (run ??= runChild());

describe('insecure dev mode start-up', () => {
  it('loads neither cel-js nor node-forge until a rule is compiled or a certificate is needed', async () => {
    const { code, stdout, stderr } = await childRun();
    assert.equal(code, 0, stderr.slice(-3000));
    assert.deepEqual(JSON.parse(stdout), { errors: ['Invalid value: "object": failed rule: self.a < 2'], cert: true });
    const at = stderr.indexOf(`\n${MARKER}\n`);
    assert.ok(at > 0, 'the child wrote its marker');
    const [startup, later] = [stderr.slice(0, at), stderr.slice(at)];
    assert.ok(startup.includes('/runtime/controlplane/server.ts'), 'the debug output names the modules start-up loaded');
    assert.ok(!startup.includes(CEL_JS), 'cel-js is not loaded at start');
    assert.ok(!startup.includes(NODE_FORGE), 'node-forge is not loaded at start');
    assert.ok(later.includes(CEL_JS), 'cel-js is loaded for the first rule');
    assert.ok(later.includes(NODE_FORGE), 'node-forge is loaded for the first certificate');
  });

  it('loads neither yaml, ws, better-sqlite3 nor prom-client before it listens; prom-client once it listens', async () => {
    const { code, stderr } = await childRun();
    assert.equal(code, 0, stderr.slice(-3000));
    const at = stderr.indexOf(`\n${LISTENING}\n`);
    assert.ok(at > 0, 'the child wrote its listening marker');
    const [startup, later] = [stderr.slice(0, at), stderr.slice(at)];
    assert.ok(startup.includes('/runtime/controlplane/server.ts'), 'the debug output names the modules start-up loaded');
    assert.ok(startup.includes('/node_modules/fastify/fastify.js'), 'CommonJS packages are named too');
    assert.ok(!startup.includes(YAML), 'yaml is not loaded at start');
    assert.ok(!startup.includes(WS), 'ws is not loaded at start');
    assert.ok(!startup.includes(BETTER_SQLITE3), 'better-sqlite3 is not loaded with memory storage');
    assert.ok(!startup.includes(PROM_CLIENT), 'prom-client is not loaded before listening');
    assert.ok(later.includes(PROM_CLIENT), 'prom-client is loaded once the server listens');
  });
});
