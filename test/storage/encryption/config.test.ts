/** EncryptionConfiguration parsing and kube's value formats of aescbc and aesgcm. */
import assert from 'node:assert/strict';
import { createCipheriv } from 'node:crypto';
import { describe, it } from 'node:test';
import { IDENTITY, newAESCBC, newAESGCM, parseEncryptionConfig } from '../../../runtime/storage/encryption/index.js';

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
