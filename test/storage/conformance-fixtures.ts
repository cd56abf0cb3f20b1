/** Shared fixtures of the storage conformance suite. */
import assert from 'node:assert/strict';
import type { KubeObject } from '../../runtime/api/meta.js';
import { StorageError, type StorageErrorCode } from '../../runtime/storage/interface.js';

export const PREFIX = '/registry/example.com/widgets/';

export function key(ns: string, name: string): string {
  return `${PREFIX}${ns}/${name}`;
}

export function widget(name: string, spec: Record<string, unknown> = {}, labels?: Record<string, string>): KubeObject {
  const metadata: KubeObject['metadata'] = { name, namespace: 'ns1', uid: `uid-${name}` };
  if (labels) metadata.labels = labels;
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata, spec };
}

export async function rejectsWith(p: Promise<unknown>, code: StorageErrorCode): Promise<StorageError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof StorageError, `expected StorageError(${code}), got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    return err;
  }
  assert.fail(`expected StorageError(${code}), but it resolved`);
}

export function names(items: KubeObject[]): string[] {
  return items.map((o) => o.metadata.name ?? '');
}

export const isRed = (o: KubeObject) => o.metadata.labels?.color === 'red';

/** Mutates a read object: allowed on a copy, refused (TypeError) on a frozen shared one (a watch cache's). */
export function mutateOrRefuse(obj: KubeObject, mutate: (o: KubeObject) => void): void {
  if (Object.isFrozen(obj)) assert.throws(() => mutate(obj), TypeError);
  else mutate(obj);
}
