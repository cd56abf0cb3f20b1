/**
 * --runtime-config parsing and precedence (kube's resourceconfig rules), --enable/--disable-
 * admission-plugins, and --feature-gates: their kube error messages, and the gates' effect on
 * the watch cache (ConsistentListFromCache).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enabledAdmissionPlugins } from '../../runtime/admission/plugins.js';
import { featureEnabled, setFeatureGates } from '../../runtime/api/features.js';
import { APIEnablement, parseRuntimeConfig } from '../../runtime/server/api-enablement.js';
import { Cacher } from '../../runtime/storage/cacher/index.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { countingProxy } from '../storage/cacher-helpers.js';
import { key, PREFIX, widget } from '../storage/conformance-fixtures.js';

const enablement = (...values: string[]) => new APIEnablement(parseRuntimeConfig(values));

describe('--runtime-config', () => {
  it('applies api/all, then the stability keys, then explicit group/versions', () => {
    const e = enablement('api/all=false,api/beta=true', 'widgets.example.com/v1beta1=false', 'apps.example.com/v1');
    assert.equal(e.enabled('widgets.example.com', 'v1'), false, 'api/all=false');
    assert.equal(e.enabled('other.example.com', 'v2beta3'), true, 'api/beta=true');
    assert.equal(e.enabled('widgets.example.com', 'v1beta1'), false, 'explicit wins over api/beta');
    assert.equal(e.enabled('apps.example.com', 'v1'), true, 'a bare key means true');
    assert.equal(e.enabled('', 'v1'), true, 'the core group is never turned off by api/all');
    assert.equal(e.enabled('apiextensions.k8s.io', 'v1'), true);
    assert.equal(enablement('api/alpha=false').enabled('x.example.com', 'v1alpha1'), false);
    assert.equal(enablement('api/ga=false').enabled('x.example.com', 'v1beta1'), true);
  });

  it("refuses what kube refuses, with kube's messages", () => {
    assert.throws(() => enablement('api/all=false'), /^Error: invalid runtime-config with only api\/all=false$/);
    assert.throws(() => enablement('api/all=maybe'), /^Error: invalid value api\/all=maybe$/);
    assert.throws(() => enablement('x.example.com/v1=maybe'), /invalid value of x\.example\.com\/v1: maybe, err: strconv\.ParseBool/);
    assert.throws(() => enablement('a/b/c/d=false'), /runtime-config invalid key a\/b\/c\/d/);
    assert.throws(() => enablement('x.example.com/notaversion=false'), /runtime-config invalid key x\.example\.com\/notaversion/);
    assert.throws(() => enablement('x.example.com/v1/widgets=false'), /disabling single resources is not supported/);
    assert.throws(() => enablement('v1=false'), /runtime-config v1=false: the core group v1 cannot be disabled/);
    assert.throws(() => enablement('apiextensions.k8s.io/v1=false'), /cannot be disabled: kgen's server needs it/);
  });
});

describe('--enable-admission-plugins / --disable-admission-plugins', () => {
  it("turns kgen's plugins off and refuses unknown or contradictory names", () => {
    assert.deepEqual([...enabledAdmissionPlugins()], ['NamespaceLifecycle', 'MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook']);
    assert.deepEqual([...enabledAdmissionPlugins([], ['NamespaceLifecycle'])], ['MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook']);
    assert.throws(() => enabledAdmissionPlugins(['NodeRestriction']), /enable-admission-plugins plugin "NodeRestriction" is unknown \(kgen's admission plugins: /);
    assert.throws(() => enabledAdmissionPlugins(['NamespaceLifecycle'], ['NamespaceLifecycle']), /NamespaceLifecycle in enable-admission-plugins and disable-admission-plugins overlapped/);
  });
});

describe('--feature-gates', () => {
  it("parses kube's form and refuses unknown gates and non-booleans", () => {
    try {
      setFeatureGates(['CRDValidationRatcheting=false', 'ConsistentListFromCache=true']);
      assert.equal(featureEnabled('CRDValidationRatcheting'), false);
      assert.equal(featureEnabled('ConsistentListFromCache'), true);
      assert.throws(() => setFeatureGates(['Nope=true']), /^Error: unrecognized feature gate: Nope$/);
      assert.throws(() => setFeatureGates(['ConsistentListFromCache=maybe']), /invalid value of ConsistentListFromCache=maybe/);
      assert.throws(() => setFeatureGates(['ConsistentListFromCache']), /missing bool value for ConsistentListFromCache/);
    } finally {
      setFeatureGates([]);
    }
  });

  it('ConsistentListFromCache=false sends lists without resourceVersion to storage', async () => {
    const backend = new MemoryStorage();
    const proxy = countingProxy(backend);
    const cacher = new Cacher(proxy.storage, { prefix: PREFIX });
    try {
      await backend.create(key('ns1', 'a'), widget('a'));
      await cacher.getList(PREFIX);
      proxy.reset();
      await cacher.getList(PREFIX);
      assert.equal(proxy.calls.getList ?? 0, 0, 'served from the cache by default');
      setFeatureGates(['ConsistentListFromCache=false']);
      const list = await cacher.getList(PREFIX);
      assert.equal(proxy.calls.getList, 1, 'served from storage with the gate off');
      assert.deepEqual(list.items.map((o) => o.metadata.name), ['a']);
    } finally {
      setFeatureGates([]);
      await cacher.close();
      await backend.close();
    }
  });
});
