/**
 * The same validation in three places: the server (a dry-run create against `kgen serve`), the
 * generated client's validate() and `kgen validate` get the same random Widgets (valid and
 * invalid: values drawn from the v1 schema, with bounds, enums and patterns broken now and then)
 * and must report the same field errors, word for word. Also one CEL transition rule on update
 * (WidgetClass's immutable provisioner), through validateUpdate and a dry-run PUT.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import * as fc from 'fast-check';
import { parse, stringify } from 'yaml';
import { schemaArbitrary } from '../../generator/evolve/arbitrary.js';
import { widgetClassValidator, widgetValidator } from '../../generated/validate/widgets.example.com/v1.js';
import { KGEN_BIN, REPO, startKgen, tempDir, type KgenServer } from './harness.js';

type Json = Record<string, any>;
const SAMPLES = 80;

let server: KgenServer;
before(async () => {
  server = await startKgen();
});
after(async () => {
  await server?.stop();
});

function randomWidgets(): Json[] {
  const crd = parse(readFileSync(join(REPO, 'generated/crds/widgets.example.com_widgets.yaml'), 'utf8')) as Json;
  const schema = crd.spec.versions.find((v: Json) => v.name === 'v1').schema.openAPIV3Schema as Json;
  const { apiVersion: _a, kind: _k, metadata: _m, ...properties } = schema.properties;
  const body = schemaArbitrary(fc, { ...schema, properties }, { validOnly: false });
  return fc.sample(body, { numRuns: SAMPLES, seed: 1717 }).map((b, i) => ({
    apiVersion: 'widgets.example.com/v1',
    kind: 'Widget',
    metadata: { name: `w-${i}`, namespace: 'default' },
    ...(b as Json),
  }));
}

const lines = (problems: { field: string; message: string }[]) => problems.map((p) => `${p.field}: ${p.message}`).sort();

async function serverErrors(path: string, method: string, obj: Json): Promise<string[]> {
  const res = await server.fetch(`${server.url}${path}?dryRun=All&fieldValidation=Strict`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(obj) });
  const body = (await res.json()) as Json;
  if (res.status === 200 || res.status === 201) return [];
  assert.equal(res.status, 422, `${method} ${path}: ${JSON.stringify(body)}`);
  return lines((body.details?.causes ?? []).map((c: Json) => ({ field: c.field ?? '', message: c.message ?? '' })));
}

function kgenValidateErrors(objects: Json[]): Map<string, string[]> {
  const file = join(tempDir('agree'), 'widgets.yaml');
  writeFileSync(file, objects.map((o) => stringify(o)).join('---\n'));
  const r = spawnSync(process.execPath, [KGEN_BIN, 'validate', file], { cwd: REPO, encoding: 'utf8', timeout: 120_000 });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  const byName = new Map<string, string[]>();
  for (const line of r.stdout.split('\n').filter(Boolean)) {
    const m = /^[^:]+:\d+: Widget\/([^:]+): (.*)$/.exec(line);
    assert.ok(m, `unexpected line: ${line}`);
    byName.set(m[1]!, [...(byName.get(m[1]!) ?? []), m[2]!]);
  }
  for (const [k, v] of byName) byName.set(k, v.sort());
  return byName;
}

test('server, client validate() and kgen validate report the same errors for the same random Widgets', async () => {
  const objects = randomWidgets();
  const offline = kgenValidateErrors(objects);
  let invalid = 0;
  for (const obj of objects) {
    const fromServer = await serverErrors('/apis/widgets.example.com/v1/namespaces/default/widgets', 'POST', obj);
    const fromClient = lines(widgetValidator.validate(obj as never));
    const fromCli = offline.get(obj.metadata.name) ?? [];
    assert.deepEqual(fromClient, fromServer, `client vs server for ${JSON.stringify(obj)}`);
    assert.deepEqual(fromCli, fromServer, `kgen validate vs server for ${JSON.stringify(obj)}`);
    if (fromServer.length > 0) invalid++;
  }
  // The sample exercises both outcomes.
  assert.ok(invalid > 5 && invalid < SAMPLES - 5, `${invalid} of ${SAMPLES} invalid`);
});

test('validateUpdate and the server agree on a transition rule (an immutable field)', async () => {
  const cls = { apiVersion: 'widgets.example.com/v1', kind: 'WidgetClass', metadata: { name: 'agree' }, provisioner: 'a.example.com' };
  const created = await server.fetch(`${server.url}/apis/widgets.example.com/v1/widgetclasses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(cls) });
  assert.equal(created.status, 201);
  const stored = (await created.json()) as Json;
  const changed = { ...stored, provisioner: 'b.example.com' };
  const fromServer = await serverErrors('/apis/widgets.example.com/v1/widgetclasses/agree', 'PUT', changed);
  assert.deepEqual(fromServer, ['provisioner: Invalid value: "string": Value is immutable']);
  assert.deepEqual(lines(widgetClassValidator.validateUpdate(changed as never, stored as never)), fromServer);
  assert.deepEqual(lines(widgetClassValidator.validateUpdate(stored as never, stored as never)), []);
});
