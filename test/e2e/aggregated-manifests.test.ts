/**
 * `kgen generate --aggregated-manifests`: the install manifests of the wardle fixture, written by
 * the CLI, applied to a kgen server (A) with `kubectl apply --dry-run=server`. Every manifest of
 * a kind A serves must pass A's validation; A serves no apps/v1 Deployment or
 * PersistentVolumeClaim (nor, before the control-plane kinds, a ServiceAccount), and for those
 * kubectl must say exactly that — so the test turns strict for each kind the day A serves it.
 * Until then those two files are checked field by field against kube's own types as
 * @kubernetes/client-node generates them from kube's OpenAPI (v1.34): an unknown field or a value
 * of the wrong type fails, as kube-apiserver's strict field validation would (kube's other
 * validation rules, such as required fields or a selector matching the template's labels, are
 * not checked there).
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import * as kube from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { startServer, type RunningServer } from '../../runtime/controlplane/index.js';
import { FIXTURE_DIR } from '../server/testserver.js';
import { KGEN_BIN, REPO } from './harness.js';

const WARDLE = fileURLToPath(new URL('../fixtures/aggregated-apis/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'kgen-agg-manifests-'));
const manifests = join(dir, 'manifests');

type AttributeTypes = { baseName: string; type: string }[];

/**
 * Problems of value as kube's type `type` (a client-node model name or one of its type
 * expressions: `string`, `number`, `boolean`, `Date`, `IntOrString`, `Array<T>`,
 * `{ [key: string]: T; }`): unknown fields and values of the wrong JSON type, with their paths.
 */
function kubeTypeProblems(value: unknown, type: string, path: string): string[] {
  if (value === null || value === undefined) return [];
  const array = /^Array<(.+)>$/.exec(type);
  if (array) return Array.isArray(value) ? value.flatMap((v, i) => kubeTypeProblems(v, array[1]!, `${path}[${i}]`)) : [`${path}: not an array`];
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  const isObject = typeof value === 'object' && !Array.isArray(value);
  if (map) return isObject ? Object.entries(value as object).flatMap(([k, v]) => kubeTypeProblems(v, map[1]!, `${path}.${k}`)) : [`${path}: not an object`];
  switch (type) {
    case 'string':
    case 'Date':
      return typeof value === 'string' ? [] : [`${path}: not a string`];
    case 'number':
      return typeof value === 'number' ? [] : [`${path}: not a number`];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${path}: not a boolean`];
    case 'IntOrString':
      return typeof value === 'string' || Number.isInteger(value) ? [] : [`${path}: not an int or string`];
    case 'any':
    case 'object':
      return [];
  }
  const model = (kube as unknown as Record<string, { attributeTypeMap?: AttributeTypes }>)[type];
  assert.ok(model?.attributeTypeMap, `client-node has no model ${type}`);
  if (!isObject) return [`${path}: not an object`];
  const fields = new Map(model.attributeTypeMap.map((a) => [a.baseName, a.type]));
  return Object.entries(value as object).flatMap(([k, v]) => (fields.has(k) ? kubeTypeProblems(v, fields.get(k)!, `${path}.${k}`) : [`${path}.${k}: unknown field (${type})`]));
}

function kubectl(kubeconfig: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: dir }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('aggregated-server install manifests', () => {
  let front: RunningServer;
  let generated: string;

  before(async () => {
    const r = spawnSync(process.execPath, [KGEN_BIN, 'generate', WARDLE, '--out', join(dir, 'generated'), '--aggregated-manifests', manifests, '--aggregated-image', 'registry.example/wardle:1.0'], {
      cwd: REPO,
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    generated = r.stdout;
    front = await startServer({ generatedDir: FIXTURE_DIR, storage: 'memory:', dataDir: join(dir, 'front'), port: 0, controllers: false });
  });

  after(async () => {
    await front?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the files of sample-apiserver\'s artifacts/example', () => {
    assert.match(generated, /wrote 9 aggregated-server manifests in /);
    assert.deepEqual(readdirSync(manifests).sort(), [
      'apiservices.yaml',
      'auth-delegator.yaml',
      'auth-reader.yaml',
      'deployment.yaml',
      'namespace.yaml',
      'rbac.yaml',
      'service-account.yaml',
      'service.yaml',
      'storage.yaml',
    ]);
    assert.match(readFileSync(join(manifests, 'deployment.yaml'), 'utf8'), /image: registry\.example\/wardle:1\.0/);
  });

  it('writes a Deployment and a PersistentVolumeClaim that match kube\'s own types field by field', () => {
    const checks: [string, string, string][] = [
      ['deployment.yaml', 'apps/v1/Deployment', 'V1Deployment'],
      ['storage.yaml', 'v1/PersistentVolumeClaim', 'V1PersistentVolumeClaim'],
    ];
    for (const [file, gvk, model] of checks) {
      const docs = parseAllDocuments(readFileSync(join(manifests, file), 'utf8')).map((d) => d.toJS()).filter(Boolean);
      assert.equal(docs.length, 1, file);
      assert.equal(`${docs[0].apiVersion}/${docs[0].kind}`, gvk);
      assert.deepEqual(kubeTypeProblems(docs[0], model, ''), [], file);
    }
    // The checker is strict: a field kube's PodSpec does not have, or a wrong type, is found.
    assert.deepEqual(kubeTypeProblems({ spec: { template: { spec: { containers: [{ name: 'a', imagePullPolicy: 1, image2: 'x' }] } } } }, 'V1Deployment', ''), [
      '.spec.template.spec.containers[0].imagePullPolicy: not a string',
      '.spec.template.spec.containers[0].image2: unknown field (V1Container)',
    ]);
  });

  it('applies to kgen with kubectl apply --dry-run=server', async () => {
    const kubeconfig = front.kubeconfigPath!;
    const ns = await kubectl(kubeconfig, ['apply', '-f', join(manifests, 'namespace.yaml')]);
    assert.equal(ns.code, 0, ns.stderr);
    const resources = await kubectl(kubeconfig, ['api-resources', '--no-headers', '-o', 'name']);
    const served = new Set(resources.stdout.trim().split('\n'));
    const unserved: Record<string, { resource: string; kind: string; version: string }> = {
      'deployment.yaml': { resource: 'deployments.apps', kind: 'Deployment', version: 'apps/v1' },
      'storage.yaml': { resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', version: 'v1' },
      'service-account.yaml': { resource: 'serviceaccounts', kind: 'ServiceAccount', version: 'v1' },
    };
    const applied: string[] = [];
    for (const file of readdirSync(manifests).sort()) {
      if (file === 'namespace.yaml') continue;
      const missing = unserved[file];
      const notServed = missing && !served.has(missing.resource);
      // kubectl's own validation of a kind no server document describes fails first (it falls back to /openapi/v2 protobuf); skip it to hear the server.
      const r = await kubectl(kubeconfig, ['apply', '--dry-run=server', ...(notServed ? ['--validate=false'] : []), '-f', join(manifests, file)]);
      if (missing && notServed) {
        assert.notEqual(r.code, 0, `${file} applied, though kgen does not serve ${missing.kind}`);
        assert.match(r.stderr, new RegExp(`no matches for kind "${missing.kind}" in version "${missing.version.replace('/', '\\/')}"`), `${file}: ${r.stderr}`);
        continue;
      }
      assert.equal(r.code, 0, `${file}: ${r.stderr}`);
      assert.match(r.stdout, /\(server dry run\)/, file);
      applied.push(file);
    }
    for (const file of ['apiservices.yaml', 'auth-delegator.yaml', 'auth-reader.yaml', 'rbac.yaml', 'service.yaml']) assert.ok(applied.includes(file), `${file} validated by kgen`);
    // A dry run stores nothing.
    const apiservice = await kubectl(kubeconfig, ['get', 'apiservice', 'v1alpha1.wardle.example.com']);
    assert.match(apiservice.stderr, /NotFound/);
  });
});
