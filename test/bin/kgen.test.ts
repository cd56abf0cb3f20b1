/**
 * bin/kgen.js in a checkout (this repository: a .git beside package.json) runs kgen's TypeScript
 * sources, not a built dist/. `kgen serve --admission` runs through tsx; a user's admission module
 * imports generated registrations, which import `kgen/registry`. That import must resolve to the
 * same source module the CLI runs (the `kgen:source` export condition, bin/loader/source-conditions.js),
 * not to dist/ (which may be missing or stale in a checkout): with two copies the server would
 * never see the hooks the module registers. The built package's side is test/e2e/pack.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { REPO, startKgen, type KgenServer } from '../e2e/harness.js';

describe('bin/kgen.js in a checkout', () => {
  // Inside the repository, so that the module's own `kgen/...` imports resolve to this package.
  const dir = join(REPO, 'test', '.tmp', `bin-admission-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  let server: KgenServer | undefined;
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serve --admission: the module and the generated code share the CLI\'s source modules', async () => {
    const module = join(dir, 'admission.mts');
    const storage = pathToFileURL(join(REPO, 'generated/storage/widgets.example.com/v1/widgets.js')).href;
    writeFileSync(
      module,
      `import { widgets } from ${JSON.stringify(storage)};
// Refuse to start unless kgen/... is the source module the CLI runs (a built dist/ may be present).
const resolved = import.meta.resolve('kgen/registry');
if (resolved !== ${JSON.stringify(pathToFileURL(join(REPO, 'runtime/registry/index.ts')).href)}) throw new Error('kgen/registry resolved to ' + resolved);
widgets.admission({
  mutate({ operation, object }) {
    if (operation === 'CREATE' && object) object.metadata = { ...object.metadata, labels: { ...object.metadata?.labels, admitted: 'yes' } };
  },
});
`,
    );
    const dataDir = join(dir, 'data');
    server = await startKgen({ dataDir, args: ['serve', './generated', '--port', '0', '--data-dir', dataDir, '--storage', 'memory:', '--admission', module] });
    const res = await server.fetch(`${server.url}/apis/widgets.example.com/v1/namespaces/default/widgets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'admitted' }, spec: {} }),
    });
    const body = (await res.json()) as { metadata?: { labels?: Record<string, string> } };
    assert.equal(res.status, 201, JSON.stringify(body));
    assert.equal(body.metadata?.labels?.['admitted'], 'yes');
  });
});
