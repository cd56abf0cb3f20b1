/**
 * kube-system/extension-apiserver-authentication as the server publishes it where ConfigMap is
 * served: kube's keys and JSON lists, created once, updated when the values change, and read
 * back by an aggregated server's lookup into the same request-header settings.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { statusError } from '../../runtime/api/status.js';
import type { Store } from '../../runtime/registry/store.js';
import { authenticationConfigMapData, publishAuthenticationConfigMap } from '../../runtime/controlplane/authentication-configmap.js';

/** The three Store calls the publisher makes, over a map, counting writes. */
function fakeStore() {
  const objects = new Map<string, KubeObject>();
  const writes: string[] = [];
  const store = {
    async get(ns: string, name: string) {
      const o = objects.get(`${ns}/${name}`);
      if (!o) throw statusError('NotFound', `configmaps "${name}" not found`);
      return structuredClone(o);
    },
    async create(ns: string, obj: KubeObject) {
      writes.push('create');
      objects.set(`${ns}/${obj.metadata.name}`, structuredClone(obj));
      return obj;
    },
    async update(ns: string, name: string, info: { updatedObject(current: KubeObject): KubeObject }) {
      writes.push('update');
      const next = info.updatedObject(structuredClone(objects.get(`${ns}/${name}`)!));
      objects.set(`${ns}/${name}`, next);
      return { object: next, created: false };
    },
  };
  return { store: store as unknown as Store, objects, writes };
}

describe('the extension-apiserver-authentication ConfigMap', () => {
  const data = authenticationConfigMapData('CLIENT-CA', { clientCA: 'PROXY-CA', allowedNames: ['front-proxy-client'] });

  it('holds kube\'s keys, with the header lists as JSON arrays', () => {
    assert.deepEqual(data, {
      'client-ca-file': 'CLIENT-CA',
      'requestheader-allowed-names': '["front-proxy-client"]',
      'requestheader-client-ca-file': 'PROXY-CA',
      'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
      'requestheader-group-headers': '["X-Remote-Group"]',
      'requestheader-uid-headers': '["X-Remote-Uid"]',
      'requestheader-username-headers': '["X-Remote-User"]',
    });
  });

  it('is created in kube-system, left alone when current, and updated when the values change', async () => {
    const { store, objects, writes } = fakeStore();
    await publishAuthenticationConfigMap(store, data);
    const cm = objects.get('kube-system/extension-apiserver-authentication')!;
    assert.equal(cm.kind, 'ConfigMap');
    assert.deepEqual(cm.data, data);
    await publishAuthenticationConfigMap(store, data);
    assert.deepEqual(writes, ['create']);
    const rotated = authenticationConfigMapData('NEW-CA', { clientCA: 'PROXY-CA', allowedNames: [] });
    await publishAuthenticationConfigMap(store, rotated);
    assert.deepEqual(writes, ['create', 'update']);
    assert.equal((objects.get('kube-system/extension-apiserver-authentication')!.data as Record<string, string>)['client-ca-file'], 'NEW-CA');
  });
});
