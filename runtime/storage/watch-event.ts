/**
 * Turning log changes into watch events, and filtering them with a predicate the way kube's etcd3
 * watcher does (k8s.io/apiserver/pkg/storage/etcd3/watcher.go, transform):
 * - ADDED / DELETED pass when their object matches.
 * - MODIFIED: old and new match → MODIFIED; only new matches → ADDED; only old matches → DELETED
 *   carrying the old object with resourceVersion set to the change's revision.
 */
import type { KubeObject } from '../api/meta.js';
import type { StorageEvent } from './interface.js';
import { decodeObject } from './objects.js';
import type { LogChange } from './revision-log.js';

/** A fresh event (own copies of the objects) for one log change. */
export function changeToEvent(change: LogChange): StorageEvent {
  const { key, revision } = change;
  const resourceVersion = String(revision);
  if (change.deleted) {
    return {
      type: 'DELETED',
      key,
      object: decodeObject(change.value, revision),
      prevObject: decodeObject(change.value, change.prevRevision),
      resourceVersion,
    };
  }
  if (change.created || change.prevValue === undefined) {
    return { type: 'ADDED', key, object: decodeObject(change.value, revision), resourceVersion };
  }
  const event: StorageEvent = { type: 'MODIFIED', key, object: decodeObject(change.value, revision), resourceVersion };
  const { prevValue, prevRevision } = change;
  return withLazyPrevObject(event, () => decodeObject(prevValue, prevRevision));
}

/**
 * Sets event.prevObject to decode(), decoded on first read: most watchers (the watch cache,
 * watches without a predicate) never look at a modification's previous object.
 */
export function withLazyPrevObject(event: StorageEvent, decode: () => KubeObject): StorageEvent {
  const settle = (value: KubeObject | undefined) => {
    Object.defineProperty(event, 'prevObject', { value, writable: true, enumerable: true, configurable: true });
    return value;
  };
  Object.defineProperty(event, 'prevObject', {
    enumerable: true,
    configurable: true,
    get: () => settle(decode()),
    set: (value: KubeObject | undefined) => settle(value),
  });
  return event;
}

/** The event a watcher with `predicate` sees for `event`, or undefined when it sees nothing. */
export function filterEvent(event: StorageEvent, predicate?: (obj: KubeObject) => boolean): StorageEvent | undefined {
  if (!predicate) return event;
  switch (event.type) {
    case 'ADDED':
    case 'DELETED':
      return predicate(event.object) ? event : undefined;
    case 'MODIFIED': {
      const matches = predicate(event.object);
      const matched = event.prevObject !== undefined && predicate(event.prevObject);
      if (matches && matched) return event;
      if (matches) return { ...event, type: 'ADDED' };
      if (matched) return deletedFromOld(event, event.prevObject as KubeObject);
      return undefined;
    }
    default:
      return assertNever(event.type);
  }
}

function deletedFromOld(event: StorageEvent, old: KubeObject): StorageEvent {
  const object = { ...old, metadata: { ...old.metadata, resourceVersion: event.resourceVersion } };
  return { type: 'DELETED', key: event.key, object, prevObject: old, resourceVersion: event.resourceVersion };
}

function assertNever(x: never): never {
  throw new Error(`unexpected watch event type ${String(x)}`);
}
