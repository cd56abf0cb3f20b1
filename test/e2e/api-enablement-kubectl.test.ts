/**
 * kube-apiserver's API enablement, admission and feature options through real kubectl:
 * --runtime-config hides a version from discovery, OpenAPI and routes while its objects stay
 * readable through the others; disabling a storage version is refused; --disable-admission-plugins
 * turns NamespaceLifecycle off; --feature-gates CRDValidationRatcheting=false stops an unchanged
 * value that breaks a newer CEL rule from being kept.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { KGEN_BIN, REPO, kubectl, kubectlOk, removeDir, startKgen, tempDir, type KgenServer } from './harness.js';

const GENERATED = join(REPO, 'generated');
const servers: KgenServer[] = [];
after(async () => {
  for (const s of servers) {
    await s.stop('SIGKILL');
    removeDir(s.dataDir);
  }
});

async function serve(flags: string[], dataDir = tempDir('api-enablement')): Promise<KgenServer> {
  const server = await startKgen({ dataDir, args: ['serve', GENERATED, '--port', '0', '--data-dir', dataDir, ...flags] });
  servers.push(server);
  return server;
}

const WIDGET = (apiVersion: string, name: string, ns = 'default') =>
  `apiVersion: ${apiVersion}\nkind: Widget\nmetadata: {name: ${name}, namespace: ${ns}}\nspec: {${apiVersion.endsWith('v1beta1') ? 'size' : 'replicas'}: 2, color: blue}\n`;

describe('--runtime-config', () => {
  it('a disabled version leaves discovery, OpenAPI and routes; objects written through it stay readable', async () => {
    const dataDir = tempDir('runtime-config');
    const first = await serve([], dataDir);
    kubectlOk(first.kubeconfig, ['create', '-f', '-'], WIDGET('widgets.example.com/v1beta1', 'old'));
    await first.stop('SIGTERM');
    const server = await serve(['--runtime-config', 'widgets.example.com/v1beta1=false'], dataDir);
    const versions = kubectlOk(server.kubeconfig, ['api-versions']).split('\n');
    assert.ok(versions.includes('widgets.example.com/v1'));
    assert.ok(!versions.includes('widgets.example.com/v1beta1'), versions.join(' '));
    const raw = kubectl(server.kubeconfig, ['get', '--raw', '/apis/widgets.example.com/v1beta1/namespaces/default/widgets']);
    assert.notEqual(raw.code, 0);
    assert.match(raw.stderr, /NotFound|could not find the requested resource/);
    const v3 = JSON.parse(kubectlOk(server.kubeconfig, ['get', '--raw', '/openapi/v3'])) as { paths: Record<string, unknown> };
    assert.ok('apis/widgets.example.com/v1' in v3.paths && !('apis/widgets.example.com/v1beta1' in v3.paths));
    const v2 = JSON.parse(kubectlOk(server.kubeconfig, ['get', '--raw', '/openapi/v2'])) as { paths: Record<string, unknown>; definitions: Record<string, unknown> };
    assert.ok(!Object.keys(v2.paths).some((p) => p.startsWith('/apis/widgets.example.com/v1beta1/')));
    assert.ok(!Object.keys(v2.definitions).some((d) => d.startsWith('com.example.widgets.v1beta1.')));
    assert.ok(Object.keys(v2.definitions).includes('com.example.widgets.v1.Widget'));
    assert.equal(kubectlOk(server.kubeconfig, ['get', 'widgets.v1.widgets.example.com', 'old', '-o', 'jsonpath={.spec.replicas}']), '2');
  });

  it("refuses to disable a storage version another version serves, and kube's invalid forms", () => {
    const run = (value: string) => {
      const data = tempDir('runtime-config-bad');
      try {
        const r = spawnSync(process.execPath, [KGEN_BIN, 'serve', GENERATED, '--port', '0', '--data-dir', data, '--storage', 'memory:', '--runtime-config', value], { cwd: REPO, encoding: 'utf8', timeout: 30_000 });
        assert.equal(r.status, 1, `${r.stdout}${r.stderr}`);
        return r.stderr;
      } finally {
        removeDir(data);
      }
    };
    assert.match(run('widgets.example.com/v1=false'), /kgen serve: runtime-config: widgets\.example\.com\/v1 cannot be disabled: it is the storage version of widgets\.widgets\.example\.com, which widgets\.example\.com\/v1beta1 still serves/);
    assert.match(run('widgets.example.com/v7=false'), /kgen serve: runtime-config: group version widgets\.example\.com\/v7 that has not been registered/);
    assert.match(run('api/all=false'), /kgen serve: invalid runtime-config with only api\/all=false/);
  });

  it('api/all=false with exceptions serves only those (and what the server itself needs)', async () => {
    const server = await serve(['--storage', 'memory:', '--runtime-config', 'api/all=false,widgets.example.com/v1=true']);
    const versions = kubectlOk(server.kubeconfig, ['api-versions']).trim().split('\n').sort();
    assert.deepEqual(versions, ['apiextensions.k8s.io/v1', 'apiregistration.k8s.io/v1', 'v1', 'widgets.example.com/v1']);
    kubectlOk(server.kubeconfig, ['create', '-f', '-'], WIDGET('widgets.example.com/v1', 'only'));
  });
});

describe('--disable-admission-plugins and --feature-gates', () => {
  it('without NamespaceLifecycle an object may be created in a namespace that does not exist', async () => {
    const strict = await serve(['--storage', 'memory:']);
    const refused = kubectl(strict.kubeconfig, ['create', '-f', '-'], WIDGET('widgets.example.com/v1', 'w', 'nowhere'));
    assert.match(refused.stderr, /namespaces "nowhere" not found/);
    const lax = await serve(['--storage', 'memory:', '--disable-admission-plugins', 'NamespaceLifecycle']);
    assert.match(kubectlOk(lax.kubeconfig, ['create', '-f', '-'], WIDGET('widgets.example.com/v1', 'w', 'nowhere')), /widget\.widgets\.example\.com\/w created/);
  });

  it('CRDValidationRatcheting=false refuses keeping a value that breaks a rule added later', async () => {
    const crd = (rule: boolean) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.ratchet.example.com}
spec:
  group: ratchet.example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer${rule ? ', x-kubernetes-validations: [{rule: "self <= 10", message: "size must be at most 10"}]' : ''}}
              label: {type: string}
`;
    const gadget = (label: string) => `apiVersion: ratchet.example.com/v1\nkind: Gadget\nmetadata: {name: g, namespace: default}\nspec: {size: 50, label: ${label}}\n`;
    const scenario = async (flags: string[]) => {
      const server = await serve(['--storage', 'memory:', ...flags]);
      kubectlOk(server.kubeconfig, ['apply', '-f', '-'], crd(false));
      kubectlOk(server.kubeconfig, ['wait', '--for=condition=Established', 'crd/gadgets.ratchet.example.com', '--timeout=30s']);
      kubectlOk(server.kubeconfig, ['apply', '-f', '-'], gadget('a'));
      kubectlOk(server.kubeconfig, ['apply', '-f', '-'], crd(true));
      for (let i = 0; i < 50; i++) {
        // The new schema is in force once a fresh create breaking it is refused.
        const probe = kubectl(server.kubeconfig, ['create', '--dry-run=server', '-f', '-'], gadget('b').replace('name: g', 'name: probe'));
        if (probe.code !== 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      return kubectl(server.kubeconfig, ['apply', '-f', '-'], gadget('b'));
    };
    const ratcheted = await scenario([]);
    assert.equal(ratcheted.code, 0, `kept the unchanged size with ratcheting on: ${ratcheted.stderr}`);
    const strict = await scenario(['--feature-gates', 'CRDValidationRatcheting=false']);
    assert.notEqual(strict.code, 0);
    assert.match(strict.stderr, /spec\.size: Invalid value: "integer": size must be at most 10/);
  });
});
