/**
 * `kgen generate --aggregated-manifests`: the install manifests of the wardle fixture, written by
 * the CLI, applied to a kgen server (A) with `kubectl apply --dry-run=server` by kubectl 1.27,
 * 1.32 and 1.33. Every object of every file — the apps/v1 Deployment and the
 * PersistentVolumeClaim included, now built-in kinds — must pass A's validation (strict field
 * validation, defaults, kube's rules). The Deployment and the claim are also checked field by
 * field against kube's own types as @kubernetes/client-node generates them from kube's OpenAPI
 * (v1.34), which does not depend on kgen's copy of those types.
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
import { forgetKubectlDiscovery } from '../support/kubectl-cache.js';

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

/** kubectl on PATH (the dispatcher, 1.32 behaviour) and two other minor versions. */
const KUBECTLS = ['kubectl', '/usr/lib/google-cloud-sdk/bin/kubectl.1.27', '/usr/lib/google-cloud-sdk/bin/kubectl.1.33'];

function kubectl(kubeconfig: string, args: string[], binary = 'kubectl'): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(binary, args, { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: dir }, timeout: 60_000 }, (err, stdout, stderr) => {
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
    forgetKubectlDiscovery(front.url);
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

  for (const binary of KUBECTLS) {
    it(`applies every object to kgen with ${binary.split('/').pop()} apply --dry-run=server`, async () => {
      const kubeconfig = front.kubeconfigPath!;
      const ns = await kubectl(kubeconfig, ['apply', '-f', join(manifests, 'namespace.yaml')], binary);
      assert.equal(ns.code, 0, ns.stderr);
      const expected: string[] = [];
      for (const file of readdirSync(manifests).sort()) {
        if (file === 'namespace.yaml') continue;
        for (const d of parseAllDocuments(readFileSync(join(manifests, file), 'utf8')).map((x) => x.toJS()).filter(Boolean)) {
          const group = String(d.apiVersion).includes('/') ? `.${String(d.apiVersion).split('/')[0]}` : '';
          expected.push(`${String(d.kind).toLowerCase()}${group}/${d.metadata.name}`);
        }
      }
      // All files at once, as a user installs them; every object must be answered, none refused.
      const r = await kubectl(kubeconfig, ['apply', '--dry-run=server', '-f', manifests], binary);
      assert.equal(r.code, 0, r.stderr);
      for (const object of expected) assert.match(r.stdout, new RegExp(`^${object.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} (created|configured|unchanged) \\(server dry run\\)$`, 'm'), `${object} in:\n${r.stdout}`);
      assert.ok(expected.some((o) => o.startsWith('deployment.apps/')) && expected.some((o) => o.startsWith('persistentvolumeclaim/')), expected.join(' '));
      // A dry run stores nothing.
      const deployment = await kubectl(kubeconfig, ['get', 'deployments', '-A', '-o', 'name'], binary);
      assert.equal(deployment.stdout.trim(), '', deployment.stderr);
      const apiservice = await kubectl(kubeconfig, ['get', 'apiservice', 'v1alpha1.wardle.example.com'], binary);
      assert.match(apiservice.stderr, /NotFound/);
    });
  }
});
