/**
 * The installer compiles each resource's validator and field manager on first use (start-up does
 * not grow with the schemas). A generated document (or the compact file of its schemas, which the
 * server reads) that is missing still fails start-up; one that
 * is malformed, or lacks a kind's schema, makes that kind's requests a 500 InternalError Status
 * (never a crash), while the other kinds keep working; verifySchemas() reports it eagerly.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StatusError } from '../../runtime/api/status.js';
import { newAdmissionChain } from '../../runtime/admission/setup.js';
import { APIInstaller } from '../../runtime/server/installer.js';
import { loadGenerated } from '../../runtime/controlplane/load-generated.js';
import { startServer } from '../../runtime/controlplane/index.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { FIXTURE_DIR, gadget, startTestServer, widget, WIDGETS, GADGETS } from './testserver.js';

const WIDGETS_DOC = 'openapi/v3/apis/widgets.example.com/v1.json';
/** Its component schemas alone, compact: what the server reads (generator/emit/layout.ts's schemasPath). */
const WIDGETS_SCHEMAS = 'openapi/schemas/apis/widgets.example.com/v1.json';
const WIDGETS_ROUTES = 'routes/widgets.example.com/v1.ts';
const dirs: string[] = [];

/** A copy of the fixture's generated directory (inside test/.tmp, so `kgen/...` resolves) changed by `edit`. */
function brokenCopy(name: string, edit: (dir: string) => void): string {
  const dir = fileURLToPath(new URL(`../.tmp/lazy-schemas-${process.pid}-${name}/`, import.meta.url));
  rmSync(dir, { recursive: true, force: true });
  cpSync(FIXTURE_DIR, dir, { recursive: true });
  edit(dir);
  dirs.push(dir);
  return dir;
}

after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('lazily compiled schemas', () => {
  it('still fails start-up when a group/version document is missing', async () => {
    const dir = brokenCopy('missing', (d) => rmSync(join(d, WIDGETS_DOC)));
    await assert.rejects(
      startServer({ generatedDir: dir, storage: 'memory:', port: 0, insecureDevMode: true }),
      (err: Error) => err.message.includes('cannot read the OpenAPI document of widgets.example.com/v1') && err.message.includes(WIDGETS_DOC),
    );
  });

  it('still fails start-up when the compact file of its schemas is missing', async () => {
    const dir = brokenCopy('missing-schemas', (d) => rmSync(join(d, WIDGETS_SCHEMAS)));
    await assert.rejects(
      startServer({ generatedDir: dir, storage: 'memory:', port: 0, insecureDevMode: true }),
      (err: Error) => err.message.includes('cannot read the OpenAPI document of widgets.example.com/v1') && err.message.includes(WIDGETS_SCHEMAS),
    );
  });

  it('reads the schemas from the document in code generated before the compact file existed', async () => {
    const dir = brokenCopy('no-schemas-path', (d) => {
      const routes = readFileSync(join(d, WIDGETS_ROUTES), 'utf8');
      assert.match(routes, /\n  schemasPath: '[^']+',\n/);
      writeFileSync(join(d, WIDGETS_ROUTES), routes.replace(/\n  schemasPath: '[^']+',\n/, '\n'));
      rmSync(join(d, WIDGETS_SCHEMAS));
    });
    const ts = await startTestServer({ generatedDir: dir });
    try {
      const bad = await ts.request('POST', WIDGETS, { body: widget('bad', { replicas: 'many' }) });
      assert.equal(bad.status, 422);
      const good = await ts.request('POST', WIDGETS, { body: widget('good') });
      assert.equal(good.status, 201);
    } finally {
      await ts.close();
    }
  });

  it('answers a 500 Status naming the document when it is malformed; other groups keep working', async () => {
    const dir = brokenCopy('malformed', (d) => writeFileSync(join(d, WIDGETS_SCHEMAS), '{ "components": '));
    const ts = await startTestServer({ generatedDir: dir });
    try {
      for (let i = 0; i < 2; i++) {
        const res = await ts.request('POST', WIDGETS, { body: widget(`w${i}`) });
        assert.equal(res.status, 500);
        assert.equal(res.body.kind, 'Status');
        assert.equal(res.body.reason, 'InternalError');
        assert.match(res.body.message, /cannot read the OpenAPI document of widgets\.example\.com\/v1 at .*widgets\.example\.com\/v1\.json/);
      }
      const ns = await ts.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'still-works' } } });
      assert.equal(ns.status, 201);
      const list = await ts.request('GET', WIDGETS);
      assert.equal(list.status, 200, 'reads need no schema');
    } finally {
      await ts.close();
    }
  });

  it("answers a 500 Status naming the kind's schema when the document lacks it", async () => {
    const dir = brokenCopy('noschema', (d) => {
      const doc = JSON.parse(readFileSync(join(d, WIDGETS_SCHEMAS), 'utf8'));
      const name = Object.keys(doc.components.schemas).find((k) => k.endsWith('.Widget'))!;
      delete doc.components.schemas[name];
      writeFileSync(join(d, WIDGETS_SCHEMAS), JSON.stringify(doc));
    });
    const ts = await startTestServer({ generatedDir: dir });
    try {
      const res = await ts.request('POST', WIDGETS, { body: widget('w') });
      assert.equal(res.status, 500);
      assert.equal(res.body.reason, 'InternalError');
      assert.match(res.body.message, /cannot compile the schema \S+\.Widget of widgets\.widgets\.example\.com: schema "\S+\.Widget" is not defined/);
      const ok = await ts.request('POST', GADGETS, { body: gadget('g') });
      assert.equal(ok.status, 201, 'the same group/version, another kind');
    } finally {
      await ts.close();
    }
  });

  it('verifySchemas() compiles everything now and throws the first failure as a 500 StatusError', async () => {
    const install = async (dir: string) => {
      const installer = new APIInstaller({ generatedDir: dir, storage: new MemoryStorage(), watchCache: false, admission: newAdmissionChain() });
      (await loadGenerated(dir)).installAll(installer);
      return installer;
    };
    (await install(FIXTURE_DIR)).verifySchemas();
    const broken = await install(brokenCopy('verify', (d) => writeFileSync(join(d, WIDGETS_SCHEMAS), 'not json')));
    assert.throws(
      () => broken.verifySchemas(),
      (err: unknown) => err instanceof StatusError && err.status.code === 500 && /cannot read the OpenAPI document of widgets\.example\.com\/v1/.test(err.message),
    );
  });

  it('validates, defaults and records managedFields on first use as before', async () => {
    const ts = await startTestServer();
    try {
      const bad = await ts.request('POST', WIDGETS, { body: widget('bad', { replicas: 'many' }) });
      assert.equal(bad.status, 422);
      const good = await ts.request('POST', WIDGETS, { body: widget('good') });
      assert.equal(good.status, 201);
      assert.ok(Array.isArray(good.body.metadata.managedFields) && good.body.metadata.managedFields.length === 1);
    } finally {
      await ts.close();
    }
  });
});
