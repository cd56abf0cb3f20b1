import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StorageError } from '../../runtime/storage/interface.js';
import { namespacePrefix, objectKey, resourcePrefix } from '../../runtime/storage/keys.js';

describe('storage keys', () => {
  it('build resource prefixes under /registry, the core group spelled "core"', () => {
    assert.equal(resourcePrefix('', 'configmaps'), '/registry/core/configmaps/');
    assert.equal(resourcePrefix('example.com', 'widgets'), '/registry/example.com/widgets/');
    assert.equal(resourcePrefix('example.com', 'widgets', '/kgen'), '/kgen/example.com/widgets/');
    assert.equal(resourcePrefix('example.com', 'widgets', '/kgen/'), '/kgen/example.com/widgets/');
  });

  it('build namespaced and cluster-scoped object keys', () => {
    const prefix = resourcePrefix('example.com', 'widgets');
    assert.equal(namespacePrefix(prefix, 'ns1'), '/registry/example.com/widgets/ns1/');
    assert.equal(objectKey(prefix, 'ns1', 'a'), '/registry/example.com/widgets/ns1/a');
    assert.equal(objectKey(prefix, undefined, 'a'), '/registry/example.com/widgets/a');
  });

  for (const name of ['', '.', '..', 'a/b', 'a%2F']) {
    it(`reject the name ${JSON.stringify(name)} as InvalidObject`, () => {
      assert.throws(
        () => objectKey('/registry/core/pods/', 'ns', name),
        (err: unknown) => err instanceof StorageError && err.code === 'InvalidObject',
      );
    });
  }

  it('reject an empty namespace (undefined means cluster-scoped)', () => {
    assert.throws(() => objectKey('/registry/core/pods/', '', 'a'), StorageError);
  });
});
