/**
 * The generic installer knows no kinds: a resource's strategy, name rule and shared storage come
 * from the storage providers the control plane hands it (runtime/controlplane/storage-providers.ts),
 * looked up by group and resource. Without them every resource is served as a custom resource is.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { controlPlaneStorageProviders } from '../../runtime/controlplane/storage-providers.js';
import { APIInstaller } from '../../runtime/server/installer.js';
import { storageProviderKey, type StorageProviders } from '../../runtime/server/storage-providers.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { FIXTURE_DIR } from './testserver.js';

const generated = (await import(pathToFileURL(join(FIXTURE_DIR, 'index.ts')).href)) as { installAll(i: APIInstaller): void };

function install(storageProviders?: StorageProviders): APIInstaller {
  const installer = new APIInstaller({ generatedDir: FIXTURE_DIR, storage: new MemoryStorage(), watchCache: false, storageProviders });
  generated.installAll(installer);
  return installer;
}

const ns = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

describe('storage providers', () => {
  it('without providers, a Namespace is a plain resource: a dotted name is accepted and no finalizer is added', async () => {
    const store = install().namespaceStore()!;
    const created = await store.create(undefined, ns('a.b'));
    assert.equal(created.metadata.name, 'a.b');
    assert.equal((created.spec as { finalizers?: string[] } | undefined)?.finalizers, undefined);
  });

  it("with the control plane's table, a Namespace gets kube's strategy: DNS-1123 label names and the kubernetes finalizer", async () => {
    const store = install(controlPlaneStorageProviders()).namespaceStore()!;
    await assert.rejects(store.create(undefined, ns('a.b')), (err: Error & { code?: number }) => err.code === 422);
    const created = await store.create(undefined, ns('ab'));
    assert.deepEqual((created.spec as { finalizers?: string[] }).finalizers, ['kubernetes']);
  });

  it('looks a provider up by group and resource and lets it wrap the generic strategy', async () => {
    let seen: string | undefined;
    const providers: StorageProviders = new Map([
      [
        storageProviderKey('widgets.example.com', 'widgets'),
        {
          nameValidation: 'PathSegmentName',
          strategy: (base, context) => {
            seen = `${context.definition.group}/${context.definition.plural}`;
            return base;
          },
        },
      ],
    ]);
    const installer = install(providers);
    assert.equal(seen, 'widgets.example.com/widgets');
    const widgets = installer.lookup('widgets.example.com', 'v1', 'widgets')!.store;
    await installer.namespaceStore()!.create(undefined, ns('default'));
    const created = await widgets.create('default', { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'a:b' }, spec: { replicas: 1 } });
    assert.equal(created.metadata.name, 'a:b');
  });
});
