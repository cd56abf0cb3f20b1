/**
 * Shared by the deletion and controller tests: the fixture API (test/fixtures/server-apis)
 * installed over a given storage exactly as the server installs it, object builders, and a
 * polling helper for asynchronous controller work.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { KubeObject, OwnerReference, WatchEvent } from '../../runtime/api/meta.js';
import { StatusError } from '../../runtime/api/status.js';
import { ensureSystemNamespaces } from '../../runtime/registry/namespaces.js';
import type { Store, StoreWatch } from '../../runtime/registry/store.js';
import { APIInstaller } from '../../runtime/server/installer.js';
import type { Storage } from '../../runtime/storage/interface.js';
import { FIXTURE_DIR } from '../server/testserver.js';
import { controlPlaneStorageProviders } from '../../runtime/controlplane/storage-providers.js';

export interface FixtureAPIs {
  installer: APIInstaller;
  widgets: Store;
  gadgets: Store;
  namespaces: Store;
}

const generated = (await import(pathToFileURL(join(FIXTURE_DIR, 'index.ts')).href)) as { installAll(i: APIInstaller): void };

export async function installFixture(storage: Storage): Promise<FixtureAPIs> {
  const installer = new APIInstaller({ generatedDir: FIXTURE_DIR, storage, storageProviders: controlPlaneStorageProviders() });
  generated.installAll(installer);
  const scope = (group: string, resource: string) => installer.lookup(group, 'v1', resource)!;
  const namespaces = scope('', 'namespaces').store;
  await ensureSystemNamespaces(namespaces);
  return { installer, widgets: scope('widgets.example.com', 'widgets').store, gadgets: scope('widgets.example.com', 'gadgets').store, namespaces };
}

export function W(name: string, meta: Partial<KubeObject['metadata']> = {}): KubeObject {
  return { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name, ...meta }, spec: { replicas: 1 } };
}

export function G(name: string, meta: Partial<KubeObject['metadata']> = {}): KubeObject {
  return { apiVersion: 'widgets.example.com/v1', kind: 'Gadget', metadata: { name, ...meta }, spec: { size: 'small' } };
}

export function NS(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

export function ownerRef(owner: KubeObject, extra: Partial<OwnerReference> = {}): OwnerReference {
  return { apiVersion: owner.apiVersion!, kind: owner.kind!, name: owner.metadata.name!, uid: owner.metadata.uid!, ...extra };
}

/** The object, or undefined when the store answers 404. */
export async function getOrNone(store: Store, namespace: string | undefined, name: string): Promise<KubeObject | undefined> {
  try {
    return await store.get(namespace, name);
  } catch (err) {
    if (err instanceof StatusError && err.code === 404) return undefined;
    throw err;
  }
}

/** Polls `check` until it returns a truthy value or the timeout passes. */
export async function eventually<T>(check: () => Promise<T> | T, what: string, timeoutMs = 5000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export async function rejectsWith(p: Promise<unknown>, code: number, reason: string, message?: RegExp): Promise<StatusError> {
  let caught: StatusError | undefined;
  await assert.rejects(p, (err) => {
    assert.ok(err instanceof StatusError, `expected a StatusError, got ${String(err)}`);
    assert.equal(err.status.code, code, err.status.message);
    assert.equal(err.status.reason, reason);
    if (message) assert.match(err.status.message ?? '', message);
    caught = err;
    return true;
  });
  return caught!;
}

/** A Store stand-in serving list/watch from a script: what an informer uses of a store. */
export function scriptedStore(lists: KubeObject[][], watches: WatchEvent[][]): Store {
  let listCalls = 0;
  let watchCalls = 0;
  const store = {
    definition: { group: 'widgets.example.com', version: 'v1', kind: 'Widget', plural: 'widgets' },
    namespaceScoped: true,
    async list() {
      const items = lists[Math.min(listCalls++, lists.length - 1)]!;
      return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: String(10 * listCalls) }, items };
    },
    watch(): StoreWatch {
      const events = watches[watchCalls++] ?? [];
      let stopped = false;
      let wake: (() => void) | undefined;
      async function* gen(): AsyncGenerator<WatchEvent> {
        for (const e of events) yield e;
        while (!stopped) await new Promise<void>((r) => (wake = r));
      }
      const it = gen();
      return {
        [Symbol.asyncIterator]: () => it,
        stop() {
          stopped = true;
          wake?.();
        },
      };
    },
  };
  return store as unknown as Store;
}

/** A broken watch whose relist is held: see breakWatch. */
export interface HeldRelist {
  /** The informer asked for its first page. */
  readonly relisting: boolean;
  /** The informer's last page came back. */
  readonly relisted: boolean;
  /** Lets the informer's pages through. */
  release(): void;
  /** Puts the store's own list back. */
  restore(): void;
}

/**
 * Ends the watch of `store` by its informer and holds the relist that follows until `release()`:
 * what changes meanwhile reaches the informer only through the relist (a watch broken for a
 * while, as after a 410 or a storage hiccup). Only the informer's pages (a limit set) wait; the
 * controllers' own lists go through.
 */
export function breakWatch(informer: object, store: Store): HeldRelist {
  const own = store as unknown as { list: Store['list'] };
  const list = store.list;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const held = { relisting: false, relisted: false, release, restore: () => void delete (own as { list?: unknown }).list };
  own.list = async (...args: Parameters<Store['list']>) => {
    if (args[1]?.limit === undefined) return list.apply(store, args);
    held.relisting = true;
    await gate;
    const out = await list.apply(store, args);
    if (!out.metadata.continue) held.relisted = true;
    return out;
  };
  (informer as { watch: { stop(): void } }).watch.stop();
  return held;
}
