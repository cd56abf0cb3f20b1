/** EncryptionConfiguration parsing and kube's value formats of aescbc and aesgcm. */
import assert from 'node:assert/strict';
import { createCipheriv } from 'node:crypto';
import { describe, it } from 'node:test';
import { IDENTITY, encryptingStorage, newAESCBC, newAESGCM, parseEncryptionConfig } from '../../../runtime/storage/encryption/index.js';
import { MemoryStorage } from '../../../runtime/storage/memory.js';

const key = (n: number) => Buffer.alloc(32, n).toString('base64');
const doc = (resources: string, providers: string) => `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: ${resources}\n    providers: ${providers}\n`;

describe('EncryptionConfiguration', () => {
  it('matches resources as kube does: plain core names, resource.group, *. and *.*', () => {
    const c = parseEncryptionConfig(doc('[secrets, widgets.widgets.example.com]', `[{aescbc: {keys: [{name: k, secret: "${key(1)}"}]}}, {identity: {}}]`));
    assert.equal(c.forResource('', 'secrets')!.providers.length, 2);
    assert.equal(c.forResource('widgets.example.com', 'widgets')!.providers[0]!.prefix, 'k8s:enc:aescbc:v1:k:');
    assert.equal(c.forResource('', 'configmaps'), undefined);
    const all = parseEncryptionConfig(doc("['*.*']", '[{identity: {}}]'));
    assert.equal(all.forResource('x.io', 'things')!.providers[0], IDENTITY);
    const core = parseEncryptionConfig(doc("['*.']", '[{identity: {}}]'));
    assert.ok(core.forResource('', 'anything'));
    assert.equal(core.forResource('x.io', 'things'), undefined);
  });

  it('refuses what kube refuses', () => {
    assert.throws(() => parseEncryptionConfig('kind: Other'), /must be EncryptionConfiguration/);
    assert.throws(() => parseEncryptionConfig(doc('[secrets]', `[{aescbc: {keys: [{name: k, secret: "${Buffer.alloc(10).toString('base64')}"}]}}]`)), /secret is not of the expected length, got 10, expected one of \[16 24 32\]/);
    assert.throws(() => parseEncryptionConfig(doc('[secrets]', '[{kms: {name: x}}]')), /Unsupported value: "kms"/);
    assert.throws(() => parseEncryptionConfig(doc('[secrets]', '[{aesgcm: {keys: []}}]')), /at least one key must be provided/);
  });
});

describe('value transformers', () => {
  it('aescbc reads a value in kube\'s format (prefix, IV, PKCS#7 ciphertext) and writes one', () => {
    const k = Buffer.alloc(32, 3);
    const iv = Buffer.alloc(16, 9);
    const cipher = createCipheriv('aes-256-cbc', k, iv);
    const kubeValue = Buffer.concat([Buffer.from('k8s:enc:aescbc:v1:key1:'), iv, cipher.update('{"a":1}'), cipher.final()]);
    const t = newAESCBC('key1', k);
    assert.equal(t.fromStorage(kubeValue, '').toString(), '{"a":1}');
    assert.equal(t.fromStorage(t.toStorage(Buffer.from('x'), ''), '').toString(), 'x');
  });

  it('aesgcm authenticates the storage key', () => {
    const t = newAESGCM('key1', Buffer.alloc(16, 4));
    const sealed = t.toStorage(Buffer.from('secret'), '/registry/core/secrets/a/b');
    assert.ok(sealed.subarray(0, 23).equals(Buffer.from('k8s:enc:aesgcm:v1:key1:')));
    assert.equal(t.fromStorage(sealed, '/registry/core/secrets/a/b').toString(), 'secret');
    assert.throws(() => t.fromStorage(sealed, '/registry/core/secrets/a/c'));
  });
});

describe('encryptingStorage: what a client writes is never taken for a sealed value', () => {
  // A custom resource that keeps unknown fields can carry a top-level "k8s:enc" string, the
  // field the wrapper's envelope uses. kube's identity provider stores such an object as it is and
  // reads it back as it is (a stored value is sealed only if its bytes start with a provider's
  // prefix, which JSON never does); a value that merely carries the field must do the same here,
  // or one user's object would make every LIST of its resource fail.
  const widgets = '/registry/widgets.example.com/widgets/';
  const forged = (name: string, sealed: string) => ({
    apiVersion: 'widgets.example.com/v1',
    kind: 'Widget',
    metadata: { name, namespace: 'ns', uid: `uid-${name}`, creationTimestamp: '2026-11-28T00:00:00Z' },
    'k8s:enc': sealed,
  });
  const aesgcm = `{aesgcm: {keys: [{name: key1, secret: "${key(3)}"}]}}`;
  const cases: [string, string][] = [
    ['garbage', 'not base64 of anything'],
    ['a real provider prefix', Buffer.from('k8s:enc:aesgcm:v1:key1:0123456789abcdef0123456789abcdef').toString('base64')],
  ];

  it('identity first (kube\'s decrypt step): stored as written, read as written, and LIST still works', async () => {
    const backend = new MemoryStorage();
    const storage = encryptingStorage(backend, parseEncryptionConfig(doc("['widgets.widgets.example.com']", `[{identity: {}}, ${aesgcm}]`)));
    for (const [name, sealed] of cases) {
      const obj = forged(name.replace(/ /g, '-'), sealed);
      await storage.create(`${widgets}ns/${obj.metadata.name}`, obj);
      const read = await storage.get(`${widgets}ns/${obj.metadata.name}`);
      assert.equal(read?.['k8s:enc'], sealed, name);
    }
    const list = await storage.getList(widgets);
    assert.equal(list.items.length, 2);
    await backend.close();
  });

  it('a plain value written before encryption was configured reads through identity as written', async () => {
    const backend = new MemoryStorage();
    for (const [name, sealed] of cases) {
      const obj = forged(name.replace(/ /g, '-'), sealed);
      await backend.create(`${widgets}ns/${obj.metadata.name}`, obj);
    }
    const storage = encryptingStorage(backend, parseEncryptionConfig(doc("['widgets.widgets.example.com']", `[${aesgcm}, {identity: {}}]`)));
    const list = await storage.getList(widgets);
    assert.deepEqual(list.items.map((o) => o['k8s:enc']).sort(), cases.map(([, sealed]) => sealed).sort());
    // Without identity, kube refuses to read plaintext; so does kgen.
    const strict = encryptingStorage(backend, parseEncryptionConfig(doc("['widgets.widgets.example.com']", `[${aesgcm}]`)));
    await assert.rejects(strict.get(`${widgets}ns/garbage`), /no matching prefix found/);
    await backend.close();
  });
});
